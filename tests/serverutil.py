"""The app in a real Waitress server on a free loopback port, inside the test process.

Unlike tests/e2e (a subprocess running the command line), this shares the test's database and
fixtures, so a test can fire concurrent requests over real sockets and then query the models:

    with running_server(wsgi_app, threads=8) as server:
        status, body, headers = server.request("POST", "/api/v1/bookings", body, key=owner.key)

Loopback plain HTTP is allowed by default (`server.allow_loopback_http`), so no proxy is needed.
"""

from __future__ import annotations

import contextlib
import http.client
import json
import threading
from typing import Iterator

import waitress
from waitress import wasyncore


class LoopbackServer:
    def __init__(self, port: int):
        self.port = port
        self.base_url = f"http://127.0.0.1:{port}"

    def request(self, method: str, path: str, body=None, key: str | None = None,
                headers: dict | None = None, timeout: float = 30) -> tuple[int, dict | None, dict]:
        """Send one request on a fresh connection; return (status, parsed JSON or None, headers)."""
        sent = dict(headers or {})
        if key:
            sent["Authorization"] = f"Bearer {key}"
        payload = None
        if body is not None:
            payload = json.dumps(body).encode("utf-8")
            sent["Content-Type"] = "application/json"
        connection = http.client.HTTPConnection("127.0.0.1", self.port, timeout=timeout)
        try:
            connection.request(method, path, body=payload, headers=sent)
            response = connection.getresponse()
            raw = response.read()
            parsed = json.loads(raw) if raw else None
            return response.status, parsed, dict(response.getheaders())
        finally:
            connection.close()


@contextlib.contextmanager
def running_server(app, threads: int = 4) -> Iterator[LoopbackServer]:
    # A socket map of its own, so stopping this server closes nothing else in the process.
    socket_map: dict = {}
    server = waitress.create_server(app, host="127.0.0.1", port=0, threads=threads,
                                    map=socket_map, clear_untrusted_proxy_headers=False)
    failures: list[BaseException] = []

    def serve() -> None:
        try:
            server.run()
        except OSError:  # the listening socket closed under the loop while stopping
            pass
        except BaseException as exc:  # pragma: no cover - surfaced by the assertion below
            failures.append(exc)

    thread = threading.Thread(target=serve, name="test-waitress", daemon=True)
    thread.start()
    try:
        yield LoopbackServer(server.effective_port)
    finally:
        server.task_dispatcher.shutdown()
        wasyncore.close_all(socket_map)
        thread.join(timeout=10)
    assert not thread.is_alive(), "the test server did not stop"
    assert not failures, failures
