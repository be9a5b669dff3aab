"""Fixtures of the webhook tests: a real HTTP receiver on a loopback port, and a queue driven step
by step.

- `receiver`: an http.server in a thread that records every request and answers from a script
  (`receiver.answer(500, 500, 200)`; `Hang(seconds)` holds the connection open).
- `settings` here allows http:// and loopback destinations (the receiver is on 127.0.0.1) and
  puts the queue in a SQLite file, so tasks wait until `tasks.run()` executes them. A test module
  can override `settings_env` for other settings.
- `tasks.run(advance=s)`: moves the application clock and Huey's schedule `s` seconds on, then
  runs every task that is due, including the ones those tasks queue.
- `emit(account_id, type, data)`: an event written in its own transaction, as a write would.
"""

from __future__ import annotations

import dataclasses
import datetime as dt
import http.server
import threading
import time

import huey.api as huey_api
import huey.utils as huey_utils
import pytest

from rentalcomply.core import clock, events
from rentalcomply.core.db import db
from rentalcomply.core.queue import huey
from rentalcomply.webhooks import delivery
from tests.conftest import bootstrapped_settings, task_queue_url


@dataclasses.dataclass
class Received:
    method: str
    path: str
    headers: dict
    body: bytes
    at: float  # time.time() when the request was complete


@dataclasses.dataclass
class Hang:
    seconds: float


class Receiver:
    """A webhook receiver on 127.0.0.1 that can be stopped and started again on the same port."""

    def __init__(self):
        self.requests: list[Received] = []
        self.script: list = []
        self.default = 200
        self.port = 0
        self._server = None
        self._released = threading.Event()
        self._changed = threading.Condition()

    # -- control --------------------------------------------------------------------------------

    def answer(self, *responses) -> None:
        """Answer the next requests with these, in order: a status, (status, headers), or Hang."""
        self.script = list(responses)

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.port}/hook"

    def start(self) -> "Receiver":
        receiver = self

        class Handler(http.server.BaseHTTPRequestHandler):
            protocol_version = "HTTP/1.1"

            def do_POST(self):
                length = int(self.headers.get("Content-Length") or 0)
                body = self.rfile.read(length)
                response = receiver.script.pop(0) if receiver.script else receiver.default
                received = Received("POST", self.path, {k: v for k, v in self.headers.items()},
                                    body, time.time())
                with receiver._changed:
                    receiver.requests.append(received)
                    receiver._changed.notify_all()
                if isinstance(response, Hang):
                    receiver._released.wait(response.seconds)
                    return
                status, headers = response if isinstance(response, tuple) else (response, {})
                payload = b'{"ok":true}' if 200 <= status < 300 else b'{"error":"no thanks"}'
                self.send_response(status)
                for name, value in headers.items():
                    self.send_header(name, value)
                self.send_header("Content-Type", "application/json")
                self.send_header("Content-Length", str(len(payload)))
                self.end_headers()
                self.wfile.write(payload)

            def log_message(self, *args):
                pass

        server = http.server.ThreadingHTTPServer(("127.0.0.1", self.port), Handler)
        server.daemon_threads = True
        self.port = server.server_address[1]
        self._server = server
        threading.Thread(target=server.serve_forever, kwargs={"poll_interval": 0.05},
                         daemon=True).start()
        return self

    def stop(self) -> None:
        if self._server is not None:
            self._released.set()
            self._server.shutdown()
            self._server.server_close()
            self._server = None
            self._released = threading.Event()

    def wait_for(self, count: int, timeout: float = 10.0) -> list[Received]:
        deadline = time.monotonic() + timeout
        with self._changed:
            while len(self.requests) < count:
                remaining = deadline - time.monotonic()
                if remaining <= 0:
                    raise AssertionError(f"expected {count} deliveries within {timeout} s, "
                                         f"got {len(self.requests)}")
                self._changed.wait(remaining)
            return list(self.requests)


@pytest.fixture
def receiver():
    server = Receiver().start()
    yield server
    server.stop()


def down_port() -> int:
    """A loopback port with nothing listening (for a receiver that is down)."""
    import socket
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


@pytest.fixture
def settings_env(tmp_path) -> dict:
    return {
        "RENTALCOMPLY_WEBHOOKS_ALLOW_HTTP": "true",
        "RENTALCOMPLY_WEBHOOKS_ALLOW_PRIVATE_ADDRESSES": "true",
        "RENTALCOMPLY_QUEUE_URL": task_queue_url(tmp_path),
    }


@pytest.fixture
def settings(tmp_path, settings_env):
    with bootstrapped_settings(tmp_path, **settings_env) as settings:
        yield settings


@pytest.fixture
def fast_retries(monkeypatch):
    """Retry after 1, 2, 3 ... 7 seconds instead of minutes and hours, without jitter."""
    monkeypatch.setattr(delivery, "RETRY_DELAYS", [1, 2, 3, 4, 5, 6, 7])
    monkeypatch.setattr(delivery, "JITTER", 0.0)


class Tasks:
    """Runs queued tasks in the test's thread; time moves only when a test says so.

    Huey reads the application clock here too, so a retry scheduled "in 60 s" is due once the
    test has moved the clock 60 s on, not 60 real seconds later.
    """

    def run(self, advance: float = 0.0) -> int:
        if advance:
            clock.travel(dt.timedelta(seconds=advance))
        now = clock.utcnow_precise()
        for task in huey.read_schedule(now):
            huey.enqueue(task)
        count = 0
        while True:
            task = huey.dequeue()
            if task is None:
                return count
            huey.execute(task, timestamp=now)
            count += 1

    def scheduled(self) -> list:
        return huey.scheduled()


@pytest.fixture
def tasks(settings, monkeypatch):
    assert not huey.immediate, "the webhook tests drive a real queue"
    monkeypatch.setattr(huey_utils, "utcnow", clock.utcnow_precise)
    monkeypatch.setattr(huey_api, "utcnow", clock.utcnow_precise)
    runner = Tasks()
    runner.run()  # whatever set-up queued
    return runner


@pytest.fixture
def emit():
    def emit(account_id: str, event_type: str = "booking.created", data: dict | None = None):
        with db.atomic():
            event = events.emit(account_id, event_type, data or {"id": "book_test", "guest_name": "Eleni"})
        events.notify_committed()
        return event
    return emit


def register(actor, url: str, events_=("*",), status: int = 201) -> dict:
    return actor.post_json("/api/v1/webhooks", {"url": url, "events": list(events_)},
                           status=status).json["data"]
