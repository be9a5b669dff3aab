"""The same promises with the real Huey consumer running beside the app, in real time."""

import itertools
import time

import pytest

from rentalcomply.core import queue
from rentalcomply.webhooks import verify
from rentalcomply.webhooks.models import WebhookDelivery
from tests.conftest import days_ahead, task_queue_url
from tests.helpers import poll
from tests.webhooks.conftest import Hang, register


@pytest.fixture
def settings_env(tmp_path):
    return {
        "RENTALCOMPLY_WEBHOOKS_ALLOW_HTTP": "true",
        "RENTALCOMPLY_WEBHOOKS_ALLOW_PRIVATE_ADDRESSES": "true",
        "RENTALCOMPLY_WEBHOOKS_TIMEOUT_SECONDS": "1",
        "RENTALCOMPLY_QUEUE_URL": task_queue_url(tmp_path),
    }


@pytest.fixture
def consumer(settings):
    started = queue.start_embedded_consumer(workers=2)
    yield started
    started.stop(graceful=True)


def wait_for_quiet(timeout: float = 30.0) -> None:
    """Until no delivery is waiting or under way: none pending (due or not) or held by an
    attempt, and no task queued or scheduled. Whatever was going to be sent has been sent."""
    deadline = time.monotonic() + timeout
    while True:
        open_deliveries = WebhookDelivery.select().where(
            (WebhookDelivery.status == "pending") | WebhookDelivery.locked_until.is_null(False)
        ).count()
        tasks = queue.huey.pending_count() + queue.huey.scheduled_count()
        if not open_deliveries and not tasks:
            return
        if time.monotonic() > deadline:
            raise AssertionError(f"still {open_deliveries} deliveries open and {tasks} tasks "
                                 f"after {timeout} s")
        time.sleep(0.05)


def wait_for_log(actor, hook_id: str, status: str) -> dict:
    """The latest delivery once it has `status`, asked under the API's limit (tests/helpers.py)."""
    answer = poll(lambda: actor.get(f"/api/v1/webhooks/{hook_id}/deliveries", expect_errors=True),
                  lambda answer: answer.status_int == 200 and answer.json["data"]
                  and answer.json["data"][0]["status"] == status, what=f"a {status} delivery")
    return answer.json["data"][0]


def test_an_event_reaches_the_receiver_moments_after_the_write_commits(
        owner, receiver, emit, consumer):
    hook = register(owner, receiver.url)
    started = time.time()
    event = emit(owner.account_id)
    [request] = receiver.wait_for(1, timeout=30)
    # Woken by the commit, not found by the sweep of the outbox a minute later: a consumer
    # polls every quarter second, and ten seconds leave room for a loaded machine.
    assert request.at - started < 10.0, request.at - started
    assert verify(request.body, request.headers, hook["secret"])["id"] == event.id
    log = wait_for_log(owner, hook["id"], "succeeded")
    assert log["attempts"] == 1 and log["last_status_code"] == 200


def test_a_receiver_answering_500_twice_then_200_gets_three_attempts_of_one_event(
        owner, receiver, emit, consumer, fast_retries):
    hook = register(owner, receiver.url)
    receiver.answer(500, 500, 200)
    event = emit(owner.account_id)
    requests = receiver.wait_for(3, timeout=30)
    assert {verify(r.body, r.headers, hook["secret"])["id"] for r in requests} == {event.id}
    # The retries waited their turn: 1 s, then 2 s (never sooner), and the scheduler, which
    # looks once a second, did not leave them for minutes (three times delay and tick allowed).
    gaps = [later.at - earlier.at for earlier, later in itertools.pairwise(requests)]
    assert 0.9 <= gaps[0] < 3 * (1 + 1) and 1.9 <= gaps[1] < 3 * (2 + 1), gaps
    log = wait_for_log(owner, hook["id"], "succeeded")
    assert log["attempts"] == 3
    assert [a["status_code"] for a in log["attempt_log"]] == [500, 500, 200]
    # Once nothing is left to send, the receiver had the event three times, not a fourth.
    wait_for_quiet()
    assert len(receiver.requests) == 3


def test_a_receiver_that_hangs_is_cut_at_the_timeout_and_retried(
        owner, receiver, emit, consumer, fast_retries):
    hook = register(owner, receiver.url)
    receiver.answer(Hang(30), 200)
    emit(owner.account_id)
    first, second = receiver.wait_for(2, timeout=30)
    # Cut after 1 s (webhooks.timeout_seconds here), retried 1 s later (the scheduler looks once
    # a second), not after the 30 s of the hang: three times that allowed for a loaded machine.
    assert 1.9 <= second.at - first.at < 3 * (1 + 1 + 1)
    log = wait_for_log(owner, hook["id"], "succeeded")
    assert [a["error"] for a in log["attempt_log"]] == ["the peer did not answer within 1 s", None]
    assert 1000 <= log["attempt_log"][0]["duration_ms"] < 3 * 1000
    assert first.headers["webhook-id"] == second.headers["webhook-id"]


def test_bookings_created_updated_and_cancelled_through_the_api_are_delivered(
        owner, receiver, consumer):
    hook = register(owner, receiver.url, ["booking.created", "booking.updated", "booking.cancelled"])
    prop = owner.post_json("/api/v1/properties", {
        "name": "Villa Anemoi", "address": "Oia", "aade_property_id": "00012345678"}).json["data"]
    created = owner.post_json("/api/v1/bookings", {
        "property_id": prop["id"], "guest_name": "Maria Papadopoulou",
        "arrival_date": days_ahead(200), "departure_date": days_ahead(204), "guest_count": 2}).json["data"]
    updated = owner.patch_json(f"/api/v1/bookings/{created['id']}", {"guest_count": 3}).json["data"]
    cancelled = owner.post(f"/api/v1/bookings/{created['id']}/cancel").json["data"]
    requests = receiver.wait_for(3, timeout=10)
    received = {event["type"]: event for event in
                (verify(r.body, r.headers, hook["secret"]) for r in requests)}
    # As the API answered them, less the guest's link: a webhook is no place for a credential
    # (their tourist tax included, docs/webhooks.md).
    for view in (created, updated, cancelled):
        assert "checkin_url" in view
        del view["checkin_url"]
    assert received["booking.created"]["data"] == created
    assert received["booking.updated"]["data"] == updated
    assert received["booking.cancelled"]["data"] == cancelled
    assert len({event["id"] for event in received.values()}) == 3
