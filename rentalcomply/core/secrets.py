"""The server secret: keys API key hashes, check-in tokens and signed links.

Generated once into `secret.key` in the data directory (mode 0600) unless `server.secret_key` is
set. Changing it invalidates every API key, check-in link and download link.
"""

from __future__ import annotations

import hashlib
import hmac
import os
import secrets as _random
from pathlib import Path

_server_secret: bytes | None = None
# The key derived for each purpose, kept with the secret it came from: `sign` runs on every API
# request (the key's hash).
_purpose_keys: dict[str, tuple[bytes, bytes]] = {}


def secret_file(data_dir) -> Path:
    return Path(data_dir) / "secret.key"


def load_server_secret(settings, create: bool = True) -> bytes:
    """Read (or create) the server secret and remember it for `sign`."""
    global _server_secret
    if settings.server.secret_key:
        value = settings.server.secret_key
    else:
        path = secret_file(settings.data_dir)
        if not path.exists():
            if not create:
                raise FileNotFoundError(path)
            path.parent.mkdir(parents=True, exist_ok=True)
            # Written whole to a private temporary file, then linked into place: two processes
            # starting at once end up with one secret, and neither can read a half-written file.
            temporary = path.with_name(f".{path.name}.{os.getpid()}.{_random.token_hex(4)}")
            fd = os.open(temporary, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
            with os.fdopen(fd, "w") as handle:
                handle.write(_random.token_hex(32) + "\n")
            try:
                os.link(temporary, path)
            except FileExistsError:
                pass  # another process was first: its secret stands
            finally:
                temporary.unlink()
        value = path.read_text().strip()
    _server_secret = value.encode("utf-8")
    return _server_secret


def set_server_secret(value: bytes) -> None:
    global _server_secret
    _server_secret = value


def server_secret() -> bytes:
    if _server_secret is None:
        raise RuntimeError("the server secret is not loaded; call load_server_secret(settings) first")
    return _server_secret


def sign(purpose: str, message: str | bytes) -> str:
    """Hex HMAC-SHA256 of `message` under the server secret, separated by purpose."""
    if isinstance(message, str):
        message = message.encode("utf-8")
    secret = server_secret()
    kept = _purpose_keys.get(purpose)
    if kept is not None and kept[0] is secret:
        key = kept[1]
    else:
        key = hmac.new(secret, purpose.encode("utf-8"), hashlib.sha256).digest()
        _purpose_keys[purpose] = (secret, key)
    # hmac.new, not the one-shot hmac.digest: that one lets go of the interpreter lock, and under
    # load each such release costs a wait for another thread to hand it back (measured: 1.4 us
    # alone, 540 us beside a busy thread).
    return hmac.new(key, message, hashlib.sha256).hexdigest()
