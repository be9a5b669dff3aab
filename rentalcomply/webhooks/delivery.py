"""One delivery attempt: sign afresh, POST, record what happened, decide when to try again.

A 2xx within `webhooks.timeout_seconds` (10 s) is success. Anything else — another status, a
redirect (never followed), a timeout, a refused connection — is retried on RETRY_DELAYS (about
1 min, 5 min, 30 min, 2 h, 6 h, 12 h, 24 h, each with ±10 % jitter so that a recovering receiver
is not hit by every delivery in the same second), then the delivery is `failed`. A Retry-After in
the response makes the wait at least that long (read as at most 24 hours). `410 Gone` disables the
endpoint at once; an endpoint whose every attempt has failed for `webhooks.disable_after_days`
(3) days is disabled too, with the reason shown in GET /webhooks/{id}.

One resource's events reach one endpoint in the order they happened while the endpoint answers:
a delivery that announces a resource (`resource_key`, `resource_version`) is not sent while a
delivery of a lower version of that resource to that endpoint waits for its first attempt; when
that attempt ends, `released_by` names the next in line. Once a first attempt has failed, the
deliveries after it go on without waiting for its retries, so a failing endpoint may get a
resource's events out of order: receivers keep the highest `data.version`.

The state lives in the database, not in the queue: a delivery row says when its next attempt is
due, so the periodic sweep (tasks.py) finds it again after a crash or a restart even if the queued
task was lost. The price is at-least-once: a crash after the receiver answered but before the
answer was recorded sends the delivery again, with the same event id.
"""

from __future__ import annotations

import calendar
import datetime as dt
import email.utils
import json
import logging
import random

from peewee import SQL, fn

from rentalcomply import __version__
from rentalcomply.core import clock, netguard
from rentalcomply.core.db import db
from rentalcomply.core.models import Event
from rentalcomply.webhooks import service
from rentalcomply.webhooks.models import WebhookAttempt, WebhookDelivery, WebhookEndpoint
from rentalcomply.webhooks.signing import signature_headers

log = logging.getLogger(__name__)

# Seconds to wait after attempt 1, 2, ...; after the last one the delivery is failed. Tests shrink
# this (it is read at each attempt).
RETRY_DELAYS: list[float] = [60, 300, 1800, 7200, 21600, 43200, 86400]
JITTER = 0.1
MAX_RETRY_AFTER = 86400
# How long an attempt holds its delivery beyond the request timeout (recording, a slow database).
LEASE_MARGIN = 30
# Enough of a response body to show a receiver's error message in the delivery log.
EXCERPT_BYTES = 500
USER_AGENT = f"RentalComply/{__version__}"


def unix_time(value: dt.datetime) -> int:
    return calendar.timegm(value.utctimetuple())


def event_body(event: Event, timestamp: int) -> bytes:
    document = {
        "id": event.id,
        "type": event.type,
        "created_at": clock.iso(event.created_at),
        "timestamp": timestamp,
        "account_id": event.account_id,
        "data": event.data,
    }
    return json.dumps(document, separators=(",", ":"), ensure_ascii=False).encode("utf-8")


def retry_delay(attempt_number: int, retry_after: float | None = None) -> float | None:
    """Seconds before the attempt after `attempt_number`, or None when there is none."""
    if attempt_number > len(RETRY_DELAYS):
        return None
    base = RETRY_DELAYS[attempt_number - 1]
    delay = base * random.uniform(1 - JITTER, 1 + JITTER)
    if retry_after is not None:
        delay = max(delay, min(retry_after, MAX_RETRY_AFTER))
    return delay


def parse_retry_after(value: str | None, now: dt.datetime) -> float | None:
    """Seconds from a Retry-After header: a number of seconds or an HTTP date."""
    if not value:
        return None
    value = value.strip()
    if value.isdigit():
        return float(value)
    try:
        when = email.utils.parsedate_to_datetime(value)
    except (TypeError, ValueError):
        return None
    if when.tzinfo is not None:
        when = when.astimezone(dt.timezone.utc).replace(tzinfo=None)
    return max(0.0, (when - now).total_seconds())


class _Claim:
    def __init__(self, delivery, endpoint, event, secrets_):
        self.delivery = delivery
        self.endpoint = endpoint
        self.event = event
        self.secrets = secrets_


