"""A report under way when the server is killed (-9) completes on its own after a restart, once.

20,000 stays are written straight into the database (copies of one booking made through the API),
so that the generation takes long enough to be killed in the middle of it.
"""

from __future__ import annotations

import signal
import sqlite3
import time

import pytest

from tests.helpers import poll

pytestmark = [pytest.mark.server, pytest.mark.long]

STAYS = 20_000
PERIOD = "2026-10"
CODE = "rep_2026_10"


def insert_stays(data_dir, template_id: str, count: int) -> None:
    """`count` copies of the template booking, each a one-night stay departing in October."""
    with sqlite3.connect(data_dir / "rentalcomply.db", timeout=30) as connection:
        connection.row_factory = sqlite3.Row
        template = dict(connection.execute("SELECT * FROM booking WHERE id = ?",
                                           (template_id,)).fetchone())
        columns = list(template)
        rows = []
        for number in range(count):
            row = dict(template)
            day = 1 + number % 29
            row.update(id=f"bkg_crash{number:07d}", guest_name=f"Guest {number}",
                       arrival_date=f"2026-10-{day:02d}", departure_date=f"2026-10-{day + 1:02d}")
            rows.append(tuple(row[name] for name in columns))
        names = ", ".join(f'"{name}"' for name in columns)
        marks = ", ".join("?" for _ in columns)
        connection.executemany(f"INSERT INTO booking ({names}) VALUES ({marks})", rows)


def report_ready_events(data_dir) -> int:
    with sqlite3.connect(data_dir / "rentalcomply.db", timeout=30) as connection:
        return connection.execute("SELECT COUNT(*) FROM event WHERE type = 'report.ready'"
                                  ).fetchone()[0]


def generation_settled(data_dir) -> bool:
    """No report generation is waiting or under way, nor can one start: no report row holds a
    job or a lease (the sweep queues only those), and the urgent queue (reports) has no task
    queued or scheduled. What is counted then is final."""
    with sqlite3.connect(data_dir / "rentalcomply.db", timeout=30) as connection:
        [(open_jobs,)] = connection.execute(
            "SELECT COUNT(*) FROM report WHERE job IS NOT NULL OR lease_owner IS NOT NULL "
            "OR lease_expires_at IS NOT NULL").fetchall()
    with sqlite3.connect(data_dir / "queue.db", timeout=30) as connection:
        tasks = sum(connection.execute(f"SELECT COUNT(*) FROM {table} WHERE queue = ?",
                                       ("rentalcomply-urgent",)).fetchone()[0]
                    for table in ("task", "schedule"))
    return open_jobs == 0 and tasks == 0


def wait_until(condition, what: str, timeout: float = 60.0) -> None:
    deadline = time.monotonic() + timeout
    while not condition():
        assert time.monotonic() < deadline, f"{what}: not within {timeout:.0f} s"
        time.sleep(0.2)


def wait_for_status(server, key, wanted: set[str]) -> dict:
    """The report once the API says one of `wanted`, asked under the API's limit however long
    it takes (tests/helpers.py)."""
    _, body, _ = poll(lambda: server.request("GET", f"/api/v1/reports/{CODE}", key=key),
                      lambda answer: answer[0] == 200 and answer[1]["data"]["status"] in wanted,
                      what=f"the report {' or '.join(sorted(wanted))}")
    return body["data"]


def wait_for_generating(data_dir, timeout: float = 60.0) -> None:
    """Until the generation is under way, watched in the database: caught in its first moments,
    asked every 20 ms, which the API's 100 requests a minute would refuse."""
    deadline = time.monotonic() + timeout
    while True:
        with sqlite3.connect(data_dir / "rentalcomply.db", timeout=30) as connection:
            row = connection.execute("SELECT status FROM report WHERE code = ?",
                                     (CODE,)).fetchone()
        if row and row[0] == "generating":
            return
        assert time.monotonic() < deadline, f"the report is {row}, not generating"
        time.sleep(0.02)


def test_a_report_killed_mid_generation_completes_after_a_restart_exactly_once(start_server,
                                                                               tmp_path):
    data_dir = tmp_path / "data"
    server = start_server(data_dir)
    key = server.key
    status, body, _ = server.request("POST", "/api/v1/properties", {
        "name": "Studio Plaka", "address": "Adrianou 12, Athens",
        "aade_property_id": "00000000001", "country": "GR"})
    assert status == 201, body
    status, body, _ = server.request("POST", "/api/v1/bookings", {
        "property_id": body["data"]["id"], "guest_name": "Template Guest",
        "arrival_date": "2026-10-30", "departure_date": "2026-10-31", "guest_count": 1,
        "total_price": 100, "payment_method": "cash"})
    assert status == 201, body
    insert_stays(data_dir, body["data"]["id"], STAYS - 1)

    status, body, _ = server.request("POST", "/api/v1/reports", {"period": PERIOD})
    assert status == 202, body
    wait_for_generating(data_dir)
    server.process.send_signal(signal.SIGKILL)
    server.process.wait(timeout=10)
    assert report_ready_events(data_dir) == 0  # killed before it recorded anything

    restarted = start_server(data_dir)
    began = time.monotonic()
    report = wait_for_status(restarted, key, {"completed", "failed"})
    assert report["status"] == "completed", report
    assert time.monotonic() - began < 60
    assert report["booking_count"] == STAYS and report["generation_count"] == 1
    assert report["provisional"] is False
    # Once no generation is left to run, still one generation, one announcement and one set of
    # files.
    wait_until(lambda: generation_settled(data_dir), "no generation waiting or under way")
    assert wait_for_status(restarted, key, {"completed"})["generation_count"] == 1
    assert report_ready_events(data_dir) == 1
    with sqlite3.connect(data_dir / "rentalcomply.db", timeout=30) as connection:
        stored = connection.execute("SELECT format FROM report_file ORDER BY format").fetchall()
    assert stored == [("csv",), ("pdf",), ("xml",)]  # one set of files
    status, link, _ = restarted.request("GET", f"/api/v1/reports/{CODE}/download?format=csv",
                                        key=key)
    assert status == 200, link
