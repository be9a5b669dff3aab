"""Webhook endpoints and the outbox dispatcher: the domain side, which knows nothing of Bottle.

Endpoints belong to an account; every function takes the caller's account id and treats another
account's endpoint as absent (the API answers 404).

Secrets must be usable to sign, so unlike API keys they cannot be stored as a hash. They are sealed
instead with AES-GCM under a key derived from the server secret (`core.sealing`), so a
copy of the database file alone (a stray copy, a support bundle) does not reveal them. Changing
the server secret makes them unreadable; deliveries then fail with a message saying to rotate the
secret.
"""

from __future__ import annotations

import dataclasses
import datetime as dt
from typing import Iterable

from rentalcomply.core import clock, netguard, sealing
from rentalcomply.core.checks import refuse_control_characters
from rentalcomply.core.commits import committed_read
from rentalcomply.core.db import can_return_rows, db, delete_in_batches, insert_rows
from rentalcomply.core.errors import NotFound, field_error
from rentalcomply.core.events import EVENT_TYPES, emit, resource_of
from rentalcomply.core.ids import new_id
from rentalcomply.core.models import Event
from rentalcomply.webhooks.models import WebhookAttempt, WebhookDelivery, WebhookEndpoint
from rentalcomply.webhooks.signing import generate_secret

ALL_EVENTS = "*"
TEST_EVENT = "webhook.test"
ROTATION_GRACE = dt.timedelta(hours=24)
MAX_URL_LENGTH = 2048
DISPATCH_BATCH = 500
HTTP_SETTING = "webhooks.allow_http"
PRIVATE_SETTING = "webhooks.allow_private_addresses"


@dataclasses.dataclass
class Config:
    """The settings deliveries need, set at start-up (`configure`) for the worker's sake."""

    allow_http: bool = False
    allow_private_addresses: bool = False
    timeout_seconds: float = 10.0
    disable_after_days: int = 3
    events_days: int = 30
    max_deliveries_per_host: int = 1


config = Config()


def configure(settings) -> None:
    global config
    config = Config(
        allow_http=settings.webhooks.allow_http,
        allow_private_addresses=settings.webhooks.allow_private_addresses,
        timeout_seconds=float(settings.webhooks.timeout_seconds),
        disable_after_days=settings.webhooks.disable_after_days,
        events_days=settings.retention.events_days,
        max_deliveries_per_host=settings.webhooks.max_deliveries_per_host,
    )


# -- sealing secrets ------------------------------------------------------------------------------

SEAL_PURPOSE = "webhook secret"


class SecretUnavailable(Exception):
    """A sealed secret cannot be opened (the server secret changed, or the row was altered)."""


def seal(secret: str) -> str:
    return sealing.seal(SEAL_PURPOSE, secret.encode("utf-8"))


def unseal(sealed: str) -> str:
    try:
        return sealing.unseal(SEAL_PURPOSE, sealed).decode("utf-8")
    except sealing.Unsealable as exc:
        raise SecretUnavailable(f"{exc}; rotate the webhook's secret") from None


def signing_secrets(endpoint: WebhookEndpoint, now: dt.datetime | None = None) -> list[str]:
    """The secrets that sign a delivery now: the current one, then the previous during its grace."""
    now = now or clock.utcnow()
    found = [unseal(endpoint.secret_sealed)]
    if endpoint.previous_secret_sealed and endpoint.previous_secret_expires_at \
            and endpoint.previous_secret_expires_at > now:
        try:
            found.append(unseal(endpoint.previous_secret_sealed))
        except SecretUnavailable:
            pass  # the current secret still signs
    return found


# -- validation -----------------------------------------------------------------------------------

def check_url(url: str, *, allow_http: bool | None = None, allow_private: bool | None = None) -> str:
    """Refuse, as a 400 on `url`, what would never be delivered.

    The host name is resolved too, for early feedback, but for at most REGISTRATION_DNS_SECONDS:
    this runs inside the write transaction, and a name that does not resolve (not yet in DNS, no
    network) is accepted, since the check that matters is made again at every connection.
    """
    allow_http = config.allow_http if allow_http is None else allow_http
    allow_private = config.allow_private_addresses if allow_private is None else allow_private
    if len(url) > MAX_URL_LENGTH:
        raise field_error("url", f"must be at most {MAX_URL_LENGTH} characters")
    refused = netguard.registration_problem(
        url, allow_http=allow_http, allow_private=allow_private, http_setting=HTTP_SETTING,
        private_setting=PRIVATE_SETTING, dns_seconds=REGISTRATION_DNS_SECONDS)
    if refused is not None:
        raise field_error("url", str(refused))
    return url


