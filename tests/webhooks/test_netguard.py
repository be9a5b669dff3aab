"""The SSRF guard and the one outbound HTTP client (rentalcomply.core.netguard)."""

import socket
import ssl
import subprocess
import threading
import time

import pytest

from rentalcomply.core import netguard
from tests.webhooks.conftest import Hang, Receiver


@pytest.mark.parametrize("address", [
    "127.0.0.1", "127.8.9.10", "::1", "10.0.0.1", "172.16.5.4", "192.168.0.10",
    "169.254.169.254", "100.64.0.1", "100.100.100.200", "fd00:ec2::254", "fe80::1",
    "::ffff:127.0.0.1", "::ffff:10.0.0.1", "2002:7f00:1::1", "192.0.2.10", "198.18.0.1",
    "::127.0.0.1", "64:ff9b::127.0.0.1", "64:ff9b::a9fe:a9fe",
    "::ffff:0:127.0.0.1", "::ffff:0:10.0.0.1", "::ffff:0:a9fe:a9fe", "fec0::1",
    "feff:ffff::1", "64:ff9b:1::a00:1",
])
def test_non_public_addresses_are_refused_unless_allowed(address):
    assert netguard.address_problem(address, allow_private=False)
    assert netguard.address_problem(address, allow_private=True) is None


@pytest.mark.parametrize("address", ["0.0.0.0", "::", "224.0.0.1", "ff02::1", "255.255.255.255"])
def test_unspecified_multicast_and_broadcast_addresses_are_always_refused(address):
    assert netguard.address_problem(address, allow_private=True)


@pytest.mark.parametrize("address", ["93.184.216.34", "1.1.1.1", "2606:4700:4700::1111",
                                     "::ffff:0:93.184.216.34", "64:ff9b::1.1.1.1"])
def test_public_addresses_are_allowed(address):
    assert netguard.address_problem(address, allow_private=False) is None


@pytest.mark.parametrize("address, kind", [
    ("::ffff:0:127.0.0.1", "a loopback address"), ("::ffff:0:192.168.1.1", "a private address"),
    ("fec0::1", "a site-local address"), ("fec0:1::a", "a site-local address"),
])
def test_ipv4_translated_and_site_local_addresses_are_refused_at_connect_time(
        receiver, monkeypatch, address, kind):
    monkeypatch.setattr(netguard, "resolve", lambda host, port: [address])
    with pytest.raises(netguard.DestinationRefused) as refused:
        netguard.fetch(f"http://rebound.example.org:{receiver.port}/")
    assert f"rebound.example.org resolves to {address}, {kind}" in str(refused.value)
    with pytest.raises(netguard.DestinationRefused, match=kind):
        netguard.fetch(f"http://[{address}]:{receiver.port}/")
    assert receiver.requests == []


@pytest.mark.parametrize("host, address", [
    ("2130706433", "127.0.0.1"), ("0177.0.0.1", "127.0.0.1"), ("127.1", "127.0.0.1"),
    ("0x7f.0.0.1", "127.0.0.1"), ("0x7f.1", "127.0.0.1"), ("10.1", "10.0.0.1"),
])
def test_numeric_forms_of_an_address_are_judged_as_that_address_without_dns(host, address):
    assert str(netguard.numeric_ipv4(host)) == address
    assert netguard.host_problem(host, allow_private=False).startswith(f"{host} means {address} is")
    assert netguard.host_problem(host, allow_private=True) is None


@pytest.mark.parametrize("host", ["example.org", "1.example.org", "08.1.1.1.example", "0xzz"])
def test_names_are_not_numeric_forms(host):
    assert netguard.numeric_ipv4(host) is None


def test_the_refusal_names_the_setting_that_would_allow_it(receiver):
    with pytest.raises(netguard.DestinationRefused) as refused:
        netguard.fetch(receiver.url, method="POST", body=b"{}",
                       private_setting="sync.allow_private_addresses")
    assert refused.value.permanent
    assert str(refused.value) == ("the destination is refused: 127.0.0.1 is a loopback address; "
                                  "set sync.allow_private_addresses = true to allow it")
    assert receiver.requests == []


def test_a_name_is_refused_if_any_of_its_addresses_is_private(receiver, monkeypatch):
    monkeypatch.setattr(netguard, "resolve", lambda host, port: ["93.184.216.34", "127.0.0.1"])
    with pytest.raises(netguard.DestinationRefused, match="resolves to 127.0.0.1"):
        netguard.fetch(f"http://mixed.example.org:{receiver.port}/")
    assert receiver.requests == []


