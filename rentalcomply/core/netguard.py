"""The one place where outbound HTTP leaves the process, guarded against SSRF.

A URL handed to us by an API client (a webhook endpoint, a calendar feed) must not become a way to
reach what only this machine can reach: its own loopback services, the LAN, a cloud metadata
service. Checking the host name when the URL is registered is not enough, since DNS can answer
differently later (DNS rebinding). So `fetch` resolves the name itself, vets every address the
resolver returns, and connects to a vetted address, sending the original host name in `Host` and
in TLS (SNI and certificate check). Redirects are never followed: a redirect is just a response.

Refused unless the caller allows private destinations (the `*.allow_private_addresses` settings):
every address that is not globally routable — loopback, RFC 1918 and other private ranges,
link-local (where 169.254.169.254, the usual cloud metadata address, lives), carrier-grade NAT,
IPv6 unique-local (fd00:ec2::254, AWS's IPv6 metadata address) and site-local (fec0::/10),
documentation and reserved ranges, and every IPv6 form that embeds one of these IPv4 addresses
(IPv4-mapped, IPv4-compatible, IPv4-translated, 6to4, NAT64).
Refused always: multicast, broadcast and the unspecified address (0.0.0.0 and :: reach this very
host on Linux), which no real receiver uses.

Errors are `FetchError`s that say whether they are `permanent`: retrying a refused destination or a
malformed URL cannot succeed, retrying a timeout or a refused connection may.
"""

from __future__ import annotations

import dataclasses
import http.client
import ipaddress
import re
import socket
import ssl
import threading
import time
import urllib.parse
from typing import Iterable

DEFAULT_MAX_BYTES = 1_000_000
# Names that always mean "this machine" or "the local network", refused before any DNS lookup.
LOCAL_NAME_SUFFIXES = (".localhost", ".local", ".internal", ".home.arpa", ".lan")
LOCAL_NAMES = ("localhost", "metadata", "metadata.google.internal")
_LABEL = r"[a-z0-9_](?:[a-z0-9_-]{0,61}[a-z0-9_])?"
HOST_NAME = re.compile(rf"^{_LABEL}(?:\.{_LABEL})*$")


class FetchError(Exception):
    """The request could not be made or completed. `permanent`: retrying will not help."""

    permanent = False


class InvalidUrl(FetchError):
    permanent = True


class DestinationRefused(FetchError):
    """The destination is on an address this appliance does not connect to."""

    permanent = True


class FetchTimeout(FetchError):
    """Not finished by the deadline. `phase`: what was not finished — "connect" (no connection),
    "answer" (connected, but no complete status and headers), "body" (the peer was answering,
    too slowly)."""

    phase = "answer"
    timeout: float | None = None

    @classmethod
    def during(cls, phase: str, timeout: float) -> "FetchTimeout":
        error = cls(_TIMEOUT_MESSAGES[phase].format(timeout=timeout))
        error.phase, error.timeout = phase, timeout
        return error


_TIMEOUT_MESSAGES = {
    "connect": "could not connect within {timeout:g} s",
    "answer": "the peer did not answer within {timeout:g} s",
    "body": "the peer sent too slowly: not finished within {timeout:g} s",
}


class ResponseTooLarge(FetchError):
    pass


@dataclasses.dataclass
class Response:
    status: int
    headers: dict[str, str]  # names lower-cased; repeated headers joined with ", "
    body: bytes
    address: str  # the IP address connected to
    elapsed: float  # seconds
    truncated: bool = False  # the body was cut at max_bytes (truncate=True)

    def header(self, name: str, default: str | None = None) -> str | None:
        return self.headers.get(name.lower(), default)


@dataclasses.dataclass(frozen=True)
class Target:
    scheme: str
    host: str  # without brackets for IPv6
    port: int
    path: str  # path and query, as sent in the request line

    @property
    def host_header(self) -> str:
        host = f"[{self.host}]" if ":" in self.host else self.host
        default = 443 if self.scheme == "https" else 80
        return host if self.port == default else f"{host}:{self.port}"


