"""No event is lost when the appliance is killed: the real server (`python -m rentalcomply serve`)
in a subprocess, SIGKILLed and started again on the same data directory.

So that a test does not wait minutes for the first retry, the server process imports a
`sitecustomize` module (Python imports it at start-up when it is on the path) that shrinks the
retry schedule to seconds, as the in-process tests do; everything else is the shipped command.
"""

from __future__ import annotations

import sqlite3

import pytest

from rentalcomply.webhooks import verify
from tests.conftest import days_ahead
from tests.e2e.conftest import start_server  # noqa: F401 (the fixture)
from tests.helpers import poll
from tests.webhooks.conftest import Receiver, down_port

pytestmark = pytest.mark.server

FAST_RETRIES = """\
from tests.moved_clock.sitecustomize import apply  # the run's moved clock, when it is moved
apply()
from rentalcomply.webhooks import delivery
delivery.RETRY_DELAYS[:] = [2, 2, 2, 2, 2, 2, 2]
delivery.JITTER = 0.0
"""


@pytest.fixture
def server_env(tmp_path) -> dict:
    site = tmp_path / "site"
    site.mkdir()
    (site / "sitecustomize.py").write_text(FAST_RETRIES)
    from tests.e2e.conftest import ROOT
    return {
        "PYTHONPATH": f"{site}:{ROOT}",
        "RENTALCOMPLY_WEBHOOKS_ALLOW_HTTP": "true",
        "RENTALCOMPLY_WEBHOOKS_ALLOW_PRIVATE_ADDRESSES": "true",
    }


def book(server, key: str) -> dict:
    status, body, _ = server.request("POST", "/api/v1/properties", key=key, body={
        "name": "Villa Anemoi", "address": "Oia, Santorini", "aade_property_id": "00012345678"})
    assert status == 201, body
    status, body, _ = server.request("POST", "/api/v1/bookings", key=key, body={
        "property_id": body["data"]["id"], "guest_name": "Maria Papadopoulou",
        "arrival_date": days_ahead(200), "departure_date": days_ahead(204), "guest_count": 2})
    assert status == 201, body
    return body["data"]


def register(server, key: str, url: str) -> dict:
    status, body, _ = server.request("POST", "/api/v1/webhooks", key=key,
                                     body={"url": url, "events": ["booking.created"]})
    assert status == 201, body
    return body["data"]


def delivery_log(server, key: str, hook_id: str) -> list[dict]:
    # A 429 is waited out (Retry-After): the waits below ask this again and again.
    status, body, _ = poll(lambda: server.request("GET", f"/api/v1/webhooks/{hook_id}/deliveries",
                                                  key=key),
                           lambda answer: answer[0] != 429)
    assert status == 200, body
    return body["data"]


def wait_until(condition, what: str = "the condition"):
    """`condition()` (which may ask the API) until it is true, paced under the API's limit with
    a generous deadline (tests/helpers.py)."""
    return poll(condition, bool, what=what)


def queued_tasks(data_dir) -> int:
    """Tasks of the general queue (webhooks) waiting in the server's queue.db, due or scheduled."""
    with sqlite3.connect(data_dir / "queue.db", timeout=30) as connection:
        return sum(connection.execute(f"SELECT COUNT(*) FROM {table} WHERE queue = ?",
                                      ("rentalcomply",)).fetchone()[0]
                   for table in ("task", "schedule"))


def test_an_event_emitted_while_the_receiver_is_down_survives_a_kill_and_arrives_when_it_is_back(
        start_server, server_env, tmp_path):  # noqa: F811
    data_dir = tmp_path / "data"
    server = start_server(data_dir, env=server_env)
    key = server.key
    port = down_port()
    hook = register(server, key, f"http://127.0.0.1:{port}/hook")
    booking = book(server, key)
    # The receiver is down: the first attempt fails and a retry is planned.
    wait_until(lambda: (delivery_log(server, key, hook["id"]) or [{}])[0].get("attempts", 0) >= 1,
               what="a first failed attempt")
    [log] = delivery_log(server, key, hook["id"])
    assert log["status"] == "pending" and "cannot connect" in log["last_error"]

    server.kill()  # SIGKILL: no graceful shutdown, whatever was in flight is lost
    restarted = start_server(data_dir, env=server_env)
    receiver = Receiver()
    receiver.port = port
    receiver.start()
    try:
        [request] = receiver.wait_for(1, timeout=20)
        event = verify(request.body, request.headers, hook["secret"])
        # The booking as the API answered it, less the guest's link (never in an event); its
        # tourist tax included (docs/webhooks.md).
        assert event["type"] == "booking.created" and event["data"] == {
            name: value for name, value in booking.items() if name != "checkin_url"}
        done = wait_until(lambda: [entry for entry in delivery_log(restarted, key, hook["id"])
                                   if entry["status"] == "succeeded"], what="a succeeded delivery")
        assert done[0]["attempts"] >= 2 and done[0]["event_id"] == event["id"]
        # Once nothing is left to send (no delivery open, no task queued or scheduled), the
        # receiver still had it once.
        wait_until(lambda: queued_tasks(data_dir) == 0 and all(
            entry["status"] != "pending" for entry in delivery_log(restarted, key, hook["id"])),
            what="a quiet queue")
        assert len(receiver.requests) == 1
    finally:
        receiver.stop()


def test_an_event_queued_but_never_dispatched_before_a_kill_is_delivered_after_the_restart(
        start_server, server_env, tmp_path, receiver):  # noqa: F811
    data_dir = tmp_path / "data"
    # No worker: the booking's event and its dispatch task are only written down.
    server = start_server(data_dir, "--no-worker", env=server_env)
    key = server.key
    hook = register(server, key, receiver.url)
    booking = book(server, key)
    wait_until(lambda: queued_tasks(data_dir), what="the dispatch written down")
    assert receiver.requests == []
    server.kill()

    start_server(data_dir, env=server_env)
    [request] = receiver.wait_for(1, timeout=20)
    event = verify(request.body, request.headers, hook["secret"])
    assert event["type"] == "booking.created" and event["data"]["id"] == booking["id"]
