"""The Huey tasks of webhooks: thin, calling the service by id.

- `dispatch_events`: after each API write that emitted events (events.on_events_committed), turns
  the outbox into delivery rows and queues a `deliver` task for each.
- `deliver(delivery_id)`: one attempt; schedules its own retry, and queues the delivery of the
  same resource to the same endpoint that waited for this one's first attempt.
- `sweep_outbox` (every minute, and at once when a worker starts): dispatches what no write woke
  the dispatcher for, and queues every delivery whose next attempt is due but whose queued task was
  lost (a killed process, a queue emptied by hand). This is what makes a restart safe.
- `purge_delivered_events` (hourly): forgets events and delivery logs past `retention.events_days`.
"""

from __future__ import annotations

import logging

from huey import crontab

from rentalcomply.core import events
from rentalcomply.core.queue import huey
from rentalcomply.webhooks import delivery, service

log = logging.getLogger(__name__)


def configure(settings) -> None:
    """Called by runtime.bootstrap: the worker knows the webhook settings without the web app."""
    service.configure(settings)


def dispatch_now() -> int:
    """Dispatch the whole outbox in this thread; returns the number of deliveries queued."""
    queued = 0
    while True:
        seen, delivery_ids = service.dispatch_pending_events()
        for delivery_id in delivery_ids:
            deliver(delivery_id)
        queued += len(delivery_ids)
        if seen < service.DISPATCH_BATCH:
            return queued


@huey.task()
def dispatch_events() -> int:
    return dispatch_now()


@huey.task()
def deliver(delivery_id: str) -> None:
    delay = delivery.attempt(delivery_id)
    if delay is not None:
        deliver.schedule(args=(delivery_id,), delay=delay)
    for next_id in delivery.released_by(delivery_id):
        deliver(next_id)


@huey.periodic_task(crontab(minute="*"))
def sweep_outbox() -> int:
    # Due retries first: the deliveries dispatch_now() creates are queued by it already.
    due = service.due_deliveries()
    for delivery_id in due:
        deliver(delivery_id)
    dispatched = dispatch_now()
    if dispatched or due:
        log.info("webhook sweep: %d new deliveries, %d due retries queued", dispatched, len(due))
    return dispatched + len(due)


@huey.periodic_task(crontab(minute="41"))
def purge_delivered_events() -> int:
    removed = service.purge_old_events()
    if removed:
        log.info("forgot %d delivered events past their retention", removed)
    return removed


def _wake_dispatcher() -> None:
    dispatch_events()


events.on_events_committed(_wake_dispatcher)
