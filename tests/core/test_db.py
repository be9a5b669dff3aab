"""The database: SQLite settings that make concurrent writes safe, migrations, other engines."""

import sys

import peewee
import pytest

from rentalcomply.core import db as database
from rentalcomply.core.db import db
from tests.conftest import ON_POSTGRES, make_settings

sqlite_only = pytest.mark.skipif(ON_POSTGRES, reason="the SQLite file of the data directory")


@sqlite_only
def test_sqlite_runs_in_wal_mode_with_foreign_keys_and_a_busy_timeout(settings):
    assert db.execute_sql("PRAGMA journal_mode").fetchone()[0] == "wal"
    assert db.execute_sql("PRAGMA foreign_keys").fetchone()[0] == 1
    assert db.execute_sql("PRAGMA busy_timeout").fetchone()[0] == 5000
    assert db.obj._lock_type == "IMMEDIATE"


@sqlite_only
def test_the_database_file_lives_in_the_data_directory(settings):
    assert database.sqlite_path(settings).is_file()
    assert database.sqlite_path(settings).parent == settings.data_dir


def test_migrations_are_recorded_and_not_run_twice(settings):
    applied = [row[0] for row in db.execute_sql("SELECT name FROM schema_migration")]
    assert "0001_initial" in applied
    assert database.run_migrations(db.obj) == []
    assert database.pending_migrations(db.obj) == []


def test_a_postgresql_url_selects_postgresql(tmp_path):
    settings = make_settings(tmp_path, RENTALCOMPLY_DATABASE_URL="postgresql://rc:pw@db.internal/rentalcomply")
    engine = database.make_database(settings)
    assert isinstance(engine, peewee.PostgresqlDatabase)
    assert engine.database == "rentalcomply"


def test_a_postgresql_url_without_its_driver_says_how_to_install_it(tmp_path, monkeypatch):
    monkeypatch.setitem(sys.modules, "psycopg2", None)  # as in the one-file binary
    settings = make_settings(tmp_path, RENTALCOMPLY_DATABASE_URL="postgresql://rc:pw@db.internal/rc")
    with pytest.raises(ValueError, match=r"psycopg2 .*pip install 'rentalcomply\[postgres\]'"):
        database.make_database(settings)


def test_serve_stops_on_a_database_it_cannot_open_with_the_reason(tmp_path, monkeypatch):
    import io
    from rentalcomply import server
    monkeypatch.setitem(sys.modules, "psycopg2", None)
    monkeypatch.setattr(db, "obj", None)  # a fresh process: nothing opened yet
    settings = make_settings(tmp_path, RENTALCOMPLY_DATABASE_URL="postgresql://rc@127.0.0.1:1/rc")
    with pytest.raises(ValueError, match="psycopg2"):
        server.serve(settings, worker=False, out=io.StringIO())


def test_a_sqlite_url_points_at_another_file(tmp_path):
    target = tmp_path / "elsewhere.db"
    settings = make_settings(tmp_path, RENTALCOMPLY_DATABASE_URL=f"sqlite:///{target}")
    engine = database.make_database(settings)
    assert isinstance(engine, peewee.SqliteDatabase) and engine.database == str(target)


@sqlite_only
def test_the_data_directory_and_database_are_private_to_their_owner(settings):
    import stat
    assert stat.S_IMODE(settings.data_dir.stat().st_mode) == 0o700
    assert stat.S_IMODE(database.sqlite_path(settings).stat().st_mode) == 0o600


def test_processes_starting_together_apply_each_migration_once(tmp_path):
    import subprocess
    import sys

    env = {"PATH": "/usr/bin:/bin", "HOME": str(tmp_path), "RENTALCOMPLY_QUEUE_URL": "memory://"}
    command = [sys.executable, "-m", "rentalcomply", "--data-dir", str(tmp_path / "data"), "init"]
    starts = [subprocess.Popen(command, env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                               text=True) for _ in range(4)]
    results = [(start.wait(timeout=60), *start.communicate()) for start in starts]
    assert [code for code, _, _ in results] == [0, 0, 0, 0], results
    # One of them created the first account and printed its key; the others found it.
    assert sum("rc_" in out for _, out, _ in results) == 1


