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

import contextlib
import logging

from huey import crontab

from rentalcomply.core import events
from rentalcomply.core.queue import huey
from rentalcomply.webhooks import delivery, service

log = logging.getLogger(__name__)


def configure(settings) -> None:
    """Called by runtime.bootstrap: the worker knows the webhook settings without the web app."""
    service.configure(settings)


# Deliveries to one endpoint queued as one task, attempted one after the other by one worker over
# its kept-alive connection: a task per delivery cost a queue write, a dequeue and a connection.
# Small enough that a receiver slow to answer delays few others, and that both workers get work.
DELIVER_BATCH = 25


def queue_deliveries(delivery_ids: list[str]) -> None:
    """Queue the deliveries, grouped by endpoint (each group in the order given)."""
    if len(delivery_ids) <= 1:
        for delivery_id in delivery_ids:
            deliver(delivery_id)
        return
    for batch in service.batches_by_endpoint(delivery_ids, DELIVER_BATCH):
        if len(batch) == 1:
            deliver(batch[0])
        else:
            deliver_batch(batch)


# The first events of a burst are dispatched in a small batch, so their deliveries are queued
# (and an idle worker starts on them) within milliseconds; the rest in DISPATCH_BATCH, while they
# go. A first batch of 500 kept every delivery waiting about 85 ms (bench/webhooks.py).
FIRST_DISPATCH_BATCH = 50


def dispatch_now() -> int:
    """Dispatch the whole outbox in this thread; returns the number of deliveries queued."""
    queued = 0
    limit = FIRST_DISPATCH_BATCH
    while True:
        seen, delivery_ids = service.dispatch_pending_events(limit)
        queue_deliveries(delivery_ids)
        queued += len(delivery_ids)
        if seen < limit:
            return queued
        limit = service.DISPATCH_BATCH


@huey.task()
def dispatch_events() -> int:
    return dispatch_now()


@huey.task()
def deliver(delivery_id: str) -> None:
    _deliver_one(delivery_id)


@huey.task()
def deliver_batch(delivery_ids: list[str]) -> None:
    """Attempt each in turn: the same as one `deliver` task each, in this order (one resource's
    later version in the batch finds the earlier one attempted, as its turn requires).

    Closed here however the loop ends: cut between two attempts (the database gone when the
    next in line is looked up), the batch gives back its receiver's slot and its holds at once,
    in this thread. Left to the garbage collector they stayed taken until a full collection,
    minutes away in a busy server, and no delivery to that receiver could go meanwhile."""
    with contextlib.closing(delivery.attempt_each(delivery_ids)) as attempted:
        for position, (delivery_id, delay) in enumerate(attempted):
            _after_attempt(delivery_id, delay, coming=delivery_ids[position + 1:])


def _deliver_one(delivery_id: str) -> None:
    _after_attempt(delivery_id, delivery.attempt(delivery_id))


def _after_attempt(delivery_id: str, delay: float | None, coming: list[str] = ()) -> None:
    if delay is not None:
        deliver.schedule(args=(delivery_id,), delay=delay)
    for next_id in delivery.released_by(delivery_id):
        if next_id not in coming:  # later in this batch: attempted here in its turn
            deliver(next_id)


@huey.periodic_task(crontab(minute="*"))
def sweep_outbox() -> int:
    # Due retries first: the deliveries dispatch_now() creates are queued by it already.
    due = service.due_deliveries()
    queue_deliveries(due)
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
    if events.committed_to_dispatch():  # not for events that no receiver takes
        dispatch_events()


events.on_events_committed(_wake_dispatcher)
events.set_receiver_check(service.has_receiver)
