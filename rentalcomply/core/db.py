"""The database: created empty at import, initialised later so tests and the CLI choose the file.

SQLite is opened in WAL mode with IMMEDIATE transactions: a read-then-write transaction under
several threads otherwise fails with "database is locked" despite the busy timeout, because a
deferred transaction cannot upgrade its read lock while another writer waits.
"""

from __future__ import annotations

import contextlib
import datetime as dt
import functools
import logging
import sqlite3
import threading
import time
from pathlib import Path

try:
    import fcntl
except ImportError:  # Windows: a single process is the only supported layout there
    fcntl = None

import peewee
from playhouse import migrations as peewee_migrations
from playhouse.shortcuts import ReconnectMixin

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
    try:
        import psycopg2  # noqa: F401 - peewee would say so only at the first query, with a traceback
    except ImportError:
        raise ValueError("database.url: PostgreSQL needs the psycopg2 driver, which this "
                         "installation lacks: pip install 'rentalcomply[postgres]' (the one-file "
                         "binary runs on SQLite only)") from None
    from playhouse.db_url import connect, register_database
    register_database(ResilientPostgresqlDatabase, "postgres", "postgresql")
    # Each thread that touches the database opens its own connection on first use. A lock wait
    # ends after `timeout` seconds (the API answers 503, as SQLite's busy timeout does); a single
    # statement may run four times that, which a month's report of 20,000 stays stays far inside.
    options = f"-c lock_timeout={timeout * 1000} -c statement_timeout={timeout * 4000}"
    return connect(url, connect_timeout=timeout, options=options)


class ResilientPostgresqlDatabase(ReconnectMixin, peewee.PostgresqlDatabase):
    """PostgreSQL whose per-thread connections survive a restart or failover of the server.

    A connection the server closed is replaced on its next use, and the statement run again, but
    only outside a transaction: a transaction cut in the middle fails whole (the request answers
    503), and the thread's next use reconnects. Nothing is retried that could be applied twice.
    """

    reconnect_errors = (
        (peewee.OperationalError, "server closed the connection"),
        (peewee.OperationalError, "terminating connection"),
        (peewee.OperationalError, "could not receive data"),
        (peewee.OperationalError, "could not send data"),
        (peewee.OperationalError, "ssl connection has been closed"),
        (peewee.InterfaceError, "connection already closed"),
    )

    def close(self):
        # Closing a connection the server already dropped raises in psycopg2 on rollback; the
        # point of closing it is to open a new one, so a failure to say goodbye is not an error.
        try:
            return super().close()
        except (peewee.InterfaceError, peewee.OperationalError):
            with self._lock:
                self._state.reset()
            return True


# What psycopg2 says when the server is away: restarting, failing over, unreachable.
_AWAY = ("server closed the connection", "terminating connection", "connection already closed",
         "could not connect", "could not receive data", "could not send data",
         "connection refused", "the database system is", "ssl connection has been closed")
_BUSY = ("locked", "busy", "lock timeout", "statement timeout")


def is_unavailable(exc: BaseException) -> bool:
    """Whether a database error means "busy or away for a moment" (answer 503, try again) rather
    than a fault: SQLite's lock, PostgreSQL's lock or statement timeout, a dropped connection."""
    text = str(exc).lower()
    return any(fragment in text for fragment in _BUSY + _AWAY)


def is_away(exc: BaseException) -> bool:
    """Whether a database error means the server itself does not answer (a restart, a failover),
    not that it answered "busy": work cut by it is worth trying again once it is back, whereas a
    statement that timed out would time out again."""
    if not isinstance(exc, (peewee.OperationalError, peewee.InterfaceError)):
        return False
    text = str(exc).lower()
    return any(fragment in text for fragment in _AWAY)


def warn_of(logger: logging.Logger, exc: BaseException, message: str, *args) -> None:
    """A warning about work the database failed: one line when the server is away (a restart
    has every thread say the same at once, and its traceback says nothing more), with the
    traceback otherwise."""
    if is_away(exc):
        reason = str(exc).strip().splitlines()[0] if str(exc).strip() else type(exc).__name__
        logger.warning(message + " (the database does not answer: %s)", *args, reason)
    else:
        logger.warning(message, *args, exc_info=exc)


