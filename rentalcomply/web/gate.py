"""The gate every request passes before routing: request id, HTTPS rule, API key, rate limit.

It is plain WSGI around the Bottle app so that the decided order holds for every path, including
ones no route matches: HTTPS (403), authentication (401), rate limit (429), and only then the
route (404/405) and the scope (403) inside the app.
"""

from __future__ import annotations

import functools
import ipaddress
import logging
import random
import time

import peewee

from rentalcomply.accounts import service as accounts
from rentalcomply.accounts.tasks import record_key_use
from rentalcomply.core import clock
from rentalcomply.core import db as db_module
from rentalcomply.core import logs, outage
from rentalcomply.core.errors import (ApiError, HttpsRequired, InvalidApiKey, RateLimited,
                                      Unauthenticated, ServiceUnavailable)
from rentalcomply.core.models import ApiKey
from rentalcomply.web.json import error_body
from rentalcomply.web.ratelimit import SlidingWindowLimiter

log = logging.getLogger(__name__)

API_PREFIX = "/api/v1"
# Reachable without an API key. /healthz also over plain HTTP, for monitors.
PUBLIC_PATHS = {API_PREFIX + "/openapi.json", "/healthz"}
PLAIN_HTTP_PATHS = {"/healthz"}
# Paths outside the API carry their own credential (a token in the path or a signed query).
KEYLESS_PREFIXES = ("/checkin/", "/files/", "/static/")

# How often last_used_at is recorded per key: a write per request would serialise all readers.
LAST_USED_RESOLUTION_SECONDS = 60


