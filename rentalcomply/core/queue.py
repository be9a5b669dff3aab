"""The task queue: one Huey instance, configured at start-up.

Default: SQLite in its own file (`queue.db` in the data directory). Huey's table names (`task`,
`kv`, `schedule`) are generic and it dequeues with BEGIN EXCLUSIVE, so it never shares the
application's database. `redis://` uses Redis for scale-out; `memory://` runs each task at once in
the caller (tests that do not care about the queue itself).

Two queues, in the same storage (huey keeps each queue's rows apart by its name):

- `huey`, the general queue: webhook deliveries, calendar syncs, e-mails, housekeeping — work that
  talks to peers the API's clients chose, any of which may be slow or hostile;
- `urgent`, work with a legal deadline: police filings and tax reports. It has workers of its own
  (`queue.urgent_workers`), so a slow feed or webhook receiver, however many, never delays a
  filing; within it, police filings go before reports (huey's task priority).

Tasks are declared at import time against `huey` or `urgent`, so the instances exist from the start
(in immediate mode) and `configure_queue` swaps their storage in place.
"""

from __future__ import annotations

import datetime as dt
import logging
import threading
from pathlib import Path

from huey import Huey
from huey.consumer import Consumer, Scheduler, Worker
from huey.storage import MemoryStorage, SqliteStorage

from rentalcomply.core import scheduling
from rentalcomply.core.db import db
from rentalcomply.core.errors import ServiceUnavailable
from rentalcomply.core.outage import QuietLogger, send
from rentalcomply.core.scheduling import OncePerTickHuey

log = logging.getLogger(__name__)



class WakingHuey(OncePerTickHuey):
    """A queue whose tasks queued in this process wake an idle worker of this process at once.

    An idle worker polls the queue every IDLE_POLL_MAX_SECONDS at most: a task queued by the same
    process (a write's webhook dispatch, the dispatcher's deliveries) waited up to that long for a
    worker that had nothing else to do (POST → delivery p50 21 ms, bench/webhooks.py). A task
    queued by another process is still found by the poll."""

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        self.work_queued = threading.Condition()

    def enqueue(self, task):
        result = super().enqueue(task)
        if not self._immediate:
            with self.work_queued:
                self.work_queued.notify()
        return result

    def wait_for_work(self, seconds: float) -> bool:
        """Wait up to `seconds` for a task queued by this process; whether one was."""
        with self.work_queued:
            return self.work_queued.wait(seconds)

    def wake_every_worker(self) -> None:
        with self.work_queued:
            self.work_queued.notify_all()


# OncePerTickHuey: with several workers, each periodic task still runs once per tick.
huey = WakingHuey("rentalcomply", immediate=True, storage_class=MemoryStorage, results=False,
                  utc=True)
urgent = WakingHuey("rentalcomply-urgent", immediate=True, storage_class=MemoryStorage,
                    results=False, utc=True)
QUEUES = (huey, urgent)
# Task priorities within the urgent queue (higher first): a filing never waits behind a report.
POLICE_PRIORITY = 20
REPORTS_PRIORITY = 10


def configure_queue(settings) -> Huey:
    url = settings.queue.url
    scheduling.forget_workers_after = dt.timedelta(hours=settings.queue.forget_workers_after_hours)
    if url == "memory://":
        for queue in QUEUES:
            queue.immediate = True
        return huey
    if not url or url.startswith("sqlite:///"):
        path = Path(url[len("sqlite:///"):]) if url else Path(settings.data_dir) / "queue.db"
        path.parent.mkdir(parents=True, exist_ok=True)
        storage_class = QueueFileStorage
        storage_kwargs = {"filename": str(path), "journal_mode": "wal", "timeout": 5}
    elif url.startswith(("redis://", "rediss://", "unix://")):
        try:
            import redis  # noqa: F401 - huey would say so with a traceback
        except ImportError:
            raise ValueError("queue.url: Redis needs the redis package, which this installation "
                             "lacks: pip install 'rentalcomply[redis]' (the one-file binary runs "
                             "the queue on SQLite only)") from None
        # The priority flavour: the urgent queue files police filings before reports.
        from huey.storage import PriorityRedisStorage
        storage_class = PriorityRedisStorage
        storage_kwargs = {"url": url}
    else:
        raise ValueError(f"queue.url: unsupported scheme in {url!r} (sqlite:///, redis://, memory://)")
    for queue in QUEUES:
        queue.storage_class = storage_class
        queue.storage_kwargs = dict(storage_kwargs)
        queue._immediate = False
        queue.storage = queue.create_storage()
    return huey


