"""One resource's events reach one endpoint in the order they happened while it answers; a
failed first attempt lets the later events go on (retries may then arrive late)."""

import datetime as dt
import json

import pytest

from rentalcomply.core import clock, queue
from rentalcomply.webhooks import delivery, service, verify
from rentalcomply.webhooks.models import WebhookDelivery
from tests.conftest import days_ahead, task_queue_url
from tests.webhooks.conftest import register


def booking(version: int, status: str = "confirmed", booking_id: str = "book_1") -> dict:
    return {"id": booking_id, "status": status, "version": version}


def delivery_of(event) -> WebhookDelivery:
    return WebhookDelivery.get(WebhookDelivery.event == event.id)


def versions(receiver) -> list[tuple[str, int]]:
    found = []
    for request in receiver.requests:
        data = json.loads(request.body)["data"]
        found.append((data["id"], data["version"]))
    return found


def test_a_delivery_records_the_resource_and_version_it_announces(owner, receiver, tasks, emit):
    register(owner, receiver.url)
    event = emit(owner.account_id, "booking.updated", booking(4))
    test = emit(owner.account_id, "booking.created", {"id": "book_x"})  # no version: no resource
    tasks.run()
    assert (delivery_of(event).resource_key, delivery_of(event).resource_version) == ("booking:book_1", 4)
    assert (delivery_of(test).resource_key, delivery_of(test).resource_version) == (None, None)


def dispatched(*events_) -> list[WebhookDelivery]:
    """Make the deliveries of the events now, without queueing their attempts."""
    service.dispatch_pending_events()
    return [delivery_of(event) for event in events_]


def test_a_later_version_waits_while_the_earlier_one_is_in_flight(owner, receiver, tasks, emit):
    register(owner, receiver.url)
    first, second = dispatched(emit(owner.account_id, "booking.created", booking(1)),
                               emit(owner.account_id, "booking.updated", booking(2)))
    # The first delivery's attempt is under way: held, its first attempt not yet recorded.
    assert delivery._claim(first.id) is not None
    assert delivery.attempt(second.id) is None  # not its turn
    assert receiver.requests == [] and WebhookDelivery.get_by_id(second.id).attempts == 0
    assert delivery.released_by(first.id) == []  # the first still waits itself


def test_the_next_version_goes_once_the_earlier_one_succeeded(owner, receiver, tasks, emit):
    register(owner, receiver.url)
    third = emit(owner.account_id, "booking.cancelled", booking(3, "cancelled"))
    first = emit(owner.account_id, "booking.created", booking(1))
    second = emit(owner.account_id, "booking.updated", booking(2))
    tasks.run()  # the queue runs them in any order; each waits for the one before
    assert versions(receiver) == [("book_1", 1), ("book_1", 2), ("book_1", 3)]
    assert {delivery_of(e).status for e in (first, second, third)} == {"succeeded"}


def test_other_resources_do_not_wait(owner, receiver, tasks, emit):
    register(owner, receiver.url)
    first, other, unversioned = dispatched(
        emit(owner.account_id, "booking.created", booking(1)),
        emit(owner.account_id, "booking.created", booking(1, booking_id="book_2")),
        emit(owner.account_id, "booking.created", {"id": "book_1"}))
    assert delivery._claim(first.id) is not None
    delivery.attempt(other.id)
    delivery.attempt(unversioned.id)
    assert {WebhookDelivery.get_by_id(d.id).status for d in (other, unversioned)} == {"succeeded"}


def test_a_failed_first_attempt_lets_the_next_version_go(owner, receiver, tasks, emit, fast_retries):
    register(owner, receiver.url)
    receiver.answer(500)
    first = emit(owner.account_id, "booking.created", booking(1))
    second = emit(owner.account_id, "booking.updated", booking(2))
    tasks.run()
    # Version 1 failed once and waits for its retry; version 2 did not wait for that retry.
    assert versions(receiver) == [("book_1", 1), ("book_1", 2)]
    assert delivery_of(first).status == "pending" and delivery_of(second).status == "succeeded"
    tasks.run(advance=1.5)
    assert versions(receiver)[-1] == ("book_1", 1) and delivery_of(first).status == "succeeded"


# -- the real consumer --------------------------------------------------------------------------

@pytest.fixture
def settings_env(tmp_path):
    return {
        "RENTALCOMPLY_WEBHOOKS_ALLOW_HTTP": "true",
        "RENTALCOMPLY_WEBHOOKS_ALLOW_PRIVATE_ADDRESSES": "true",
        "RENTALCOMPLY_QUEUE_URL": task_queue_url(tmp_path),
        "RENTALCOMPLY_RATE_LIMIT_PER_MINUTE": "10000",
    }


