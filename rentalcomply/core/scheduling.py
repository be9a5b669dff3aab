"""Periodic tasks once per tick across every worker, and each worker's heartbeat.

Every consumer runs huey's scheduler, and each scheduler enqueues every periodic task that is due
at its minute: with several workers on one Redis queue, a feed would be fetched once per worker
and a month's report made twice. Before a scheduler enqueues a periodic task it claims the tick
(the task's name and the minute) with an INSERT that only one process can win; the others skip
it. The same minute-by-minute call records the worker's heartbeat, which `doctor` shows.

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

log = logging.getLogger(__name__)

# One process: its host, its pid and when it started, so a restarted worker is a new row.
WORKER_ID = f"{socket.gethostname()}:{os.getpid()}:{clock.utcnow().strftime('%H%M%S')}"


class PeriodicTick(BaseModel):
    name = pw.CharField(max_length=200)
    tick = pw.DateTimeField()  # the minute, naive UTC
    worker = pw.CharField(max_length=200)

    class Meta:
        primary_key = pw.CompositeKey("name", "tick")


class WorkerHeartbeat(BaseModel):
    worker = pw.CharField(primary_key=True, max_length=200)
    started_at = pw.DateTimeField()
    seen_at = pw.DateTimeField()


def claim_tick(name: str, tick: dt.datetime) -> bool:
    """Whether this process is the one to run periodic task `name` at `tick` (its minute)."""
    minute = tick.replace(second=0, microsecond=0, tzinfo=None)
    try:
        with db.atomic():
            PeriodicTick.insert(name=name, tick=minute, worker=WORKER_ID).execute()
        return True
    except pw.IntegrityError:
        return False


def beat(now: dt.datetime | None = None) -> None:
    now = (now or clock.utcnow()).replace(microsecond=0, tzinfo=None)
    with db.atomic():
        (WorkerHeartbeat.insert(worker=WORKER_ID, started_at=now, seen_at=now)
         .on_conflict(conflict_target=[WorkerHeartbeat.worker],
                      update={WorkerHeartbeat.seen_at: now}).execute())


def forget_old(now: dt.datetime | None = None) -> None:
    """Claims older than a day and workers not seen for a week: nothing reads them any more."""
    now = now or clock.utcnow()
    PeriodicTick.delete().where(PeriodicTick.tick < now - dt.timedelta(days=1)).execute()
    WorkerHeartbeat.delete().where(WorkerHeartbeat.seen_at < now - dt.timedelta(days=7)).execute()


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
