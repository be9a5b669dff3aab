"""Shared fixtures: a fresh data directory and database per test, and three actors.

- `owner`: account A with a key of every scope (also `reader`, `writer`, `hooker`: one scope each)
- `outsider`: account B with a key of every scope, who must never see or touch A's data
Each actor is a WebTest app speaking HTTPS with its own key: `owner.get("/api/v1/properties")`.
"""

from __future__ import annotations

import contextlib
import inspect
import dataclasses
import datetime
import os
import secrets
import shutil
import urllib.parse
from pathlib import Path

import pytest
from rentalcomply.accounts import service as accounts
from rentalcomply.config import load_settings
from rentalcomply.core import clock
from rentalcomply.core.db import close_database, db
from rentalcomply.dashboard import users as dashboard_users
from rentalcomply.runtime import bootstrap
from rentalcomply.web.app import create_app
from tests.moved_clock import move_this_run
from tests.openapi_check import DocumentChecker, DocumentedTestApp

# RENTALCOMPLY_TEST_TODAY=2027-03-01 (or +365) runs the whole suite as if that were today.
MOVED_TODAY = move_this_run()

# Dashboard passwords are hashed in the test processes with scrypt at N=2**10, not the shipped
# 2**15: the same function, salt, format and check, at a thirty-second of the work. A shipped hash
# takes a fifth of a second of a core here, and most dashboard tests set a password and sign in,
# so in the suite's three passes scrypt alone cost minutes of CI. A hash names its own cost, so one
# made at either cost is checked at that cost. Servers started as processes of their own keep the
# shipped cost; tests/dashboard/test_security.py checks hashes made at it.
SHIPPED_SCRYPT_N = dashboard_users.SCRYPT_N
TEST_SCRYPT_N = 2 ** 10
dashboard_users.SCRYPT_N = TEST_SCRYPT_N

HTTPS_ENVIRON = {"wsgi.url_scheme": "https", "HTTP_HOST": "api.example.org",
                 "REMOTE_ADDR": "203.0.113.7"}


def pytest_xdist_auto_num_workers(config):
    """`-n auto`: two test processes per core this process may run on, at most six (each process
    has a Redis database of its own: redis_database_url). Most of a test's time is spent waiting
    on a loopback server, a child process, a database or a browser, so two per core keep the
    cores busy; no test depends on having a core to itself (a check on time has a margin of
    several times its deadline, or counts on a frozen clock)."""
    cores = len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else os.cpu_count()
    return max(1, min(6, 2 * (cores or 1)))


def pytest_report_header(config):
    if MOVED_TODAY:
        return f"the clock is moved: today is {MOVED_TODAY} for every process of this run"
    return None


def pytest_addoption(parser):
    parser.addoption(
        "--engine-tests-only", action="store_true", default=False,
        help="leave out the tests that run the same whatever the database and queue engines: "
             "none of their fixtures or code reads the switch to PostgreSQL or Redis (CI's pass "
             "on PostgreSQL and Redis, which would otherwise repeat them on SQLite)")


# What a test or one of its fixtures names when it builds on the database or queue that
# RENTALCOMPLY_TEST_ON_POSTGRES / RENTALCOMPLY_TEST_REDIS_URL choose.
ENGINE_SWITCHES = ("bootstrapped_settings", "make_settings", "scratch_postgres_database",
                   "task_queue_url", "redis_database_url", "RENTALCOMPLY_TEST_ON_POSTGRES",
                   "RENTALCOMPLY_TEST_POSTGRES_URL", "RENTALCOMPLY_TEST_REDIS_URL")


def _builds_on_the_engines(item, sources: dict) -> bool:
    def names_a_switch(key, read) -> bool:
        if key not in sources:
            try:
                text = read()
            except (OSError, TypeError):
                text = ""
            sources[key] = any(name in text for name in ENGINE_SWITCHES)
        return sources[key]

    path = str(getattr(item, "fspath", ""))
    if names_a_switch(path, lambda: Path(path).read_text(encoding="utf-8")):
        return True
    info = getattr(item, "_fixtureinfo", None)
    for definitions in (info.name2fixturedefs.values() if info else ()):
        for definition in definitions:
            func = getattr(definition, "func", None)
            if func is not None and names_a_switch(func, lambda: inspect.getsource(func)):
                return True
    return False