class QueueFileStorage(SqliteStorage):
    """Huey's SQLite storage with `synchronous=NORMAL`, as the application's database has.

    Huey leaves SQLite's default (FULL): an fsync of queue.db for every task queued, which was the
    largest single cost of a write request (the dispatcher's wake-up). In WAL mode NORMAL is still
    safe against a crash of the process and never corrupts the file; what a power cut may lose is
    a moment of the newest tasks, and every task queued from a write is found again from the
    database it describes (the outbox, delivery rows' next attempts, filings' next attempts) by
    the periodic sweeps."""

    def _create_connection(self):
        connection = super()._create_connection()
        connection.execute("pragma synchronous=NORMAL")
        return connection


class QueueWorker(Worker):
    """Huey's worker, whose failed polls of a queue that does not answer go to the outage watch
    (core/outage.py: a line when it goes, a line a minute, a line when it is back) instead of a
    traceback each, four times a second."""

    def create_logger(self):
        return QuietLogger(super().create_logger())

    def sleep(self):
        """Huey's idle wait (the poll's backoff), cut short by a task this process queues."""
        self.delay = min(self.delay, self.max_delay)
        if self.huey.wait_for_work(self.delay):
            self.delay = self.default_delay
        else:
            self.delay *= self.backoff


class QueueScheduler(Scheduler):
    """Huey's scheduler, as quiet as the worker when the queue is away, whose periodic tasks are
    recorded as run only once queued (OncePerTickHuey.enqueue_periodic): a tick that falls in an
    outage of the queue is queued when it is back."""

    def create_logger(self):
        return QuietLogger(super().create_logger())

    def enqueue_periodic_tasks(self, now):
        self.huey.enqueue_periodic(now)


class EmbeddedConsumer(Consumer):
    """A consumer that runs beside Waitress in the same process (and alone in `rentalcomply
    worker`).

    Huey's own `start()` installs SIGINT/SIGTERM handlers (which would swallow Ctrl+C meant for the
    server) and only works in the main thread; the server owns the signals here and calls
    `stop(graceful=True)` itself, so running tasks finish and queued ones stay queued.
    """

    worker_class = QueueWorker
    scheduler_class = QueueScheduler

    def _set_signal_handlers(self):
        pass


# What a module started beside the consumers (the report sweeper's thread) and must stop with
# them, called by `Consumers.stop` once both have stopped: huey runs its own shutdown hooks in
# each worker thread as that thread ends, which a worker still waiting on a queue that is gone can
# leave until after `stop` returns, and the caller then closes or drops the database.
_stopped_with_the_consumers: list = []


def stop_with_the_consumers(stop) -> None:
    """Have `stop()` called when the embedded consumers stop."""
    if stop not in _stopped_with_the_consumers:
        _stopped_with_the_consumers.append(stop)


class Consumers:
    """The consumers of both queues, started and stopped together."""

    def __init__(self, general: EmbeddedConsumer, urgent_consumer: EmbeddedConsumer):
        self.general = general
        self.urgent = urgent_consumer

    def stop(self, graceful: bool = False) -> None:
        # Told to stop together, so the two graceful waits overlap instead of adding up.
        self.general.stop_flag.set()
        self.urgent.stop_flag.set()
        for queue in QUEUES:  # idle workers see the flag now, not at their next poll
            queue.wake_every_worker()
        self.urgent.stop(graceful=graceful)
        self.general.stop(graceful=graceful)
        for stop in list(_stopped_with_the_consumers):
            stop()


# How long a graceful stop waits for running tasks. Past it the process exits anyway: every task
# is safe to cut (a filing records `sending` before its call and is recovered; the rest are
# idempotent), and a stop that never ends is worse than a task done again.
GRACEFUL_STOP_SECONDS = 30


def start_embedded_consumer(workers: int, urgent_workers: int = 2) -> Consumers:
    """Start the general queue's consumer with `workers` threads and the urgent queue's with
    `urgent_workers` of its own."""
    return Consumers(_start(huey, workers, "huey"), _start(urgent, urgent_workers, "huey-urgent"))


