"""Redis, holding the task queue, stops: the server says so, bookings are still taken, and their
events are delivered once Redis is back.

A private redis-server on a free loopback port (skipped where the binary is missing), so that
stopping it disturbs nothing else on the machine.
"""

from __future__ import annotations

import http.server
import json
import shutil
import subprocess
import sys
import threading
import time

import pytest

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
        "arrival_date": "2027-06-01", "departure_date": "2027-06-04", "guest_count": 2})
    assert status == 201, body
    assert receiver.events == []

    private_redis.start()
    assert server.request("GET", "/healthz")[0] == 200
    # The outbox sweep, once a minute, hands over what could not be queued.
    deadline = time.monotonic() + 90
    while time.monotonic() < deadline and "booking.created" not in receiver.types():
        time.sleep(0.5)
    assert receiver.types().count("booking.created") == 1
    assert receiver.events[0]["data"]["id"] == body["data"]["id"]