# -- URL and address rules ------------------------------------------------------------------------

def parse_url(url: str, *, allow_http: bool = True, http_setting: str | None = None) -> Target:
    """Check the parts of a URL that need no DNS; raise InvalidUrl with a message for a person."""
    if not isinstance(url, str) or not url:
        raise InvalidUrl("the URL is empty")
    if any(ord(ch) < 0x21 or ord(ch) == 0x7f for ch in url):
        raise InvalidUrl("the URL contains spaces or control characters")
    try:
        parts = urllib.parse.urlsplit(url)
        port = parts.port
    except ValueError as exc:
        raise InvalidUrl(f"the URL is malformed ({exc})") from None
    scheme = parts.scheme.lower()
    if scheme not in ("http", "https"):
        raise InvalidUrl("the URL must start with https://")
    if scheme == "http" and not allow_http:
        hint = f" (set {http_setting} = true to allow plain http)" if http_setting else ""
        raise InvalidUrl("the URL must use https://" + hint)
    if parts.username is not None or parts.password is not None or "@" in parts.netloc:
        raise InvalidUrl("the URL must not contain a user name or password")
    host = (parts.hostname or "").rstrip(".")
    if not host:
        raise InvalidUrl("the URL has no host")
    if parts.fragment or url.endswith("#"):
        raise InvalidUrl("the URL must not contain a #fragment")
    if port == 0:
        raise InvalidUrl("the URL's port must be from 1 to 65535")
    if not _is_ip_literal(host):
        try:
            host = host.encode("idna").decode("ascii")
        except UnicodeError:
            raise InvalidUrl("the URL's host name is not a valid name") from None
        if not HOST_NAME.match(host.lower()):
            raise InvalidUrl("the URL's host name is not a valid name")
    path = parts.path or "/"
    if parts.query:
        path += "?" + parts.query
    return Target(scheme, host.lower(), port or (443 if scheme == "https" else 80), path)


def _is_ip_literal(host: str) -> bool:
    try:
        ipaddress.ip_address(host)
    except ValueError:
        return False
    return True


def address_problem(address: str | ipaddress.IPv4Address | ipaddress.IPv6Address,
                    allow_private: bool) -> str | None:
    """Why we refuse to connect to `address` ("127.0.0.1 is a loopback address"), or None."""
    ip = ipaddress.ip_address(address) if isinstance(address, str) else address
    kind = _refused_kind(ip, allow_private)
    return None if kind is None else f"{ip} is {kind}"


_IPV4_COMPATIBLE = ipaddress.IPv6Network("::/96")
# IPv6 prefixes whose last 32 bits carry an IPv4 address that the network delivers to: the NAT64
# well-known prefix (RFC 6052), which a NAT64 gateway turns back into the IPv4 address, and the
# IPv4-translated form ::ffff:0:a.b.c.d (RFC 2765, SIIT), which a stateless translator does.
_EMBEDDING_IPV4 = (ipaddress.IPv6Network("64:ff9b::/96"), ipaddress.IPv6Network("::ffff:0:0:0/96"))
# IPv6 ranges that Python's `is_global` still counts as public but that reach only a local network:
# site-local (fec0::/10, deprecated by RFC 3879 yet still routed inside some sites) and the NAT64
# prefix for local use (RFC 8215), whose translator sits on the operator's own network.
_LOCAL_IPV6 = ((ipaddress.IPv6Network("fec0::/10"), "a site-local address"),
               (ipaddress.IPv6Network("64:ff9b:1::/48"), "a local-use NAT64 address"))


