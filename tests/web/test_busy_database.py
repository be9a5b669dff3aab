"""A database held busy past its timeout is a 503 the client may retry, never a 500."""

import sqlite3

import pytest

from rentalcomply.accounts import service as accounts
from rentalcomply.core import db as database
from rentalcomply.core.db import db
from rentalcomply.runtime import bootstrap
from rentalcomply.web.app import create_app
from tests.conftest import documented_app, make_settings
from tests.helpers import assert_error


@pytest.fixture
def impatient_app(tmp_path):
    settings = make_settings(tmp_path, RENTALCOMPLY_DATABASE_TIMEOUT_SECONDS="1")
    bootstrap(settings)
    account = accounts.create_account("Agency A")
    _, key = accounts.create_key(account.id, ["read", "write"])
    app = documented_app(create_app(settings))
    app.authorization = ("Bearer", key)
    yield app, settings
    db.close()


def test_a_write_that_waits_too_long_for_the_database_is_a_503_with_retry_after(impatient_app):
    app, settings = impatient_app
    other_writer = sqlite3.connect(database.sqlite_path(settings), isolation_level=None)
    other_writer.execute("BEGIN IMMEDIATE")
    try:
        response = app.post_json("/api/v1/properties", {"name": "Villa", "address": "Oia"},
                                 status=503)
    finally:
        other_writer.execute("ROLLBACK")
        other_writer.close()
    assert_error(response, 503, "SERVICE_UNAVAILABLE")
    assert int(response.headers["Retry-After"]) > 0
    # Reads go on meanwhile (WAL), and the write succeeds once the database is free again.
    app.post_json("/api/v1/properties", {"name": "Villa", "address": "Oia"}, status=201)
