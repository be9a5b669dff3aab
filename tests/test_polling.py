"""The tests' poll of the API (tests/helpers.py) stays under the API's limit however long the
awaited work takes, waits out a 429's Retry-After, and is quick when the work is: on a clock of
its own, so these run in no time."""

from __future__ import annotations

import pytest

from tests import helpers

LIMIT_PER_MINUTE = 100  # the product's default, rate_limit.per_minute


class FakeTime:
    def __init__(self):
        self.now = 0.0

    def monotonic(self) -> float:
        return self.now

    def sleep(self, seconds: float) -> None:
        self.now += seconds


class Api:
    """Answers (status, body, headers) as a loopback server's request does: done from `ready`
    seconds on, a 429 with Retry-After when asked more than the limit in a rolling minute."""

    def __init__(self, clock: FakeTime, ready: float):
        self.clock, self.ready, self.asked, self.refused = clock, ready, [], 0

    def __call__(self):
        now = self.clock.now
        self.asked.append(now)
        if len([t for t in self.asked if t > now - 60]) > LIMIT_PER_MINUTE:
            self.refused += 1
            return 429, {"error": {"code": "RATE_LIMITED"}}, {"Retry-After": "7"}
        return 200, {"data": {"done": now >= self.ready}}, {}


@pytest.fixture
def clock(monkeypatch):
    fake = FakeTime()
    monkeypatch.setattr(helpers, "time", fake)
    return fake


def _done(answer) -> bool:
    return answer[0] == 200 and answer[1]["data"]["done"]


def test_a_quiet_machine_is_answered_in_its_first_moments(clock):
    api = Api(clock, ready=0.3)
    assert _done(helpers.poll(api, _done))
    assert clock.now < 0.7 and len(api.asked) <= 6


def test_a_slow_worker_is_awaited_under_the_limit_in_every_minute(clock):
    api = Api(clock, ready=100.0)  # the worker needs 100 s on a loaded machine
    assert _done(helpers.poll(api, _done))
    assert api.refused == 0
    busiest = max(len([t for t in api.asked if start <= t < start + 60]) for start in api.asked)
    assert busiest <= LIMIT_PER_MINUTE // 2, busiest
    assert clock.now < 100 + helpers.POLL_LONGEST_WAIT + 0.01  # found within a wait of ready


def test_a_429_waits_its_retry_after_and_is_never_the_answer(clock):
    answers = iter([(429, None, {"Retry-After": "7"}), (200, {"data": {"done": True}}, {})])
    asked_at = []

    def ask():
        asked_at.append(clock.now)
        return next(answers)
    assert helpers.poll(ask, lambda answer: True)[0] == 200
    assert asked_at == [0.0, 7.0]


def test_the_deadline_says_what_was_awaited_and_the_last_answer(clock):
    api = Api(clock, ready=10_000.0)
    with pytest.raises(AssertionError, match=r"the report generated: not within 120 s.*'done': False"):
        helpers.poll(api, _done, what="the report generated")
    assert clock.now <= helpers.POLL_DEADLINE
