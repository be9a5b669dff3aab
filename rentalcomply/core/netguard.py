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
    pass


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


def host_problem(host: str, allow_private: bool) -> str | None:
    """Why a host, before any DNS lookup, is refused: an IP literal or a name meaning 'local'."""
    if _is_ip_literal(host):
        return address_problem(host, allow_private)
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
    """Connects to a vetted address whatever the host name says; `Host` stays the name."""

    def __init__(self, host, port, address, timeout):
        super().__init__(host, port, timeout=timeout)
        self._address = address

    def connect(self):
        self.sock = socket.create_connection((self._address, self.port), self.timeout)
        self.sock.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)


class _PinnedHTTPSConnection(http.client.HTTPSConnection):
    def __init__(self, host, port, address, timeout, context):
        super().__init__(host, port, timeout=timeout, context=context)
        self._address = address

    def connect(self):
        sock = socket.create_connection((self._address, self.port), self.timeout)
        sock.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
        # Certificate and SNI are checked against the host name, not the address we pinned.
        self.sock = self._context.wrap_socket(sock, server_hostname=self.host)


def fetch(url: str, *, method: str = "GET", body: bytes | None = None,
          headers: dict[str, str] | Iterable[tuple[str, str]] | None = None,
          timeout: float = 10.0, allow_private: bool = False, allow_http: bool = True,
          max_bytes: int = DEFAULT_MAX_BYTES, truncate: bool = False,
          private_setting: str | None = None, http_setting: str | None = None,
          ssl_context: ssl.SSLContext | None = None) -> Response:
    """Make one HTTP request to a vetted address and return the response, whatever its status.

    `timeout` bounds the whole exchange — resolution, connection, sending, the response's status,
    headers and body — not each read: a receiver that trickles bytes is cut at the deadline too.
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
    raise FetchTimeout(f"no answer within {timeout:g} s")


class _ConnectFailed(Exception):
    def __init__(self, error: FetchError):
        self.error = error


def _exchange(target: Target, address: str, method: str, body: bytes | None, headers,
              deadline: float, max_bytes: int, truncate: bool, ssl_context, started: float) -> Response:
    remaining = max(0.001, deadline - time.monotonic())
    if target.scheme == "https":
        context = ssl_context or ssl.create_default_context()
        connection = _PinnedHTTPSConnection(target.host, target.port, address, remaining, context)
    else:
        connection = _PinnedHTTPConnection(target.host, target.port, address, remaining)
    timed_out = threading.Event()

    def cut():
        # Socket timeouts bound each read, not the whole exchange; this bounds the whole.
        timed_out.set()
        sock = connection.sock
        if sock is not None:
            try:
                sock.shutdown(socket.SHUT_RDWR)
            except OSError:
                pass

    watchdog = threading.Timer(remaining, cut)
    watchdog.daemon = True
    watchdog.start()
    try:
        try:
            connection.connect()
        except (socket.timeout, TimeoutError):
            raise _ConnectFailed(FetchTimeout(f"connecting to {address} timed out")) from None
        except ssl.SSLError as exc:
            raise FetchError(f"TLS failed with {target.host}: {exc.reason or exc}") from None
        except OSError as exc:
            if timed_out.is_set():
                raise FetchTimeout(_timeout_message(started, deadline)) from None
            raise _ConnectFailed(FetchError(
                f"cannot connect to {address} port {target.port}: {exc.strerror or exc}")) from None
        try:
            connection.putrequest(method, target.path, skip_host=True, skip_accept_encoding=True)
            connection.putheader("Host", target.host_header)
            items = headers.items() if isinstance(headers, dict) else (headers or ())
            for name, value in items:
                connection.putheader(name, value)
            if body is not None or method in ("POST", "PUT", "PATCH"):
                connection.putheader("Content-Length", str(len(body or b"")))
            connection.putheader("Connection", "close")
            connection.endheaders(body)
            response = connection.getresponse()
            announced = response.getheader("Content-Length", "")
            if not truncate and announced.strip().isdigit() and int(announced) > max_bytes:
                # Refused before reading a byte of it: no need to download what we will not keep.
                raise ResponseTooLarge(f"the response is larger than {max_bytes} bytes "
                                       f"(Content-Length {int(announced)})")
            received = response.read(max_bytes + 1)
        except (socket.timeout, TimeoutError):
            raise FetchTimeout(_timeout_message(started, deadline)) from None
        except (OSError, http.client.HTTPException) as exc:
            if timed_out.is_set():
                raise FetchTimeout(_timeout_message(started, deadline)) from None
            raise FetchError(f"the exchange with {target.host} failed: "
                             f"{getattr(exc, 'strerror', None) or exc or type(exc).__name__}") from None
        if timed_out.is_set():
            raise FetchTimeout(_timeout_message(started, deadline))
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
        watchdog.cancel()
        connection.close()


def _timeout_message(started: float, deadline: float) -> str:
    return f"no complete answer within {deadline - started:g} s"
