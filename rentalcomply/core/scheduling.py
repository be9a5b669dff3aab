"""Periodic tasks once per tick across every worker, and each worker's heartbeat.

Every consumer runs huey's scheduler, and each scheduler enqueues every periodic task that is due
at its minute: with several workers on one Redis queue, a feed would be fetched once per worker
and a month's report made twice. Before a scheduler enqueues a periodic task it claims the tick
(the task's name and the minute) with an INSERT that only one process can win; the others skip
it. The same minute-by-minute call records the worker's heartbeat, which `doctor` shows.
"""

from __future__ import annotations

import datetime as dt
import logging
import os
import socket

import peewee as pw
from huey import Huey

from rentalcomply.core import clock
from rentalcomply.core.db import db
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


class OncePerTickHuey(Huey):
    """Huey whose scheduler enqueues a periodic task only when it wins the task's tick."""

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
        except pw.DatabaseError:
            # Without the database no periodic task could do its work anyway; the next tick tries.
            log.warning("periodic tasks: the database does not answer; this tick is skipped",
                        exc_info=True)
            return []