def test_a_hundred_rounds_of_create_patch_cancel_arrive_in_order(owner, receiver, settings):
    hook = register(owner, receiver.url, ["booking.created", "booking.updated", "booking.cancelled"])
    prop = owner.post_json("/api/v1/properties", {"name": "Villa Anemoi", "address": "Oia"}).json["data"]
    consumer = queue.start_embedded_consumer(workers=2)
    try:
        rounds = 100
        for _ in range(rounds):
            made = owner.post_json("/api/v1/bookings", {
                "property_id": prop["id"], "guest_name": "Maria Papadopoulou",
                "arrival_date": days_ahead(200), "departure_date": days_ahead(204),
                "guest_count": 2}).json["data"]
            owner.patch_json(f"/api/v1/bookings/{made['id']}", {"guest_count": 3})
            owner.post(f"/api/v1/bookings/{made['id']}/cancel")
        requests = receiver.wait_for(3 * rounds, timeout=60)
    finally:
        consumer.stop(graceful=True)
    seen: dict[str, list[int]] = {}
    last_state: dict[str, str] = {}
    for request in requests:
        event = verify(request.body, request.headers, hook["secret"])
        seen.setdefault(event["data"]["id"], []).append(event["data"]["version"])
        last_state[event["data"]["id"]] = event["data"]["status"]
    out_of_order = [vs for vs in seen.values() if vs != sorted(set(vs))]
    assert len(seen) == rounds and out_of_order == []
    assert all(vs == [1, 2, 3] for vs in seen.values())
    assert set(last_state.values()) == {"cancelled"}


# -- deliveries attempted as a batch ------------------------------------------------------------

def test_a_batch_sends_each_delivery_in_its_turn(owner, receiver, tasks, emit):
    register(owner, receiver.url)
    batch = dispatched(emit(owner.account_id, "booking.created", booking(1)),
                       emit(owner.account_id, "booking.updated", booking(2)),
                       emit(owner.account_id, "booking.created", booking(1, booking_id="book_2")))
    # Version 2 cannot be held with the others (version 1 waits ahead of it); it goes in its turn.
    results = list(delivery.attempt_each([d.id for d in batch]))
    assert results == [(d.id, None) for d in batch]
    assert versions(receiver) == [("book_1", 1), ("book_1", 2), ("book_2", 1)]
    assert {WebhookDelivery.get_by_id(d.id).status for d in batch} == {"succeeded"}


def test_a_batch_leaves_alone_a_delivery_held_by_another_attempt(owner, receiver, tasks, emit):
    register(owner, receiver.url)
    elsewhere, mine = dispatched(emit(owner.account_id, "booking.created", booking(1)),
                                 emit(owner.account_id, "booking.created",
                                      booking(1, booking_id="book_2")))
    assert delivery._claim(elsewhere.id) is not None  # in flight in another worker
    assert list(delivery.attempt_each([elsewhere.id, mine.id])) == [(elsewhere.id, None),
                                                                   (mine.id, None)]
    assert versions(receiver) == [("book_2", 1)]
    assert WebhookDelivery.get_by_id(elsewhere.id).attempts == 0


def test_a_batch_renews_a_hold_running_short_and_skips_one_taken_meanwhile(
        owner, receiver, tasks, emit):
    register(owner, receiver.url)
    first, second, third = dispatched(*(emit(owner.account_id, "booking.created",
                                             booking(1, booking_id=f"book_{n}")) for n in range(3)))
    attempts = delivery.attempt_each([first.id, second.id, third.id])
    assert next(attempts) == (first.id, None)
    # The first receiver was slow: the batch's hold has 20 s left, less than an attempt needs.
    clock.travel(dt.timedelta(seconds=delivery.LEASE_MARGIN - 10))
    # Meanwhile the third was given up by this batch (as a crash would) and taken by another.
    WebhookDelivery.update(locked_until=clock.utcnow_precise() + dt.timedelta(seconds=60)) \
        .where(WebhookDelivery.id == third.id).execute()
    assert list(attempts) == [(second.id, None), (third.id, None)]
    assert versions(receiver) == [("book_0", 1), ("book_1", 1)]
    assert WebhookDelivery.get_by_id(second.id).status == "succeeded"
    assert WebhookDelivery.get_by_id(third.id).attempts == 0
