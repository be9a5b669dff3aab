"""Where the running server listens, recorded in the data directory for the other commands.

Without server.public_url the links a command prints (`init`, `demo`, `users create`) are made
from server.host and server.port; a server started with `serve --port 18080` listens elsewhere,
and such links would lead nowhere. So `serve` records the address it actually listens on, and
whether it is running, in `server.json`; the commands use that address while no public_url is
configured, and `doctor` checks that something answers there.
"""

from __future__ import annotations

import json
import os
from pathlib import Path

RECORD_FILE = "server.json"
# The unspecified addresses are reached through the loopback one, as config.py shows them.
UNSPECIFIED_HOSTS = ("0.0.0.0", "[::]", "")


def _path(data_dir) -> Path:
    return Path(data_dir) / RECORD_FILE


def reachable(url: str) -> str:
    """The URL with an unspecified listening address (0.0.0.0, ::) replaced by the loopback."""
    scheme, _, rest = url.partition("://")
    host, _, port = rest.rpartition(":")
    return f"{scheme}://127.0.0.1:{port}" if host in UNSPECIFIED_HOSTS else url


def record_start(data_dir, url: str) -> None:
    _write(data_dir, {"url": reachable(url), "pid": os.getpid(), "running": True})


def record_stop(data_dir) -> None:
    """A clean stop: the address stays (the next start is likely the same), marked not running."""
    record = recorded(data_dir)
    if record is not None and record.get("pid") == os.getpid():
        _write(data_dir, {**record, "running": False})


def recorded(data_dir) -> dict | None:
    """{"url", "pid", "running"} of the last server started on this data directory, or None."""
    try:
        record = json.loads(_path(data_dir).read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return None
    return record if isinstance(record, dict) and isinstance(record.get("url"), str) else None


def use_recorded_address(settings):
    """Links lead where the server last listened, unless server.public_url says otherwise."""
    record = recorded(settings.data_dir)
    if record is not None and getattr(settings.server, "public_url_derived", False):
        settings.server.public_url = record["url"].rstrip("/")
    return settings


def _write(data_dir, record: dict) -> None:
    path = _path(data_dir)
    partial = path.with_name(path.name + ".partial")
    try:
        partial.write_text(json.dumps(record), encoding="utf-8")
        os.replace(partial, path)
    except OSError:
        pass  # a read-only data directory only costs the commands their links' port
