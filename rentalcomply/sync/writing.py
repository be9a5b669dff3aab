"""How the sync writes: one write transaction at a time among this process's threads, and the
webhook dispatcher woken once the change is committed (once per run of many connections)."""

from __future__ import annotations

import contextlib
import threading

from rentalcomply.core import events
from rentalcomply.core.db import atomic, db

# SQLite writes one transaction at a time anyway; within a process, the sync's threads take turns
# here instead of spinning on the database's busy timeout (which starved some of them at 8
# threads in bench/sync.py). Across processes the lease and the busy timeout still hold.
_writing = threading.RLock()
# How many sync_many runs are under way in this process (they wake the dispatcher at their end).
_runs_under_way = 0
_runs_lock = threading.Lock()


def write_turn():
    """One write transaction of the sync, taking its turn among this process's threads."""
    return _WriteTurn()


class _WriteTurn:
    def __enter__(self):
        _writing.acquire()
        self._transaction = atomic()
        try:
            return self._transaction.__enter__()
        except BaseException:
            _writing.release()
            raise

    def __exit__(self, *exc_info):
        try:
            return self._transaction.__exit__(*exc_info)
        finally:
            _writing.release()


@contextlib.contextmanager
def run_under_way():
    """A run of many connections (sync_many) is under way: the dispatcher waits for its end."""
    global _runs_under_way
    with _runs_lock:
        _runs_under_way += 1
    try:
        yield
    finally:
        with _runs_lock:
            _runs_under_way -= 1


def wake_dispatcher() -> None:
    # Wake the webhook dispatcher once the change is committed; inside a caller's transaction the
    # caller commits, and the periodic sweep of the outbox delivers. During a run of many syncs
    # the run wakes it once at the end (one queue write instead of one per connection).
    if not db.in_transaction() and not _runs_under_way:
        events.notify_committed()
