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
answer was recorded sends the delivery again, with the same event id (in a batch, the answers of
up to a tenth of a second are written together: recording.py).
"""

from __future__ import annotations

import calendar
import datetime as dt
import email.utils
import json
import logging
import random
import threading
import time

import peewee
from peewee import SQL

from rentalcomply import __version__
from rentalcomply.core import clock, netguard, peers
from rentalcomply.core.db import can_return_rows, db
from rentalcomply.core.models import Event
from rentalcomply.webhooks import recording, service, transport
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
# A delivery held with others (attempt_each) has its hold renewed before its attempt once this
# much of the margin is gone: every attempt starts with its timeout and 15 s still held.
RENEW_AFTER = dt.timedelta(seconds=LEASE_MARGIN / 2)
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
    before the following attempt, or None when there is nothing more to do now.

    The receiver's host gets at most `webhooks.max_deliveries_per_host` attempts at a time
    (core/peers.py): when its slots are taken this returns at once with a few seconds to wait,
    and nothing is recorded, so one slow receiver cannot occupy every worker."""
    url = _url_of(delivery_id)
    if url is None:
        return None
    with peers.try_slot(url, service.config.max_deliveries_per_host) as slot:
        if not slot.taken:
            return peers.BUSY_RETRY_SECONDS
        return _attempt(_claim(delivery_id))


def attempt_each(delivery_ids: list[str]):
    """Attempt deliveries to one endpoint one after the other, as `attempt` would each in this
    order; yields (delivery id, its `attempt` result) after each attempt.

    Those free to go now are claimed together, in one statement, and their rows read in one
    more; the endpoint's secrets are opened once. A delivery that statement leaves out (one
    waiting for an earlier version of its resource in this very batch, one held or not due) is
    claimed on its own when its turn comes, exactly as `attempt` claims. A held delivery whose
    attempt might outlast its hold (a slow receiver earlier in the batch) has the hold renewed
    first, so that nothing else claims it meanwhile.

    The caller closes it if it stops before the end (`contextlib.closing`): between two attempts
    it holds the receiver's slot and the rest of the batch, which only closing gives back."""
    if not delivery_ids:
        return
    url = _url_of(delivery_ids[0])
    if url is None:
        yield from ((delivery_id, attempt(delivery_id)) for delivery_id in delivery_ids)
        return
    with peers.try_slot(url, service.config.max_deliveries_per_host) as slot:
        if not slot.taken:  # each waits its turn on its own, as attempt() has it wait
            yield from ((delivery_id, attempt(delivery_id)) for delivery_id in delivery_ids)
            return
        _release_remembered()
        held, hold = _claim_together(delivery_ids)
        waiting = set(held)  # held by this batch, not attempted yet
        secrets_by_endpoint: dict[str, list[str] | None] = {}
        try:
            for delivery_id in delivery_ids:
                waiting.discard(delivery_id)
                row = held.get(delivery_id)
                if row is None:
                    recording.write_in_hand()  # it may wait for one of them
                    claim = _claim(delivery_id)
                else:
                    now = clock.utcnow_precise()
                    recording.write_if_kept_since(now)
                    if hold - now < _attempt_hold() - RENEW_AFTER:
                        recording.write_in_hand()
                        if not _renew(delivery_id, hold):
                            yield delivery_id, None  # no longer ours: whoever holds it attempts it
                            continue
                    claim = _ready(*_instances(row), now, secrets_by_endpoint)
                yield delivery_id, _attempt(claim, keep_success=True)
        finally:
            try:
                recording.write_in_hand()
            except (peewee.DatabaseError, peewee.InterfaceError):
                pass  # logged; the batch ends here, and the rest is given back below
            if waiting:  # the batch was cut (the database went away): free the rest at once
                _release(waiting, hold)


def _url_of(delivery_id: str) -> str | None:
    row = db.execute_sql(_URL_SQL.replace("?", db.param), (delivery_id,)).fetchone()
    return row[0] if row else None


_URL_SQL = ('SELECT "webhook_endpoint"."url" FROM "webhook_endpoint" JOIN "webhook_delivery" '
            'ON "webhook_delivery"."endpoint_id" = "webhook_endpoint"."id" '
            'WHERE "webhook_delivery"."id" = ?')