def _refused_kind(ip, allow_private: bool) -> str | None:
    if isinstance(ip, ipaddress.IPv6Address):
        if ip.ipv4_mapped is not None:  # ::ffff:127.0.0.1 reaches 127.0.0.1
            return _refused_kind(ip.ipv4_mapped, allow_private)
        if ip.sixtofour is not None and not ip.sixtofour.is_global:  # 2002:7f00:1::
            return _refused_kind(ip.sixtofour, allow_private)
        # IPv4 written into IPv6 in the forms Python still calls global: IPv4-compatible
        # (::127.0.0.1), the NAT64 prefix (64:ff9b::127.0.0.1) and IPv4-translated
        # (::ffff:0:127.0.0.1): the address embedded is judged as itself.
        if ((ip in _IPV4_COMPATIBLE and int(ip) > 1)  # not :: and ::1
                or any(ip in prefix for prefix in _EMBEDDING_IPV4)):
            embedded = ipaddress.IPv4Address(int(ip) & 0xFFFFFFFF)
            problem = _refused_kind(embedded, allow_private)
            if problem is not None:
                return problem
    if ip.is_unspecified:
        return "the unspecified address"
    if ip.is_multicast or ip == ipaddress.IPv4Address("255.255.255.255"):
        return "a multicast or broadcast address"
    if allow_private:
        return None
    if isinstance(ip, ipaddress.IPv6Address):
        for network, kind in _LOCAL_IPV6:
            if ip in network:
                return kind
    if ip.is_global:
        return None
    if ip.is_loopback:
        return "a loopback address"
    if ip.is_link_local:
        return "a link-local (cloud metadata) address"
    if ip.is_private:
        return "a private address"
    return "a non-public address"


# The shorthand IPv4 forms inet_aton (and so the resolver) still reads as addresses: one to four
# parts, each decimal, octal (leading 0) or hex (0x): 2130706433, 0177.0.0.1, 127.1, 0x7f.0.0.1.
_NUMERIC_HOST = re.compile(r"^(?:0x[0-9a-f]*|[0-9]+)(?:\.(?:0x[0-9a-f]*|[0-9]+)){0,3}$", re.IGNORECASE)


def numeric_ipv4(host: str) -> ipaddress.IPv4Address | None:
    """The IPv4 address a host written as numbers means to the resolver, or None for a name.

    `127.1` looks like a name to a URL parser but every resolver connects it to 127.0.0.1: judged
    as a name it would slip past the checks made without DNS (at registration)."""
    if not _NUMERIC_HOST.match(host):
        return None
    try:
        return ipaddress.IPv4Address(socket.inet_aton(host))
    except OSError:
        return None


def host_problem(host: str, allow_private: bool) -> str | None:
    """Why a host, before any DNS lookup, is refused: an IP literal (in any of the numeric forms
    the resolver reads) or a name meaning 'local'."""
    if _is_ip_literal(host):
        return address_problem(host, allow_private)
    numeric = numeric_ipv4(host)
    if numeric is not None:
        problem = address_problem(numeric, allow_private)
        return None if problem is None else f"{host} means {problem}"
    if allow_private:
        return None
    name = host.lower().rstrip(".")
    if name in LOCAL_NAMES or name.endswith(LOCAL_NAME_SUFFIXES):
        return f"{name} is a local name"
    return None


def check_url(url: str, *, allow_http: bool, allow_private: bool,
              http_setting: str | None = None, private_setting: str | None = None) -> Target:
    """Everything about a URL that can be judged without DNS (for registration)."""
    target = parse_url(url, allow_http=allow_http, http_setting=http_setting)
    problem = host_problem(target.host, allow_private)
    if problem:
        raise DestinationRefused(_refusal(problem, private_setting))
    return target


def registration_problem(url: str, *, allow_http: bool, allow_private: bool,
                         http_setting: str | None = None, private_setting: str | None = None,
                         dns_seconds: float = 2.0) -> FetchError | None:
    """The one check of a URL an API client registers (a webhook endpoint, a calendar feed):
    everything `check_url` judges, then the host name resolved and its addresses vetted, for early
    feedback. Resolution gets at most `dns_seconds` (the caller holds a write transaction), and a
    name that does not resolve is accepted: the check that matters is made at every connection."""
    try:
        target = check_url(url, allow_http=allow_http, allow_private=allow_private,
                           http_setting=http_setting, private_setting=private_setting)
    except FetchError as exc:
        return exc
    outcome: list[FetchError] = []

    def resolve():
        try:
            vetted_addresses(target, allow_private, private_setting)
        except FetchError as exc:
            outcome.append(exc)

    worker = threading.Thread(target=resolve, name="url-check", daemon=True)
    worker.start()
    worker.join(dns_seconds)
    if outcome and outcome[0].permanent:
        return outcome[0]
    return None


