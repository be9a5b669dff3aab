"""Rendered answers of hot GET routes, kept per process against the account's change version.

A route declared `cached=True` shows only rows of the tables whose every change bumps
`account_change.version` for their account in the same transaction (database triggers, migration
0017: bookings, properties, channel connections, police settings). Each request reads that version
first — one primary-key lookup — and then either answers the bytes rendered for the same account,
route, arguments and version, or renders them and keeps them. The version is read BEFORE the rows:
a page is thus never kept under a version newer than the rows it shows, and a change committed by
any process (several servers on one PostgreSQL included) is seen by the very next request.

Every cached answer carries a strong ETag (a hash of its body); a client that sends it back in
If-None-Match gets 304 Not Modified without a body.
"""

from __future__ import annotations

import hashlib
import threading
from collections import OrderedDict

from rentalcomply.core.commits import committed_read
from rentalcomply.core.db import db

# Bytes of rendered bodies kept per process; the least recently used go first.
MAX_BYTES = 32 * 1024 * 1024

_lock = threading.Lock()
_entries: OrderedDict[tuple, tuple[int, bytes, str]] = OrderedDict()
_size = 0


def account_version(account_id: str) -> int:
    """The account's change version as committed now; 0 before its first change. Read from
    memory while nothing at all was committed since it was last read (core/commits.py)."""
    return committed_read(("account-version", account_id), lambda: _read_version(account_id))


def _read_version(account_id: str) -> int:
    row = db.execute_sql(f"SELECT version FROM account_change WHERE account_id = {db.param}",
                         (account_id,)).fetchone()
    return row[0] if row else 0


def etag_of(body: bytes) -> str:
    return '"' + hashlib.blake2b(body, digest_size=12).hexdigest() + '"'


def get(key: tuple, version: int) -> tuple[bytes, str] | None:
    with _lock:
        entry = _entries.get(key)
        if entry is None or entry[0] != version:
            return None
        _entries.move_to_end(key)
        return entry[1], entry[2]


def put(key: tuple, version: int, body: bytes) -> str:
    """Keep a rendered body; returns its ETag."""
    global _size
    etag = etag_of(body)
    if len(body) > MAX_BYTES // 8:
        return etag
    with _lock:
        old = _entries.pop(key, None)
        if old is not None:
            _size -= len(old[1])
        _entries[key] = (version, body, etag)
        _size += len(body)
        while _size > MAX_BYTES and _entries:
            _, (_, dropped, _) = _entries.popitem(last=False)
            _size -= len(dropped)
    return etag


def clear() -> None:
    global _size
    with _lock:
        _entries.clear()
        _size = 0


def matches(if_none_match: str | None, etag: str) -> bool:
    """Whether an If-None-Match header names this ETag (weak comparison, as RFC 9110 asks)."""
    if not if_none_match:
        return False
    if if_none_match.strip() == "*":
        return True
    bare = etag.removeprefix("W/")
    return any(candidate.strip().removeprefix("W/") == bare
               for candidate in if_none_match.split(","))
