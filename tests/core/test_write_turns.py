"""On SQLite, the write transactions of one process take turns on a lock of ours
(core/db.SqliteWithWriteTurns): the next writer goes as soon as the one before commits or rolls
back, never in the middle of it, and one that gets no turn within the busy timeout fails as
SQLite's own lock would ("database is locked": a 503)."""

from __future__ import annotations

import contextlib
import threading
import time

import peewee
import pytest

from rentalcomply.core.db import is_unavailable, open_sqlite


@pytest.fixture
def database(tmp_path):
    database = open_sqlite(tmp_path / "turns.db", timeout=1)
    database.execute_sql("CREATE TABLE line (writer TEXT, at REAL)")
    yield database
    database.close()


def in_a_thread(target, *args) -> threading.Thread:
    thread = threading.Thread(target=target, args=args)
    thread.start()
    return thread


def closing_connection(database):
    return contextlib.closing(database)  # each thread closes its own connection


def test_the_next_writer_begins_only_once_the_one_before_has_committed(database):
    first_in = threading.Event()
    moments = {}

    def first():
        with closing_connection(database):
            with database.atomic():
                database.execute_sql("INSERT INTO line VALUES ('first', 0)")
                first_in.set()
                time.sleep(0.2)  # the second writer is waiting meanwhile
            moments["first committed"] = time.monotonic()

    def second():
        first_in.wait()
        with closing_connection(database):
            with database.atomic():
                moments["second began"] = time.monotonic()
                database.execute_sql("INSERT INTO line VALUES ('second', 0)")

    threads = [in_a_thread(first), in_a_thread(second)]
    for thread in threads:
        thread.join()
    assert moments["second began"] >= moments["first committed"]
    written = [row[0] for row in database.execute_sql("SELECT writer FROM line ORDER BY rowid")]
    assert written == ["first", "second"]


def test_a_rolled_back_writer_hands_its_turn_on(database):
    def fails():
        with closing_connection(database), contextlib.suppress(ValueError):
            with database.atomic():
                database.execute_sql("INSERT INTO line VALUES ('rolled back', 0)")
                raise ValueError("a refusal")

    in_a_thread(fails).join()
    with database.atomic():  # within the busy timeout of 1 s, or this raises
        database.execute_sql("INSERT INTO line VALUES ('next', 0)")
    assert [row[0] for row in database.execute_sql("SELECT writer FROM line")] == ["next"]


def test_a_writer_that_gets_no_turn_within_the_busy_timeout_fails_as_sqlite_would(database):
    holding, release = threading.Event(), threading.Event()

    def holds_its_turn():
        with closing_connection(database):
            with database.atomic():
                database.execute_sql("INSERT INTO line VALUES ('holder', 0)")
                holding.set()
                release.wait(10)

    holder = in_a_thread(holds_its_turn)
    holding.wait()
    started = time.monotonic()
    try:
        with pytest.raises(peewee.OperationalError) as refused:
            with database.atomic():
                database.execute_sql("INSERT INTO line VALUES ('late', 0)")
        waited = time.monotonic() - started
    finally:
        release.set()
        holder.join()
    assert "database is locked" in str(refused.value) and is_unavailable(refused.value)
    assert waited >= 0.9  # the busy timeout, as SQLite's lock would have had it wait
    # Refused before it began: it holds nothing, and the next write goes at once.
    with database.atomic():
        database.execute_sql("INSERT INTO line VALUES ('after', 0)")
    assert [row[0] for row in database.execute_sql("SELECT writer FROM line ORDER BY rowid")] \
        == ["holder", "after"]