def _refusal(problem: str, private_setting: str | None) -> str:
    hint = f"; set {private_setting} = true to allow it" if private_setting else ""
    return f"the destination is refused: {problem}{hint}"


def resolve(host: str, port: int) -> list[str]:
    """The addresses a host name resolves to (tests replace this to simulate DNS answers)."""
    infos = socket.getaddrinfo(host, port, type=socket.SOCK_STREAM)
    addresses = []
    for family, _type, _proto, _name, sockaddr in infos:
        if family in (socket.AF_INET, socket.AF_INET6) and sockaddr[0] not in addresses:
            addresses.append(sockaddr[0].split("%", 1)[0])
    return addresses


def vetted_addresses(target: Target, allow_private: bool,
                     private_setting: str | None = None) -> list[str]:
    """Resolve and vet. If any address is refused, the whole host is: an attacker who controls a
    name could otherwise mix a public address with an internal one and hope for the latter."""
    problem = host_problem(target.host, allow_private)
    if problem:
        raise DestinationRefused(_refusal(problem, private_setting))
    if _is_ip_literal(target.host):
        return [target.host]
    try:
        addresses = resolve(target.host, target.port)
    except (socket.gaierror, UnicodeError) as exc:
        raise FetchError(f"cannot resolve {target.host}: {getattr(exc, 'strerror', None) or exc}") from None
    if not addresses:
        raise FetchError(f"cannot resolve {target.host}: no addresses")
    for address in addresses:
        kind = _refused_kind(ipaddress.ip_address(address), allow_private)
        if kind:
            raise DestinationRefused(_refusal(f"{target.host} resolves to {address}, {kind}",
                                              private_setting))
    return addresses


# -- the request ----------------------------------------------------------------------------------

class _PinnedHTTPConnection(http.client.HTTPConnection):
    """Connects to a vetted address whatever the host name says; `Host` stays the name.

    `raw_sock` keeps the socket for the whole exchange: http.client drops `sock` inside
    getresponse() when the response says `Connection: close` (the response then owns the socket
    alone), and the deadline must still be able to cut it then."""

    raw_sock: socket.socket | None = None

    def __init__(self, host, port, address, deadline: "_Deadline"):
        super().__init__(host, port, timeout=max(0.001, deadline.remaining()))
        self._address = address
        self._deadline = deadline

    def connect(self):
        self.sock = self.raw_sock = _connect(self._address, self.port, self._deadline)


class _PinnedHTTPSConnection(http.client.HTTPSConnection):
    raw_sock: socket.socket | None = None

    def __init__(self, host, port, address, deadline: "_Deadline", context):
        super().__init__(host, port, timeout=max(0.001, deadline.remaining()), context=context)
        self._address = address
        self._deadline = deadline

    def connect(self):
        plain = _connect(self._address, self.port, self._deadline)
        # Certificate and SNI are checked against the host name, not the address we pinned.
        # The TLS socket takes the file descriptor over: from here on it is the one to cut, the
        # handshake included.
        self.raw_sock = self._context.wrap_socket(plain, server_hostname=self.host,
                                                  do_handshake_on_connect=False)
        self._deadline.hold(self.raw_sock)
        self._deadline.bound(self.raw_sock)
        self.raw_sock.do_handshake()
        self.sock = self.raw_sock


def _connect(address: str, port: int, deadline: "_Deadline") -> socket.socket:
    sock = socket.create_connection((address, port), max(0.001, deadline.remaining()))
    deadline.hold(sock)
    sock.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
    return sock


