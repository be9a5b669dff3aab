"""The database: created empty at import, initialised later so tests and the CLI choose the file.

SQLite is opened in WAL mode with IMMEDIATE transactions: a read-then-write transaction under
several threads otherwise fails with "database is locked" despite the busy timeout, because a
deferred transaction cannot upgrade its read lock while another writer waits.
"""

from __future__ import annotations

import contextlib
import logging
from pathlib import Path

try:
    import fcntl
except ImportError:  # Windows: a single process is the only supported layout there
    fcntl = None

import peewee
from playhouse import migrations as peewee_migrations

log = logging.getLogger(__name__)

db = peewee.DatabaseProxy()
MIGRATIONS_DIR = Path(__file__).resolve().parent.parent / "migrations"


def sqlite_path(settings) -> Path:
    return Path(settings.data_dir) / "rentalcomply.db"


def make_database(settings) -> peewee.Database:
    url = settings.database.url
    timeout = settings.database.timeout_seconds
    if not url:
        path = sqlite_path(settings)
        path.parent.mkdir(parents=True, exist_ok=True)
        return open_sqlite(path, timeout)
    if url.startswith("sqlite:///"):
        return open_sqlite(Path(url[len("sqlite:///"):]), timeout)
    from playhouse.db_url import connect
    # Each thread that touches the database opens its own connection on first use.
    return connect(url)


def open_sqlite(path: Path, timeout: int = 5) -> peewee.SqliteDatabase:
    return peewee.SqliteDatabase(
        str(path),
        pragmas={
            "journal_mode": "wal",
            "busy_timeout": timeout * 1000,
            "foreign_keys": 1,
            "synchronous": "normal",
        },
        timeout=timeout,
        lock_type="IMMEDIATE",
        check_same_thread=False,
    )


def init_database(settings, migrate: bool = True) -> peewee.Database:
    """Point the proxy at the configured database and bring its schema up to date."""
    database = make_database(settings)
    db.initialize(database)
    if migrate:
        run_migrations(database)
    return database


def run_migrations(database: peewee.Database) -> list[str]:
    with database.connection_context(), startup_lock(database):
        applied = peewee_migrations.Runner(database, str(MIGRATIONS_DIR)).up()
    for name in applied:
        log.info("applied migration %s", name)
    return applied


# Any constant: the key of the PostgreSQL advisory lock that lets one process start up at a time.
STARTUP_LOCK_KEY = 0x52436D67  # "RCmg"


@contextlib.contextmanager
def startup_lock(database: peewee.Database):
    """One process at a time runs start-up work (migrations, the first account), so processes
    starting together (a server and a worker, several web processes) do not do it twice.

    Not a transaction around the run: a migration may need to run outside one (`atomic = False`).
    SQLite: an exclusive lock on a file beside the database. PostgreSQL: a session advisory lock.
    """
    if isinstance(database, peewee.SqliteDatabase) and fcntl is not None:
        lock_path = Path(database.database + ".startup-lock")
        with lock_path.open("a") as handle:
            fcntl.flock(handle, fcntl.LOCK_EX)
            try:
                yield
            finally:
                fcntl.flock(handle, fcntl.LOCK_UN)
    elif isinstance(database, peewee.PostgresqlDatabase):
        database.execute_sql("SELECT pg_advisory_lock(%s)", (STARTUP_LOCK_KEY,))
        try:
            yield
        finally:
            database.execute_sql("SELECT pg_advisory_unlock(%s)", (STARTUP_LOCK_KEY,))
    else:
        yield


def pending_migrations(database: peewee.Database) -> list[str]:
    with database.connection_context():
        runner = peewee_migrations.Runner(database, str(MIGRATIONS_DIR))
        return [m.name for m in runner.status() if not m.applied and m.path]


def close_database() -> None:
    """Close this thread's connection, if the database was ever opened here."""
    if db.obj is not None:
        db.close()


def atomic():
    """A write transaction (BEGIN IMMEDIATE on SQLite)."""
    return db.atomic()


def insert_rows(model, rows: list[dict]) -> None:
    """INSERT many rows of `model` with one prepared statement (executemany).

    For bulk writes (a sync importing a feed): peewee's `insert_many` builds SQL for every value,
    which cost more than the database's own work. `rows` are dicts by field name, all with the
    same keys; values go through each field's `db_value`, as peewee would store them.
    """
    if not rows:
        return
    fields = [model._meta.fields[name] for name in rows[0]]
    columns = ", ".join(f'"{field.column_name}"' for field in fields)
    marks = ", ".join([db.param] * len(fields))
    sql = f'INSERT INTO "{model._meta.table_name}" ({columns}) VALUES ({marks})'
    cursor = db.cursor()
    cursor.executemany(sql, [[field.db_value(row[field.name]) for field in fields] for row in rows])
