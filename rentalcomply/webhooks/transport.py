"""Webhook POSTs over kept-alive connections, one per endpoint address and worker thread.

`netguard.fetch` opens a connection for every request and closes it after (right for a calendar
feed fetched every few minutes). A burst of deliveries to one receiver paid a TCP (and TLS)
handshake per event: most of the time of a delivery. Here a connection is kept per worker thread
and (scheme, host, port), and used again for the next delivery to the same receiver.

The guard stays in the path: a new connection is made only to an address that
`netguard.vetted_addresses` vetted at that moment (the host's rules, DNS resolved by us, every
address checked, the address pinned so DNS cannot answer differently later), and a kept connection
is used again only while the address it is pinned to is still allowed under the current settings.
Each exchange has one deadline for all of it (sending, the status, headers and body), enforced as
netguard does by cutting the socket when it passes; a cut connection is never kept.

A kept connection the receiver closed while idle fails on its next use before any answer; the
request is then sent once more on a fresh connection (the receiver never saw it, and webhooks are
at-least-once with the same event id anyway).
"""

from __future__ import annotations

import http.client
import math
import socket
import ssl
import threading
import time

from rentalcomply.core import netguard

# A receiver closes idle connections on its own timeout; past this one we do not try ours.
IDLE_SECONDS = 30.0
# A response body longer than this is not read to its end: the connection is closed instead.
DRAIN_BYTES = 64 * 1024

_local = threading.local()
_tls_context: ssl.SSLContext | None = None
_STALE = (http.client.RemoteDisconnected, ConnectionResetError, BrokenPipeError,
          ConnectionAbortedError, http.client.CannotSendRequest, http.client.BadStatusLine)


class _Deadlines:
    """Cuts the exchanges that pass their deadline, from one thread for the whole process.

    A threading.Timer per exchange started (and ended) an OS thread for every delivery. Here each
    deadline joins a bucket of TICK seconds and the one thread wakes once per bucket due, so an
    exchange is cut at most TICK late; an exchange that ends in time takes its deadline back.
    """

    TICK = 0.1

    def __init__(self):
        self._condition = threading.Condition()
        self._buckets: dict[int, list[list]] = {}
        self._waking_at: float | None = None
        self._thread: threading.Thread | None = None

    def watch(self, deadline: float, cut) -> list:
        """Call `cut()` once `deadline` (time.monotonic) has passed, unless cancelled first."""
        entry = [cut]
        tick = math.ceil(deadline / self.TICK)
        with self._condition:
            self._buckets.setdefault(tick, []).append(entry)
            if self._thread is None:
                self._thread = threading.Thread(target=self._run, name="webhook-deadlines",
                                                daemon=True)
                self._thread.start()
            elif self._waking_at is None or tick * self.TICK < self._waking_at:
                self._condition.notify()
        return entry

    def cancel(self, entry: list) -> bool:
        """Take a deadline back; False when it has already fired (its cut may be under way)."""
        with self._condition:
            if entry[0] is None:
                return False
            entry[0] = None
            return True

    def _run(self) -> None:
        while True:
            with self._condition:
                due = self._due()
                while due is None:
                    due = self._due()
                cuts = []
                for entry in due:
                    if entry[0] is not None:
                        cuts.append(entry[0])
                        entry[0] = None  # fired: a later cancel says so
            for cut in cuts:
                try:
                    cut()
                except Exception:  # a cut must never stop the cutting of the others
                    pass

    def _due(self) -> list | None:
        """The entries of the first bucket once it is due; else waits a while and says None.
        Called with the condition held."""
        if not self._buckets:
            self._waking_at = None
            self._condition.wait()
            return None
        first = min(self._buckets)
        when = first * self.TICK
        now = time.monotonic()
        if when > now:
            self._waking_at = when
            self._condition.wait(when - now)
            return None
        self._waking_at = None
        return self._buckets.pop(first)


_deadlines = _Deadlines()


def _context() -> ssl.SSLContext:
    # Building a default context loads the CA store: once per process, not once per delivery.
    global _tls_context
    if _tls_context is None:
        _tls_context = ssl.create_default_context()
    return _tls_context


class _Pinned(http.client.HTTPConnection):
    """Connects to the vetted address whatever the host name says; `Host` stays the name."""

    def __init__(self, target: netguard.Target, address: str, timeout: float):
        super().__init__(target.host, target.port, timeout=timeout)
        self.address = address
        self.tls = target.scheme == "https"

    def connect(self):
        sock = socket.create_connection((self.address, self.port), self.timeout)
        sock.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
        # Certificate and SNI are checked against the host name, not the address we pinned.
        self.sock = _context().wrap_socket(sock, server_hostname=self.host) if self.tls else sock


def _pool() -> dict:
    pool = getattr(_local, "pool", None)
    if pool is None:
        pool = _local.pool = {}
    return pool


def close_all() -> None:
    """Close this thread's kept connections."""
    pool = _pool()
    for connection, _ in pool.values():
        connection.close()
    pool.clear()


