"""Periodic tasks once per tick across every worker, and each worker's heartbeat.

Every consumer runs huey's scheduler, and each scheduler enqueues every periodic task that is due
at its minute: with several workers on one Redis queue, a feed would be fetched once per worker
and a month's report made twice. Before a scheduler enqueues a periodic task it claims the tick
(the task's name and the minute) with an INSERT that only one process can win; the others skip
it. The same minute-by-minute call records the worker's heartbeat, which `doctor` shows.

A tick is recorded as run only once its task is queued (`queued_at`). When the queue does not
answer at the task's minute (Redis restarting), the claim stays open, and each later minute the
scheduler that finds the queue answering again queues the newest open tick of each task (older
open ones of the same task are taken as done by it): an hourly or daily task whose minute fell in
an outage runs when the queue is back, once, instead of an hour or a day later. A claim left open
by a process killed between claiming and queuing is taken over the same way.

A task cut by the database going away (a PostgreSQL restart or failover) is run again a few
seconds later, with a one-line warning instead of a traceback, until the database is back. That
is safe for every task here: each works by id from the state in the database, which its
transaction, cut, left as it was, and the periodic sweeps run the same work again anyway (this
only spares a minute's wait). A periodic task so cut waits for its next tick.
"""

from __future__ import annotations

import datetime as dt
import functools
import logging
import os
import socket

import peewee as pw
from huey import Huey
from huey.exceptions import RetryTask

from rentalcomply.core import clock
from rentalcomply.core.db import db, is_away, warn_of
from rentalcomply.core.models import BaseModel
from rentalcomply.core.outage import is_queue_away
from rentalcomply.core.outage import watch as queue_watch

log = logging.getLogger(__name__)

# One process: its host, its pid and when it started, so a restarted worker is a new row.
WORKER_ID = f"{socket.gethostname()}:{os.getpid()}:{clock.utcnow().strftime('%H%M%S')}"


class PeriodicTick(BaseModel):
    name = pw.CharField(max_length=200)
    tick = pw.DateTimeField()  # the minute, naive UTC
    worker = pw.CharField(max_length=200)
    claimed_at = pw.DateTimeField(null=True)  # when `worker` took it (again)
    queued_at = pw.DateTimeField(null=True)  # its task is queued: the tick is done

    class Meta:
        primary_key = pw.CompositeKey("name", "tick")


class WorkerHeartbeat(BaseModel):
    worker = pw.CharField(primary_key=True, max_length=200)
    started_at = pw.DateTimeField()
    seen_at = pw.DateTimeField()
    stopped_at = pw.DateTimeField(null=True)  # a clean stop; a crash leaves it empty


def _minute(moment: dt.datetime) -> dt.datetime:
    return moment.replace(second=0, microsecond=0, tzinfo=None)


def claim_tick(name: str, tick: dt.datetime) -> bool:
    """Whether this process is the one to run periodic task `name` at `tick` (its minute)."""
    # INSERT … ON CONFLICT DO NOTHING (SQLite: INSERT OR IGNORE): the losers' inserts change no
    # row and raise nothing. A plain INSERT caught as IntegrityError worked too, but PostgreSQL
    # logged each loser's duplicate key as an ERROR (every worker, every periodic task, every
    # tick), burying the errors that matter in its log.
    inserted = (PeriodicTick.insert(name=name, tick=_minute(tick), worker=WORKER_ID,
                                    claimed_at=tick.replace(tzinfo=None))
                .on_conflict_ignore().as_rowcount().execute())
    return inserted == 1


def mark_queued(name: str, tick: dt.datetime) -> None:
    """The task of `tick` is queued: that tick, and any older one of the same task still open
    (it did the same work), are done."""
    (PeriodicTick.update(queued_at=clock.utcnow())
     .where((PeriodicTick.name == name) & (PeriodicTick.tick <= _minute(tick))
            & PeriodicTick.queued_at.is_null()).execute())


# An open claim younger than this is its claimer's to queue (it is doing so now).
OPEN_CLAIM_GRACE = dt.timedelta(seconds=50)
# Open ticks older than this are not run late any more (claims are forgotten after a day).
LATE_RUN_LIMIT = dt.timedelta(hours=23)


def take_missed(now: dt.datetime | None = None) -> list[tuple[str, dt.datetime]]:
    """The newest open tick of each periodic task whose claim is older than OPEN_CLAIM_GRACE,
    each taken over by this process with a conditional UPDATE (two schedulers never both take
    one): (name, tick) of those this process is now to queue."""
    now = now or clock.utcnow()
    rows = (PeriodicTick.select(PeriodicTick.name, pw.fn.MAX(PeriodicTick.tick).alias("newest"))
            .where(PeriodicTick.queued_at.is_null()
                   & (PeriodicTick.tick >= _minute(now) - LATE_RUN_LIMIT)
                   & (PeriodicTick.claimed_at.is_null()
                      | (PeriodicTick.claimed_at < now - OPEN_CLAIM_GRACE)))
            .group_by(PeriodicTick.name).tuples())
    taken = []
    for name, newest in rows:
        newest = PeriodicTick.tick.python_value(newest)
        with db.atomic():
            won = (PeriodicTick.update(worker=WORKER_ID, claimed_at=now)
                   .where((PeriodicTick.name == name) & (PeriodicTick.tick == newest)
                          & PeriodicTick.queued_at.is_null()
                          & (PeriodicTick.claimed_at.is_null()
                             | (PeriodicTick.claimed_at < now - OPEN_CLAIM_GRACE)))
                   .execute())
        if won:
            taken.append((name, newest))
    return taken


