"""Redis, holding the task queue, stops: the server says so, bookings are still taken, and their
events are delivered once Redis is back.

A private redis-server on a free loopback port (skipped where the binary is missing), so that
stopping it disturbs nothing else on the machine.
"""

from __future__ import annotations

import contextlib
import datetime as dt
import http.server
import json
import shutil
import subprocess
import sys
import threading
import time

import pytest

from rentalcomply.core import clock
from tests.conftest import POSTGRES_URL, days_ahead, scratch_postgres_database
from tests.e2e.conftest import ROOT, clean_environment, free_port

pytestmark = pytest.mark.server


class PrivateRedis:
    def __init__(self):
        binary = shutil.which("redis-server")
        if binary is None:
            pytest.skip("redis-server is not installed")
        self.binary = binary
        self.port = free_port()
        self.url = f"redis://127.0.0.1:{self.port}/0"
        self.process = None

    def start(self):
        self.process = subprocess.Popen(
            [self.binary, "--port", str(self.port), "--bind", "127.0.0.1", "--save", "",
             "--appendonly", "no"], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        deadline = time.monotonic() + 10
        import redis
        while time.monotonic() < deadline:
            try:
                redis.Redis.from_url(self.url, socket_connect_timeout=0.2).ping()
                return
            except redis.RedisError:
                time.sleep(0.05)
        raise AssertionError("redis-server did not start")

    def stop(self):
        if self.process is not None and self.process.poll() is None:
            self.process.kill()
            self.process.wait(timeout=10)


@pytest.fixture
def private_redis():
    pytest.importorskip("redis")
    server = PrivateRedis()
    server.start()
    yield server
    server.stop()


class Receiver:
    def __init__(self):
        self.events: list[dict] = []
        receiver = self

        class Handler(http.server.BaseHTTPRequestHandler):
            def do_POST(self):
                receiver.events.append(json.loads(self.rfile.read(int(self.headers["Content-Length"]))))
                self.send_response(200)
                self.send_header("Content-Length", "0")
                self.end_headers()

            def log_message(self, *args):
                pass

        self.server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.url = f"http://127.0.0.1:{self.server.server_address[1]}/hook"
        threading.Thread(target=self.server.serve_forever, daemon=True).start()

    def types(self) -> list[str]:
        return [event["type"] for event in self.events]


def doctor(data_dir, env) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "rentalcomply", "--data-dir", str(data_dir),
                           "doctor"], cwd=ROOT, env=clean_environment(**env), capture_output=True,
                          text=True, timeout=60)


def test_with_redis_stopped_health_and_doctor_name_the_queue_and_bookings_still_succeed(
        start_server, tmp_path, private_redis, mail_server):
    receiver = Receiver()
    env = {"RENTALCOMPLY_QUEUE_URL": private_redis.url, **mail_server.env,
           "RENTALCOMPLY_WEBHOOKS_ALLOW_HTTP": "true",
           "RENTALCOMPLY_WEBHOOKS_ALLOW_PRIVATE_ADDRESSES": "true"}
    data_dir = tmp_path / "data"
    server = start_server(data_dir, env=env)
    assert server.request("GET", "/healthz")[0] == 200
    assert server.request("POST", "/api/v1/webhooks",
                          {"url": receiver.url, "events": ["booking.created"]})[0] == 201
    status, body, _ = server.request("POST", "/api/v1/properties", {
        "name": "Seaside Studio", "address": "Akti Miaouli 12", "aade_property_id": "00001234567"})
    assert status == 201, body
    property_id = body["data"]["id"]
    assert doctor(data_dir, env).returncode == 0

    private_redis.stop()
    status, body, _ = server.request("GET", "/healthz")
    assert status == 503 and "task queue" in body["error"]["message"], body
    checked = doctor(data_dir, env)
    assert checked.returncode == 1
    assert "FAIL  task queue" in checked.stdout and "start Redis" in checked.stdout, checked.stdout

    status, body, _ = server.request("POST", "/api/v1/bookings", {
        "property_id": property_id, "guest_name": "Eleni Papadopoulou",
        "arrival_date": days_ahead(200), "departure_date": days_ahead(203), "guest_count": 2})
    assert status == 201, body
    assert receiver.events == []

    private_redis.start()
    assert server.request("GET", "/healthz")[0] == 200
    # The wake-up the queue missed is sent as soon as the server's worker finds it back (the
    # outbox sweep, once a minute, would hand it over too).
    deadline = time.monotonic() + 90
    while time.monotonic() < deadline and "booking.created" not in receiver.types():
        time.sleep(0.5)
    assert receiver.types().count("booking.created") == 1
    assert receiver.events[0]["data"]["id"] == body["data"]["id"]


