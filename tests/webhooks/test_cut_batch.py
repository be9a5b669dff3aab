"""A batch of deliveries cut in the middle (the database went away) gives back the deliveries it
held and never attempted: the sweep sends them at once, not after their hold. Cut between two
attempts, it also gives back its receiver's slot at once, not when the garbage collector gets to
it: until then no other delivery to that receiver could go."""

from __future__ import annotations

import gc

import peewee

from rentalcomply.core import peers
from rentalcomply.core.queue import huey
from rentalcomply.webhooks import delivery
from rentalcomply.webhooks import tasks as webhook_tasks
from rentalcomply.webhooks.models import WebhookDelivery
from tests.webhooks.conftest import register


def test_deliveries_held_by_a_cut_batch_are_free_again_at_once(owner, receiver, tasks, emit):
    register(owner, receiver.url)
    for number in range(5):
        emit(owner.account_id, data={"id": f"book_{number}", "guest_name": "Eleni"})
    webhook_tasks.service.dispatch_pending_events()  # the deliveries, not yet queued
    huey.flush()
    ids = [row.id for row in WebhookDelivery.select().order_by(WebhookDelivery.created_at)]
    assert len(ids) == 5
    batch = delivery.attempt_each(ids)
    first, _ = next(batch)  # one attempted, then the batch is cut
    batch.close()
    assert len(receiver.requests) == 1
    still_held = WebhookDelivery.select().where(WebhookDelivery.locked_until.is_null(False))
    assert [row.id for row in still_held] == []
    # No hold to wait out: the sweep queues the four now, and they go.
    webhook_tasks.sweep_outbox()
    tasks.run()
    assert len(receiver.requests) == 5
    assert {row.status for row in WebhookDelivery.select()} == {"succeeded"}


def test_a_batch_cut_between_two_attempts_frees_its_receiver_and_its_holds_at_once(
        owner, receiver, tasks, emit, monkeypatch):
    register(owner, receiver.url)
    for number in range(5):
        emit(owner.account_id, data={"id": f"book_{number}", "guest_name": "Eleni"})
    webhook_tasks.service.dispatch_pending_events()
    huey.flush()
    ids = [row.id for row in WebhookDelivery.select().order_by(WebhookDelivery.created_at)]
    looked_up = []

    def database_gone_after_the_second(delivery_id):  # the look-up that follows each attempt
        looked_up.append(delivery_id)
        if len(looked_up) == 2:
            raise peewee.OperationalError("server closed the connection unexpectedly")
        return real_released_by(delivery_id)

    real_released_by = delivery.released_by
    monkeypatch.setattr(delivery, "released_by", database_gone_after_the_second)
    webhook_tasks.deliver_batch(ids)
    gc.disable()  # as in a busy server, where the next full collection may be minutes away
    try:
        tasks.run()
        assert len(receiver.requests) == 2
        assert peers.busy("127.0.0.1") == 0
        held = WebhookDelivery.select().where(WebhookDelivery.locked_until.is_null(False))
        assert [row.id for row in held] == []
    finally:
        gc.enable()
    # The task is run again once the database is back: the other three go, in their order.
    tasks.run(advance=5)
    assert [request.headers["X-RentalComply-Delivery"] for request in receiver.requests] == ids
    assert {row.status for row in WebhookDelivery.select()} == {"succeeded"}
