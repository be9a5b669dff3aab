"""A batch of deliveries cut in the middle (the database went away) gives back the deliveries it
held and never attempted: the sweep sends them at once, not after their hold."""

from __future__ import annotations

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