def attempt(delivery_id: str) -> float | None:
    """Make the next attempt of a delivery if it is due and free; return the seconds to wait
    before the following attempt, or None when there is nothing more to do now."""
    claim = _claim(delivery_id)
    if claim is None:
        return None
    delivery, endpoint, event = claim.delivery, claim.endpoint, claim.event
    number = delivery.attempts + 1
    started = clock.utcnow_precise()
    timestamp = unix_time(started)
    body = event_body(event, timestamp)
    headers = {
        "Content-Type": "application/json",
        "User-Agent": USER_AGENT,
        "X-RentalComply-Event": event.type,
        "X-RentalComply-Delivery": delivery.id,
        **signature_headers(body, event.id, timestamp, claim.secrets),
    }
    response = error = None
    permanent = False
    try:
        response = netguard.fetch(
            endpoint.url, method="POST", body=body, headers=headers,
            timeout=service.config.timeout_seconds,
            allow_private=service.config.allow_private_addresses,
            allow_http=service.config.allow_http,
            max_bytes=EXCERPT_BYTES, truncate=True,
            private_setting=service.PRIVATE_SETTING, http_setting=service.HTTP_SETTING)
    except netguard.FetchError as exc:
        error, permanent = str(exc), exc.permanent
    except Exception as exc:  # never leave a delivery held because of a bug in one attempt
        log.exception("webhook delivery %s: unexpected error", delivery.id)
        error = f"internal error: {type(exc).__name__}"
    return _record(delivery, endpoint, event, number, started, response, error, permanent)


def _claim(delivery_id: str) -> _Claim | None:
    """Take the delivery for one attempt, if it is pending, due and not held by another attempt.

    The hold is one conditional UPDATE, atomic on its own: of two workers given the same delivery
    (the sweep and a scheduled retry, say), exactly one sees a changed row. A delivery not yet due
    is left alone: huey's eta for a retry is computed after next_attempt_at, never before it.
    """
    now = clock.utcnow_precise()
    hold = now + dt.timedelta(seconds=service.config.timeout_seconds + LEASE_MARGIN)
    taken = (WebhookDelivery.update(locked_until=hold)
             .where((WebhookDelivery.id == delivery_id)
                    & (WebhookDelivery.status == "pending")
                    & (WebhookDelivery.next_attempt_at.is_null() | (WebhookDelivery.next_attempt_at <= now))
                    & (WebhookDelivery.locked_until.is_null() | (WebhookDelivery.locked_until < now))
                    & ~fn.EXISTS(_waiting_ahead()))
             .execute())
    if not taken:
        return None
    delivery = (WebhookDelivery.select(WebhookDelivery, WebhookEndpoint, Event)
                .join(WebhookEndpoint).switch(WebhookDelivery).join(Event)
                .where(WebhookDelivery.id == delivery_id).get_or_none())
    if delivery is None:  # its endpoint was deleted a moment ago
        return None
    endpoint, event = delivery.endpoint, delivery.event
    if endpoint.status != "active" and event.type != service.TEST_EVENT:
        with db.atomic():
            _finish(delivery, "failed", now,
                    last_error=f"The endpoint was disabled: {endpoint.disabled_reason or ''}".strip())
        return None
    try:
        secrets_ = service.signing_secrets(endpoint, clock.utcnow())
    except service.SecretUnavailable as exc:
        with db.atomic():
            _finish(delivery, "failed", now, last_error=f"Cannot sign: {exc}.")
        return None
    return _Claim(delivery, endpoint, event, secrets_)


def _waiting_ahead():
    """The deliveries that must go first: same endpoint, same resource, a lower version, first
    attempt not yet made (or in flight). Correlated with the row being claimed."""
    ahead = WebhookDelivery.alias("ahead")
    return (ahead.select(SQL("1"))
            .where((ahead.endpoint == WebhookDelivery.endpoint)
                   & (ahead.resource_key == WebhookDelivery.resource_key)
                   & (ahead.status == "pending") & (ahead.attempts == 0)
                   & (ahead.resource_version < WebhookDelivery.resource_version)))


def released_by(delivery_id: str) -> list[str]:
    """The delivery whose turn came once this one's first attempt ended (succeeded or failed):
    the lowest version of the same resource to the same endpoint still waiting for its first
    attempt. Empty while this one still waits itself, or when it announces no resource."""
    done = (WebhookDelivery.select(WebhookDelivery.endpoint, WebhookDelivery.resource_key,
                                   WebhookDelivery.status, WebhookDelivery.attempts)
            .where(WebhookDelivery.id == delivery_id).first())
    if done is None or done.resource_key is None or (done.status == "pending" and done.attempts == 0):
        return []
    following = (WebhookDelivery.select(WebhookDelivery.id)
                 .where((WebhookDelivery.endpoint == done.endpoint_id)
                        & (WebhookDelivery.resource_key == done.resource_key)
                        & (WebhookDelivery.status == "pending") & (WebhookDelivery.attempts == 0))
                 .order_by(WebhookDelivery.resource_version, WebhookDelivery.created_at,
                           WebhookDelivery.id)
                 .first())
    return [following.id] if following is not None else []


