"""Shared fixtures: a fresh data directory and database per test, and three actors.

- `owner`: account A with a key of every scope (also `reader`, `writer`, `hooker`: one scope each)
- `outsider`: account B with a key of every scope, who must never see or touch A's data
Each actor is a WebTest app speaking HTTPS with its own key: `owner.get("/api/v1/properties")`.
"""

from __future__ import annotations

import contextlib
import dataclasses
import os
import secrets
import urllib.parse

import pytest
from rentalcomply.accounts import service as accounts
from rentalcomply.config import load_settings
from rentalcomply.core import clock
from rentalcomply.core.db import close_database, db
from rentalcomply.runtime import bootstrap
from rentalcomply.web.app import create_app
from tests.openapi_check import DocumentChecker, DocumentedTestApp

HTTPS_ENVIRON = {"wsgi.url_scheme": "https", "HTTP_HOST": "api.example.org",
                 "REMOTE_ADDR": "203.0.113.7"}


def make_settings(tmp_path, **env):
    environment = {"RENTALCOMPLY_QUEUE_URL": "memory://"}
    environment.update({k: str(v) for k, v in env.items()})
    return load_settings(data_dir=tmp_path / "data", env=environment)


# A PostgreSQL server the tests may create scratch databases on. With RENTALCOMPLY_TEST_ON_POSTGRES=1
# every test built on the `settings` fixture runs on PostgreSQL instead of SQLite (CI does this for
# the API suites, to show that the same code holds there).
POSTGRES_URL = os.environ.get("RENTALCOMPLY_TEST_POSTGRES_URL", "")
ON_POSTGRES = os.environ.get("RENTALCOMPLY_TEST_ON_POSTGRES") == "1"


@contextlib.contextmanager
def scratch_postgres_database():
    """A fresh PostgreSQL database for one test; its URL. Skips the test without a server."""
    if not POSTGRES_URL:
        pytest.skip("set RENTALCOMPLY_TEST_POSTGRES_URL to run on PostgreSQL")
    psycopg2 = pytest.importorskip("psycopg2")
    name = "rentalcomply_test_" + secrets.token_hex(4)
    admin = psycopg2.connect(POSTGRES_URL)
    admin.autocommit = True
    admin.cursor().execute(f"CREATE DATABASE {name}")
    try:
        yield urllib.parse.urlsplit(POSTGRES_URL)._replace(path="/" + name).geturl()
    finally:
        close_database()  # an in-process database, if the test opened one
        # FORCE: server threads of the test may still hold connections.
        admin.cursor().execute(f"DROP DATABASE {name} WITH (FORCE)")
        admin.close()


@contextlib.contextmanager
def bootstrapped_settings(tmp_path, **env):
    """Settings on a fresh database, bootstrapped; cleaned up afterwards."""
    with contextlib.ExitStack() as stack:
        if ON_POSTGRES:
            env["RENTALCOMPLY_DATABASE_URL"] = stack.enter_context(scratch_postgres_database())
        settings = make_settings(tmp_path, **env)
        bootstrap(settings)
        yield settings
        clock.reset()
        accounts.forget_cached_keys()
        db.close()


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
