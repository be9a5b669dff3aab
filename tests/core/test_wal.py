"""On SQLite, WAL checkpoints are taken by a thread beside the writers (core/wal.py): during a
bulk run, the run's threads leave them to a thread that checkpoints everything committed by the
run's end; in a running server, every request's and task's connection leaves them to the
process's thread, which copies what is committed within moments."""

from __future__ import annotations

import contextlib
import sqlite3
import threading
import time

import pytest

from rentalcomply.core import clock
from rentalcomply.core.db import atomic, db, one_writer_at_a_time, sqlite_path
from rentalcomply.core.ids import new_id
from rentalcomply.core.models import Account
from rentalcomply.core.wal import (BACKSTOP_PAGES, checkpoints_beside, checkpoints_in_background,
                                   no_checkpoints_in_this_thread)


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


def autocheckpoint_of_a_new_connection() -> int:
    seen: dict = {}

    def read() -> None:
        try:
            seen["pages"] = db.execute_sql("PRAGMA wal_autocheckpoint").fetchone()[0]
        finally:
            db.close()

    reader = threading.Thread(target=read)
    reader.start()
    reader.join()
    return seen["pages"]


def accounts_in_the_database_file(settings) -> int:
    """Read past the log (immutable=1); 0 while the file is being written into (a torn read
    can find it malformed for a moment)."""
    uri = f"file:{sqlite_path(settings)}?immutable=1"
    try:
        with contextlib.closing(sqlite3.connect(uri, uri=True)) as connection:
            return connection.execute("SELECT COUNT(*) FROM account").fetchone()[0]
    except sqlite3.DatabaseError:
        return 0


def test_a_running_server_checkpoints_in_a_thread_so_that_no_write_of_its_requests_does(settings):
    if not one_writer_at_a_time():
        pytest.skip("SQLite's write-ahead log only")
    db.execute_sql("SELECT 1")  # not the last connection: closing that one checkpoints anyway
    stop_checkpoints = checkpoints_in_background()
    try:
        # Connections opened from now on (a request's thread's) leave checkpoints to the thread,
        # but for a backstop far above SQLite's 1,000 pages.
        assert autocheckpoint_of_a_new_connection() == BACKSTOP_PAGES > 1000
        for _ in range(300):
            with atomic():
                Account.create(id=new_id("acc"), name="Agency " * 20, created_at=clock.utcnow())
        deadline = time.monotonic() + 10
        while accounts_in_the_database_file(settings) < 300 and time.monotonic() < deadline:
            time.sleep(0.05)
        assert accounts_in_the_database_file(settings) == Account.select().count() >= 300
    finally:
        stop_checkpoints()
    # Stopped: a new connection checkpoints as SQLite does by default.
    assert autocheckpoint_of_a_new_connection() == 1000
