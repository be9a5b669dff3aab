"""During a bulk run on SQLite, the run's threads leave WAL checkpoints to a thread beside them
(core/wal.py), which checkpoints everything committed by the run's end."""

from __future__ import annotations

import sqlite3
import threading

import pytest

from rentalcomply.core import clock
from rentalcomply.core.db import atomic, db, one_writer_at_a_time, sqlite_path
from rentalcomply.core.ids import new_id
from rentalcomply.core.models import Account
from rentalcomply.core.wal import checkpoints_beside, no_checkpoints_in_this_thread


def write_accounts(count: int, seen: dict) -> None:
    try:
        no_checkpoints_in_this_thread()
        seen["autocheckpoint"] = db.execute_sql("PRAGMA wal_autocheckpoint").fetchone()[0]
        for _ in range(count):
            with atomic():
                Account.create(id=new_id("acc"), name="Agency " * 20, created_at=clock.utcnow())
    finally:
        db.close()


def test_a_bulk_runs_threads_leave_checkpoints_to_the_thread_beside_them(settings):
    if not one_writer_at_a_time():
        pytest.skip("SQLite's write-ahead log only")
    seen: dict = {}
    # This thread's connection stays open: the writer's is not the last one when it closes
    # (closing the last one checkpoints the log whatever the setting).
    db.execute_sql("SELECT 1")
    with checkpoints_beside():
        writer = threading.Thread(target=write_accounts, args=(300, seen))
        writer.start()
        writer.join()
    assert seen["autocheckpoint"] == 0
    # The database file itself, read past the log (immutable=1), holds every account written:
    # the thread beside the run copied them there.
    uri = f"file:{sqlite_path(settings)}?immutable=1"
    in_the_file = sqlite3.connect(uri, uri=True).execute("SELECT COUNT(*) FROM account")
    assert in_the_file.fetchone()[0] == Account.select().count() >= 300


def test_other_connections_keep_checkpointing_as_sqlite_does(settings):
    if not one_writer_at_a_time():
        pytest.skip("SQLite's write-ahead log only")
    with checkpoints_beside():
        assert db.execute_sql("PRAGMA wal_autocheckpoint").fetchone()[0] == 1000
