"""The gate every request passes before routing: request id, HTTPS rule, API key, rate limit.

It is plain WSGI around the Bottle app so that the decided order holds for every path, including
ones no route matches: HTTPS (403), authentication (401), rate limit (429), and only then the
route (404/405) and the scope (403) inside the app.
"""

from __future__ import annotations

import ipaddress
import logging
import time
import uuid

from rentalcomply.accounts import service as accounts
from rentalcomply.accounts.tasks import record_key_use
from rentalcomply.core import clock
from rentalcomply.core.errors import (ApiError, HttpsRequired, InvalidApiKey, RateLimited,
                                      Unauthenticated)
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
        self.limiter = SlidingWindowLimiter(settings.rate_limit.per_minute)
        # Requests without a valid key (none, malformed, unknown, revoked) count per client
        # address, with the same limit: a flood of 401s is throttled too.
        self.address_limiter = SlidingWindowLimiter(settings.rate_limit.per_minute)
        self.limit_per_account = settings.rate_limit.per == "account"
        self._last_used_written: dict[str, float] = {}

    # -- WSGI ------------------------------------------------------------------------------------

    def __call__(self, environ, start_response):
        request_id = "req_" + uuid.uuid4().hex[:20]
        environ["rentalcomply.request_id"] = request_id
        extra_headers = [("X-Request-Id", request_id)]
        try:
            self._admit(environ, extra_headers)
        except ApiError as error:
            return self._refuse(error, request_id, extra_headers, start_response)

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
        if path not in PLAIN_HTTP_PATHS and not self.is_https(environ):
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
        forwarded_proto = environ.get("HTTP_X_FORWARDED_PROTO")
        if forwarded_proto and peer is not None and self._trusted(peer):
            # The proxy tells us what the client used; a proxy passing plain HTTP is plain HTTP.
            return forwarded_proto.split(",")[0].strip().lower() == "https"
        if environ.get("wsgi.url_scheme") == "https":
            return True
        return bool(self.allow_loopback_http and peer is not None and peer.is_loopback)

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
        record = accounts.find_key(presented)
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
            record_key_use(record.id, clock.utcnow().isoformat())
        except Exception:  # bookkeeping only: never refuse a request because of it
            log.warning("could not record last use of key %s", record.id, exc_info=True)


def _address(value):
    try:
        return ipaddress.ip_address(value) if value else None
    except ValueError:
        return None


_REASONS = {400: "Bad Request", 401: "Unauthorized", 403: "Forbidden", 404: "Not Found",
            405: "Method Not Allowed", 409: "Conflict", 410: "Gone", 413: "Payload Too Large",
            415: "Unsupported Media Type", 422: "Unprocessable Content", 429: "Too Many Requests",
            500: "Internal Server Error", 503: "Service Unavailable"}


def status_line(status: int) -> str:
    return f"{status} {_REASONS.get(status, 'Error')}"
