"""A batch's successes are written together, in one transaction, and always before anything that
must see them: the next version of their resource, a failure's record, an attempt that starts
long after them, the end of the batch. Lost with the database, they are sent again after their
hold, never lost for good."""

from __future__ import annotations

import contextlib
import datetime as dt
import logging

import peewee
import pytest

from rentalcomply.core.db import db
from rentalcomply.core.queue import huey
from rentalcomply.webhooks import delivery, recording, service
from rentalcomply.webhooks import tasks as webhook_tasks
from rentalcomply.webhooks.models import WebhookAttempt, WebhookDelivery
from tests.webhooks.conftest import register


def dispatched(owner, emit, *datas, event_type="booking.updated") -> list[str]:
    """The deliveries of these events, in their order, made without queueing their attempts."""
    emitted = [emit(owner.account_id, event_type, data) for data in datas]
    service.dispatch_pending_events()
    huey.flush()
    return [WebhookDelivery.get(WebhookDelivery.event == event.id).id for event in emitted]


def statuses(ids) -> list[str]:
    return [WebhookDelivery.get_by_id(delivery_id).status for delivery_id in ids]


@pytest.fixture
def commits(monkeypatch):
    """The transactions committed, counted at the database."""
    counted = []
    real_commit = type(db.obj).commit

    def counting_commit(self):
        counted.append(1)
        return real_commit(self)

    monkeypatch.setattr(type(db.obj), "commit", counting_commit)
    return counted


def test_a_batch_writes_its_successes_in_one_transaction(owner, receiver, tasks, emit, commits,
                                                        monkeypatch):
    monkeypatch.setattr(recording, "RECORD_WITHIN", dt.timedelta(hours=1))  # a slow machine's
    register(owner, receiver.url)
    ids = dispatched(owner, emit, *({"id": f"book_{n}", "version": 1} for n in range(6)))
    commits.clear()  # those of the set-up
    webhook_tasks.deliver_batch.call_local(ids)
    assert len(receiver.requests) == 6
    assert statuses(ids) == ["succeeded"] * 6
    assert WebhookAttempt.select().count() == 6
    assert len(commits) == 1


def test_successes_in_hand_are_written_when_the_batch_ends_however_it_ends(owner, receiver, tasks, emit):
    register(owner, receiver.url)
    ids = dispatched(owner, emit, *({"id": f"book_{n}", "version": 1} for n in range(3)))
    with contextlib.closing(delivery.attempt_each(ids)) as batch:
        next(batch)
        next(batch)
        assert statuses(ids) == ["pending"] * 3  # two answered, in hand
    # Cut here: what was answered is written, what was not is given back.
    assert statuses(ids) == ["succeeded", "succeeded", "pending"]
    assert WebhookDelivery.get_by_id(ids[2]).locked_until is None


def test_the_next_version_of_a_resource_in_hand_is_released_after_its_success_is_written(
        owner, receiver, tasks, emit):
    register(owner, receiver.url)
    first, second = dispatched(owner, emit, {"id": "book_1", "version": 1},
                               {"id": "book_1", "version": 2})
    with contextlib.closing(delivery.attempt_each([first])) as batch:
        assert next(batch) == (first, None)
        assert recording.is_in_hand(first)
        # The second goes to another worker's task: its claim must find the first's turn over.
        assert delivery.released_by(first) == [second]
        assert statuses([first]) == ["succeeded"] and not recording.is_in_hand(first)
    assert delivery.attempt(second) is None and statuses([second]) == ["succeeded"]


def test_a_later_version_in_the_same_batch_goes_after_the_earlier_is_written(
        owner, receiver, tasks, emit):
    register(owner, receiver.url)
    ids = dispatched(owner, emit, {"id": "book_1", "version": 1}, {"id": "book_1", "version": 2},
                     {"id": "book_2", "version": 1})
    webhook_tasks.deliver_batch.call_local(ids)
    assert [request.headers["X-RentalComply-Delivery"] for request in receiver.requests] == ids
    assert statuses(ids) == ["succeeded"] * 3


def test_a_success_kept_longer_than_its_while_is_written_before_the_next_attempt(
        owner, receiver, tasks, emit, monkeypatch):
    monkeypatch.setattr(recording, "RECORD_WITHIN", dt.timedelta(0))
    register(owner, receiver.url)
    ids = dispatched(owner, emit, *({"id": f"book_{n}", "version": 1} for n in range(3)))
    with contextlib.closing(delivery.attempt_each(ids)) as batch:
        next(batch)
        next(batch)
        assert statuses(ids) == ["succeeded", "pending", "pending"]


def test_a_failure_is_recorded_after_the_successes_before_it(owner, receiver, tasks, emit,
                                                            fast_retries):
    register(owner, receiver.url)
    ids = dispatched(owner, emit, *({"id": f"book_{n}", "version": 1} for n in range(3)))
    receiver.answer(200, 500, 200)
    webhook_tasks.deliver_batch.call_local(ids)
    assert statuses(ids) == ["succeeded", "pending", "succeeded"]
    endpoint = WebhookDelivery.get_by_id(ids[0]).endpoint
    assert endpoint.failing_since is None and endpoint.last_success_at is not None
    attempts = {row.delivery_id: row.status_code for row in WebhookAttempt.select()}
    assert attempts == {ids[0]: 200, ids[1]: 500, ids[2]: 200}


def test_successes_lost_with_the_database_are_sent_again_after_their_hold(
        owner, receiver, tasks, emit, monkeypatch, caplog):
    register(owner, receiver.url)
    ids = dispatched(owner, emit, *({"id": f"book_{n}", "version": 1} for n in range(2)))

    def database_gone(successes):
        raise peewee.OperationalError("server closed the connection unexpectedly")

    monkeypatch.setattr(recording, "write", database_gone)
    with caplog.at_level(logging.WARNING, logger="rentalcomply.webhooks.recording"):
        webhook_tasks.deliver_batch.call_local(ids)
    assert len(receiver.requests) == 2 and statuses(ids) == ["pending"] * 2
    assert not recording.is_in_hand(ids[0])
    assert "answered but not recorded" in caplog.text
    monkeypatch.undo()
    # Their hold over, the sweep finds them due and they go again, as the same deliveries.
    tasks.run(advance=delivery._attempt_hold().total_seconds() + 1)
    webhook_tasks.sweep_outbox.call_local()
    tasks.run()
    assert statuses(ids) == ["succeeded"] * 2
    sent = [request.headers["X-RentalComply-Delivery"] for request in receiver.requests]
    assert sent == ids + ids