def _attempt_hold() -> dt.timedelta:
    return dt.timedelta(seconds=service.config.timeout_seconds + LEASE_MARGIN)


def _attempt(claim: "_Claim | None", keep_success: bool = False) -> float | None:
    """Send the claimed delivery and record what happened; `keep_success`: a success is kept
    in hand to be written with the batch's others (recording.py)."""
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
        # Kept-alive connections per receiver (transport.py), through netguard's guard.
        response = transport.post(
            endpoint.url, body, headers, timeout=service.config.timeout_seconds,
            allow_private=service.config.allow_private_addresses,
            allow_http=service.config.allow_http, max_bytes=EXCERPT_BYTES,
            private_setting=service.PRIVATE_SETTING, http_setting=service.HTTP_SETTING)
    except netguard.FetchError as exc:
        error, permanent = str(exc), exc.permanent
    except Exception as exc:  # never leave a delivery held because of a bug in one attempt
        log.exception("webhook delivery %s: unexpected error", delivery.id)
        error = f"internal error: {type(exc).__name__}"
    if keep_success:
        if response is not None and 200 <= response.status < 300:
            recording.keep(_success(delivery, endpoint, number, started, response))
            return None
        recording.write_in_hand()  # the endpoint's failing clock moves in the attempts' order
    return _record(delivery, endpoint, event, number, started, response, error, permanent)


def _claim(delivery_id: str) -> _Claim | None:
    """Take the delivery for one attempt, if it is pending, due and not held by another attempt.

    The hold is one conditional UPDATE, atomic on its own: of two workers given the same delivery
    (the sweep and a scheduled retry, say), exactly one sees a changed row. A delivery not yet due
    is left alone: huey's eta for a retry is computed after next_attempt_at, never before it.
    """
    now = clock.utcnow_precise()
    hold = now + _attempt_hold()
    # The statement peewee builds from `_waiting_ahead()` and these conditions, written out once:
    # building it per attempt cost more than the database's work (bench/webhooks.py).
    taken = db.execute_sql(_CLAIM_SQL.replace("?", db.param),
                           (hold, delivery_id, "pending", now, now, "pending", 0)).rowcount
    if not taken:
        return None
    row = db.execute_sql(_CLAIMED_SQL.replace("?", db.param), (delivery_id,)).fetchone()
    if row is None:  # its endpoint was deleted a moment ago
        return None
    return _ready(*_instances(row), now, {})


def _ready(delivery: WebhookDelivery, endpoint: WebhookEndpoint, event: Event, now: dt.datetime,
           secrets_by_endpoint: dict) -> _Claim | None:
    """A held delivery made ready to send, or finished as failed when it cannot be sent: its
    endpoint disabled, its secret unreadable. `secrets_by_endpoint` keeps opened secrets (AES-GCM
    under a derived key) for the deliveries after it to the same endpoint."""
    if endpoint.status != "active" and event.type != service.TEST_EVENT:
        with db.atomic():
            _finish(delivery, "failed", now,
                    last_error=f"The endpoint was disabled: {endpoint.disabled_reason or ''}".strip())
        return None
    if endpoint.id not in secrets_by_endpoint:
        try:
            secrets_by_endpoint[endpoint.id] = service.signing_secrets(endpoint, clock.utcnow())
        except service.SecretUnavailable as exc:
            secrets_by_endpoint[endpoint.id] = None
            with db.atomic():
                _finish(delivery, "failed", now, last_error=f"Cannot sign: {exc}.")
            return None
    secrets_ = secrets_by_endpoint[endpoint.id]
    if secrets_ is None:
        with db.atomic():
            _finish(delivery, "failed", now, last_error="Cannot sign: the endpoint's secret "
                                                        "cannot be opened; rotate the webhook's secret.")
        return None
    return _Claim(delivery, endpoint, event, secrets_)