REGISTRATION_DNS_SECONDS = 2.0


def check_events(names: list[str]) -> list[str]:
    if not names:
        raise field_error("events", f'must name at least one event, or "{ALL_EVENTS}" for all')
    unknown = [name for name in names if name != ALL_EVENTS and name not in EVENT_TYPES]
    if unknown:
        raise field_error("events", "unknown event names: " + ", ".join(unknown)
                          + f'; known: {", ".join(EVENT_TYPES)}, or "{ALL_EVENTS}"')
    if ALL_EVENTS in names:
        return [ALL_EVENTS]
    return sorted(set(names), key=EVENT_TYPES.index)


# -- endpoints ------------------------------------------------------------------------------------

def create_endpoint(account_id: str, url: str, events: list[str], description: str = "",
                    *, allow_http: bool | None = None,
                    allow_private: bool | None = None) -> tuple[WebhookEndpoint, str]:
    """Return the endpoint and its secret, which is shown once."""
    refuse_control_characters({"url": url, "description": description}, multiline=("description",))
    url = check_url(url, allow_http=allow_http, allow_private=allow_private)
    events = check_events(events)
    secret = generate_secret()
    now = clock.utcnow()
    endpoint = WebhookEndpoint.create(
        id=new_id("wh"), account=account_id, url=url, description=description, events=events,
        status="active", secret_sealed=seal(secret), created_at=now, updated_at=now)
    return endpoint, secret


def get_endpoint(account_id: str, webhook_id: str) -> WebhookEndpoint:
    endpoint = WebhookEndpoint.get_or_none((WebhookEndpoint.id == webhook_id)
                                           & (WebhookEndpoint.account == account_id))
    if endpoint is None:
        raise NotFound("No such webhook endpoint.")
    return endpoint


def list_endpoints(account_id: str):
    return (WebhookEndpoint.select()
            .where(WebhookEndpoint.account == account_id)
            .order_by(WebhookEndpoint.created_at, WebhookEndpoint.id))


def update_endpoint(account_id: str, webhook_id: str, changes: dict, *,
                    allow_http: bool | None = None,
                    allow_private: bool | None = None) -> WebhookEndpoint:
    """Change url, events, description or status. Re-enabling clears the reason it was disabled
    and the failure clock, so the endpoint gets a fresh 3 days."""
    endpoint = get_endpoint(account_id, webhook_id)
    refuse_control_characters({name: changes[name] for name in ("url", "description")
                               if name in changes}, multiline=("description",))
    if "url" in changes:
        endpoint.url = check_url(changes["url"], allow_http=allow_http, allow_private=allow_private)
    if "events" in changes:
        endpoint.events = check_events(changes["events"])
    if "description" in changes:
        endpoint.description = changes["description"]
    if "status" in changes and changes["status"] != endpoint.status:
        if changes["status"] == "active":
            endpoint.status = "active"
            endpoint.disabled_reason = endpoint.disabled_at = endpoint.failing_since = None
        else:
            _disable(endpoint, "Disabled through the API.")
    endpoint.updated_at = clock.utcnow()
    endpoint.save()
    return endpoint


def delete_endpoint(account_id: str, webhook_id: str) -> None:
    """Remove the endpoint with its deliveries; deliveries not yet made are dropped."""
    endpoint = get_endpoint(account_id, webhook_id)
    endpoint.delete_instance()  # deliveries and attempts go with it (ON DELETE CASCADE)


def rotate_secret(account_id: str, webhook_id: str) -> tuple[WebhookEndpoint, str]:
    """A new secret; the one it replaces keeps signing alongside for 24 hours. A second rotation
    within those hours retires the oldest secret at once: at most two ever sign."""
    endpoint = get_endpoint(account_id, webhook_id)
    secret = generate_secret()
    now = clock.utcnow()
    try:
        unseal(endpoint.secret_sealed)
    except SecretUnavailable:  # unreadable (server secret changed): nothing worth keeping
        endpoint.previous_secret_sealed = endpoint.previous_secret_expires_at = None
    else:
        endpoint.previous_secret_sealed = endpoint.secret_sealed
        endpoint.previous_secret_expires_at = now + ROTATION_GRACE
    endpoint.secret_sealed = seal(secret)
    endpoint.updated_at = now
    endpoint.save()
    return endpoint, secret