def fetch(url: str, *, method: str = "GET", body: bytes | None = None,
          headers: dict[str, str] | Iterable[tuple[str, str]] | None = None,
          timeout: float = 10.0, allow_private: bool = False, allow_http: bool = True,
          max_bytes: int = DEFAULT_MAX_BYTES, truncate: bool = False,
          private_setting: str | None = None, http_setting: str | None = None,
          ssl_context: ssl.SSLContext | None = None) -> Response:
    """Make one HTTP request to a vetted address and return the response, whatever its status.

    `timeout` bounds the whole exchange — resolution, connection, sending, the response's status,
    headers and body — not each read: a receiver that trickles bytes is cut at the deadline too,
    and the FetchTimeout says which part was not finished (`phase`: connect, answer, body).
    A body over `max_bytes` raises ResponseTooLarge, or is cut there with `truncate=True`.
    `private_setting` / `http_setting` name the settings that would allow a refused destination,
    so that the error message tells the administrator what to change.
    """
    started = time.monotonic()
    deadline = started + timeout
    target = parse_url(url, allow_http=allow_http, http_setting=http_setting)
    addresses = vetted_addresses(target, allow_private, private_setting)
    last_error: FetchError | None = None
    for address in addresses:
        remaining = deadline - time.monotonic()
        if remaining <= 0:
            break
        try:
            return _exchange(target, address, method, body, headers, deadline, max_bytes,
                             truncate, ssl_context, started)
        except _ConnectFailed as exc:  # try the next address of the name
            last_error = exc.error
    if last_error is not None:
        raise last_error
    raise FetchTimeout.during("connect", timeout)


class _ConnectFailed(Exception):
    def __init__(self, error: FetchError):
        self.error = error


# How much of a body one read asks for; the deadline is checked between reads.
READ_CHUNK = 65536


class _Deadline:
    """The one deadline of an exchange, held two ways, because either alone has a gap:

    - before each read the socket's own timeout is set to the time left, and the body is read
      chunk by chunk with the clock checked in between: a peer trickling a byte a second gets each
      read answered at once, and is still cut once the time is up;
    - a timer shuts the TCP socket down at the deadline, which wakes a read blocked anywhere
      (a status line or header sent byte by byte inside http.client, a TLS handshake). It holds
      the socket itself, not `connection.sock`, which http.client sets to None inside
      getresponse() when the peer answers `Connection: close`.
    """

    def __init__(self, started: float, deadline: float):
        self.started = started
        self.at = deadline
        self.passed = threading.Event()
        self._socket: socket.socket | None = None
        self._timer = threading.Timer(max(0.001, deadline - time.monotonic()), self._cut)
        self._timer.daemon = True
        self._timer.start()

    @property
    def timeout(self) -> float:
        return self.at - self.started

    def remaining(self) -> float:
        return self.at - time.monotonic()

    def hold(self, sock: socket.socket | None) -> None:
        self._socket = sock
        if self.passed.is_set():  # the timer fired before the socket was ours to cut
            self._cut()

    def bound(self, *sockets) -> None:
        """Give the next blocking operation on these sockets at most the time left."""
        left = self.remaining()
        if left <= 0:
            self.passed.set()
            raise _Expired()
        for sock in sockets:
            if sock is not None:
                try:
                    sock.settimeout(left)
                except OSError:
                    pass

    def _cut(self) -> None:
        self.passed.set()
        sock = self._socket
        if sock is not None:
            try:
                sock.shutdown(socket.SHUT_RDWR)
            except OSError:  # already closed: nothing left to cut
                pass

    def cancel(self) -> None:
        self._timer.cancel()

    def expired(self) -> bool:
        return self.passed.is_set() or time.monotonic() >= self.at


class _Expired(Exception):
    pass