class SqliteWithWriteTurns(peewee.SqliteDatabase):
    """SQLite whose write transactions, within this process, take turns on a lock of ours first.

    A write transaction begins with BEGIN IMMEDIATE, which takes SQLite's write lock. A thread
    that finds it taken is left to SQLite's busy handler, which sleeps and looks again (1, 2, 5,
    10 ms and longer): two task threads recording their webhook deliveries spent a fifth of their
    time in those sleeps (bench/webhooks.py), though the lock was free again within a fraction
    of a millisecond. Threads of this process now queue on a Python lock, handed on at once at
    the commit or rollback; SQLite's lock still guards the file against other processes (a CLI
    import), which the busy handler waits for as before. A turn not had within the busy timeout
    fails as SQLite's would ("database is locked"), so a write waits no longer than it did.
    """

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        self._write_turn = threading.Lock()
        self._turn_held = threading.local()

    def begin(self, lock_type=None):
        if not getattr(self._turn_held, "value", False):
            if not self._write_turn.acquire(timeout=self._timeout):
                raise peewee.OperationalError("database is locked (no write turn within "
                                              f"{self._timeout} s)")
            self._turn_held.value = True
        try:
            super().begin(lock_type)
        except BaseException:
            self._end_turn()
            raise

    def commit(self):
        try:
            return super().commit()
        finally:
            self._end_turn()

    def rollback(self):
        try:
            return super().rollback()
        finally:
            self._end_turn()

    def _end_turn(self) -> None:
        if getattr(self._turn_held, "value", False):
            self._turn_held.value = False
            self._write_turn.release()


