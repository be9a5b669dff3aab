"""SQLite's WAL checkpoints taken beside a bulk run, instead of inside its commits.

A connection checkpoints the WAL itself when one of its commits leaves the log over 1,000 pages:
in a first sync of 200 feeds that was half of each commit's time (bench/sync.py), inside the
write turn every other writer waits on. During a run of many syncs, the run's threads turn that
off on their own connections (`no_checkpoints_in_this_thread`), and a thread beside them
checkpoints every CHECKPOINT_SECONDS and once more at the end. PASSIVE: it waits for no reader
and no writer, and copies what is committed. Every other connection (the API's, the worker's)
keeps checkpointing as before. PostgreSQL has nothing of the kind to do.
"""

from __future__ import annotations

import contextlib
import logging
import threading

import peewee

from rentalcomply.core.db import db, one_writer_at_a_time

log = logging.getLogger(__name__)

CHECKPOINT_SECONDS = 0.25


@contextlib.contextmanager
def checkpoints_beside():
    """For the duration: a thread that checkpoints the WAL (SQLite only)."""
    if not one_writer_at_a_time():
        yield
        return
    stop = threading.Event()

    def checkpoint_until_stopped() -> None:
        try:
            while not stop.wait(CHECKPOINT_SECONDS):
                _checkpoint()
            _checkpoint()
        finally:
            db.close()  # this thread's connection

    thread = threading.Thread(target=checkpoint_until_stopped, name="wal-checkpoints",
                              daemon=True)
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


def _checkpoint() -> None:
    try:
        db.execute_sql("PRAGMA wal_checkpoint(PASSIVE)")
    except peewee.OperationalError as exc:  # busy, or the file gone at shutdown: the next one
        log.debug("WAL checkpoint skipped: %s", exc)
