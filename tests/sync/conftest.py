"""Fixtures of the sync tests: a real HTTP server on a loopback port serving calendar feeds.

- `feeds`: a `FeedServer`; `feeds.serve("/a.ics", body)` publishes a feed (with an ETag, answering
  304 to a matching If-None-Match), `feeds.route("/x", Answer(...))` any other answer (a status,
  a redirect, a slow body, a streamed body without Content-Length). Every request is recorded.
- `settings` here allows loopback feed URLs (`sync.allow_private_addresses`) and a 1-second
  timeout, so the slow-server test is quick.
- `connect(property_id, provider, path)`: a channel connection of account A to a feed path.

Every sync test reads its feeds on the day they were published (FEEDS_DAY): the feeds' stays,
from January 2027 on, are then future stays on every date the suite runs, and "past" means
before that day.
"""

from __future__ import annotations

import dataclasses
import datetime
import hashlib
import http.server
import pathlib
import threading
import time

import pytest

from rentalcomply.core import clock
from rentalcomply.properties import service as properties
from tests.conftest import bootstrapped_settings

# Sample feeds as Airbnb, Booking.com and Vrbo publish them, kept with the tests.
FIXTURES = pathlib.Path(__file__).resolve().parent / "feeds"


def fixture(name: str) -> bytes:
    return (FIXTURES / name).read_bytes()


# The day the sample feeds were published (their DTSTAMP), at noon UTC.
FEEDS_DAY = datetime.datetime(2026, 11, 20, 12, 0, 0)


@pytest.fixture(autouse=True)
def on_the_feeds_day():
    """The clock stands on FEEDS_DAY for the whole test (the settings fixture resets it after)."""
    clock.freeze(at=FEEDS_DAY)
    yield
    clock.reset()


@dataclasses.dataclass
class Answer:
    status: int = 200
    body: bytes = b""
    headers: dict = dataclasses.field(default_factory=dict)
    delay: float = 0.0  # seconds before the body
    stream: bool = False  # no Content-Length: the body in chunks until the connection closes
    etag: bool = True
    # Answered only once every party of the barrier asks (requests in flight at once), or broken.
    together: threading.Barrier | None = None
    # Answered only once the event is set: a fetch held in flight for as long as the test needs.
    held_until: threading.Event | None = None


@dataclasses.dataclass
class Seen:
    path: str
    headers: dict


class FeedServer:
    def __init__(self):
        self.answers: dict[str, Answer] = {}
        self.requests: list[Seen] = []
        self.alone: list[str] = []  # paths whose `together` barrier broke: not all came at once
        server_self = self

        class Handler(http.server.BaseHTTPRequestHandler):
            protocol_version = "HTTP/1.1"

            def log_message(self, *args):
                pass

            def do_GET(self):
                server_self.requests.append(Seen(self.path, dict(self.headers)))
                answer = server_self.answers.get(self.path, Answer(404, b"not found"))
                if answer.together is not None:
                    try:
                        answer.together.wait(timeout=30)
                    except threading.BrokenBarrierError:
                        server_self.alone.append(self.path)
                if answer.held_until is not None:
                    answer.held_until.wait(timeout=30)
                etag = '"' + hashlib.sha256(answer.body).hexdigest()[:16] + '"'
                if answer.status == 200 and answer.etag and self.headers.get("If-None-Match") == etag:
                    self.send_response(304)
                    self.send_header("ETag", etag)
                    self.send_header("Content-Length", "0")
                    self.end_headers()
                    return
                self.send_response(answer.status)
                for name, value in answer.headers.items():
                    self.send_header(name, value)
                if answer.status == 200 and answer.etag:
                    self.send_header("ETag", etag)
                self.send_header("Content-Type", "text/calendar; charset=utf-8")
                if answer.stream:
                    self.send_header("Connection", "close")
                else:
                    self.send_header("Content-Length", str(len(answer.body)))
                self.end_headers()
                if answer.delay:
                    time.sleep(answer.delay)
                try:
                    if answer.stream:
                        for start in range(0, len(answer.body), 65536):
                            self.wfile.write(answer.body[start:start + 65536])
                    else:
                        self.wfile.write(answer.body)
                except OSError:
                    pass  # the client hung up (size cap, timeout): what the test wanted
                if answer.stream:
                    self.close_connection = True

        self._server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self._server.daemon_threads = True
        self.port = self._server.server_address[1]
        self._thread = threading.Thread(target=self._server.serve_forever, daemon=True)
        self._thread.start()

    def url(self, path: str) -> str:
        return f"http://127.0.0.1:{self.port}{path}"

    def serve(self, path: str, body: bytes, **options) -> str:
        self.answers[path] = Answer(200, body, **options)
        return self.url(path)

    def route(self, path: str, answer: Answer) -> str:
        self.answers[path] = answer
        return self.url(path)

    def requests_to(self, path: str) -> list[Seen]:
        return [seen for seen in self.requests if seen.path == path]

    def wait_for_request(self, path: str, timeout: float = 30) -> None:
        """Until `path` was asked for (its answer may still be held)."""
        deadline = time.monotonic() + timeout
        while not self.requests_to(path):
            assert time.monotonic() < deadline, f"{path} was not fetched within {timeout} s"
            time.sleep(0.02)

    def stop(self):
        self._server.shutdown()
        self._server.server_close()


@pytest.fixture
def feeds():
    server = FeedServer()
    yield server
    server.stop()


@pytest.fixture
def settings_env():
    return {"RENTALCOMPLY_SYNC_ALLOW_PRIVATE_ADDRESSES": "true",
            "RENTALCOMPLY_SYNC_TIMEOUT_SECONDS": "1"}


@pytest.fixture
def settings(tmp_path, settings_env):
    with bootstrapped_settings(tmp_path, **settings_env) as settings:
        yield settings


@pytest.fixture
def villa(account_a):
    return properties.create_property(account_a, name="Villa Anemoi", address="Oia, Santorini")


@pytest.fixture
def connect(account_a, feeds):
    def make(property_id: str, provider: str, path: str, account_id: str | None = None):
        return properties.add_channel(account_id or account_a, property_id, provider=provider,
                                      ical_url=feeds.url(path), allow_private_addresses=True)
    return make


def calendar(*events: str, prodid: str = "-//Test//EN") -> bytes:
    """A feed of the given VEVENT bodies (lines joined with CRLF)."""
    lines = ["BEGIN:VCALENDAR", "VERSION:2.0", f"PRODID:{prodid}"]
    for event in events:
        lines += ["BEGIN:VEVENT", *event.strip().splitlines(), "END:VEVENT"]
    lines.append("END:VCALENDAR")
    return ("\r\n".join(lines) + "\r\n").encode("utf-8")


def event(uid: str, start: str, end: str | None = None, summary: str = "Reserved",
          extra: str = "") -> str:
    lines = [f"UID:{uid}", f"DTSTART;VALUE=DATE:{start}"]
    if end:
        lines.append(f"DTEND;VALUE=DATE:{end}")
    lines.append(f"SUMMARY:{summary}")
    if extra:
        lines.append(extra)
    return "\n".join(lines)
