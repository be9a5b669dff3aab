"""Bookings under way when the server dies: what it answered 201 for is in the database, intact."""

from __future__ import annotations

import datetime as dt
import http.client
import signal
import sqlite3
import threading
import time

import pytest

pytestmark = pytest.mark.server

WRITERS = 4


def stream_bookings(server, property_ids, stop: threading.Event):
    """Each writer books its own property night after night; returns the ids answered 201."""
    confirmed: list[str] = []
    failures: list[str] = []
    lock = threading.Lock()

    def writer(property_id: str):
        arrival = dt.date(2027, 1, 1)
        while not stop.is_set():
            body = {"property_id": property_id, "guest_name": "Stress Test",
                    "arrival_date": arrival.isoformat(),
                    "departure_date": (arrival + dt.timedelta(days=1)).isoformat(),
                    "guest_count": 1}
            try:
                status, answer, _ = server.request("POST", "/api/v1/bookings", body, timeout=5)
            except (OSError, http.client.HTTPException):  # the server is gone mid-request
                return
            with lock:
                if status == 201:
                    confirmed.append(answer["data"]["id"])
                else:
                    failures.append(f"{status} {answer}")
            arrival += dt.timedelta(days=1)

    threads = [threading.Thread(target=writer, args=(pid,)) for pid in property_ids]
    for thread in threads:
        thread.start()
    return threads, confirmed, failures


def make_properties(server, count: int) -> list[str]:
    ids = []
    for number in range(count):
        status, body, _ = server.request("POST", "/api/v1/properties",
                                         {"name": f"Crash test {number}", "address": "Somewhere"})
        assert status == 201, body
        ids.append(body["data"]["id"])
    return ids


def stored_booking_ids(data_dir) -> tuple[set[str], str]:
    with sqlite3.connect(data_dir / "rentalcomply.db") as connection:
        verdict = connection.execute("PRAGMA integrity_check").fetchone()[0]
        ids = {row[0] for row in connection.execute("SELECT id FROM booking")}
    return ids, verdict


@pytest.mark.parametrize("signum", [signal.SIGKILL, signal.SIGTERM], ids=["SIGKILL", "SIGTERM"])
def test_every_booking_answered_201_survives_the_server_dying_mid_stream(start_server, tmp_path,
                                                                          signum):
    data_dir = tmp_path / "data"
    server = start_server(data_dir, env={"RENTALCOMPLY_RATE_LIMIT_PER_MINUTE": "1000000"})
    property_ids = make_properties(server, WRITERS)
    stop = threading.Event()
    threads, confirmed, failures = stream_bookings(server, property_ids, stop)
    deadline = time.monotonic() + 10
    while len(confirmed) < 40 and time.monotonic() < deadline:
        time.sleep(0.02)
    server.process.send_signal(signum)
    code = server.process.wait(timeout=30)
    stop.set()
    for thread in threads:
        thread.join(timeout=30)

    assert failures == []
    assert len(confirmed) >= 40
    if signum == signal.SIGTERM:
        assert code == 0
    stored, verdict = stored_booking_ids(data_dir)
    assert verdict == "ok"
    missing = set(confirmed) - stored
    assert not missing, f"{len(missing)} bookings answered 201 are not in the database"