def _claim_together(delivery_ids: list[str]) -> tuple[dict[str, tuple], dt.datetime]:
    """Hold, in one statement, every delivery of the list that `_claim` would hold now; their
    rows (as `_CLAIMED_SQL` reads them) by id, and the hold they were given. Needs UPDATE ...
    RETURNING (SQLite 3.35, PostgreSQL); without it nothing is held here and each delivery is
    claimed on its own."""
    now = clock.utcnow_precise()
    hold = now + _attempt_hold()
    if not can_return_rows():
        return {}, hold
    marks = ", ".join([db.param] * len(delivery_ids))
    claimed = [row[0] for row in db.execute_sql(
        _CLAIM_MANY_SQL.replace("?", db.param).replace("(@ids)", f"({marks})"),
        (hold, *delivery_ids, "pending", now, now, "pending", 0)).fetchall()]
    if not claimed:
        return {}, hold
    marks = ", ".join([db.param] * len(claimed))
    rows = db.execute_sql(_CLAIMED_MANY_SQL.replace("?", db.param).replace("(@ids)", f"({marks})"),
                          claimed).fetchall()
    # Row ids come first in _CLAIMED_SQL's columns (the delivery's id).
    return {row[0]: row for row in rows}, hold


def _renew(delivery_id: str, hold: dt.datetime) -> bool:
    """Extend a hold of ours before an attempt it might not cover; False if it is not ours now."""
    return bool(db.execute_sql(
        'UPDATE "webhook_delivery" SET "locked_until" = ? WHERE "id" = ? AND "locked_until" = ? '
        'AND "status" = ?'.replace("?", db.param),
        (clock.utcnow_precise() + _attempt_hold(), delivery_id, hold, "pending")).rowcount)


# Holds a cut batch could not give back (the database was still away), retried by this process's
# next batch: without it they would wait out their hold (the timeout and LEASE_MARGIN).
_unreleased: dict[str, dt.datetime] = {}
_unreleased_lock = threading.Lock()
RELEASE_TRIES = 3


def _release(delivery_ids, hold: dt.datetime) -> None:
    """Give back holds of a batch that never attempted them, so that the sweep or the batch's
    retry sends them now rather than after the hold. Tried a few times a second apart (a
    database restart is over in moments), then left to the next batch of this process."""
    for attempt_number in range(RELEASE_TRIES):
        try:
            with db.atomic():
                marks = ", ".join([db.param] * len(delivery_ids))
                db.execute_sql(
                    f'UPDATE "webhook_delivery" SET "locked_until" = NULL WHERE "id" IN ({marks}) '
                    f'AND "locked_until" = {db.param} AND "status" = {db.param}',
                    (*delivery_ids, hold, "pending"))
            return
        except (peewee.DatabaseError, peewee.InterfaceError):  # "connection already closed": the latter
            if attempt_number + 1 < RELEASE_TRIES:
                time.sleep(1)
    with _unreleased_lock:
        _unreleased.update((delivery_id, hold) for delivery_id in delivery_ids)
    log.warning("webhook deliveries %s: held by a batch that was cut; given back later",
                ", ".join(sorted(delivery_ids)))


def _release_remembered() -> None:
    with _unreleased_lock:
        remembered = dict(_unreleased)
        _unreleased.clear()
    by_hold: dict[dt.datetime, list[str]] = {}
    for delivery_id, hold in remembered.items():
        by_hold.setdefault(hold, []).append(delivery_id)
    for hold, delivery_ids in by_hold.items():
        _release(delivery_ids, hold)


_CLAIM_SQL = (
    'UPDATE "webhook_delivery" SET "locked_until" = ? WHERE "webhook_delivery"."id" = ? '
    'AND "webhook_delivery"."status" = ? '
    'AND ("webhook_delivery"."next_attempt_at" IS NULL OR "webhook_delivery"."next_attempt_at" <= ?) '
    'AND ("webhook_delivery"."locked_until" IS NULL OR "webhook_delivery"."locked_until" < ?) '
    'AND NOT EXISTS (SELECT 1 FROM "webhook_delivery" AS "ahead" '
    'WHERE "ahead"."endpoint_id" = "webhook_delivery"."endpoint_id" '
    'AND "ahead"."resource_key" = "webhook_delivery"."resource_key" '
    'AND "ahead"."status" = ? AND "ahead"."attempts" = ? '
    'AND "ahead"."resource_version" < "webhook_delivery"."resource_version")')


