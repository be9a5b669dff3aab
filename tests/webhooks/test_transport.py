"""Kept-alive webhook connections: one connection for several deliveries to one receiver, a
connection the receiver closed is replaced, and the guard still holds for a kept connection."""

from __future__ import annotations

import http.server
import threading

import pytest

from rentalcomply.core import netguard
from rentalcomply.webhooks import transport


class CountingReceiver:
    """Answers 200 to POSTs; counts TCP connections; `close_after` answers close the connection."""

    def __init__(self, close_after: bool = False):
        self.connections = 0
        counter = self

        class Handler(http.server.BaseHTTPRequestHandler):
            protocol_version = "HTTP/1.1"

            def setup(self):
                counter.connections += 1
                super().setup()

            def do_POST(self):
                self.rfile.read(int(self.headers.get("Content-Length") or 0))
                self.send_response(200)
                self.send_header("Content-Length", "2")
                if close_after:
                    self.send_header("Connection", "close")
                self.end_headers()
                self.wfile.write(b"ok")

            def log_message(self, *args):
                pass

        self.server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.server.daemon_threads = True
        self.url = f"http://127.0.0.1:{self.server.server_address[1]}/hook"
        threading.Thread(target=self.server.serve_forever, kwargs={"poll_interval": 0.05},
                         daemon=True).start()

    def stop(self):
        self.server.shutdown()
        self.server.server_close()


@pytest.fixture
def fresh_pool():
    transport.close_all()
    yield
    transport.close_all()


def post(url, allow_private=True):
    return transport.post(url, b"{}", {"Content-Type": "application/json"}, timeout=5,
                          allow_private=allow_private, allow_http=True, max_bytes=500)


def test_deliveries_to_one_receiver_share_one_connection(fresh_pool):
    receiver = CountingReceiver()
    try:
        for _ in range(5):
            response = post(receiver.url)
            assert response.status == 200 and response.body == b"ok"
        assert receiver.connections == 1
    finally:
        receiver.stop()


def test_a_receiver_that_closes_its_connections_gets_a_new_one_each_time(fresh_pool):
    receiver = CountingReceiver(close_after=True)
    try:
        for _ in range(3):
            assert post(receiver.url).status == 200
        assert receiver.connections == 3
    finally:
        receiver.stop()


def test_a_kept_connection_closed_while_idle_is_replaced_without_an_error(fresh_pool):
    receiver = CountingReceiver()
    try:
        assert post(receiver.url).status == 200
        for connection, _ in list(transport._pool().values()):
            connection.sock.shutdown(2)  # as if the receiver had dropped it while idle
        assert post(receiver.url).status == 200
        assert receiver.connections == 2
    finally:
        receiver.stop()


def test_a_kept_connection_to_a_loopback_address_is_not_used_once_private_addresses_are_refused(
        fresh_pool):
    receiver = CountingReceiver()
    try:
        assert post(receiver.url).status == 200
        with pytest.raises(netguard.DestinationRefused):
            post(receiver.url, allow_private=False)
        assert receiver.connections == 1
    finally:
        receiver.stop()
