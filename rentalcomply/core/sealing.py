"""Sealing: secrets the appliance must be able to read back, encrypted at rest.

Webhook signing secrets (and, later, guest identity documents) cannot be stored as a hash the way
API keys are: they must be read again. They are sealed with AES-256-GCM (authenticated encryption,
from the `cryptography` package rather than anything home-made) under a key derived with HKDF from
the server secret, one key per purpose, so a copy of the database alone reveals nothing and a value
sealed for one purpose cannot be opened as another. Changing the server secret makes every sealed
value unreadable.
"""

from __future__ import annotations

import base64
import functools
import os

from rentalcomply.core import secrets

# cryptography is imported with the first value sealed or opened, not with this module: its Rust
# bindings take about 6 MiB of memory and 30 ms to load, and a start of the server (which imports
# every capability) seals nothing. The one-file binary's idle memory shows it most.

VERSION = "v1"
NONCE_BYTES = 12


class Unsealable(ValueError):
    """A sealed value cannot be opened: damaged, sealed for another purpose, or the server secret
    changed since it was sealed."""


@functools.lru_cache(maxsize=32)
def _key(server_secret: bytes, purpose: str) -> bytes:
    from cryptography.hazmat.primitives import hashes
    from cryptography.hazmat.primitives.kdf.hkdf import HKDF
    return HKDF(algorithm=hashes.SHA256(), length=32, salt=b"rentalcomply sealing",
                info=purpose.encode("utf-8")).derive(server_secret)


def seal(purpose: str, plaintext: bytes) -> str:
    from cryptography.hazmat.primitives.ciphers.aead import AESGCM
    nonce = os.urandom(NONCE_BYTES)
    sealed = AESGCM(_key(secrets.server_secret(), purpose)).encrypt(
        nonce, plaintext, f"{VERSION}:{purpose}".encode("utf-8"))
    return VERSION + ":" + base64.urlsafe_b64encode(nonce + sealed).decode("ascii")


def unseal(purpose: str, sealed: str) -> bytes:
    version, _, encoded = sealed.partition(":")
    try:
        raw = base64.urlsafe_b64decode(encoded.encode("ascii"))
    except (ValueError, UnicodeEncodeError):
        raise Unsealable("the sealed value is damaged") from None
    if version != VERSION or len(raw) < NONCE_BYTES + 16:
        raise Unsealable("the sealed value is damaged")
    from cryptography.exceptions import InvalidTag
    from cryptography.hazmat.primitives.ciphers.aead import AESGCM
    try:
        return AESGCM(_key(secrets.server_secret(), purpose)).decrypt(
            raw[:NONCE_BYTES], raw[NONCE_BYTES:], f"{VERSION}:{purpose}".encode("utf-8"))
    except InvalidTag:
        raise Unsealable("the sealed value cannot be opened with this server secret") from None