def pytest_collection_modifyitems(session, config, items):
    """Tests marked `long` (minutes of real time: scheduler ticks, a killed worker's lease) go
    first, so that with `-n auto` they run beside the many short ones instead of after them."""
    def minutes(item) -> float:
        mark = item.get_closest_marker("long")
        return mark.kwargs.get("minutes", 1) if mark else 0

    items.sort(key=minutes, reverse=True)  # a stable sort: the longest first, the rest in order
    # A module that drives Chromium marks its tests `browser`: CI runs them once (the README
    # pass), not again in the passes on PostgreSQL and with the clock a year ahead, where the
    # pages' database calls are already made by the page tests without a browser.
    drives_a_browser: dict[str, bool] = {}
    for item in items:
        path = str(getattr(item, "fspath", ""))
        if path not in drives_a_browser:
            try:
                drives_a_browser[path] = "playwright" in Path(path).read_text(encoding="utf-8")
            except OSError:
                drives_a_browser[path] = False
        if drives_a_browser[path] or {"browser", "chromium"} & set(item.fixturenames):
            item.add_marker(pytest.mark.browser)
    if config.getoption("--engine-tests-only"):
        sources: dict = {}
        kept = [item for item in items if _builds_on_the_engines(item, sources)]
        left_out = [item for item in items if not _builds_on_the_engines(item, sources)]
        if left_out:
            config.hook.pytest_deselected(items=left_out)
            items[:] = kept


def days_ahead(days: int) -> str:
    """The date `days` after today on the product's clock, as the API writes it: a stay that lies
    ahead on whatever day the suite runs (never a fixed date that one day becomes the past)."""
    return (clock.today() + datetime.timedelta(days=days)).isoformat()


def make_settings(tmp_path, **env):
    environment = {"RENTALCOMPLY_QUEUE_URL": "memory://"}
    environment.update({k: str(v) for k, v in env.items()})
    return load_settings(data_dir=tmp_path / "data", env=environment)


# A PostgreSQL server the tests may create scratch databases on. With RENTALCOMPLY_TEST_ON_POSTGRES=1
# every test built on the `settings` fixture runs on PostgreSQL instead of SQLite (CI does this for
# the API suites, to show that the same code holds there).
POSTGRES_URL = os.environ.get("RENTALCOMPLY_TEST_POSTGRES_URL", "")
ON_POSTGRES = os.environ.get("RENTALCOMPLY_TEST_ON_POSTGRES") == "1"


def _url_of(name: str) -> str:
    return urllib.parse.urlsplit(POSTGRES_URL)._replace(path="/" + name).geturl()


_migrated_template: str | None = None


def _template_database(admin) -> str:
    """A database with every migration applied, made once per test process: each test's database
    is a copy of it (CREATE DATABASE ... TEMPLATE), which is many times faster than migrating
    each one. Dropped when the process ends."""
    global _migrated_template
    if _migrated_template is None:
        import atexit

        from rentalcomply.core import db as database
        name = f"rentalcomply_template_{os.getpid()}_{secrets.token_hex(3)}"
        admin.cursor().execute(f"CREATE DATABASE {name}")
        engine = database.make_database(load_settings(
            data_dir=None, env={"RENTALCOMPLY_DATABASE_URL": _url_of(name)}))
        database.run_migrations(engine)
        engine.close()

        def drop():
            import psycopg2
            closing = psycopg2.connect(POSTGRES_URL)
            closing.autocommit = True
            closing.cursor().execute(f"DROP DATABASE IF EXISTS {name} WITH (FORCE)")
            closing.close()
        atexit.register(drop)
        _migrated_template = name
    return _migrated_template


class _ScratchDatabases:
    """This test process's migrated scratch databases, made one ahead and dropped behind in a
    thread of their own: CREATE DATABASE ... TEMPLATE and DROP DATABASE take a second or two
    each on a busy machine, which a test no longer waits for (the pass on PostgreSQL waits on
    its engines far more than it computes, so the thread's work costs it next to nothing)."""

    def __init__(self):
        import concurrent.futures
        import psycopg2
        self._admin = psycopg2.connect(POSTGRES_URL)
        self._admin.autocommit = True
        self._worker = concurrent.futures.ThreadPoolExecutor(max_workers=1)
        self._spare = None

    def take(self) -> str:
        """The name of a new migrated database, and the next one started."""
        name = self._spare.result() if self._spare is not None else self._create()
        self._spare = self._worker.submit(self._create)
        return name

    def give_back(self, name: str) -> None:
        self._worker.submit(self._drop, name)

    def close(self) -> None:
        self._worker.shutdown(wait=True)  # the drops behind finish, the spare is made
        if self._spare is not None:
            self._drop(self._spare.result())
        self._admin.close()

    def _create(self) -> str:
        name = "rentalcomply_test_" + secrets.token_hex(4)
        _create_scratch(self._admin, name, migrated=True)
        return name

    def _drop(self, name: str) -> None:
        self._admin.cursor().execute(f"DROP DATABASE {name} WITH (FORCE)")


