"""Work that must not be lost with a worker: a row in the database for as long as it is owed.

Huey on Redis pops a task before running it and never acknowledges it: a worker killed while it
runs (or a Redis that loses its memory) loses the task. For work whose loss would matter and that
nothing else finds again, the transaction that makes the work owed also records a `PendingTask`
row; the task claims the row with a lease before it acts, deletes it when done, and gives it back
with the time of its next attempt when it failed for a reason that may pass. A sweep, once a minute
across all workers, queues again every row that is due and whose lease ran out.

A task queued twice (by its retry and by the sweep) acts once: the second finds the row leased or
gone. Reports, police filings, syncs and webhooks keep their own state in their own tables (a
report's generation lease, a filing's "sending" record, a connection's lease and last attempt,
the webhook outbox); this table is for what has none, such as an e-mail still to send.
"""

from __future__ import annotations

import datetime as dt

import peewee as pw

from rentalcomply.core import clock
from rentalcomply.core.db import atomic
from rentalcomply.core.models import BaseModel


class PendingTask(BaseModel):
    kind = pw.CharField(max_length=64)  # e.g. "checkin.invitation"
    key = pw.CharField(max_length=64)  # what the task acts on, e.g. the booking id
    due_at = pw.DateTimeField()  # when it should be attempted (again)
    lease_until = pw.DateTimeField(null=True)  # a worker is on it until then
    attempts = pw.IntegerField(default=0)

    class Meta:
        table_name = "pending_task"
        primary_key = pw.CompositeKey("kind", "key")


def record(kind: str, key: str, now: dt.datetime | None = None) -> None:
    """The work is owed (call it inside the transaction that makes it owed). Recording work
    already owed keeps the one row: it is still done once."""
    now = now or clock.utcnow()
    (PendingTask.insert(kind=kind, key=key, due_at=now)
     .on_conflict(conflict_target=[PendingTask.kind, PendingTask.key],
                  update={PendingTask.due_at: now, PendingTask.attempts: 0})
     .execute())


def claim(kind: str, key: str, lease_seconds: float) -> int | None:
    """Take the work for `lease_seconds`: the attempt's number (1 for the first), or None when
    nothing is owed or another worker holds it. One conditional UPDATE, so two workers never both
    win."""
    now = clock.utcnow()
    with atomic():
        taken = (PendingTask
                 .update(lease_until=now + dt.timedelta(seconds=lease_seconds),
                         attempts=PendingTask.attempts + 1)
                 .where((PendingTask.kind == kind) & (PendingTask.key == key)
                        & (PendingTask.lease_until.is_null() | (PendingTask.lease_until < now)))
                 .execute())
        if not taken:
            return None
        return (PendingTask.select(PendingTask.attempts)
                .where((PendingTask.kind == kind) & (PendingTask.key == key)).scalar())


def done(kind: str, key: str) -> None:
    """Nothing more is owed: done, or failed for good (the outcome is recorded elsewhere)."""
    PendingTask.delete().where((PendingTask.kind == kind) & (PendingTask.key == key)).execute()


def again_in(kind: str, key: str, seconds: float) -> None:
    """Failed for now: free for the next attempt in `seconds` (the sweep queues it then unless a
    retry of the queue's own comes first)."""
    now = clock.utcnow()
    (PendingTask.update(lease_until=None, due_at=now + dt.timedelta(seconds=seconds))
     .where((PendingTask.kind == kind) & (PendingTask.key == key)).execute())


def overdue(kind: str, grace_seconds: float, limit: int = 500) -> list[str]:
    """The keys of `kind` due at least `grace_seconds` ago that no worker holds: their task was
    lost (a killed worker, a Redis that forgot), or is waiting behind a long queue. `grace` keeps
    the sweep from racing the first attempt the commit itself queued."""
    now = clock.utcnow()
    query = (PendingTask.select(PendingTask.key)
             .where((PendingTask.kind == kind)
                    & (PendingTask.due_at <= now - dt.timedelta(seconds=grace_seconds))
                    & (PendingTask.lease_until.is_null() | (PendingTask.lease_until < now)))
             .order_by(PendingTask.due_at).limit(limit))
    return [row.key for row in query]


def waiting(kind: str | None = None) -> int:
    query = PendingTask.select()
    if kind is not None:
        query = query.where(PendingTask.kind == kind)
    return query.count()