def post(url: str, body: bytes, headers: dict[str, str], *, timeout: float, allow_private: bool,
         allow_http: bool, max_bytes: int, private_setting: str | None = None,
         http_setting: str | None = None) -> netguard.Response:
    """POST `body`; the response, whatever its status, its body cut at `max_bytes`. Raises
    netguard's FetchError kinds (DestinationRefused, InvalidUrl, FetchTimeout, ...)."""
    started = time.monotonic()
    deadline = started + timeout
    # The URL's own rules, before any use of a kept connection (no DNS: that is for new ones).
    target = netguard.check_url(url, allow_http=allow_http, allow_private=allow_private,
                                http_setting=http_setting, private_setting=private_setting)
    key = (target.scheme, target.host, target.port)
    pool = _pool()
    kept = pool.pop(key, None)
    if kept is not None:
        connection, idle_since = kept
        if time.monotonic() - idle_since < IDLE_SECONDS \
                and netguard.address_problem(connection.address, allow_private) is None:
            try:
                return _exchange(connection, target, body, headers, deadline, max_bytes, started,
                                 pool, key, reused=True)
            except _Stale:
                pass  # closed by the receiver while idle: once more on a fresh connection
        else:
            connection.close()
    last_error: netguard.FetchError | None = None
    for address in netguard.vetted_addresses(target, allow_private, private_setting):
        remaining = deadline - time.monotonic()
        if remaining <= 0:
            break
        connection = _Pinned(target, address, remaining)
        try:
            connection.connect()
        except (socket.timeout, TimeoutError):
            last_error = netguard.FetchTimeout.during("connect", timeout)
            continue
        except ssl.SSLError as exc:
            connection.close()
            raise netguard.FetchError(f"TLS failed with {target.host}: {exc.reason or exc}") from None
        except OSError as exc:
            last_error = netguard.FetchError(
                f"cannot connect to {address} port {target.port}: {exc.strerror or exc}")
            continue
        try:
            return _exchange(connection, target, body, headers, deadline, max_bytes, started,
                             pool, key, reused=False)
        except _Stale as stale:
            raise netguard.FetchError(f"the exchange with {target.host} failed: {stale}") from None
    if last_error is not None:
        raise last_error
    raise netguard.FetchTimeout.during("connect", timeout)


class _Stale(Exception):
    pass


def _exchange(connection: _Pinned, target: netguard.Target, body: bytes, headers: dict,
              deadline: float, max_bytes: int, started: float, pool: dict, key: tuple,
              reused: bool) -> netguard.Response:
    remaining = max(0.001, deadline - time.monotonic())
    # The socket itself, kept here: http.client drops `connection.sock` when an answer says
    # Connection: close, and a peer trickling such an answer must still be cut at the deadline.
    sock = connection.sock
    sock.settimeout(remaining)
    timed_out = threading.Event()
    phase = ["answer"]  # then "body" once the status line and headers are in

    def cut():
        # Socket timeouts bound each read, not the whole exchange; this bounds the whole.
        timed_out.set()
        try:
            sock.shutdown(socket.SHUT_RDWR)
        except OSError:
            pass

    watch = _deadlines.watch(deadline, cut)
    keep = False
    try:
        try:
            connection.putrequest("POST", target.path, skip_host=True, skip_accept_encoding=True)
            connection.putheader("Host", target.host_header)
            for name, value in headers.items():
                connection.putheader(name, value)
            connection.putheader("Content-Length", str(len(body)))
            connection.endheaders(body)
            response = connection.getresponse()
            phase[0] = "body"
        except _STALE as exc:
            if timed_out.is_set():
                raise netguard.FetchTimeout(_timeout_message(phase[0], started, deadline)) from None
            if reused:
                raise _Stale(str(exc) or type(exc).__name__) from None
            raise netguard.FetchError(f"the exchange with {target.host} failed: "
                                      f"{str(exc) or type(exc).__name__}") from None
        try:
            announced = response.getheader("Content-Length", "")
            small = announced.strip().isdigit() and int(announced) <= DRAIN_BYTES
            received = response.read() if small else response.read(max_bytes + 1)
        except (socket.timeout, TimeoutError, OSError, http.client.HTTPException) as exc:
            if timed_out.is_set() or isinstance(exc, (socket.timeout, TimeoutError)):
                raise netguard.FetchTimeout(_timeout_message(phase[0], started, deadline)) from None
            raise netguard.FetchError(f"the exchange with {target.host} failed: "
                                      f"{getattr(exc, 'strerror', None) or exc}") from None
        if timed_out.is_set():
            raise netguard.FetchTimeout(_timeout_message(phase[0], started, deadline))
        keep = response.isclosed() and not response.will_close
        response_headers: dict[str, str] = {}
        for name, value in response.getheaders():
            lower = name.lower()
            response_headers[lower] = f"{response_headers[lower]}, {value}" \
                if lower in response_headers else value
        return netguard.Response(response.status, response_headers, received[:max_bytes],
                                 connection.address, time.monotonic() - started,
                                 len(received) > max_bytes)
    except (socket.timeout, TimeoutError):
        raise netguard.FetchTimeout(_timeout_message(phase[0], started, deadline)) from None
    except OSError as exc:
        if timed_out.is_set():
            raise netguard.FetchTimeout(_timeout_message(phase[0], started, deadline)) from None
        raise netguard.FetchError(f"the exchange with {target.host} failed: "
                                  f"{exc.strerror or exc}") from None
    finally:
        in_time = _deadlines.cancel(watch)
        if keep and in_time and not timed_out.is_set():
            old = pool.pop(key, None)
            if old is not None:
                old[0].close()
            pool[key] = (connection, time.monotonic())
        else:
            connection.close()


def _timeout_message(phase: str, started: float, deadline: float) -> str:
    """netguard's words for what did not finish in time."""
    return str(netguard.FetchTimeout.during(phase, round(deadline - started, 3)))