_scratch_databases: _ScratchDatabases | None = None


def _create_scratch(admin, name: str, migrated: bool) -> None:
    template = f" TEMPLATE {_template_database(admin)}" if migrated else ""
    admin.cursor().execute(f"CREATE DATABASE {name}{template}")
    # A scratch database need not outlive a crash of the server: its commits do not wait for
    # the WAL to reach the disk (seconds a test on a busy machine; the same SQL and isolation).
    admin.cursor().execute(f"ALTER DATABASE {name} SET synchronous_commit = off")


@contextlib.contextmanager
def scratch_postgres_database(migrated: bool = True):
    """A fresh PostgreSQL database for one test, with the migrations applied unless `migrated`
    is False; its URL. Skips the test without a server."""
    global _scratch_databases
    if not POSTGRES_URL:
        pytest.skip("set RENTALCOMPLY_TEST_POSTGRES_URL to run on PostgreSQL")
    import psycopg2  # configured, so a missing driver fails the test rather than skipping it
    if migrated:
        if _scratch_databases is None:
            import atexit
            admin = psycopg2.connect(POSTGRES_URL)
            admin.autocommit = True
            _template_database(admin)  # first, so that its drop at exit comes after the pool's
            admin.close()
            _scratch_databases = _ScratchDatabases()
            atexit.register(_scratch_databases.close)
        name = _scratch_databases.take()
        try:
            yield _url_of(name)
        finally:
            close_database()  # an in-process database, if the test opened one
            # Dropped behind, WITH (FORCE): server threads of the test may still hold connections.
            _scratch_databases.give_back(name)
        return
    name = "rentalcomply_test_" + secrets.token_hex(4)
    admin = psycopg2.connect(POSTGRES_URL)
    admin.autocommit = True
    _create_scratch(admin, name, migrated=False)
    try:
        yield _url_of(name)
    finally:
        close_database()
        admin.cursor().execute(f"DROP DATABASE {name} WITH (FORCE)")
        admin.close()


# A Redis server for the task queue. With RENTALCOMPLY_TEST_REDIS_URL set (CI's second pass, with
# RENTALCOMPLY_TEST_ON_POSTGRES=1), every test that runs a real queue runs it on Redis.
REDIS_URL = os.environ.get("RENTALCOMPLY_TEST_REDIS_URL", "")


def redis_database_url(base: str = "") -> str:
    """A Redis database of this test process's own, emptied: the queue's keys are named after the
    queue, so two test processes (pytest-xdist workers) must never share a database. Databases
    9-14 are the tests' (gw0 is 9, gw1 10, ...); 0 is left to whatever else uses the server."""
    import redis
    base = base or REDIS_URL or "redis://127.0.0.1:6379"
    worker = os.environ.get("PYTEST_XDIST_WORKER", "gw0")
    number = 9 + int(worker[2:] or 0) % 6
    url = urllib.parse.urlsplit(base)._replace(path=f"/{number}").geturl()
    client = redis.Redis.from_url(url, socket_connect_timeout=1)
    try:
        client.flushdb()
    except redis.RedisError as exc:
        # A Redis the run was told to use and that does not answer is a fault of the run, never a
        # reason to leave its tests out (a skip would hide it: the run would still say 0 failed).
        pytest.fail(f"no Redis answers at {base}: {exc}")
    finally:
        client.close()
    return url


def task_queue_url(tmp_path) -> str:
    """The URL of a real task queue for one test: a SQLite file in the test's directory, or, in
    the pass on PostgreSQL with Redis, this process's own Redis database."""
    if REDIS_URL:
        return redis_database_url(REDIS_URL)
    return f"sqlite:///{tmp_path / 'queue.db'}"


_migrated_sqlite: Path | None = None


