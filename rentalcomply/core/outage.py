"""The task queue away (Redis stopped or restarting): a delay, never an error, and a few log lines.

Everything queued from a request or a task is also found again from the database it describes
(the outbox, reports waiting for generation, sync triggers, deliveries' next attempts, pending
tasks, periodic ticks not yet queued), so a task that cannot be queued is not lost: the process
queues it again as soon as it finds the queue answering (`QueueWatch.owe`), and the sweeps find
whatever a process that stopped meanwhile had kept. What the queue's absence must not do is fail
a request or fill the log: each of a worker's threads polls the queue four times a second, and
each web write wakes the dispatcher.

So every place that talks to the queue reports here instead of logging: one warning when the
queue goes away and one when it answers again (per process), and while it stays away one summary
line a minute, with the count of attempts that failed. Never a traceback per poll or per write.
"""

from __future__ import annotations

import logging
import sys
import threading
import time
from typing import Callable

try:  # the redis extra is optional; without it no error can come from Redis
    from redis import exceptions as _redis_errors
    _REDIS_AWAY: tuple = (_redis_errors.ConnectionError, _redis_errors.TimeoutError)
except ImportError:  # pragma: no cover - installations without the redis extra
    _REDIS_AWAY = ()

log = logging.getLogger("rentalcomply.queue")

# Seconds between two summary lines while the queue stays away.
SUMMARY_SECONDS = 60.0
# Work kept per process while the queue is away, to queue the moment it answers (QueueWatch.owe);
# past this many, the sweeps alone find the rest in the database.
OWED_KEPT = 1000
# Seconds after the queue came back during which a failure is taken for a connection the restart
# left in a pool (each fails once, then is replaced), not for a new outage.
SETTLE_SECONDS = 5.0


def is_queue_away(exc: BaseException) -> bool:
    """Whether an error from the queue's storage means that it does not answer (refused,
    reset, timed out, still loading), as opposed to a fault of the caller's."""
    return isinstance(exc, _REDIS_AWAY + (ConnectionError, TimeoutError))


def _reason(exc: BaseException) -> str:
    text = str(exc).strip().splitlines()
    return text[0] if text else type(exc).__name__


class QueueWatch:
    """Whether this process last found the queue answering, and what it has said about it."""

    def __init__(self, monotonic: Callable[[], float] = time.monotonic):
        self._monotonic = monotonic
        self._lock = threading.Lock()
        self.away_since: float | None = None
        self._back_at: float | None = None
        self._last_line = 0.0
        self._failures = 0  # since the last line
        self._owed: dict[object, Callable[[], object]] = {}  # what to send once it is back

    @property
    def away(self) -> bool:
        return self.away_since is not None

    def failed(self, exc: BaseException, what: str = "") -> None:
        """An attempt to use the queue failed because it does not answer."""
        now = self._monotonic()
        with self._lock:
            if self.away_since is None and self._back_at is not None \
                    and now - self._back_at < SETTLE_SECONDS:
                return
            if self.away_since is None:
                self.away_since = self._last_line = now
                self._failures = 0
                log.warning("the task queue does not answer (%s)%s; work waits in the database "
                            "and is queued when the queue is back", _reason(exc),
                            f" while {what}" if what else "")
                return
            self._failures += 1
            if now - self._last_line >= SUMMARY_SECONDS:
                log.warning("the task queue has not answered for %d s (%d attempts failed "
                            "since the last line; last: %s)", now - self.away_since,
                            self._failures, _reason(exc))
                self._last_line, self._failures = now, 0

    def answered(self) -> None:
        """An attempt to use the queue succeeded. Cheap when nothing was away: called per poll."""
        if self.away_since is None:
            return
        now = self._monotonic()
        with self._lock:
            if self.away_since is None:
                return
            log.warning("the task queue answers again after %d s", now - self.away_since)
            self.away_since, self._back_at = None, now
            self._failures = 0
        self._send_owed()

    def owe(self, key, send_again: Callable[[], object]) -> None:
        """Keep `send_again` (queuing work that the queue, away, did not take) to be called as
        soon as the queue answers again, in the thread that finds it back (a worker's poll, a
        request queuing a task), rather than when the sweep that finds the work comes round.
        Once per `key`; at most OWED_KEPT kept, the rest left to the sweeps."""
        with self._lock:
            if key in self._owed or len(self._owed) < OWED_KEPT:
                self._owed[key] = send_again

    def _send_owed(self) -> None:
        with self._lock:
            owed, self._owed = list(self._owed.values()), {}
        for send_again in owed:
            try:
                send_again()
            except Exception as exc:  # the sweeps still find the work; never fail the caller
                if is_queue_away(exc):
                    self.failed(exc, "queuing what waited for the queue")
                else:
                    log.exception("queuing what waited for the queue failed; the sweep will")

    def forget(self) -> None:
        """Back to "answering" without a word, nothing kept (tests that start a fresh queue)."""
        with self._lock:
            self.away_since, self._back_at, self._failures = None, None, 0
            self._owed = {}


watch = QueueWatch()


def send(call: Callable[..., object], *args, what: str = "", **kwargs) -> bool:
    """`call(*args, **kwargs)` (queuing a task), reporting a queue that does not answer to the
    watch instead of raising: True when queued. For work the database already records, whose
    sweep queues it once the queue is back. A queue in immediate mode (memory://) runs the task
    here, whose errors are its own."""
    if getattr(getattr(call, "huey", None), "immediate", False):
        call(*args, **kwargs)
        return True
    try:
        call(*args, **kwargs)
    except Exception as exc:
        if not is_queue_away(exc):
            raise
        watch.failed(exc, what)
        if watch.away:  # not a stale connection just after it came back: the sweep has that
            _owe(call, args, kwargs, what)
        return False
    watch.answered()
    return True


def _owe(call, args: tuple, kwargs: dict, what: str) -> None:
    """Keep a call the queue did not take for when it is back, if its arguments make a key (the
    ids and times tasks take); otherwise the sweep alone finds its work."""
    try:
        key = (getattr(call, "name", None) or call, args, tuple(sorted(kwargs.items())))
        hash(key)
    except TypeError:
        return
    watch.owe(key, lambda: send(call, *args, what=what, **kwargs))


class QuietLogger(logging.LoggerAdapter):
    """Huey's consumer logs every failed poll of the queue as an error with its traceback. Given
    to its worker and scheduler (core/queue.py), this reports a queue that does not answer to
    the watch instead; every other line goes through as huey wrote it."""

    def __init__(self, logger: logging.Logger):
        super().__init__(logger, {})

    def exception(self, msg, *args, exc_info=True, **kwargs):
        failure = sys.exc_info()[1]
        if failure is not None and is_queue_away(failure):
            watch.failed(failure)
            return
        super().exception(msg, *args, exc_info=exc_info, **kwargs)

    def process(self, msg, kwargs):
        return msg, kwargs