def _finish(delivery: WebhookDelivery, status: str, now: dt.datetime, **fields) -> None:
    delivery.status = status
    delivery.completed_at = now
    delivery.next_attempt_at = None
    delivery.locked_until = None
    for name, value in fields.items():
        setattr(delivery, name, value)
    delivery.save()


def _record(delivery: WebhookDelivery, endpoint: WebhookEndpoint, event: Event, number: int,
            started: dt.datetime, response: netguard.Response | None, error: str | None,
            permanent: bool) -> float | None:
    now = clock.utcnow_precise()
    status_code = response.status if response is not None else None
    succeeded = status_code is not None and 200 <= status_code < 300
    if response is not None and not succeeded:
        error = f"HTTP {status_code}"
        if 300 <= status_code < 400:
            location = response.header("location")
            error += (" (redirects are not followed; register the final URL"
                      + (f": {location[:200]}" if location else "") + ")")
    excerpt = None
    if response is not None and response.body:
        excerpt = response.body.decode("utf-8", errors="replace")[:EXCERPT_BYTES]
    duration_ms = int((now - started).total_seconds() * 1000)
    if succeeded:
        with db.atomic():
            # By id alone: a success counts even if the endpoint was disabled meanwhile.
            recorded = (WebhookDelivery.update(
                status="succeeded", attempts=number, last_attempt_at=started,
                last_status_code=status_code, last_error=None, completed_at=now,
                next_attempt_at=None, locked_until=None)
                .where(WebhookDelivery.id == delivery.id).execute())
            if not recorded:  # the endpoint was deleted meanwhile
                return None
            WebhookAttempt.create(delivery=delivery.id, number=number, attempted_at=started,
                                  duration_ms=duration_ms, status_code=status_code,
                                  response_excerpt=excerpt)
            # Endpoint rows are shared by every delivery to them: write only when it changes
            # something (a failure clock to reset, a last success older than a minute).
            if endpoint.failing_since is not None or endpoint.last_success_at is None \
                    or now - endpoint.last_success_at > dt.timedelta(seconds=60):
                (WebhookEndpoint.update(failing_since=None, last_success_at=now)
                 .where(WebhookEndpoint.id == endpoint.id).execute())
        return None
    with db.atomic():
        current = WebhookDelivery.get_or_none(WebhookDelivery.id == delivery.id)
        if current is None:  # the endpoint was deleted meanwhile
            return None
        WebhookAttempt.create(delivery=delivery.id, number=number, attempted_at=started,
                              duration_ms=duration_ms, status_code=status_code, error=error,
                              response_excerpt=excerpt)
        current.attempts = number
        current.last_attempt_at = started
        current.last_status_code = status_code
        if current.status != "pending":  # failed meanwhile, its endpoint disabled: keep the why
            current.locked_until = None
            current.save()
            return None
        current.last_error = error
        (WebhookEndpoint.update(failing_since=started)
         .where((WebhookEndpoint.id == endpoint.id) & WebhookEndpoint.failing_since.is_null())
         .execute())
        if status_code == 410:
            service.disable_endpoint(endpoint.id, f"The receiver answered 410 Gone on {clock.iso(now)}.")
            _finish(current, "failed", now)
            return None
        days = service.config.disable_after_days
        if service.disable_endpoint(
                endpoint.id,
                f"Every delivery attempt failed for {days} days; the last one on {clock.iso(now)}: "
                f"{error}", only_if_failing_since=now - dt.timedelta(days=days)):
            _finish(current, "failed", now)
            return None
        if permanent:
            _finish(current, "failed", now)
            return None
        retry_after = parse_retry_after(response.header("retry-after"), now) if response is not None else None
        delay = retry_delay(number, retry_after)
        if delay is None:
            current.last_error = f"{error} (gave up after {number} attempts)"
            _finish(current, "failed", now)
            return None
        current.next_attempt_at = now + dt.timedelta(seconds=delay)
        current.locked_until = None
        current.save()
    return delay