def send_test(account_id: str, webhook_id: str) -> Event:
    """Queue a `webhook.test` event for this endpoint alone (whatever it subscribes to, and even
    while disabled, so that a receiver can be checked before it is enabled again)."""
    endpoint = get_endpoint(account_id, webhook_id)
    return emit(account_id, TEST_EVENT, {
        "webhook_id": endpoint.id,
        "message": "A test delivery from RentalComply: this endpoint receives signed events.",
    })


def resend_delivery(account_id: str, webhook_id: str, delivery_id: str) -> WebhookDelivery:
    """Put a failed delivery back in line for one more attempt, due now; the caller queues it
    (`tasks.deliver`) once this has committed, or the sweep finds it within a minute."""
    endpoint = get_endpoint(account_id, webhook_id)
    delivery = WebhookDelivery.get_or_none((WebhookDelivery.id == delivery_id)
                                           & (WebhookDelivery.endpoint == endpoint.id)
                                           & (WebhookDelivery.account == account_id))
    if delivery is None:
        raise NotFound("No such delivery.")
    if delivery.status != "failed":
        raise field_error("delivery_id", "only a failed delivery can be sent again")
    if endpoint.status != "active" and delivery.event_type != TEST_EVENT:
        raise field_error("webhook_id", "the endpoint is disabled; enable it first")
    (WebhookDelivery.update(status="pending", next_attempt_at=clock.utcnow_precise(),
                            completed_at=None, locked_until=None)
     .where((WebhookDelivery.id == delivery.id) & (WebhookDelivery.status == "failed"))
     .execute())
    return WebhookDelivery.get_by_id(delivery.id)


def _disable(endpoint: WebhookEndpoint, reason: str) -> None:
    now = clock.utcnow()
    endpoint.status = "disabled"
    endpoint.disabled_reason = reason
    endpoint.disabled_at = now
    _fail_pending(endpoint.id, f"The endpoint was disabled: {reason}", now)


def _fail_pending(endpoint_id: str, reason: str, now: dt.datetime) -> int:
    """Deliveries still waiting for a disabled endpoint end as failed, with the reason."""
    return (WebhookDelivery.update(status="failed", last_error=reason, next_attempt_at=None,
                                   completed_at=now)
            .where((WebhookDelivery.endpoint == endpoint_id)
                   & (WebhookDelivery.status == "pending")
                   & (WebhookDelivery.event_type != TEST_EVENT))
            .execute())


def disable_endpoint(endpoint_id: str, reason: str, *, only_if_failing_since: dt.datetime | None = None) -> bool:
    """Disable an active endpoint (by the delivery machinery); returns whether this call did it.

    With `only_if_failing_since`, only when it has been failing since at least then: the check and
    the change are one statement, so concurrent deliveries cannot disagree about it.
    """
    now = clock.utcnow()
    condition = (WebhookEndpoint.id == endpoint_id) & (WebhookEndpoint.status == "active")
    if only_if_failing_since is not None:
        condition &= WebhookEndpoint.failing_since <= only_if_failing_since
    changed = (WebhookEndpoint.update(status="disabled", disabled_reason=reason, disabled_at=now,
                                      updated_at=now)
               .where(condition).execute())
    if changed:
        _fail_pending(endpoint_id, f"The endpoint was disabled: {reason}", now)
    return bool(changed)


# -- views ----------------------------------------------------------------------------------------

def endpoint_view(endpoint: WebhookEndpoint, secret: str | None = None) -> dict:
    view = {
        "id": endpoint.id,
        "url": endpoint.url,
        "description": endpoint.description,
        "events": endpoint.events,
        "status": endpoint.status,
        "disabled_reason": endpoint.disabled_reason,
        "disabled_at": clock.iso(endpoint.disabled_at),
        "failing_since": clock.iso(endpoint.failing_since),
        "last_success_at": clock.iso(endpoint.last_success_at),
        "previous_secret_expires_at": clock.iso(
            endpoint.previous_secret_expires_at
            if endpoint.previous_secret_expires_at and endpoint.previous_secret_expires_at > clock.utcnow()
            else None),
        "created_at": clock.iso(endpoint.created_at),
        "updated_at": clock.iso(endpoint.updated_at),
        "version": endpoint.version,
    }
    if secret is not None:
        view["secret"] = secret
    return view