def test_the_request_goes_to_the_vetted_address_with_the_name_in_host(receiver, monkeypatch):
    looked_up = []

    def resolve(host, port):
        looked_up.append((host, port))
        return ["127.0.0.1"]
    monkeypatch.setattr(netguard, "resolve", resolve)
    response = netguard.fetch(f"http://feeds.example.org:{receiver.port}/cal.ics?x=1",
                              method="POST", body=b'{"a":1}', headers={"X-Test": "yes"},
                              allow_private=True)
    assert looked_up == [("feeds.example.org", receiver.port)]
    assert response.status == 200 and response.body == b'{"ok":true}'
    assert response.address == "127.0.0.1" and response.header("Content-Type") == "application/json"
    [request] = receiver.requests
    assert request.path == "/cal.ics?x=1" and request.body == b'{"a":1}'
    assert request.headers["Host"] == f"feeds.example.org:{receiver.port}"
    assert request.headers["X-Test"] == "yes"


def test_an_error_status_is_a_response_not_an_exception(receiver):
    # The receiver only speaks POST: a GET gets its 501.
    response = netguard.fetch(receiver.url, allow_private=True)
    assert response.status == 501


def test_redirects_are_returned_not_followed(receiver):
    elsewhere = Receiver().start()
    try:
        receiver.answer((302, {"Location": elsewhere.url}))
        response = netguard.fetch(receiver.url, method="POST", body=b"", allow_private=True)
        assert response.status == 302 and response.header("location") == elsewhere.url
        assert elsewhere.requests == []
    finally:
        elsewhere.stop()


def test_plain_http_can_be_refused_naming_the_setting():
    with pytest.raises(netguard.InvalidUrl, match="webhooks.allow_http"):
        netguard.fetch("http://hooks.example.org/", allow_http=False, http_setting="webhooks.allow_http")


def test_a_receiver_that_never_answers_is_cut_at_the_timeout(receiver):
    receiver.answer(Hang(30))
    started = time.monotonic()
    with pytest.raises(netguard.FetchTimeout) as timed_out:
        netguard.fetch(receiver.url, method="POST", body=b"{}", timeout=1, allow_private=True)
    # The receiver would hold on for 30 s: three deadlines is the cut, with room for a loaded
    # machine.
    assert 1.0 <= time.monotonic() - started < 3 * 1.0
    assert not timed_out.value.permanent


@pytest.fixture
def trickler():
    """A server that answers one byte every 0.3 s: each read is quick, the whole is not."""
    listener = socket.socket()
    listener.bind(("127.0.0.1", 0))
    listener.listen()
    stop = threading.Event()

    def serve():
        listener.settimeout(0.1)
        while not stop.is_set():
            try:
                connection, _ = listener.accept()
            except OSError:
                continue
            with connection:
                connection.recv(65536)
                for byte in b"HTTP/1.1 200 OK\r\nContent-Length: 100\r\n\r\n" + b"x" * 100:
                    if stop.is_set():
                        break
                    try:
                        connection.sendall(bytes([byte]))
                    except OSError:
                        break
                    time.sleep(0.3)

    thread = threading.Thread(target=serve, daemon=True)
    thread.start()
    yield listener.getsockname()[1]
    stop.set()
    thread.join(timeout=2)
    listener.close()


def test_the_timeout_bounds_the_whole_exchange_not_each_read(trickler):
    started = time.monotonic()
    with pytest.raises(netguard.FetchTimeout):
        netguard.fetch(f"http://127.0.0.1:{trickler}/", timeout=1, allow_private=True)
    # The whole answer takes 42 s at its pace; each read only 0.3 s.
    assert 1.0 <= time.monotonic() - started < 3 * 1.0


def test_a_closed_port_is_a_temporary_failure():
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    with pytest.raises(netguard.FetchError) as failed:
        netguard.fetch(f"http://127.0.0.1:{port}/", allow_private=True)
    assert not failed.value.permanent and "cannot connect" in str(failed.value)


def test_a_body_over_the_limit_is_refused_or_cut(receiver):
    with pytest.raises(netguard.ResponseTooLarge):
        netguard.fetch(receiver.url, method="POST", body=b"", allow_private=True, max_bytes=5)
    response = netguard.fetch(receiver.url, method="POST", body=b"", allow_private=True,
                              max_bytes=5, truncate=True)
    assert response.body == b'{"ok"' and response.truncated