def last_month() -> str:
    first = clock.today().replace(day=1)
    return (first - dt.timedelta(days=1)).strftime("%Y-%m")


def test_with_redis_stopped_reports_and_sync_triggers_are_accepted_and_done_once_it_is_back(
        start_server, tmp_path, private_redis, mail_server):
    """On PostgreSQL when the pass has it (SQLite otherwise) with a private Redis: the writes
    that queue work answer 202 while Redis is stopped, never 500, and their work is done once it
    is back (the report by the report sweep, the trigger queued again as soon as the server finds
    the queue answering; the periodic sync would run it within the minute too)."""
    feed = FeedServer()
    with contextlib.ExitStack() as stack:
        env = {"RENTALCOMPLY_QUEUE_URL": private_redis.url, **mail_server.env,
               "RENTALCOMPLY_SYNC_ALLOW_PRIVATE_ADDRESSES": "true",
               "RENTALCOMPLY_REPORTS_LEASE_SECONDS": "5",
               "RENTALCOMPLY_REPORTS_SWEEP_INTERVAL_SECONDS": "1",
               "RENTALCOMPLY_RATE_LIMIT_PER_MINUTE": "100000"}
        if POSTGRES_URL:
            env["RENTALCOMPLY_DATABASE_URL"] = stack.enter_context(
                scratch_postgres_database(migrated=False))
        server = start_server(tmp_path / "data", env=env)
        status, body, _ = server.request("POST", "/api/v1/properties", {
            "name": "Seaside Studio", "address": "Akti Miaouli 12",
            "aade_property_id": "00001234567"})
        assert status == 201, body
        property_id = body["data"]["id"]

        private_redis.stop()
        status, report, _ = server.request("POST", "/api/v1/reports", {"period": last_month()})
        assert status == 202, report
        status, body, _ = server.request("POST", f"/api/v1/properties/{property_id}/channels",
                                         {"provider": "airbnb", "ical_url": feed.url})
        assert status == 201, body
        status, body, response = server.request("POST", "/api/v1/sync/trigger")
        assert status in (202, 503), body
        if status == 503:
            assert response.getheader("Retry-After")
        time.sleep(2)
        private_redis.start()

        deadline = time.monotonic() + 150
        report_status = sync_done = None
        while time.monotonic() < deadline:
            answer = server.request("GET", f"/api/v1/reports/{report['data']['id']}")
            assert answer[0] == 200, answer[1]
            report_status = answer[1]["data"]["status"]
            sync_done = server.request("GET", "/api/v1/sync/status")[1]["data"]["last_sync_all"]
            if report_status == "completed" and sync_done:
                break
            time.sleep(1)
        assert report_status == "completed"
        assert sync_done and feed.fetches >= 1
        logged = "".join(server.stderr_lines)
        assert "Traceback" not in logged, logged[-3000:]
        assert logged.count("the task queue does not answer") <= 2, logged[-3000:]


class FeedServer:
    """A channel's calendar feed on loopback: one stay."""

    def __init__(self):
        arrival = clock.today() + dt.timedelta(days=20)
        body = ("BEGIN:VCALENDAR\r\nVERSION:2.0\r\nPRODID:-//test//EN\r\nBEGIN:VEVENT\r\n"
                "UID:stay-1@example.com\r\nSUMMARY:Reserved\r\n"
                f"DTSTART;VALUE=DATE:{arrival:%Y%m%d}\r\n"
                f"DTEND;VALUE=DATE:{arrival + dt.timedelta(days=3):%Y%m%d}\r\n"
                "END:VEVENT\r\nEND:VCALENDAR\r\n").encode()
        feed = self
        self.fetches = 0

        class Handler(http.server.BaseHTTPRequestHandler):
            def do_GET(self):
                feed.fetches += 1
                self.send_response(200)
                self.send_header("Content-Type", "text/calendar")
                self.send_header("Content-Length", str(len(body)))
                self.end_headers()
                self.wfile.write(body)

            def log_message(self, *args):
                pass

        self.server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.url = f"http://127.0.0.1:{self.server.server_address[1]}/feed.ics"
        threading.Thread(target=self.server.serve_forever, daemon=True).start()