def test_threads_migrating_one_postgresql_database_together_apply_each_migration_once(tmp_path):
    import threading

    from tests.conftest import scratch_postgres_database

    with scratch_postgres_database(migrated=False) as url:
        engine = database.make_database(make_settings(tmp_path, RENTALCOMPLY_DATABASE_URL=url))
        errors = []

        def migrate():
            try:
                database.run_migrations(engine)
            except Exception as exc:  # noqa: BLE001 - collected for the assertion
                errors.append(exc)
            finally:
                engine.close()

        threads = [threading.Thread(target=migrate) for _ in range(4)]
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join(timeout=60)
        assert errors == []
        assert database.pending_migrations(engine) == []
        engine.close()


def test_a_bulk_insert_that_breaks_a_constraint_raises_peewees_error_as_any_statement(settings):
    # The API tells a busy or absent database (503) from a fault (500) by peewee's error classes.
    from rentalcomply.core.models import Account
    row = {"id": "acc_twice", "name": "Agency", "created_at": "2026-11-25 12:00:00"}
    with database.atomic():
        database.insert_rows(Account, [row])
    with pytest.raises(peewee.IntegrityError):
        with database.atomic():
            database.insert_rows(Account, [row])


def test_a_warning_about_the_database_being_away_is_one_line_and_any_other_has_its_traceback(
        caplog):
    import logging
    log = logging.getLogger("tests.warn_of")
    database.warn_of(log, peewee.OperationalError("server closed the connection unexpectedly\n"
                                                  "\tThis probably means..."), "sweep of %s", "x")
    assert caplog.records[-1].getMessage() == (
        "sweep of x (the database does not answer: server closed the connection unexpectedly)")
    assert caplog.records[-1].exc_info is None
    database.warn_of(log, ValueError("a fault"), "sweep of %s", "y")
    assert caplog.records[-1].getMessage() == "sweep of y" and caplog.records[-1].exc_info


def test_processes_opening_a_new_sqlite_file_together_all_connect(tmp_path):
    # Switching a new file to WAL takes a lock SQLite does not wait for: without the start-up
    # lock around it, one of several processes opening a new database at once was refused.
    import multiprocessing

    path = tmp_path / "new.db"
    context = multiprocessing.get_context("fork")
    with context.Pool(6) as pool:
        answers = pool.map(_first_query_on, [path] * 6)
    assert answers == ["wal"] * 6


def _first_query_on(path):
    engine = database.open_sqlite(path)
    with engine.connection_context():
        return engine.execute_sql("PRAGMA journal_mode").fetchone()[0]


@sqlite_only
def test_rows_written_by_every_booking_and_delivery_update_no_index_that_another_serves(settings):
    """Migration 0051: the indexes whose first column a composite index already covers are gone,
    and a check-in's failed access e-mail is indexed only when there is one (every new booking's
    check-in row has none), while Today's look-up still goes through an index."""
    def indexes(table: str) -> set[str]:
        return {row[1] for row in db.execute_sql(f'PRAGMA index_list("{table}")')}

    assert "activity_account_id" not in indexes("activity")
    assert "activity_account_id_created_at" in indexes("activity")
    assert not {"webhook_delivery_endpoint_id", "webhook_delivery_event_id"} & indexes("webhook_delivery")
    assert "webhook_endpoint_account_id" not in indexes("webhook_endpoint")
    partial = {row[1]: row[4] for row in db.execute_sql('PRAGMA index_list("checkin")')}
    assert "checkin_access_failed_at" not in partial and partial["checkin_access_failed"] == 1
    plan = db.execute_sql(
        'EXPLAIN QUERY PLAN SELECT "booking_id" FROM "checkin" '
        'WHERE ("access_failed_at" IS NOT NULL) AND ("account_id" = ?)', ("acc_1",)).fetchall()
    assert "USING INDEX checkin_access_failed" in plan[0][3]