# The delivery with its endpoint and event, read as one plain row and made into the three models
# (the same as a peewee join, without building the query and the objects through it).
_CLAIMED_MODELS = (WebhookDelivery, WebhookEndpoint, Event)
_CLAIMED_SQL = (
    "SELECT " + ", ".join(f'"{model._meta.table_name}"."{field.column_name}"'
                          for model in _CLAIMED_MODELS for field in model._meta.sorted_fields)
    + ' FROM "webhook_delivery"'
    ' JOIN "webhook_endpoint" ON "webhook_endpoint"."id" = "webhook_delivery"."endpoint_id"'
    ' JOIN "event" ON "event"."id" = "webhook_delivery"."event_id"'
    ' WHERE "webhook_delivery"."id" = ?')
# The same claim for a list of deliveries at once, naming those it held; and their rows.
_CLAIM_MANY_SQL = _CLAIM_SQL.replace('WHERE "webhook_delivery"."id" = ?',
                                     'WHERE "webhook_delivery"."id" IN (@ids)') \
    + ' RETURNING "webhook_delivery"."id"'
_CLAIMED_MANY_SQL = _CLAIMED_SQL.replace('WHERE "webhook_delivery"."id" = ?',
                                         'WHERE "webhook_delivery"."id" IN (@ids)')


def _instances(row) -> tuple[WebhookDelivery, WebhookEndpoint, Event]:
    made, offset = [], 0
    for model in _CLAIMED_MODELS:
        fields = model._meta.sorted_fields
        instance = model.__new__(model)
        instance.__data__ = {field.name: field.python_value(value)
                             for field, value in zip(fields, row[offset:offset + len(fields)])}
        instance._dirty, instance.__rel__ = set(), {}
        made.append(instance)
        offset += len(fields)
    delivery, endpoint, event = made
    delivery.__rel__.update(endpoint=endpoint, event=event)
    return delivery, endpoint, event


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
    # One written-out statement: it runs after every attempt (bench/webhooks.py).
    if recording.is_in_hand(delivery_id):  # attempted, its success not written yet
        row = db.execute_sql(_NEXT_IN_LINE_SQL.replace("?", db.param),
                             (delivery_id, "pending", 0)).fetchone()
        if row is not None:
            recording.write_in_hand()  # the next in line's claim must see this one's turn over
    else:
        row = db.execute_sql(_RELEASED_SQL.replace("?", db.param),
                             (delivery_id, "pending", 0, "pending", 0)).fetchone()
    return [row[0]] if row is not None else []


_RELEASED_SQL = (
    'SELECT "next"."id" FROM "webhook_delivery" AS "done" '
    'JOIN "webhook_delivery" AS "next" ON "next"."endpoint_id" = "done"."endpoint_id" '
    'AND "next"."resource_key" = "done"."resource_key" '
    'WHERE "done"."id" = ? AND "done"."resource_key" IS NOT NULL '
    'AND NOT ("done"."status" = ? AND "done"."attempts" = ?) '
    'AND "next"."status" = ? AND "next"."attempts" = ? '
    'ORDER BY "next"."resource_version", "next"."created_at", "next"."id" LIMIT 1')
# The same without asking whether this one's first attempt is over: it is, and not written yet.
_NEXT_IN_LINE_SQL = _RELEASED_SQL.replace(
    'AND NOT ("done"."status" = ? AND "done"."attempts" = ?) ', 'AND "next"."id" <> "done"."id" ')


def _excerpt(response: netguard.Response | None) -> str | None:
    if response is None or not response.body:
        return None
    return response.body.decode("utf-8", errors="replace")[:EXCERPT_BYTES]


def _success(delivery: WebhookDelivery, endpoint: WebhookEndpoint, number: int,
             started: dt.datetime, response: netguard.Response,
             finished: dt.datetime | None = None) -> recording.Success:
    return recording.Success(delivery.id, endpoint, number, started,
                             finished or clock.utcnow_precise(), response.status,
                             _excerpt(response))


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
    if succeeded:
        recording.write([_success(delivery, endpoint, number, started, response, now)])
        return None
    excerpt = _excerpt(response)
    duration_ms = int((now - started).total_seconds() * 1000)
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
