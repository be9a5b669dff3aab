"""The task queue away: one line when it goes, one a minute while it stays away, one when it is
back, per process; never a traceback per poll of a worker or per write."""

from __future__ import annotations

import logging
import time

import pytest

from rentalcomply.core import outage, queue
from rentalcomply.core.outage import QueueWatch
from tests.conftest import bootstrapped_settings


class FakeMonotonic:
    def __init__(self):
        self.now = 1000.0

    def __call__(self) -> float:
        return self.now


def queue_lines(caplog) -> list[str]:
    return [r.getMessage() for r in caplog.records if r.name == "rentalcomply.queue"]


def test_an_outage_is_a_line_when_it_begins_a_line_a_minute_and_a_line_when_it_ends(caplog):
    caplog.set_level(logging.WARNING)
    monotonic = FakeMonotonic()
    watch = QueueWatch(monotonic)
    refused = ConnectionError("Connection refused")
    for _ in range(10 * 60 * 4):  # ten minutes of a worker polling four times a second
        watch.failed(refused)
        monotonic.now += 0.25
    watch.answered()
    watch.answered()
    lines = queue_lines(caplog)
    assert "does not answer (Connection refused)" in lines[0]
    summaries = [line for line in lines if "has not answered for" in line]
    assert len(summaries) == 9  # minutes 1 to 9; the tenth ended with the queue back
    assert "240 attempts failed" in summaries[0]
    assert lines[-1] == "the task queue answers again after 600 s"
    assert len(lines) == 11 and not [r for r in caplog.records if r.exc_info]


def test_a_failure_just_after_the_queue_came_back_is_a_stale_connection_not_an_outage(caplog):
    caplog.set_level(logging.WARNING)
    monotonic = FakeMonotonic()
    watch = QueueWatch(monotonic)
    watch.failed(ConnectionError("Connection refused"))
    monotonic.now += 30
    watch.answered()
    monotonic.now += 0.5
    watch.failed(ConnectionError("Connection closed by server."))
    watch.answered()
    assert len(queue_lines(caplog)) == 2 and not watch.away



def test_what_waited_for_the_queue_is_sent_once_when_it_answers_again_not_while_it_answers():
    monotonic = FakeMonotonic()
    watch = QueueWatch(monotonic)
    sent = []
    watch.failed(ConnectionError("Connection refused"))
    watch.owe("a task", lambda: sent.append(monotonic.now))
    watch.owe("a task", lambda: sent.append("twice"))  # one per key: the latest
    monotonic.now += 3
    watch.answered()
    watch.answered()
    assert sent == ["twice"]


def test_what_fails_again_when_the_queue_is_back_is_reported_and_the_rest_still_sent(caplog):
    caplog.set_level(logging.WARNING)
    watch = QueueWatch(FakeMonotonic())
    sent = []

    def away_again():
        raise ConnectionError("Connection reset by peer")

    def broken():
        raise ValueError("a fault of the task's")
    watch.failed(ConnectionError("Connection refused"))
    for key, send_again in (("reset", away_again), ("broken", broken),
                            ("fine", lambda: sent.append("sent"))):
        watch.owe(key, send_again)
    watch.answered()
    assert sent == ["sent"]
    assert any("queuing what waited for the queue failed" in r.getMessage() and r.exc_info
               for r in caplog.records)


def test_a_task_the_queue_could_not_take_is_queued_as_soon_as_it_answers_again():
    """A sync trigger taken while Redis was stopped is queued when this process finds the queue
    back, not when the periodic sync comes round a minute later; a fresh start keeps nothing."""
    queue_answers, taken = [False], []

    def trigger(account_id):
        if not queue_answers[0]:
            raise ConnectionError("Connection refused")
        taken.append(account_id)
    try:
        assert not outage.send(trigger, "acc_1", what="queuing a sync")
        assert not outage.send(trigger, "acc_2", what="queuing a sync")
        assert taken == [] and outage.watch.away
        queue_answers[0] = True
        assert outage.send(lambda: None)  # the next use of the queue finds it back
        assert taken == ["acc_1", "acc_2"]
        queue_answers[0] = False
        assert not outage.send(trigger, "acc_3", what="queuing a sync")
        outage.watch.forget()
        queue_answers[0] = True
        outage.watch.answered()
        assert taken == ["acc_1", "acc_2"]
    finally:
        outage.watch.forget()


def test_a_wake_up_of_the_dispatcher_the_queue_missed_is_sent_as_soon_as_it_answers(monkeypatch):
    """Events written while Redis was stopped go out when the queue is back, not at the
    outbox sweep a minute later."""
    from rentalcomply.core import events
    queue_answers, woken = [False], []

    def wake_dispatcher():
        if not queue_answers[0]:
            raise ConnectionError("Connection refused")
        woken.append(events.committed_to_dispatch())
    monkeypatch.setattr(events, "_after_commit_hooks", [wake_dispatcher])
    try:
        events.wake_after_commit()
        events.notify_committed()
        assert woken == [] and outage.watch.away
        queue_answers[0] = True
        outage.watch.answered()
        assert woken == [True]
        outage.watch.answered()
        assert woken == [True]
    finally:
        outage.watch.forget()

def test_an_error_that_is_not_the_queue_away_is_raised_as_it_is():
    def broken():
        raise ValueError("a fault of the caller's")
    with pytest.raises(ValueError):
        outage.send(broken)


def test_a_consumer_polling_a_stopped_redis_logs_a_few_lines_not_a_traceback_a_poll(
        tmp_path, caplog):
    pytest.importorskip("redis")
    from tests.e2e.test_queue_outage import PrivateRedis
    redis_server = PrivateRedis()
    redis_server.start()
    caplog.set_level(logging.WARNING)
    try:
        with bootstrapped_settings(tmp_path, RENTALCOMPLY_QUEUE_URL=redis_server.url):
            outage.watch.forget()
            consumers = queue.start_embedded_consumer(workers=2, urgent_workers=1)
            try:
                time.sleep(0.5)
                redis_server.stop()
                time.sleep(8)  # three workers and two schedulers poll a queue that is gone
                redis_server.start()
                deadline = time.monotonic() + 30
                while outage.watch.away and time.monotonic() < deadline:
                    time.sleep(0.1)
            finally:
                consumers.stop()
    finally:
        redis_server.stop()
        outage.watch.forget()
        queue.huey.immediate = queue.urgent.immediate = True
    assert not [r for r in caplog.records if r.exc_info], \
        [r.getMessage() for r in caplog.records if r.exc_info][:3]
    lines = queue_lines(caplog)
    assert "does not answer" in lines[0] and "answers again" in lines[1], lines
    assert len(lines) <= 3, lines  # at most a connection the restart left behind, once
    assert len(caplog.records) <= 5, [r.getMessage() for r in caplog.records]