def test_an_unresolvable_name_is_a_temporary_failure(monkeypatch):
    def no_answer(host, port):
        raise socket.gaierror(socket.EAI_NONAME, "Name or service not known")
    monkeypatch.setattr(netguard, "resolve", no_answer)
    with pytest.raises(netguard.FetchError, match="cannot resolve") as failed:
        netguard.fetch("https://nowhere.example.org/")
    assert not failed.value.permanent


@pytest.fixture
def tls_receiver(tmp_path):
    """An HTTPS receiver on 127.0.0.1 with a certificate for hooks.test from a throwaway CA."""
    def openssl(*args):
        subprocess.run(["openssl", *args], cwd=tmp_path, check=True, capture_output=True)
    try:
        openssl("req", "-x509", "-newkey", "rsa:2048", "-nodes", "-days", "1", "-subj", "/CN=Test CA",
                "-keyout", "ca.key", "-out", "ca.pem", "-addext", "basicConstraints=critical,CA:TRUE",
                "-addext", "keyUsage=critical,keyCertSign")
        openssl("req", "-newkey", "rsa:2048", "-nodes", "-subj", "/CN=hooks.test",
                "-keyout", "server.key", "-out", "server.csr")
        (tmp_path / "ext.cnf").write_text("subjectAltName=DNS:hooks.test\n")
        openssl("x509", "-req", "-in", "server.csr", "-CA", "ca.pem", "-CAkey", "ca.key",
                "-CAcreateserial", "-days", "1", "-out", "server.pem", "-extfile", "ext.cnf")
    except (OSError, subprocess.CalledProcessError):
        pytest.skip("openssl is needed to make a test certificate")
    server = Receiver().start()
    context = ssl.create_default_context(ssl.Purpose.CLIENT_AUTH)
    context.load_cert_chain(tmp_path / "server.pem", tmp_path / "server.key")
    server._server.socket = context.wrap_socket(server._server.socket, server_side=True)
    client = ssl.create_default_context(cafile=str(tmp_path / "ca.pem"))
    yield server, client
    server.stop()


def test_tls_is_checked_against_the_host_name_not_the_pinned_address(tls_receiver, monkeypatch):
    server, client_context = tls_receiver
    monkeypatch.setattr(netguard, "resolve", lambda host, port: ["127.0.0.1"])
    response = netguard.fetch(f"https://hooks.test:{server.port}/hook", method="POST", body=b"{}",
                              allow_private=True, ssl_context=client_context)
    assert response.status == 200
    # The same server under another name: the certificate does not match, nothing is sent.
    with pytest.raises(netguard.FetchError, match="TLS|certificate"):
        netguard.fetch(f"https://other.test:{server.port}/hook", method="POST", body=b"{}",
                       allow_private=True, ssl_context=client_context)
    # And without our CA, the certificate is not trusted.
    with pytest.raises(netguard.FetchError):
        netguard.fetch(f"https://hooks.test:{server.port}/hook", method="POST", body=b"{}",
                       allow_private=True)
    assert len(server.requests) == 1


class Trickle:
    """A peer that answers its headers at once (`Connection: close`, no length, or a length), then
    trickles its body a byte every `pace` seconds for as long as the client listens.

    `exchanges`: (accepted, hung up) times (time.monotonic()) of each client, the hang-up seen at
    once (the socket is watched between bytes), so a test can tell how long each was held;
    `accepted`: how many clients have connected."""

    def __init__(self, head: bytes = b"HTTP/1.1 200 OK\r\nConnection: close\r\n\r\n",
                 pace: float = 1.0, host: str = "127.0.0.1"):
        self.head, self.pace = head, pace
        self.listener = socket.socket()
        self.listener.bind((host, 0))
        self.listener.listen()
        self.port = self.listener.getsockname()[1]
        self.stop = threading.Event()
        self.exchanges: list[tuple[float, float]] = []
        self.accepted = 0
        self.thread = threading.Thread(target=self._serve, daemon=True)
        self.thread.start()

    @property
    def hung_up(self) -> list[float]:
        return [ended for _, ended in self.exchanges]

    def held(self) -> list[float]:
        """Seconds each finished exchange lasted."""
        return [ended - accepted for accepted, ended in self.exchanges]

    def _serve(self):
        self.listener.settimeout(0.1)
        while not self.stop.is_set():
            try:
                connection, _ = self.listener.accept()
            except OSError:
                continue
            self.accepted += 1
            threading.Thread(target=self._answer, args=(connection, time.monotonic()),
                             daemon=True).start()

    def _answer(self, connection, accepted):
        import select
        with connection:
            connection.recv(65536)
            try:
                connection.sendall(self.head)
                while not self.stop.is_set():
                    connection.sendall(b"x")
                    readable, _, _ = select.select([connection], [], [], self.pace)
                    if readable and not connection.recv(65536):
                        break  # the client hung up
            except OSError:
                pass
            if not self.stop.is_set():
                self.exchanges.append((accepted, time.monotonic()))

    def close(self):
        self.stop.set()
        self.thread.join(timeout=2)
        self.listener.close()