def beat(now: dt.datetime | None = None) -> None:
    now = (now or clock.utcnow()).replace(microsecond=0, tzinfo=None)
    with db.atomic():
        (WorkerHeartbeat.insert(worker=WORKER_ID, started_at=now, seen_at=now)
         .on_conflict(conflict_target=[WorkerHeartbeat.worker],
                      update={WorkerHeartbeat.seen_at: now,
                              WorkerHeartbeat.stopped_at: None}).execute())


def record_stop(now: dt.datetime | None = None) -> None:
    """This process's worker has stopped cleanly: `doctor` counts it stopped at once rather than
    alive until its heartbeat is three minutes old. Best effort: a database that does not answer
    at shutdown leaves the heartbeat to grow stale."""
    now = (now or clock.utcnow()).replace(microsecond=0, tzinfo=None)
    try:
        (WorkerHeartbeat.update(stopped_at=now)
         .where(WorkerHeartbeat.worker == WORKER_ID).execute())
    except pw.DatabaseError as exc:
        warn_of(log, exc, "the worker's clean stop is not recorded")


# Workers not seen for this long are gone for good (queue.forget_workers_after_hours, set by
# configure_queue): a worker killed with kill -9 never records its stop, and without this `doctor`
# would list its heartbeat as stale until the row was deleted.
forget_workers_after = dt.timedelta(hours=24)


def forget_old(now: dt.datetime | None = None) -> None:
    """Claims older than a day and workers not seen for `forget_workers_after`: nothing reads
    them any more."""
    now = (now or clock.utcnow()).replace(tzinfo=None)
    PeriodicTick.delete().where(PeriodicTick.tick < now - dt.timedelta(days=1)).execute()
    (WorkerHeartbeat.delete()
     .where(WorkerHeartbeat.seen_at < now - forget_workers_after).execute())


def heartbeats() -> list[WorkerHeartbeat]:
    return list(WorkerHeartbeat.select().order_by(WorkerHeartbeat.seen_at.desc()))


# Seconds before a task cut by the database going away runs again.
RETRY_WHEN_AWAY_SECONDS = 3


def _again_when_back(func, periodic: bool):
    """`func`, whose run cut by the database going away is tried again rather than failed."""
    @functools.wraps(func)
    def run(*args, **kwargs):
        try:
            return func(*args, **kwargs)
        except Exception as exc:
            if not is_away(exc):
                raise
            reason = str(exc).strip().splitlines()[0]
            if periodic:
                log.warning("task %s: the database does not answer (%s); its next run tries "
                            "again", func.__name__, reason)
                return None
            log.warning("task %s: the database does not answer (%s); tried again in %d s",
                        func.__name__, reason, RETRY_WHEN_AWAY_SECONDS)
            raise RetryTask(delay=RETRY_WHEN_AWAY_SECONDS) from None
    return run


class OncePerTickHuey(Huey):
    """Huey whose scheduler enqueues a periodic task only when it wins the task's tick, and whose
    tasks outlast the database going away for a moment."""

    def task(self, *args, **kwargs):
        declare = super().task(*args, **kwargs)
        return lambda func: declare(_again_when_back(func, periodic=False))

    def periodic_task(self, *args, **kwargs):
        declare = super().periodic_task(*args, **kwargs)
        return lambda func: declare(_again_when_back(func, periodic=True))

    def read_periodic(self, timestamp):
        due = super().read_periodic(timestamp)
        if self.immediate or db.obj is None:
            return due
        now = timestamp or clock.utcnow()
        try:
            beat()
            if now.minute == 0:
                forget_old()
            return [task for task in due if claim_tick(task.name, now)]
        except pw.DatabaseError as exc:
            # Without the database no periodic task could do its work anyway; the next tick tries.
            warn_of(log, exc, "periodic tasks: this tick is skipped")
            return []

    def enqueue_periodic(self, timestamp=None) -> list[str]:
        """The scheduler's minute: claim the due periodic tasks, queue them, and record each tick
        done once queued; then queue the ticks an outage of the queue left open. The names
        queued."""
        now = timestamp or clock.utcnow()
        queued = []
        for task in self.read_periodic(now):
            if self._queue_tick(task, now):
                queued.append(task.name)
        if self.immediate or db.obj is None or queue_watch.away:
            return queued
        try:
            missed = take_missed(now)
        except pw.DatabaseError as exc:
            warn_of(log, exc, "periodic tasks: the ticks left open are looked at next minute")
            return queued
        by_name = {task.name: task for task in self._registry.periodic_tasks}
        for name, tick in missed:
            task = by_name.get(name)
            if task is None:  # a task this build no longer has
                mark_queued(name, tick)
                continue
            log.info("periodic task %s of %s UTC: queued late (the queue did not answer then)",
                     name, tick.strftime("%Y-%m-%d %H:%M"))
            if self._queue_tick(task, tick):
                queued.append(name)
        return queued

    def _queue_tick(self, task, tick: dt.datetime) -> bool:
        try:
            self.enqueue(task)
        except Exception as exc:
            if not is_queue_away(exc):
                log.exception("periodic task %s could not be queued", task.name)
                return False
            queue_watch.failed(exc, "queuing periodic tasks")
            return False  # the tick stays open: queued when the queue is back
        queue_watch.answered()
        if self.immediate or db.obj is None:
            return True
        try:
            mark_queued(task.name, tick)
        except pw.DatabaseError as exc:
            # Queued but not recorded: it may run once more when taken for missed, which every
            # periodic task here bears (each works from the state in the database).
            warn_of(log, exc, "periodic task %s: queued, not recorded", task.name)
        return True

    def dequeue(self):
        task = super().dequeue()  # raises when the queue does not answer (the worker reports it)
        queue_watch.answered()
        return task
