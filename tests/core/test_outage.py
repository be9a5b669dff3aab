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
