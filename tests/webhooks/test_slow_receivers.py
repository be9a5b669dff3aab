"""A receiver that answers 200 at once and then trickles its body is cut at the delivery's
timeout, and a busy receiver host never takes more than its slots: the other deliveries to it are
rescheduled a few seconds later instead of waiting in a worker."""

from __future__ import annotations

import threading
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
    # Cut at the 2 s timeout, not after the minutes the trickle would last: three timeouts leave
    # the rest of the work (the dispatcher, the writes) all the room a loaded machine needs.
    assert 2.0 <= took < 3 * 2.0, took
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
        # It waited for the slot at most peers.SLOT_WAIT_SECONDS, then gave the worker back
        # while the slot was still held here (a worker waiting for it would never come back).
        # Ten times that wait leaves room for the dispatcher's and the writes' work on a loaded
        # machine, and stays under the delivery timeout a worker held by the host would spend.
        assert time.monotonic() - started < 10 * peers.SLOT_WAIT_SECONDS
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
    """Two workers, a trickling receiver host with three endpoints (three deliveries, each a task
    of its own): it takes one worker at a time, and the good receiver's delivery goes out on the
    other worker beside it, before the trickling host's first delivery is cut."""
    from rentalcomply.core import queue
    timeout = 6.0
    monkeypatch.setattr(service.config, "timeout_seconds", timeout)
    peer = Trickle(head=b"HTTP/1.1 200 OK\r\nConnection: close\r\n\r\n", pace=0.5,
                   host="127.0.0.2")
    for path in ("/one", "/two", "/three"):
        register(owner, f"http://127.0.0.2:{peer.port}{path}")
    register(owner, receiver.url)
    held = []  # the trickling host's exchanges under way, sampled all along
    sampling = threading.Event()

    def sample():
        while not sampling.wait(0.02):
            held.append(peers.busy("127.0.0.2"))
    sampler = threading.Thread(target=sample, daemon=True)
    consumer = queue.start_embedded_consumer(workers=2, urgent_workers=1)
    try:
        sampler.start()
        started = time.monotonic()
        emit(owner.account_id)
        receiver.wait_for(1, timeout=30)
        served = time.monotonic() - started
        # Served beside the trickling host: none of its deliveries had been cut yet, so the good
        # one waited behind none (that would be a whole timeout).
        cut_before_served = list(peer.exchanges)
        # The trickling host's second delivery is let in only once its first is cut.
        deadline = time.monotonic() + 30
        while peer.accepted < 2:
            assert time.monotonic() < deadline, "the trickling host's second delivery never came"
            time.sleep(0.05)
    finally:
        sampling.set()
        sampler.join(timeout=5)
        consumer.stop(graceful=False)
        peer.close()
    print(f"\nthe good receiver served in {served:.2f} s beside a trickling host (timeout "
          f"{timeout:.0f} s)")
    assert cut_before_served == []
    assert max(held) == 1


def test_a_burst_to_one_healthy_receiver_takes_turns_without_waiting_seconds(
        owner, receiver, emit, settings, monkeypatch):
    """One delivery at a time to the host, but a healthy receiver answers in milliseconds: twenty
    deliveries, each a task of its own (twenty endpoints on the receiver's host), both workers
    on them, wait their turn for the host briefly instead of being put back by seconds."""
    from rentalcomply.core import queue
    turns = []  # whether each try for the host's slot got it
    real_try_slot = peers.try_slot

    def try_slot(*args, **kwargs):
        slot = real_try_slot(*args, **kwargs)
        turns.append(slot.taken)
        return slot
    monkeypatch.setattr(peers, "try_slot", try_slot)
    for number in range(20):
        register(owner, f"{receiver.url}/{number}")
    consumer = queue.start_embedded_consumer(workers=2, urgent_workers=1)
    try:
        started = time.monotonic()
        emit(owner.account_id)
        receiver.wait_for(20, timeout=30)
        took = time.monotonic() - started
    finally:
        consumer.stop(graceful=True)
    busy = turns.count(False)
    print(f"\n20 deliveries to one receiver host, one at a time: {took:.2f} s; {busy} of "
          f"{len(turns)} turns found the host busy")
    assert turns and all(turns), turns  # none found the host busy, so none was put back