def list_deliveries(account_id: str, webhook_id: str, status: str | None = None):
    endpoint = get_endpoint(account_id, webhook_id)
    query = (WebhookDelivery.select()
             .where((WebhookDelivery.endpoint == endpoint.id) & (WebhookDelivery.account == account_id))
             .order_by(WebhookDelivery.created_at.desc(), WebhookDelivery.id.desc()))
    if status:
        query = query.where(WebhookDelivery.status == status)
    return query


def attempts_of(delivery_ids: Iterable[str]) -> dict[str, list[WebhookAttempt]]:
    found: dict[str, list[WebhookAttempt]] = {}
    ids = list(delivery_ids)
    if not ids:
        return found
    for attempt in (WebhookAttempt.select()
                    .where(WebhookAttempt.delivery.in_(ids))
                    .order_by(WebhookAttempt.delivery, WebhookAttempt.number)):
        found.setdefault(attempt.delivery_id, []).append(attempt)
    return found


def delivery_view(delivery: WebhookDelivery, attempts: list[WebhookAttempt]) -> dict:
    return {
        "id": delivery.id,
        "webhook_id": delivery.endpoint_id,
        "event_id": delivery.event_id,
        "event_type": delivery.event_type,
        "status": delivery.status,
        "attempts": delivery.attempts,
        "last_status_code": delivery.last_status_code,
        "last_error": delivery.last_error,
        "last_attempt_at": clock.iso(delivery.last_attempt_at),
        "next_attempt_at": clock.iso(delivery.next_attempt_at) if delivery.status == "pending" else None,
        "created_at": clock.iso(delivery.created_at),
        "completed_at": clock.iso(delivery.completed_at),
        "attempt_log": [{
            "number": attempt.number,
            "attempted_at": clock.iso(attempt.attempted_at),
            "duration_ms": attempt.duration_ms,
            "status_code": attempt.status_code,
            "error": attempt.error,
            "response_excerpt": attempt.response_excerpt,
        } for attempt in attempts],
    }


# -- the outbox -----------------------------------------------------------------------------------

def has_receiver(account_id: str, event_type: str) -> bool:
    """Whether an active endpoint of the account takes `event_type` (a test event always has
    its endpoint): whether the commit that emitted it wakes the dispatcher (core/events.py). On
    SQLite the endpoints are read again only after something was committed (core/commits.py).
    Asked inside the emitting transaction: an answer it got wrong (a change of an endpoint in
    that very transaction) only leaves its events to the minute's sweep."""
    if event_type == TEST_EVENT:
        return True
    subscriptions = committed_read(("webhook-subscriptions", account_id),
                                   lambda: _active_subscriptions(account_id))
    return any(ALL_EVENTS in events or event_type in events for events in subscriptions)


def _active_subscriptions(account_id: str) -> list[list[str]]:
    # Written out: read after every write's commit, where peewee's building of it was a tenth
    # of a POST /bookings.
    events_of = WebhookEndpoint.events.python_value
    return [events_of(events) for (events,) in db.execute_sql(
        _SUBSCRIPTIONS_SQL.replace("?", db.param), (account_id, "active"))]


_SUBSCRIPTIONS_SQL = (f'SELECT "{WebhookEndpoint.events.column_name}" '
                      f'FROM "{WebhookEndpoint._meta.table_name}" '
                      f'WHERE "{WebhookEndpoint.account.column_name}" = ? '
                      f'AND "{WebhookEndpoint.status.column_name}" = ?')


def _subscribed(endpoint: WebhookEndpoint, event_type: str) -> bool:
    return ALL_EVENTS in endpoint.events or event_type in endpoint.events


def dispatch_pending_events(limit: int = DISPATCH_BATCH) -> tuple[int, list[str]]:
    """Turn undispatched events into one delivery per matching enabled endpoint of the event's
    account, in one transaction that also marks the events dispatched.

    Returns (events seen, ids of the deliveries created); the caller queues a delivery task for
    each, after this has committed. An event is claimed with a conditional update, and a unique
    index holds one delivery per event and endpoint, so two dispatchers at once cannot double up.
    """
    with db.atomic():
        pending = list(Event.select(Event.id, Event.account, Event.type, Event.data)
                       .where(Event.dispatched_at.is_null())
                       .order_by(Event.created_at, Event.id)
                       .limit(limit))
        if not pending:
            return 0, []
        accounts = {event.account_id for event in pending}
        endpoints: dict[str, list[WebhookEndpoint]] = {}
        for endpoint in WebhookEndpoint.select().where(WebhookEndpoint.account.in_(list(accounts))):
            endpoints.setdefault(endpoint.account_id, []).append(endpoint)
        now = clock.utcnow_precise()
        rows = []
        claimed = _claim_events([event.id for event in pending], now)
        for event in pending:
            if event.id not in claimed:
                continue
            resource_key, resource_version = resource_of(event.type, event.data)
            for endpoint in _targets(event, endpoints.get(event.account_id, [])):
                rows.append({"id": new_id("dlv"), "account": event.account_id,
                             "endpoint": endpoint.id, "event": event.id,
                             "event_type": event.type, "status": "pending", "attempts": 0,
                             "next_attempt_at": now, "created_at": now,
                             "resource_key": resource_key, "resource_version": resource_version})
        # One prepared statement: peewee's insert_many built its SQL for every row.
        insert_rows(WebhookDelivery, rows, ignore_conflicts=True)
    return len(pending), [row["id"] for row in rows]


