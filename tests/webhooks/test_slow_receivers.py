"""A receiver that answers 200 at once and then trickles its body is cut at the delivery's
timeout, and a busy receiver host never takes more than its slots: the other deliveries to it are
rescheduled a few seconds later instead of waiting in a worker."""

from __future__ import annotations

import time

from rentalcomply.core import peers
from rentalcomply.webhooks import delivery, service
from rentalcomply.webhooks.models import WebhookDelivery
from tests.webhooks.conftest import register
from tests.webhooks.test_netguard import Trickle


def deliveries_of(actor, hook_id: str) -> list[dict]:
    return actor.get(f"/api/v1/webhooks/{hook_id}/deliveries").json["data"]


def test_a_receiver_trickling_its_answer_after_connection_close_is_cut_at_the_timeout(
        owner, tasks, emit, monkeypatch):
    monkeypatch.setattr(service.config, "timeout_seconds", 2.0)
    peer = Trickle(head=b"HTTP/1.1 200 OK\r\nContent-Type: application/json\r\n"
                        b"Connection: close\r\n\r\n", pace=1.0)
    try:
        hook = register(owner, f"http://127.0.0.1:{peer.port}/hook")
        emit(owner.account_id)
        started = time.monotonic()
        tasks.run()
        took = time.monotonic() - started
    finally:
        peer.close()
    # Cut at the 2 s timeout, not after the minutes the trickle would last; the margin is the
    # rest of the work (the dispatcher, the writes), which a loaded machine on PostgreSQL may
    # stretch past a second.
    assert 2.0 <= took < 4.0, took
    [log] = deliveries_of(owner, hook["id"])
    assert log["status"] == "pending" and log["attempts"] == 1
    assert log["last_error"] == "the peer sent too slowly: not finished within 2 s"
    print(f"\ntrickling receiver cut after {took:.2f} s (timeout 2 s)")


def test_a_delivery_whose_receiver_host_is_busy_is_rescheduled_at_once_not_blocked(
        owner, receiver, tasks, emit):
    assert service.config.max_deliveries_per_host == 1
    hook = register(owner, receiver.url)
    with peers.try_slot(receiver.url, 1) as held:  # another worker is delivering to this host
        assert held.taken
        emit(owner.account_id)
        started = time.monotonic()
        tasks.run()  # the dispatcher, then the delivery's attempt
        # It waited for the slot at most peers.SLOT_WAIT_SECONDS, then gave the worker back.
        # Not the delivery timeout: the margin is the dispatcher's and the writes' work, which a
        # loaded machine on PostgreSQL may stretch past a second.
        assert time.monotonic() - started < peers.SLOT_WAIT_SECONDS + 2.0
        [row] = WebhookDelivery.select()
        assert delivery.attempt(row.id) == peers.BUSY_RETRY_SECONDS
    current = WebhookDelivery.get_by_id(row.id)
    assert (current.attempts, current.locked_until, current.status) == (0, None, "pending")
    assert receiver.requests == []
    assert [task.name for task in tasks.scheduled()] == ["deliver"]
    # The task rescheduled itself a few seconds on; then the host is free and it goes.
    tasks.run(advance=peers.BUSY_RETRY_SECONDS + 1)
    [log] = deliveries_of(owner, hook["id"])
    assert log["status"] == "succeeded"
    assert peers.busy("127.0.0.1") == 0


def test_one_slow_receiver_holds_one_worker_while_another_receiver_is_served(
        owner, receiver, emit, settings, monkeypatch):
    """Two workers, a trickling receiver with three deliveries queued: it takes one worker at a
    time, and the good receiver's delivery goes out at once beside it."""
    from rentalcomply.core import queue
    monkeypatch.setattr(service.config, "timeout_seconds", 2.0)
    peer = Trickle(head=b"HTTP/1.1 200 OK\r\nConnection: close\r\n\r\n", pace=0.5,
                   host="127.0.0.2")
    register(owner, f"http://127.0.0.2:{peer.port}/hook")
    register(owner, receiver.url)
    consumer = queue.start_embedded_consumer(workers=2, urgent_workers=1)
    try:
        for _ in range(3):
            emit(owner.account_id)
        started = time.monotonic()
        receiver.wait_for(3, timeout=10)
        served = time.monotonic() - started
        concurrent = []
        deadline = time.monotonic() + 3
        while time.monotonic() < deadline:
            concurrent.append(peers.busy("127.0.0.2"))
            time.sleep(0.05)
    finally:
        consumer.stop(graceful=False)
        peer.close()
    # Waiting behind the trickling receiver would take its 2 s timeout per delivery, 6 s for the
    # three; the margin over "at once" is for a loaded 2-core machine.
    assert served < 4.0, served
    assert max(concurrent) <= 1


def test_a_burst_to_one_healthy_receiver_takes_turns_without_waiting_seconds(
        owner, receiver, emit, settings):
    """One delivery at a time to the host, but a healthy receiver answers in milliseconds: the
    deliveries wait their turn briefly instead of being put back by seconds."""
    from rentalcomply.core import queue
    register(owner, receiver.url)
    consumer = queue.start_embedded_consumer(workers=2, urgent_workers=1)
    try:
        started = time.monotonic()
        for _ in range(20):
            emit(owner.account_id)
        receiver.wait_for(20, timeout=15)
        took = time.monotonic() - started
    finally:
        consumer.stop(graceful=True)
    print(f"\n20 deliveries to one receiver, one at a time: {took:.2f} s")
    assert took < peers.BUSY_RETRY_SECONDS, took
