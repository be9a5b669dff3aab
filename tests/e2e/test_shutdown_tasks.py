"""A task running when SIGTERM arrives finishes before the server exits, and its result is kept."""

from __future__ import annotations

import http.server
import signal
import threading
import time

import pytest

pytestmark = pytest.mark.server

RECEIVER_DELAY = 2.0


class SlowReceiver:
    """A webhook receiver on loopback that takes RECEIVER_DELAY seconds to answer 200."""

    def __init__(self):
        self.arrived = threading.Event()
        self.answered_at: float | None = None
        receiver = self

        class Handler(http.server.BaseHTTPRequestHandler):
            def do_POST(self):
                self.rfile.read(int(self.headers.get("Content-Length", 0)))
                receiver.arrived.set()
                time.sleep(RECEIVER_DELAY)
                self.send_response(200)
                self.send_header("Content-Length", "0")
                self.end_headers()
                receiver.answered_at = time.monotonic()

            def log_message(self, *args):
                pass

        self.server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.url = f"http://127.0.0.1:{self.server.server_address[1]}/hook"
        threading.Thread(target=self.server.serve_forever, daemon=True).start()

    def close(self):
        self.server.shutdown()
        self.server.server_close()


@pytest.fixture
def receiver():
    slow = SlowReceiver()
    yield slow
    slow.close()


def test_sigterm_lets_a_running_webhook_delivery_finish_and_record_its_success(
        start_server, tmp_path, receiver):
    env = {"RENTALCOMPLY_WEBHOOKS_ALLOW_HTTP": "true",
           "RENTALCOMPLY_WEBHOOKS_ALLOW_PRIVATE_ADDRESSES": "true"}
    data_dir = tmp_path / "data"
    server = start_server(data_dir, env=env)
    status, body, _ = server.request("POST", "/api/v1/webhooks",
                                     {"url": receiver.url, "events": ["*"]})
    assert status == 201, body
    hook_id = body["data"]["id"]
    status, body, _ = server.request("POST", f"/api/v1/webhooks/{hook_id}/test")
    assert status == 202, body

    assert receiver.arrived.wait(15), "the delivery task never reached the receiver"
    server.process.send_signal(signal.SIGTERM)
    assert server.process.wait(timeout=30) == 0
    stopped_at = time.monotonic()
    assert receiver.answered_at is not None and receiver.answered_at <= stopped_at

    again = start_server(data_dir, "--no-worker", env=env)
    status, body, _ = again.request("GET", f"/api/v1/webhooks/{hook_id}/deliveries",
                                    key=server.key)
    assert status == 200, body
    [delivery] = body["data"]
    assert delivery["event_type"] == "webhook.test"
    assert delivery["status"] == "succeeded"
    assert delivery["last_status_code"] == 200