def _exchange(target: Target, address: str, method: str, body: bytes | None, headers,
              deadline_at: float, max_bytes: int, truncate: bool, ssl_context,
              started: float) -> Response:
    deadline = _Deadline(started, deadline_at)
    if target.scheme == "https":
        context = ssl_context or ssl.create_default_context()
        connection = _PinnedHTTPSConnection(target.host, target.port, address, deadline, context)
    else:
        connection = _PinnedHTTPConnection(target.host, target.port, address, deadline)
    response = None
    phase = "connect"
    try:
        try:
            connection.connect()
        except _Expired:
            raise FetchTimeout.during("connect", deadline.timeout) from None
        except (socket.timeout, TimeoutError):
            if deadline.expired():
                raise FetchTimeout.during("connect", deadline.timeout) from None
            raise _ConnectFailed(FetchTimeout(f"connecting to {address} timed out")) from None
        except ssl.SSLError as exc:
            if deadline.expired():
                raise FetchTimeout.during("connect", deadline.timeout) from None
            raise FetchError(f"TLS failed with {target.host}: {exc.reason or exc}") from None
        except OSError as exc:
            if deadline.expired():
                raise FetchTimeout.during("connect", deadline.timeout) from None
            raise _ConnectFailed(FetchError(
                f"cannot connect to {address} port {target.port}: {exc.strerror or exc}")) from None
        sockets = (connection.raw_sock,)
        try:
            phase = "answer"
            deadline.bound(*sockets)
            connection.putrequest(method, target.path, skip_host=True, skip_accept_encoding=True)
            connection.putheader("Host", target.host_header)
            items = headers.items() if isinstance(headers, dict) else (headers or ())
            for name, value in items:
                connection.putheader(name, value)
            if body is not None or method in ("POST", "PUT", "PATCH"):
                connection.putheader("Content-Length", str(len(body or b"")))
            connection.putheader("Connection", "close")
            connection.endheaders(body)
            deadline.bound(*sockets)
            response = connection.getresponse()
            if deadline.expired():  # the cut socket ended the headers, not the peer
                raise _Expired()
            phase = "body"
            announced = response.getheader("Content-Length", "")
            if not truncate and announced.strip().isdigit() and int(announced) > max_bytes:
                # Refused before reading a byte of it: no need to download what we will not keep.
                raise ResponseTooLarge(f"the response is larger than {max_bytes} bytes "
                                       f"(Content-Length {int(announced)})")
            received = _read_body(response, max_bytes, deadline, sockets)
        except (socket.timeout, TimeoutError, _Expired):
            raise FetchTimeout.during(phase, deadline.timeout) from None
        except (OSError, http.client.HTTPException) as exc:
            if deadline.expired():
                raise FetchTimeout.during(phase, deadline.timeout) from None
            raise FetchError(f"the exchange with {target.host} failed: "
                             f"{getattr(exc, 'strerror', None) or exc or type(exc).__name__}") from None
        if deadline.expired() and not response.isclosed():
            raise FetchTimeout.during("body", deadline.timeout)
        truncated = len(received) > max_bytes
        if truncated and not truncate:
            raise ResponseTooLarge(f"the response is larger than {max_bytes} bytes")
        response_headers: dict[str, str] = {}
        for name, value in response.getheaders():
            key = name.lower()
            response_headers[key] = f"{response_headers[key]}, {value}" if key in response_headers else value
        return Response(response.status, response_headers, received[:max_bytes], address,
                        time.monotonic() - started, truncated)
    finally:
        deadline.cancel()
        if response is not None:
            response.close()
        connection.close()
        if connection.raw_sock is not None:
            connection.raw_sock.close()


def _read_body(response: http.client.HTTPResponse, max_bytes: int, deadline: _Deadline,
               sockets) -> bytes:
    """Up to max_bytes + 1 bytes of the body, each read bounded by the time left.

    `read1` returns whatever has arrived (within a chunk of a chunked body) instead of waiting
    for a whole buffer, so the clock is looked at between a trickling peer's bytes."""
    parts: list[bytes] = []
    size = 0
    while size <= max_bytes:
        deadline.bound(*sockets)
        chunk = response.read1(min(READ_CHUNK, max_bytes + 1 - size))
        if not chunk:
            if deadline.expired():  # the timer cut the socket: not an end of the body
                raise _Expired()
            break
        parts.append(chunk)
        size += len(chunk)
        if deadline.expired() and not response.isclosed():
            raise _Expired()
    return b"".join(parts)