def _copy_migrated_sqlite(settings) -> None:
    """Give the data directory a copy of a SQLite database with every migration applied, made
    once per test process: copying a file is many times faster than migrating each test's
    database, which had become a third of a short test's time. The migrations themselves are
    tested on fresh databases in tests/core/test_db.py."""
    global _migrated_sqlite
    from rentalcomply.core import db as database
    if _migrated_sqlite is None:
        import atexit
        import tempfile
        folder = Path(tempfile.mkdtemp(prefix="rentalcomply-migrated-"))
        engine = database.open_sqlite(folder / "rentalcomply.db")
        database.run_migrations(engine)
        engine.execute_sql("PRAGMA wal_checkpoint(TRUNCATE)")
        engine.close()
        atexit.register(shutil.rmtree, folder, True)
        _migrated_sqlite = folder / "rentalcomply.db"
    target = database.sqlite_path(settings)
    target.parent.mkdir(parents=True, exist_ok=True, mode=0o700)
    if not target.exists():
        shutil.copyfile(_migrated_sqlite, target)
        target.chmod(0o600)


@contextlib.contextmanager
def bootstrapped_settings(tmp_path, **env):
    """Settings on a fresh database, bootstrapped; cleaned up afterwards."""
    with contextlib.ExitStack() as stack:
        if ON_POSTGRES:
            env["RENTALCOMPLY_DATABASE_URL"] = stack.enter_context(scratch_postgres_database())
        settings = make_settings(tmp_path, **env)
        if not settings.database.url:
            _copy_migrated_sqlite(settings)
        bootstrap(settings)
        yield settings
        clock.reset()
        accounts.forget_cached_keys()
        db.close()


@pytest.fixture
def restore_logging():
    """The root logger's handlers and level, and the access logger's level, as they were."""
    import logging

    from rentalcomply.core import logs
    root = logging.getLogger()
    handlers, level = list(root.handlers), root.level
    yield
    for handler in [h for h in root.handlers if h not in handlers]:
        root.removeHandler(handler)
    root.setLevel(level)
    logging.getLogger(logs.ACCESS_LOGGER).setLevel(logging.NOTSET)


@pytest.fixture
def frozen_clock():
    """The clock stands still and moves only by clock.travel(): readings compared to the second
    never straddle a second boundary on a busy machine."""
    clock.freeze()
    yield clock
    clock.reset()


@pytest.fixture
def settings(tmp_path):
    with bootstrapped_settings(tmp_path) as settings:
        yield settings


@pytest.fixture
def wsgi_app(settings):
    return create_app(settings)


@dataclasses.dataclass
class Actor:
    account_id: str
    key: str
    key_id: str
    app: DocumentedTestApp

    def __getattr__(self, name):  # owner.get(...), owner.post_json(...)
        return getattr(self.app, name)


def documented_app(wsgi_app) -> DocumentedTestApp:
    """A WebTest app whose every response is checked against the OpenAPI document."""
    app = DocumentedTestApp(wsgi_app, extra_environ=dict(HTTPS_ENVIRON))
    if getattr(wsgi_app, "api", None) is not None:
        app.checker = DocumentChecker(wsgi_app.api)
    return app


def make_actor(wsgi_app, account_id: str, scopes, name="test key") -> Actor:
    record, key = accounts.create_key(account_id, scopes, name=name)
    app = documented_app(wsgi_app)
    app.authorization = ("Bearer", key)
    return Actor(account_id, key, record.id, app)


@pytest.fixture
def account_a(settings):
    return accounts.create_account("Agency A").id


@pytest.fixture
def account_b(settings):
    return accounts.create_account("Agency B").id


@pytest.fixture
def owner(wsgi_app, account_a):
    return make_actor(wsgi_app, account_a, ["read", "write", "webhooks"])


@pytest.fixture
def reader(wsgi_app, account_a):
    return make_actor(wsgi_app, account_a, ["read"])


@pytest.fixture
def writer(wsgi_app, account_a):
    return make_actor(wsgi_app, account_a, ["write"])


@pytest.fixture
def hooker(wsgi_app, account_a):
    return make_actor(wsgi_app, account_a, ["webhooks"])


@pytest.fixture
def outsider(wsgi_app, account_b):
    return make_actor(wsgi_app, account_b, ["read", "write", "webhooks"])


@pytest.fixture
def anonymous(wsgi_app):
    return documented_app(wsgi_app)


@pytest.fixture(scope="session")
def mail_server():
    """A real SMTP server on loopback for the whole session (aiosmtpd): what `doctor` connects
    to, so that a healthy installation is one whose e-mails can go out."""
    from aiosmtpd.controller import Controller

    from tests.checkin.conftest import Inbox, free_port
    inbox = Inbox()
    controller = Controller(inbox, hostname="127.0.0.1", port=free_port())
    controller.start()
    inbox.port = controller.port
    inbox.env = {"RENTALCOMPLY_SMTP_HOST": "127.0.0.1", "RENTALCOMPLY_SMTP_PORT": str(controller.port)}
    yield inbox
    controller.stop()