# An idle worker polls every IDLE_POLL_MAX_SECONDS at most: 0.1 s finds a task queued by another
# process (the CLI, a `rentalcomply worker` beside the server) within a tenth of a second, for ten
# small reads of queue.db a second per worker (measured: an idle server, four workers, uses 1.0 %
# of a core, 0.6 % at 0.25 s); one queued by this process wakes it at once. At 0.25 s a burst
# of events written by another process waited 125 ms on average for its first delivery
# (bench/webhooks.py).
IDLE_POLL_FIRST_SECONDS = 0.05
IDLE_POLL_MAX_SECONDS = 0.1


def _start(queue: Huey, workers: int, name: str) -> EmbeddedConsumer:
    consumer = EmbeddedConsumer(queue, workers=workers, worker_type="thread", periodic=True,
                                initial_delay=IDLE_POLL_FIRST_SECONDS, backoff=1.5,
                                max_delay=IDLE_POLL_MAX_SECONDS,
                                check_worker_health=True,
                                shutdown_timeout=GRACEFUL_STOP_SECONDS)
    consumer.start()
    # Consumer.run() would also do health checks in a loop; a light thread keeps them going.
    consumer._health_thread = threading.Thread(target=_health_loop, args=(consumer,),
                                               name=f"{name}-health", daemon=True)
    consumer._health_thread.start()
    return consumer


def _health_loop(consumer: EmbeddedConsumer) -> None:
    import time
    timestamp = time.monotonic()
    while not consumer.stop_flag.is_set():
        try:
            timestamp = consumer.loop(timestamp)
        except Exception:  # ConsumerStopped ends the loop as well
            return


# Tasks a request queues once its transaction commits (per thread; see queue_after_commit).
_after_commit = threading.local()


def queue_after_commit(task, *args, what: str = "") -> None:
    """Queue `task(*args)` once the caller's transaction commits; at once outside a transaction.

    For work the database records (a report waiting, a sync trigger, removals accepted): queued
    inside the transaction, a worker could take the task before the commit and find nothing to
    do; and a queue that does not answer must not fail the request (it would roll the work
    back). A task that cannot be queued is left to the sweep that finds the work in the database
    (core/outage.py); the request's answer is the same. The web layer runs what is waiting after
    its commit (`run_after_commit`) and drops it when the request is refused (`forget_after_commit`).
    """
    if not db.in_transaction():
        send(task, *args, what=what)
        return
    waiting = getattr(_after_commit, "calls", None)
    if waiting is None:
        waiting = _after_commit.calls = []
    waiting.append((task, args, what))


def run_after_commit() -> int:
    """Queue what this thread's committed transaction asked for; how many were queued."""
    waiting, _after_commit.calls = getattr(_after_commit, "calls", None) or [], None
    queued = 0
    for task, args, what in waiting:
        try:
            queued += send(task, *args, what=what)
        except Exception:  # committed already: the answer stands, and the sweep finds the work
            log.exception("%s: could not be queued after the commit; the sweep queues it",
                          what or getattr(task, "name", task))
    return queued


def forget_after_commit() -> None:
    """The transaction was rolled back (or never began): nothing it asked for is queued."""
    _after_commit.calls = None


# Seconds a client is told to wait when work that only the queue could carry is refused.
RETRY_AFTER_SECONDS = 30


def must_answer() -> None:
    """Refuse work that only the queue would carry (nothing in the database finds it again, such
    as an e-mail whose one-time link exists only in its task) while the queue does not answer:
    503 SERVICE_UNAVAILABLE with Retry-After, before anything is changed."""
    storage = huey.storage
    ping = getattr(getattr(storage, "conn", None), "ping", None)
    if huey.immediate or ping is None:  # memory:// or the SQLite file: always at hand
        return
    if not send(ping, what="checking the task queue"):
        raise ServiceUnavailable("The task queue does not answer; try again shortly.",
                                 retry_after=RETRY_AFTER_SECONDS)


def run_pending_tasks(limit: int = 1000) -> int:
    """Execute queued tasks of both queues in this thread, one by one (tests and
    `rentalcomply sync run`), the urgent ones first."""
    count = 0
    while count < limit:
        for queue in (urgent, huey):
            task = queue.dequeue()
            if task is not None:
                queue.execute(task)
                count += 1
                break
        else:
            break
    return count