@pytest.fixture
def trickle():
    peers = []

    def make(**options) -> Trickle:
        peers.append(Trickle(**options))
        return peers[-1]
    yield make
    for peer in peers:
        peer.close()


@pytest.mark.parametrize("head", [
    b"HTTP/1.1 200 OK\r\nConnection: close\r\n\r\n",
    b"HTTP/1.1 200 OK\r\nConnection: close\r\nContent-Length: 1000\r\n\r\n",
    b"HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\nConnection: close\r\n\r\n1000\r\n",
    b"HTTP/1.0 200 OK\r\n\r\n",
], ids=["close-no-length", "close-with-length", "chunked", "http-1.0"])
def test_a_peer_trickling_its_body_after_connection_close_is_cut_at_the_deadline(trickle, head):
    peer = trickle(head=head)
    started = time.monotonic()
    with pytest.raises(netguard.FetchTimeout) as timed_out:
        netguard.fetch(f"http://127.0.0.1:{peer.port}/feed.ics", timeout=2, allow_private=True)
    took = time.monotonic() - started
    # The peer trickles until it is closed: ending at all, well before three deadlines, is the
    # cut (the margin is for a loaded machine); never before the deadline.
    assert 2.0 <= took < 3 * 2.0, took
    assert timed_out.value.phase == "body"
    assert str(timed_out.value) == "the peer sent too slowly: not finished within 2 s"


def test_a_post_answered_at_once_then_trickled_is_cut_too(trickle):
    peer = trickle(head=b"HTTP/1.1 200 OK\r\nContent-Type: application/json\r\n"
                        b"Connection: close\r\n\r\n", pace=0.2)
    started = time.monotonic()
    with pytest.raises(netguard.FetchTimeout, match="sent too slowly"):
        netguard.fetch(f"http://127.0.0.1:{peer.port}/hook", method="POST", body=b"{}",
                       timeout=1, allow_private=True, max_bytes=500, truncate=True)
    # The trickle never ends on its own, and its 500 bytes would take 100 s.
    assert 1.0 <= time.monotonic() - started < 3 * 1.0


def test_a_peer_trickling_its_headers_is_said_not_to_have_answered(trickle):
    peer = trickle(head=b"HTTP/1.1 200 OK\r\nX-Slow: ", pace=0.2)
    with pytest.raises(netguard.FetchTimeout) as timed_out:
        netguard.fetch(f"http://127.0.0.1:{peer.port}/", timeout=1, allow_private=True)
    assert timed_out.value.phase == "answer"
    assert str(timed_out.value) == "the peer did not answer within 1 s"


def test_a_trickling_tls_peer_is_cut_at_the_deadline(tls_receiver, monkeypatch):
    server, client_context = tls_receiver
    monkeypatch.setattr(netguard, "resolve", lambda host, port: ["127.0.0.1"])

    class TrickleHandler(server._server.RequestHandlerClass):
        def do_POST(self):
            self.rfile.read(int(self.headers.get("Content-Length") or 0))
            self.send_response(200)
            self.send_header("Connection", "close")
            self.end_headers()
            try:
                for _ in range(300):  # a minute, unless the client hangs up first
                    self.wfile.write(b"x")
                    self.wfile.flush()
                    time.sleep(0.2)
            except OSError:
                pass
    server._server.RequestHandlerClass = TrickleHandler
    started = time.monotonic()
    with pytest.raises(netguard.FetchTimeout, match="sent too slowly"):
        netguard.fetch(f"https://hooks.test:{server.port}/hook", method="POST", body=b"{}",
                       timeout=1, allow_private=True, ssl_context=client_context)
    assert 1.0 <= time.monotonic() - started < 3 * 1.0