def open_sqlite(path: Path, timeout: int = 5) -> peewee.SqliteDatabase:
    _put_in_wal_mode(path, timeout)
    return SqliteWithWriteTurns(
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


def _put_in_wal_mode(path: Path, timeout: int) -> None:
    """Switch the file to WAL once, one process at a time, before any connection sets it.

    Switching a new file to WAL takes an exclusive lock that SQLite does not wait for: processes
    opening a new database together (four `init`s, a server and a worker) saw "database is locked"
    at their first connection. Once the file is in WAL mode, each connection's pragma is a no-op.
    """
    if fcntl is None or not path.parent.is_dir():
        return  # no directory: the first query says so, where its caller answers for it
    with _file_lock(Path(str(path) + ".startup-lock")):
        connection = sqlite3.connect(str(path), timeout=timeout)
        try:
            connection.execute("PRAGMA journal_mode=wal")
        finally:
            connection.close()


@contextlib.contextmanager
def _file_lock(lock_path: Path):
    with lock_path.open("a") as handle:
        fcntl.flock(handle, fcntl.LOCK_EX)
        try:
            yield
        finally:
            fcntl.flock(handle, fcntl.LOCK_UN)


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
    # A new database takes every migration: routine. An upgrade's migrations are worth a line.
    level = logging.DEBUG if "0001_initial" in applied else logging.INFO
    for name in applied:
        log.log(level, "applied migration %s", name)
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
        with _file_lock(Path(database.database + ".startup-lock")):
            yield
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


def atomic_or_joined():
    """A write transaction of its own, or, inside one already, that one: no savepoint (two of a
    POST /bookings' fourteen statements, and a random name for it). For a function
    whose callers roll their transaction back whole when it raises (an API request does); a
    caller that catches its errors and goes on takes a savepoint around the call (`atomic()`)."""
    return contextlib.nullcontext() if db.in_transaction() else db.atomic()


def one_writer_at_a_time() -> bool:
    """Whether a write transaction holds every other writer (SQLite's lock is the whole
    database), so that bulk work must pause between short batches. PostgreSQL locks rows: a
    write on another property never waits on a batch, and pausing only makes the job longer."""
    return isinstance(db.obj, peewee.SqliteDatabase)


def can_return_rows() -> bool:
    """Whether UPDATE ... RETURNING works here (SQLite from 3.35, PostgreSQL)."""
    database = db.obj
    if isinstance(database, peewee.SqliteDatabase):
        return sqlite3.sqlite_version_info >= (3, 35)
    return isinstance(database, peewee.PostgresqlDatabase)


def insert_rows(model, rows: list[dict], ignore_conflicts: bool = False) -> None:
    """INSERT many rows of `model` with one prepared statement (executemany).

    For bulk writes (a sync importing a feed): peewee's `insert_many` builds SQL for every value,
    which cost more than the database's own work. `rows` are dicts by field name, all with the
    same keys; values go through each field's `db_value`, as peewee would store them.
    `ignore_conflicts`: a row whose key is taken is left out (ON CONFLICT DO NOTHING, which
    SQLite and PostgreSQL both read).
    """
    if not rows:
        return
    sql, stored = _insert_statement(model, tuple(rows[0]), ignore_conflicts, db.param)
    values = [[store(row[name]) for name, store in stored] for row in rows]
    # Through peewee's wrapper, as peewee's own statements: the driver's errors become peewee's
    # (a lock timeout or a dropped connection here answers 503 like any other, not 500).
    with peewee.__exception_wrapper__:
        db.cursor().executemany(sql, values)


@functools.lru_cache(maxsize=256)
def _insert_statement(model, names: tuple[str, ...], ignore_conflicts: bool, param: str):
    """The INSERT of those columns of `model`, and each column's name and `db_value`: built once
    per table and set of columns (every API write inserts three or four rows)."""
    fields = [model._meta.fields[name] for name in names]
    columns = ", ".join(f'"{field.column_name}"' for field in fields)
    marks = ", ".join([param] * len(fields))
    sql = f'INSERT INTO "{model._meta.table_name}" ({columns}) VALUES ({marks})'
    if ignore_conflicts:
        sql += " ON CONFLICT DO NOTHING"
    return sql, tuple((field.name, field.db_value) for field in fields)


# A retention purge deletes this many rows per transaction, and waits this long between two, so
# that it never holds the write lock (SQLite's is the whole database) for more than a moment and
# a writer waiting on it gets its turn (SQLite's busy handler looks every few milliseconds).
PURGE_BATCH_ROWS = 500
PURGE_PAUSE_SECONDS = 0.02


def delete_in_batches(model, condition, *, batch: int = PURGE_BATCH_ROWS,
                      pause: float = PURGE_PAUSE_SECONDS) -> int:
    """Delete the rows of `model` matching `condition`, `batch` at a time, each batch its own
    short transaction (rows that reference them go with them: ON DELETE CASCADE). How many.

    Never one long DELETE: a month of activity is a hundred thousand rows, and one statement
    deleting them would hold every writer for seconds."""
    return _in_batches(model, condition, lambda chosen: model.delete().where(chosen).execute(),
                       batch, pause)


def update_in_batches(model, condition, changes: dict, *, batch: int = PURGE_BATCH_ROWS,
                      pause: float = PURGE_PAUSE_SECONDS) -> int:
    """`model.update(changes)` of the rows matching `condition`, as `delete_in_batches` does it
    (`changes` must make a row stop matching, or this never ends). How many."""
    return _in_batches(model, condition,
                       lambda chosen: model.update(changes).where(chosen).execute(), batch, pause)


def _in_batches(model, condition, apply, batch: int, pause: float) -> int:
    """`apply(primary key IN a batch of matching ids)` until no row matches; rows it touched."""
    key = model._meta.primary_key
    touched = 0
    while True:
        with db.atomic():
            ids = [row[0] for row in model.select(key).where(condition).limit(batch).tuples()]
            if ids:
                touched += apply(key.in_(ids))
        if len(ids) < batch:
            return touched
        time.sleep(pause)


def column_list(model) -> str:
    """Every column of `model`, quoted, in the order `model_from_row` takes them."""
    return ", ".join(f'"{field.column_name}"' for field in model._meta.sorted_fields)


def model_from_row(model, row):
    """A model instance from a row of `column_list(model)`, as peewee's own SELECT builds it
    (each value as its field's python_value gives it, nothing marked dirty): for hot look-ups
    whose SQL is written once, where building a peewee query took longer than running it."""
    return row_reader(model)(row)


def models_from_query(query) -> list:
    """The instances a `Model.select()` of every column gives, built from its plain rows: for the
    hundreds of rows a busy page shows, where peewee's own building cost more than the query."""
    sql, params = query.sql()
    read = row_reader(query.model)
    return [read(row) for row in db.execute_sql(sql, params).fetchall()]


_readers: dict = {}
# Fields whose values come back from the database as Python keeps them (text, whole numbers):
# their python_value would only check that.
_PLAIN_FIELDS = (peewee.CharField, peewee.TextField, peewee.IntegerField)


def row_reader(model):
    """A function making an instance of `model` from a row of `column_list(model)`."""
    reader = _readers.get(model)
    if reader is not None:
        return reader
    fields = model._meta.sorted_fields
    names = [field.name for field in fields]
    converters = [(index, _converter(field)) for index, field in enumerate(fields)
                  if not _plain(field)]

    def read(row):
        values = list(row)
        for index, convert in converters:
            if values[index] is not None:
                values[index] = convert(values[index])
        instance = model.__new__(model)
        instance.__data__, instance._dirty, instance.__rel__ = dict(zip(names, values)), set(), {}
        return instance

    _readers[model] = read
    return read


def _plain(field) -> bool:
    if isinstance(field, peewee.ForeignKeyField):
        field = field.rel_field
    return type(field).python_value in (peewee.Field.python_value,) \
        and isinstance(field, _PLAIN_FIELDS)


def _converter(field):
    """The field's python_value; for dates and times SQLite keeps as ISO text, the standard
    library's ISO parser first (peewee tries its formats one by one)."""
    if isinstance(field, (peewee.DateTimeField, peewee.DateField)):
        iso = dt.datetime.fromisoformat if isinstance(field, peewee.DateTimeField) \
            else dt.date.fromisoformat

        def convert(value, iso=iso, fallback=field.python_value):
            if isinstance(value, str):
                try:
                    return iso(value)
                except ValueError:
                    pass
            return fallback(value)
        return convert
    return field.python_value
