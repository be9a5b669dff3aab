"""PostgreSQL: connections that survive a server restart, and lock waits that end in a 503.

A restart of the server closes every client connection from the server's side; terminating the
test database's backends with `pg_terminate_backend` does exactly that, without disturbing other
databases on the same server.
"""

import threading
import time

import pytest

from rentalcomply.core.db import db
from tests.conftest import POSTGRES_URL, bootstrapped_settings, make_actor, scratch_postgres_database
from tests.helpers import assert_error

psycopg2 = pytest.importorskip("psycopg2")


@pytest.fixture
def on_postgres(tmp_path):
    with scratch_postgres_database() as url:
        with bootstrapped_settings(tmp_path, RENTALCOMPLY_DATABASE_URL=url,
                                   RENTALCOMPLY_DATABASE_TIMEOUT_SECONDS=1) as settings:
            yield settings


@pytest.fixture
def pg_owner(on_postgres):
    from rentalcomply.accounts import service as accounts
    from rentalcomply.web.app import create_app
    account = accounts.create_account("Agency A").id
    return make_actor(create_app(on_postgres), account, ["read", "write", "webhooks"])


def terminate_connections_of(database_name: str) -> int:
    """What a server restart does to its clients: the server closes their connections."""
    admin = psycopg2.connect(POSTGRES_URL)
    admin.autocommit = True
    cursor = admin.cursor()
    cursor.execute("SELECT count(pg_terminate_backend(pid)) FROM pg_stat_activity "
                   "WHERE datname = %s AND pid <> pg_backend_pid()", (database_name,))
    count = cursor.fetchone()[0]
    admin.close()
    return count


def new_property(actor, name="Seaside Studio"):
    return actor.post_json("/api/v1/properties", {"name": name, "address": "Akti Miaouli 12",
                                                  "aade_property_id": "00001234567"}, status=201)


def test_a_read_after_the_server_dropped_the_connection_is_answered(pg_owner):
    new_property(pg_owner)
    assert terminate_connections_of(db.obj.database) >= 1
    assert len(pg_owner.get("/api/v1/properties").json["data"]) == 1


def test_a_write_after_the_server_dropped_the_connection_is_applied(pg_owner):
    new_property(pg_owner)
    terminate_connections_of(db.obj.database)
    new_property(pg_owner, "Second")
    assert len(pg_owner.get("/api/v1/properties").json["data"]) == 2


def test_health_answers_again_after_the_connection_was_dropped(pg_owner):
    pg_owner.get("/healthz", status=200)
    terminate_connections_of(db.obj.database)
    pg_owner.get("/healthz", status=200)


def test_a_write_waiting_on_a_lock_longer_than_the_timeout_is_a_503(pg_owner):
    prop = new_property(pg_owner).json["data"]
    locked, release = threading.Event(), threading.Event()

    def hold_the_row():
        holder = psycopg2.connect(POSTGRES_URL.rsplit("/", 1)[0] + "/" + db.obj.database)
        cursor = holder.cursor()
        cursor.execute("SELECT 1 FROM property WHERE id = %s FOR UPDATE", (prop["id"],))
        locked.set()
        release.wait(10)
        holder.rollback()
        holder.close()

    holder = threading.Thread(target=hold_the_row)
    holder.start()
    try:
        assert locked.wait(5)
        started = time.monotonic()
        answer = pg_owner.patch_json(f"/api/v1/properties/{prop['id']}", {"name": "Renamed"},
                                     status=503)
        waited = time.monotonic() - started
    finally:
        release.set()
        holder.join()
    assert_error(answer, 503, "SERVICE_UNAVAILABLE")
    assert answer.headers["Retry-After"]
    assert 0.9 <= waited < 3  # database.timeout_seconds = 1, plus the request's own work
    assert pg_owner.patch_json(f"/api/v1/properties/{prop['id']}",
                               {"name": "Renamed"}).json["data"]["name"] == "Renamed"
