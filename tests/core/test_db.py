"""The database: SQLite settings that make concurrent writes safe, migrations, other engines."""

import peewee

from rentalcomply.core import db as database
from rentalcomply.core.db import db
from tests.conftest import make_settings


def test_sqlite_runs_in_wal_mode_with_foreign_keys_and_a_busy_timeout(settings):
    assert db.execute_sql("PRAGMA journal_mode").fetchone()[0] == "wal"
    assert db.execute_sql("PRAGMA foreign_keys").fetchone()[0] == 1
    assert db.execute_sql("PRAGMA busy_timeout").fetchone()[0] == 5000
    assert db.obj._lock_type == "IMMEDIATE"


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


def test_a_sqlite_url_points_at_another_file(tmp_path):
    target = tmp_path / "elsewhere.db"
    settings = make_settings(tmp_path, RENTALCOMPLY_DATABASE_URL=f"sqlite:///{target}")
    engine = database.make_database(settings)
    assert isinstance(engine, peewee.SqliteDatabase) and engine.database == str(target)


def test_the_data_directory_and_database_are_private_to_their_owner(settings):
    import stat
    assert stat.S_IMODE(settings.data_dir.stat().st_mode) == 0o700
    assert stat.S_IMODE(database.sqlite_path(settings).stat().st_mode) == 0o600
