"""Small reads of committed state, answered from memory until anything commits to the database.

Every API request reads two one-row values before it is answered: the key-change marker (is the
cached key record still good?) and, for a kept answer, the account's change version. Each is a
primary-key read, but under load it was the costliest part of a kept answer: every sqlite3 call
lets go of the interpreter lock, and with several Waitress threads each release is a hand-over to
another thread and a wait to get it back (bench/api_throughput.py: the two reads cost a third of
the throughput of a kept GET).

On SQLite in WAL mode (always ours) every commit, by any connection of any process, rewrites the
WAL-index header at the start of the `-shm` file, which every connection maps as shared memory: a
transaction counter, the last valid frame and the WAL's salts (https://sqlite.org/walformat.html,
"the WAL-index header"; SQLite keeps two copies and a writer updates both before its commit
returns). This module maps that header read-only and keeps each value read through
`committed_read` under the header it saw: while the header is unchanged, nothing was committed
anywhere since, so the value read then is still the committed one. Reading the header is a memory
compare, with no system call and no hand-over.

Order matters, as for the answer cache: the header is read BEFORE the value, so a value is never
kept under a header older than the state it shows, and a commit that returned before a request
began changes the header that request reads. A header caught mid-update (its two copies differ)
counts as unknown: the value is read from the database.

The mapping stays valid because this process keeps one idle connection of its own to the
database (the anchor): while it is open, SQLite neither truncates nor removes the `-shm` file, and
no other process can take the database out of WAL mode (it gets "database is locked"). The
descriptor the mapping came from is never closed while the database is in use (see _Watch).
PostgreSQL, and SQLite where the file cannot be mapped, simply read every time.
"""

from __future__ import annotations

import logging
import mmap
import os
import sqlite3
import threading
from typing import Any, Callable

import peewee

from rentalcomply.core.db import db

log = logging.getLogger(__name__)

# The WAL-index header: two copies of 48 bytes; byte 12 of a copy is isInit.
_HEADER_COPY = 48
_IS_INIT = 12


class _Watch:
    """The mapped WAL-index header of one database, and the anchor connection that keeps it."""

    def __init__(self, database: peewee.Database | None, previous: "_Watch | None" = None):
        self.database = database
        self.path: str | None = None
        self.header: mmap.mmap | None = None
        self.anchor: sqlite3.Connection | None = None
        self.descriptor: int | None = None
        if not isinstance(database, peewee.SqliteDatabase) or os.name != "posix":
            return
        path = database.database
        if not path or path == ":memory:" or path.startswith("file:"):
            return
        self.path = path
        if previous is not None and previous.path == path and previous.header is not None:
            # The same file under a new database object: keep what watches it (see below why
            # its descriptor is never closed while the file is in use).
            self.header, self.anchor, self.descriptor = \
                previous.header, previous.anchor, previous.descriptor
            previous.header = previous.anchor = previous.descriptor = None
            return
        try:
            self.anchor = sqlite3.connect(path, check_same_thread=False, timeout=5,
                                          isolation_level=None)
            mode = self.anchor.execute("PRAGMA journal_mode").fetchall()[0][0]
            if str(mode).lower() != "wal":
                self.anchor.close()
                self.anchor = None
                return
            # A read opens the WAL index (and so the -shm file) for this connection, which keeps
            # it open, and so in place, for as long as the connection lives. Read to the end, so
            # that it holds no read transaction (which would hold back checkpoints).
            self.anchor.execute("SELECT COUNT(*) FROM sqlite_master").fetchall()
            # Never closed while the process uses this database: closing any descriptor of a
            # file drops every POSIX lock the process holds on it, SQLite's own lock on the -shm
            # file included, and another process opening the database would then take the file
            # for new and reset it under every mapping of it (a bus error inside SQLite). The
            # mapping keeps a duplicate of the descriptor, which counts the same.
            self.descriptor = os.open(path + "-shm", os.O_RDONLY)
            if os.fstat(self.descriptor).st_size >= 2 * _HEADER_COPY:
                self.header = mmap.mmap(self.descriptor, 2 * _HEADER_COPY,
                                        access=mmap.ACCESS_READ)
        except (OSError, sqlite3.Error, ValueError) as exc:
            # Whatever was opened stays open (see above); every committed read asks the database.
            log.debug("WAL-index header not mapped (%s): every committed read goes to the database",
                      exc)
            self.header = None

    def token(self) -> bytes | None:
        header = self.header
        if header is None:
            return None
        try:
            both = header[:2 * _HEADER_COPY]
        except ValueError:  # closed by another thread moving to a new database
            return None
        first = both[:_HEADER_COPY]
        if first != both[_HEADER_COPY:] or first[_IS_INIT] != 1:
            return None  # a commit writing it now, or not set up yet: ask the database
        return first

    def close(self) -> None:
        """Let go of a database file this process no longer uses (it moved to another one)."""
        if self.header is not None:
            self.header.close()
            self.header = None
        if self.descriptor is not None:
            os.close(self.descriptor)
            self.descriptor = None
        if self.anchor is not None:
            self.anchor.close()
            self.anchor = None


_lock = threading.Lock()
_watch = _Watch(None)
# (database, header, {what: value}): the values read while the database showed that header.
_memo: tuple[Any, bytes | None, dict] = (None, None, {})


def _current_watch() -> _Watch:
    global _watch
    database = db.obj
    watch = _watch
    if watch.database is database:
        return watch
    with _lock:
        if _watch.database is not database:
            old, _watch = _watch, _Watch(database, previous=_watch)
            old.close()
        return _watch


def commit_token() -> bytes | None:
    """What changes with every commit to the database by anyone; None when not known."""
    return _current_watch().token()


def committed_read(what: tuple, read: Callable[[], Any]) -> Any:
    """`read()` (a read of committed state, outside any transaction of the caller's), or the
    value it gave while nothing has been committed to the database since. `what` names the
    value (and its arguments) among those kept."""
    global _memo
    database = db.obj
    token = _current_watch().token()  # before the read: see the module's docstring
    if token is None:
        return read()
    memo = _memo
    if memo[0] is database and memo[1] == token:
        try:
            return memo[2][what]
        except KeyError:
            pass
    value = read()
    if memo[0] is not database or memo[1] != token:
        memo = _memo = (database, token, {})
    memo[2][what] = value
    return value


def forget() -> None:
    """Drop every kept value (tests; and whoever changes committed state behind SQLite's back)."""
    global _memo
    _memo = (None, None, {})
