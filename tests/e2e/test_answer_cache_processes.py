"""Two real servers on one database: a change made through one is seen by the very next read
through the other, which kept the answer before the change (SQLite, and PostgreSQL where
RENTALCOMPLY_TEST_POSTGRES_URL is set)."""

from __future__ import annotations

import contextlib
import http.client

import pytest

from tests.conftest import days_ahead, scratch_postgres_database

pytestmark = pytest.mark.server


@contextlib.contextmanager
def two_servers(start_server, tmp_path, env):
    # One public address for both, as behind one proxy: answers carry check-in links on it (each
    # server alone would name its own port).
    env = {"RENTALCOMPLY_RATE_LIMIT_PER_MINUTE": "100000",
           "RENTALCOMPLY_SERVER_PUBLIC_URL": "http://127.0.0.1:8080", **env}
    first = start_server(tmp_path / "data", "--no-worker", env=env)
    second = start_server(tmp_path / "data", "--no-worker", env=env)
    second.key = first.key
    try:
        yield first, second
    finally:
        first.kill()
        second.kill()


def a_change_through_one_is_read_through_the_other(first, second):
    status, prop, _ = first.request("POST", "/api/v1/properties", {
        "name": "Villa", "address": "Oia", "aade_property_id": "00012345678"})
    assert status == 201, prop
    property_id = prop["data"]["id"]
    status, booking, _ = first.request("POST", "/api/v1/bookings", {
        "property_id": property_id, "guest_name": "Maria", "arrival_date": days_ahead(200),
        "departure_date": days_ahead(204), "guest_count": 2})
    assert status == 201, booking
    one = f"/api/v1/bookings/{booking['data']['id']}"
    page = f"/api/v1/bookings?property_id={property_id}&limit=50"
    for _ in range(2):  # rendered, then answered from what the second server kept
        _, kept, response = second.request("GET", one)
        _, kept_page, _ = second.request("GET", page)
    etag = response.getheader("ETag")
    assert second.request("GET", one, headers={"If-None-Match": etag})[0] == 304

    status, _, _ = first.request("PATCH", one, {"guest_name": "Maria Papadopoulou"})
    assert status == 200
    status, fresh, response = second.request("GET", one, headers={"If-None-Match": etag})
    assert status == 200 and fresh["data"]["guest_name"] == "Maria Papadopoulou"
    assert response.getheader("ETag") != etag
    assert second.request("GET", page)[1]["data"][0]["guest_name"] == "Maria Papadopoulou"
    # What the second server keeps is byte for byte what the first renders afresh.
    kept = raw_get(second, page)
    assert kept == raw_get(second, page) == raw_get(first, page)

    status, _, _ = first.request("POST", f"{one}/cancel")
    assert status == 200
    assert second.request("GET", one)[1]["data"]["status"] == "cancelled"
    assert second.request("GET", f"/api/v1/properties/{property_id}")[1]["data"]["name"] == "Villa"
    first.request("PATCH", f"/api/v1/properties/{property_id}", {"name": "Villa Anemoi"})
    assert second.request("GET", "/api/v1/properties")[1]["data"][0]["name"] == "Villa Anemoi"


def raw_get(server, path: str) -> tuple[int, bytes, str, str]:
    """(status, body bytes, ETag, Content-Type) of a GET."""
    connection = http.client.HTTPConnection("127.0.0.1", server.port, timeout=10)
    try:
        connection.request("GET", path, headers={"Authorization": f"Bearer {server.key}"})
        response = connection.getresponse()
        return (response.status, response.read(), response.getheader("ETag"),
                response.getheader("Content-Type"))
    finally:
        connection.close()


def test_on_sqlite_a_change_through_one_server_is_read_at_once_through_another(start_server, tmp_path):
    with two_servers(start_server, tmp_path, {}) as (first, second):
        a_change_through_one_is_read_through_the_other(first, second)


def test_on_postgresql_a_change_through_one_server_is_read_at_once_through_another(
        start_server, tmp_path):
    with scratch_postgres_database() as database_url, \
            two_servers(start_server, tmp_path, {"RENTALCOMPLY_DATABASE_URL": database_url}) \
            as (first, second):
        a_change_through_one_is_read_through_the_other(first, second)