# Written out once: peewee built this UPDATE afresh for each of up to 500 events, which was most
# of the time before a burst's first delivery (bench/webhooks.py).
_CLAIM_EVENT_SQL = 'UPDATE "event" SET "dispatched_at" = ? WHERE "id" = ? AND "dispatched_at" IS NULL'
_CLAIM_EVENTS_SQL = ('UPDATE "event" SET "dispatched_at" = ? WHERE "id" IN (@ids) '
                     'AND "dispatched_at" IS NULL RETURNING "id"')


def _claim_events(event_ids: list[str], now: dt.datetime) -> set[str]:
    """Mark the events dispatched, those no other dispatcher took first: in one statement where
    UPDATE ... RETURNING works (a statement per event took a third of a dispatch), else one each."""
    if can_return_rows():
        marks = ", ".join([db.param] * len(event_ids))
        sql = _CLAIM_EVENTS_SQL.replace("?", db.param).replace("(@ids)", f"({marks})")
        return {row[0] for row in db.execute_sql(sql, (now, *event_ids)).fetchall()}
    claim = _CLAIM_EVENT_SQL.replace("?", db.param)
    return {event_id for event_id in event_ids if db.execute_sql(claim, (now, event_id)).rowcount}


def batches_by_endpoint(delivery_ids: list[str], size: int) -> list[list[str]]:
    """The deliveries grouped by endpoint, each group in the order given, cut into lists of at
    most `size`."""
    endpoint_of = {}
    for offset in range(0, len(delivery_ids), 500):
        chunk = delivery_ids[offset:offset + 500]
        endpoint_of.update(WebhookDelivery.select(WebhookDelivery.id, WebhookDelivery.endpoint)
                           .where(WebhookDelivery.id.in_(chunk)).tuples())
    groups: dict[str, list[str]] = {}
    for delivery_id in delivery_ids:
        if delivery_id in endpoint_of:
            groups.setdefault(endpoint_of[delivery_id], []).append(delivery_id)
    return [ids[offset:offset + size] for ids in groups.values()
            for offset in range(0, len(ids), size)]


def _targets(event: Event, endpoints: list[WebhookEndpoint]) -> list[WebhookEndpoint]:
    if event.type == TEST_EVENT:
        wanted = (event.data or {}).get("webhook_id")
        return [endpoint for endpoint in endpoints if endpoint.id == wanted]
    return [endpoint for endpoint in endpoints
            if endpoint.status == "active" and _subscribed(endpoint, event.type)]


def due_deliveries(limit: int = 1000) -> list[str]:
    """Pending deliveries whose next attempt is due and that no attempt holds (the sweep's list)."""
    now = clock.utcnow_precise()
    query = (WebhookDelivery.select(WebhookDelivery.id)
             .where((WebhookDelivery.status == "pending")
                    & (WebhookDelivery.next_attempt_at <= now)
                    & (WebhookDelivery.locked_until.is_null() | (WebhookDelivery.locked_until < now)))
             .order_by(WebhookDelivery.next_attempt_at)
             .limit(limit))
    return [row.id for row in query]


def purge_old_events(days: int | None = None) -> int:
    """Forget dispatched events older than `retention.events_days`, with their deliveries and
    attempts (ON DELETE CASCADE), a few hundred events at a time; an event still waiting for a
    delivery is kept until that delivery ends."""
    cutoff = clock.utcnow() - dt.timedelta(days=days or config.events_days)
    waiting = WebhookDelivery.select(WebhookDelivery.event).where(WebhookDelivery.status == "pending")
    return delete_in_batches(Event, Event.dispatched_at.is_null(False) & (Event.created_at < cutoff)
                             & Event.id.not_in(waiting))
