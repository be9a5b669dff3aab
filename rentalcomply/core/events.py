"""emit(): an outbox row written inside the caller's transaction.

A change and the event announcing it commit together or not at all; delivery happens later, from
the outbox, so a crash between the two loses nothing and a rolled-back change announces nothing.
"""

from __future__ import annotations

import logging
import threading
from typing import Callable

from rentalcomply.core import clock
from rentalcomply.core.db import db, insert_rows
from rentalcomply.core.ids import new_id
from rentalcomply.core.models import Event
from rentalcomply.core.outage import is_queue_away
from rentalcomply.core.outage import watch as queue_watch

log = logging.getLogger(__name__)

EVENT_TYPES = (
    "booking.created", "booking.updated", "booking.cancelled", "booking.conflict",
    "checkin.invited", "checkin.completed",
    "police.submitted", "police.rejected", "police.failed", "police.at_risk",
    # A period filing's (a property's month of statistics: filings/periods.py).
    "filing.held", "filing.ready", "filing.submitted", "filing.rejected", "filing.failed",
    "filing.at_risk",
    "report.ready", "report.failed", "report.due_soon",
    "sync.completed", "sync.error",
    "webhook.test",
)

# Called after a transaction that emitted events commits (the webhooks package registers the
# dispatcher here); kept as hooks so that core knows nothing of webhooks.
_after_commit_hooks: list[Callable[[], None]] = []
# Whether this thread emitted an event since the last notify_committed(), so that writes that
# announce nothing do not wake the dispatcher.
_emitted = threading.local()


def on_events_committed(hook: Callable[[], None]) -> None:
    if hook not in _after_commit_hooks:
        _after_commit_hooks.append(hook)


def _every_event_received(account_id: str, event_type: str) -> bool:
    return True


# Whether some receiver of the account takes the event type (the webhooks package answers; until
# it does, every event has one). A commit whose events no receiver takes does not wake the
# dispatcher, a task written to the queue after each write (a sixth of a POST /bookings on
# SQLite): such events wait in the outbox for the sweep, every minute, which marks them
# dispatched with nothing to deliver (or delivers them to an endpoint made meanwhile).
_has_receiver: Callable[[str, str], bool] = _every_event_received


def set_receiver_check(check: Callable[[str, str], bool]) -> None:
    global _has_receiver
    _has_receiver = check


def emit(account_id: str, event_type: str, data: dict) -> Event:
    """Record an event. Call inside the transaction that makes the change."""
    if event_type not in EVENT_TYPES:
        raise ValueError(f"unknown event type {event_type!r}")
    if not db.in_transaction():
        raise RuntimeError("emit() must be called inside the transaction of the change")
    # To the microsecond: the dispatcher takes events in this order, and one resource's events,
    # written by transactions that change its row one after the other, must keep theirs.
    event = Event(id=new_id("evt"), account=account_id, type=event_type, data=data,
                  created_at=clock.utcnow_precise())
    insert_rows(Event, [dict(event.__data__)])  # a prepared INSERT: emitted by every write
    _note_emitted(event_type, _has_receiver(account_id, event_type))
    return event


def _note_emitted(event_type: str | None, received: bool = False) -> None:
    _emitted.pending = True
    if received:
        _emitted.to_dispatch = True
    types = getattr(_emitted, "types", None)
    if types is None:
        types = _emitted.types = set()
    types.add(event_type)


def committed_types() -> frozenset:
    """For an after-commit hook: the event types this thread's committed work emitted (None in
    it for a `wake_after_commit()` that emitted nothing), so that a hook can skip a query that
    such a commit cannot concern (a new booking concerns no police filing yet)."""
    return frozenset(getattr(_emitted, "committed", None) or {None})


def committed_to_dispatch() -> bool:
    """For an after-commit hook: whether this thread's committed work wrote an event that some
    receiver takes (always, for a forced wake-up)."""
    return bool(getattr(_emitted, "committed_to_dispatch", True))


def wake_after_commit() -> None:
    """Run the after-commit hooks when this thread's transaction commits, though it emitted no
    event (a change that queues background work, such as a police re-filing)."""
    _note_emitted(None)


def emit_many(account_id: str, items: list[tuple[str, dict]]) -> int:
    """Record several events in one statement (a sync importing a hundred bookings): the same
    rows as `emit` for each, without building a model and its SQL per event."""
    if not items:
        return 0
    for event_type, _ in items:
        if event_type not in EVENT_TYPES:
            raise ValueError(f"unknown event type {event_type!r}")
    if not db.in_transaction():
        raise RuntimeError("emit_many() must be called inside the transaction of the change")
    now = clock.utcnow_precise()  # as emit(): the dispatcher's order
    received = {event_type: _has_receiver(account_id, event_type)
                for event_type in {event_type for event_type, _ in items}}
    insert_rows(Event, [{"id": new_id("evt"), "account": account_id, "type": event_type,
                         "data": data, "created_at": now} for event_type, data in items])
    for event_type, _ in items:
        _note_emitted(event_type, received[event_type])
    return len(items)


def resource_of(event_type: str, data) -> tuple[str | None, int | None]:
    """The resource an event announces, as (`booking:book_...`, its version), or (None, None).

    An event whose data is a resource with an `id` and a `version` (the resource's API view)
    announces that resource: its kind is the event name's first part.
    """
    if not isinstance(data, dict):
        return None, None
    resource_id, version = data.get("id"), data.get("version")
    if not isinstance(resource_id, str) or isinstance(version, bool) or not isinstance(version, int):
        return None, None
    return f"{event_type.split('.', 1)[0]}:{resource_id}"[:100], version


def notify_committed(force: bool = False) -> None:
    """Tell the dispatcher that events may be waiting. Call after the transaction commits.

    `force`: wake it even if this thread emitted nothing (a batch whose events were written by
    other threads, which deferred their own wake-ups to this one)."""
    if not force and not getattr(_emitted, "pending", False):
        return
    _emitted.pending = False
    # A forced wake-up names no types: hooks then do all their work.
    _emitted.committed = None if force else getattr(_emitted, "types", None)
    _emitted.committed_to_dispatch = force or getattr(_emitted, "to_dispatch", False)
    _emitted.types = None
    _emitted.to_dispatch = False
    for hook in _after_commit_hooks:
        try:
            hook()
        except Exception as exc:  # the outbox is swept periodically too; never fail the request
            if is_queue_away(exc):  # one line per outage, not a traceback per write
                queue_watch.failed(exc, "waking the event dispatcher")
                # Woken again as soon as the queue answers, not at the outbox sweep a minute on.
                if queue_watch.away:
                    queue_watch.owe("wake the event dispatcher",
                                    lambda: notify_committed(force=True))
            else:
                log.exception("event dispatch hook failed; the periodic sweep will deliver")