class Gate:
    def __init__(self, app, settings):
        self.app = app
        self.settings = settings
        self.trusted_proxies = [ipaddress.ip_network(p, strict=False)
                                for p in settings.server.trusted_proxies]
        self.allow_loopback_http = settings.server.allow_loopback_http
        self.limiter = SlidingWindowLimiter(settings.rate_limit.per_minute, name="api")
        # Requests without a valid key (none, malformed, unknown, revoked) count per client
        # address, with the same limit: a flood of 401s is throttled too.
        self.address_limiter = SlidingWindowLimiter(settings.rate_limit.per_minute,
                                                    name="api-keyless")
        self.limit_per_account = settings.rate_limit.per == "account"
        self._last_used_written: dict[str, float] = {}
        # api.kept_answer, once the routes are known (web/app.py): answers kept GETs itself.
        self.kept_answer = None

    # -- WSGI ------------------------------------------------------------------------------------

    def __call__(self, environ, start_response):
        # Unique, not secret: the Mersenne Twister, as os.urandom's system call lets go of the
        # interpreter lock, which under load costs a wait to get it back.
        request_id = f"req_{random.getrandbits(80):020x}"
        environ["rentalcomply.request_id"] = request_id
        logs.request_id.set(request_id)  # every log line of this request names it
        extra_headers = [("X-Request-Id", request_id)]
        try:
            self._admit(environ, extra_headers)
        except ApiError as error:
            return self._refuse(error, request_id, extra_headers, start_response)
        except (peewee.OperationalError, peewee.InterfaceError) as exc:
            if not db_module.is_unavailable(exc):
                raise
            # The key could not be read: the database is away for a moment (a restart).
            log.warning("database unavailable (request %s): %s", request_id, exc)
            return self._refuse(ServiceUnavailable("The database does not answer; try again shortly."),
                                request_id, extra_headers, start_response)

        if environ.get("REQUEST_METHOD") == "GET" and self.kept_answer is not None:
            kept = self.kept_answer(environ)
            if kept is not None:
                status, body, headers = kept
                headers = list(headers.items()) + extra_headers
                if status == 200:
                    headers += [("Content-Type", "application/json"),
                                ("Content-Length", str(len(body)))]
                start_response(status_line(status), headers)
                return [body]

        def start_with_headers(status, headers, exc_info=None):
            return start_response(status, list(headers) + extra_headers, exc_info)

        return self.app(environ, start_with_headers)

    def _refuse(self, error: ApiError, request_id: str, extra_headers, start_response):
        body = error_body(error, request_id)
        headers = [("Content-Type", "application/json"), ("Content-Length", str(len(body)))]
        headers += list(error.headers.items()) + extra_headers
        start_response(f"{error.status} {_REASONS.get(error.status, 'Error')}", headers)
        return [body]

    # -- the checks, in the decided order ---------------------------------------------------------

    def _admit(self, environ, extra_headers) -> None:
        path = environ.get("PATH_INFO", "")
        if path in PLAIN_HTTP_PATHS:
            self.arrived_over_https(environ, _address(environ.get("REMOTE_ADDR")))
        elif not self.is_https(environ):
            raise HttpsRequired()
        if path in PUBLIC_PATHS or path.startswith(KEYLESS_PREFIXES) or not path.startswith(API_PREFIX):
            return
        try:
            key = self.authenticate(environ)
        except (Unauthenticated, InvalidApiKey):
            self._limit_unauthenticated(environ)
            raise
        environ["rentalcomply.api_key"] = key
        environ["rentalcomply.account_id"] = key.account_id
        environ["rentalcomply.scopes"] = key.scope_set
        bucket = key.account_id if self.limit_per_account else key.id
        allowed, remaining, reset = self.limiter.hit(bucket)
        extra_headers += [("RateLimit-Limit", str(self.limiter.limit)),
                          ("RateLimit-Remaining", str(remaining)),
                          ("RateLimit-Reset", str(reset))]
        if not allowed:
            raise RateLimited(reset, f"More than {self.limiter.limit} requests in a minute; "
                                     f"retry in {reset} s.")

    def _limit_unauthenticated(self, environ) -> None:
        """Count a request without a valid key against its client address; 429 past the limit."""
        allowed, _, reset = self.address_limiter.hit(f"address:{self.client_address(environ)}")
        if not allowed:
            raise RateLimited(reset, f"More than {self.address_limiter.limit} requests without a "
                                     f"valid API key from this address in a minute; retry in "
                                     f"{reset} s.")

    def client_address(self, environ) -> str:
        """The client's address: the peer's, or behind trusted proxies the nearest address in
        X-Forwarded-For that is not one of them (what a client writes there itself is ignored)."""
        peer = environ.get("REMOTE_ADDR") or ""
        address = _address(peer)
        forwarded = environ.get("HTTP_X_FORWARDED_FOR")
        if not forwarded or address is None or not self._trusted(address):
            return peer
        for hop in reversed([part.strip() for part in forwarded.split(",")]):
            hop_address = _address(hop)
            if hop_address is None:
                return peer  # garbage in the chain: count it against the proxy that sent it
            if not self._trusted(hop_address):
                return str(hop_address)
        return peer

    def is_https(self, environ) -> bool:
        peer = _address(environ.get("REMOTE_ADDR"))
        if self.arrived_over_https(environ, peer) is not None:
            return environ["rentalcomply.https"]
        return bool(self.allow_loopback_http and peer is not None and peer.is_loopback)

    def arrived_over_https(self, environ, peer) -> bool | None:
        """Whether the client used HTTPS (also kept in the environ, for /healthz); None when
        neither TLS nor a trusted proxy says so."""
        forwarded_proto = environ.get("HTTP_X_FORWARDED_PROTO")
        if forwarded_proto and peer is not None and self._trusted(peer):
            # The proxy tells us what the client used; a proxy passing plain HTTP is plain HTTP.
            https = forwarded_proto.split(",")[0].strip().lower() == "https"
        elif environ.get("wsgi.url_scheme") == "https":
            https = True
        else:
            environ["rentalcomply.https"] = False
            return None
        environ["rentalcomply.https"] = https
        return https

    def _trusted(self, peer) -> bool:
        return any(peer in network for network in self.trusted_proxies)

    def authenticate(self, environ) -> ApiKey:
        header = environ.get("HTTP_AUTHORIZATION", "")
        scheme, _, presented = header.partition(" ")
        if scheme.lower() != "bearer" or not presented.strip():
            raise Unauthenticated()
        presented = presented.strip()
        if not accounts.key_is_well_formed(presented):
            raise InvalidApiKey("The API key is malformed (check for a copy-paste error).")
        record = accounts.find_well_formed_key(presented)
        if record is None:
            raise InvalidApiKey()
        self._touch(record, time.monotonic())
        return record

    def _touch(self, record: ApiKey, now: float) -> None:
        last = self._last_used_written.get(record.id)
        if last is not None and now - last < LAST_USED_RESOLUTION_SECONDS:
            return
        self._last_used_written[record.id] = now
        try:
            # Queued, not written here: a GET must never wait for the database's write lock.
            outage.send(record_key_use, record.id, clock.utcnow().isoformat(),
                        what="recording the use of an API key")
        except Exception as exc:  # bookkeeping only: never refuse a request because of it
            db_module.warn_of(log, exc, "could not record last use of key %s", record.id)


@functools.lru_cache(maxsize=4096)  # parsed on every request; peers are few
def _address(value):
    try:
        return ipaddress.ip_address(value) if value else None
    except ValueError:
        return None


_REASONS = {400: "Bad Request", 401: "Unauthorized", 403: "Forbidden", 404: "Not Found",
            405: "Method Not Allowed", 409: "Conflict", 410: "Gone", 413: "Payload Too Large",
            415: "Unsupported Media Type", 422: "Unprocessable Content", 429: "Too Many Requests",
            500: "Internal Server Error", 503: "Service Unavailable", 200: "OK",
            304: "Not Modified"}


def status_line(status: int) -> str:
    return f"{status} {_REASONS.get(status, 'Error')}"
