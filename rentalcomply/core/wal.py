"""SQLite's WAL checkpoints taken by a thread beside the writers, instead of inside their commits.

A long-running process (`serve`, `worker`) runs `checkpoints_in_background()`: a thread copies
what is committed from the log into the database file every BACKGROUND_CHECKPOINT_SECONDS, and
the connections opened after it started checkpoint by themselves only past BACKSTOP_PAGES (40 MB
of log, should that thread fall behind or stop). SQLite's own rule (a commit that leaves the log
over 1,000 pages checkpoints it) made one API write in fifty take 8-10 ms instead of 2
(bench/api_throughput.py: the mean of POST /bookings fell by a tenth, its p99 from 9 ms to 2.5).
A PASSIVE checkpoint waits for no reader and no writer; the thread's time is in SQLite's copy
and its file syncs, with the interpreter lock let go, so the requests go on meanwhile.

Bulk runs go further (`checkpoints_beside`): in a first sync of 200 feeds, checkpoints were half
of each commit's time (bench/sync.py), inside the write turn every other writer waits on. The
run's threads turn them off on their own connections (`no_checkpoints_in_this_thread`), and a
thread beside them checkpoints every CHECKPOINT_SECONDS and once more at the end, so that the
run's end finds everything in the database file. PostgreSQL has nothing of the kind to do.
"""

from __future__ import annotations

import contextlib
import logging
import threading
from typing import Callable

import peewee

from rentalcomply.core.db import db, one_writer_at_a_time

log = logging.getLogger(__name__)

CHECKPOINT_SECONDS = 0.25
BACKGROUND_CHECKPOINT_SECONDS = 0.1
# SQLite's default threshold, and the one left to connections while a thread checkpoints.
SQLITE_DEFAULT_PAGES = 1000
BACKSTOP_PAGES = 10_000


def checkpoints_in_background() -> Callable[[], None]:
    """Start the process's checkpointing thread (SQLite only); returns what stops it.

    Connections opened from now on take BACKSTOP_PAGES as their own threshold (peewee applies a
    permanent pragma to each new connection); this thread's connection is one of them. Stopped,
    new connections are back to SQLite's default."""
    if not one_writer_at_a_time():
        return lambda: None
    db.pragma("wal_autocheckpoint", BACKSTOP_PAGES, permanent=True)
    stop = threading.Event()
    thread = threading.Thread(target=_checkpoint_until, args=(stop, BACKGROUND_CHECKPOINT_SECONDS),
                              name="wal-checkpoints", daemon=True)
    thread.start()

    def stop_checkpoints() -> None:
        stop.set()
        thread.join()
        if one_writer_at_a_time():  # still SQLite (tests may have moved the proxy meanwhile)
            db.pragma("wal_autocheckpoint", SQLITE_DEFAULT_PAGES, permanent=True)

    return stop_checkpoints


@contextlib.contextmanager
def checkpoints_beside():
    """For the duration: a thread that checkpoints the WAL (SQLite only)."""
    if not one_writer_at_a_time():
        yield
        return
    stop = threading.Event()
    thread = threading.Thread(target=_checkpoint_until, args=(stop, CHECKPOINT_SECONDS),
                              name="wal-checkpoints", daemon=True)
    thread.start()
    try:
        yield
    finally:
        stop.set()
        thread.join()


def no_checkpoints_in_this_thread() -> None:
    """This thread's connection leaves checkpoints to `checkpoints_beside` (until it is closed:
    a new connection checkpoints as SQLite does by default)."""
    if one_writer_at_a_time():
        db.execute_sql("PRAGMA wal_autocheckpoint=0")


def _checkpoint_until(stop: threading.Event, seconds: float) -> None:
    """Checkpoint every `seconds` until `stop` is set, and once more then."""
    try:
        while not stop.wait(seconds):
            _checkpoint()
        _checkpoint()
    finally:
        db.close()  # this thread's connection


def _checkpoint() -> None:
    try:
        db.execute_sql("PRAGMA wal_checkpoint(PASSIVE)")
    except peewee.OperationalError as exc:  # busy, or the file gone at shutdown: the next one
        log.debug("WAL checkpoint skipped: %s", exc)
