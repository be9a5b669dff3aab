"""Leases on rows: which process works on a row now, and until when.

Work that several processes may start but only one must do (a report's generation, a filing sent
to an authority) holds a lease on its row: `lease_owner` names the process doing it and
`lease_expires_at` says until when the row is its own. The owner renews the lease with a
`Heartbeat` while it works, and records its result only while the lease is still its own, so work
started twice is recorded once. A process that dies leaves an expired lease, or an owner that is
no longer running on this machine (`owner_is_alive`): another process may take the work over
(`can_take_over`, `take`).

Works on any peewee model with a `lease_owner` (CharField, 100) and a `lease_expires_at`
(DateTimeField) column. What the work is, and when a row waits for it, is the caller's: it passes
the row, and the condition that says the row is still in the state it read.
"""

from __future__ import annotations

import datetime as dt
import logging
import os
import secrets as _random
import socket
import threading
import time
from typing import Any, Callable, TypeVar

import peewee

from rentalcomply.core import clock
from rentalcomply.core.db import atomic, db, warn_of
from rentalcomply.core.models import Versioned

log = logging.getLogger(__name__)

T = TypeVar("T")


class LeaseLost(Exception):
    """The work's lease went to another process (it ran out) or to a newer request."""


class RowNotFound(Exception):
    """`claim` found no row to take, even after waiting for a transaction to commit it."""


_HOST = socket.gethostname()
# Tells this process from an earlier one with the same pid (a container restarted).
_PROCESS_TOKEN = _random.token_hex(4)
# The owners this process is working for now (between `take` and the end of their heartbeat).
_running_owners: set[str] = set()
_running_lock = threading.Lock()


def new_owner() -> str:
    """A fresh owner id for one piece of work: `host:pid:process token:random`."""
    return f"{_HOST}:{os.getpid()}:{_PROCESS_TOKEN}:{_random.token_hex(3)}"


def owner_is_alive(owner: str | None) -> bool:
    """Whether the process holding a lease may still be working. Certain only on this machine: a
    process of this host whose pid is gone (or this process, not running it) is dead; anything
    else counts as alive until its lease runs out."""
    parts = (owner or "").split(":")
    if len(parts) != 4 or parts[0] != _HOST:
        return True
    try:
        pid = int(parts[1])
    except ValueError:
        return True
    if pid == os.getpid():
        with _running_lock:
            return owner in _running_owners
    if parts[2] == _PROCESS_TOKEN:
        return True
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except (PermissionError, OverflowError, OSError):
        return True
    return True


def can_take_over(row: Any, now: dt.datetime) -> bool:
    """Whether the work the row's lease covers may be taken from its holder: the lease ran out
    (or there is none), or its owner is no longer running."""
    return (row.lease_expires_at is None or row.lease_expires_at < now
            or not owner_is_alive(row.lease_owner))


def same(field: peewee.Field, value: Any) -> peewee.Expression:
    """`field` still holds `value` (NULL compared as SQL needs it)."""
    return field.is_null() if value is None else field == value


def unchanged(row: Any) -> peewee.Expression:
    """The row as it was read: same key, same lease owner, same lease expiry."""
    model = type(row)
    return ((model._meta.primary_key == row._pk) & same(model.lease_owner, row.lease_owner)
            & same(model.lease_expires_at, row.lease_expires_at))


def take(row: Any, owner: str, now: dt.datetime, lease_seconds: float,
         condition: peewee.Expression | None = None, **changes: Any) -> bool:
    """Make `owner` the holder of the row's lease for `lease_seconds`, with `changes`, if nobody
    changed the lease (nor what `condition` checks) since the row was read: a conditional UPDATE,
    so that of two processes taking one row only one gets it. True when taken: from then on the
    owner counts as running in this process until its heartbeat stops."""
    model = type(row)
    where = unchanged(row) if condition is None else unchanged(row) & condition
    taken = (model.update(lease_owner=owner,
                          lease_expires_at=now + dt.timedelta(seconds=lease_seconds), **changes)
             .where(where).execute())
    if taken != 1:
        return False
    with _running_lock:
        _running_owners.add(owner)
    return True


# A task may start before the transaction that queued it commits (a caller queuing inside its
# transaction): SQLite's BEGIN IMMEDIATE waits for that commit; on PostgreSQL the claim reads the
# row FOR UPDATE (waiting for the lock on it), and a row not visible yet is looked for again for a
# moment.
ROW_WAIT_SECONDS = (0.1, 0.3, 0.6, 1.0)


def claim(query: peewee.Select, take_row: Callable[[Any, dt.datetime], T]) -> T:
    """`take_row(row, now)` on the row `query` finds, inside a transaction that holds the row,
    and what it returns. Raises RowNotFound when no row shows up within ROW_WAIT_SECONDS."""
    if getattr(getattr(db, "obj", db), "for_update", False):
        query = query.for_update()
    for pause in (*ROW_WAIT_SECONDS, None):
        now = clock.utcnow()
        with atomic():
            row = query.clone().first()  # a clone: a query keeps the rows it read last time
            if row is not None:
                return take_row(row, now)
        if pause is None:
            raise RowNotFound()
        time.sleep(pause)
    raise RowNotFound()


class Heartbeat:
    """Renews the lease every third of its length while the work goes on; `check()` raises
    LeaseLost once the lease is no longer the owner's. `still_ours` is what else the row must
    hold for the lease to be the owner's (the work still running)."""

    def __init__(self, row: Any, owner: str, lease_seconds: float,
                 still_ours: peewee.Expression | None = None):
        self.model = type(row)
        self.row_id = row._pk
        self.owner = owner
        self.lease_seconds = lease_seconds
        self.still_ours = still_ours
        self.lost = threading.Event()
        self._stop = threading.Event()
        self._what = self.model._meta.table_name
        self._thread = threading.Thread(target=self._beat, name=f"{self._what}-lease-{self.row_id}",
                                        daemon=True)

    def __enter__(self) -> "Heartbeat":
        self._thread.start()
        return self

    def __exit__(self, *exc) -> None:
        self._stop.set()
        self._thread.join(timeout=10)
        with _running_lock:
            _running_owners.discard(self.owner)

    def check(self) -> None:
        if self.lost.is_set():
            raise LeaseLost()

    def _renew(self, now: dt.datetime) -> int:
        model = self.model
        changes: dict[Any, Any] = {
            model.lease_expires_at: now + dt.timedelta(seconds=self.lease_seconds)}
        if issubclass(model, Versioned):
            # Bookkeeping, not a change of the row: no new version.
            changes[model.version] = model.version
        ours = (model._meta.primary_key == self.row_id) & (model.lease_owner == self.owner)
        if self.still_ours is not None:
            ours &= self.still_ours
        with atomic():
            return model.update(changes).where(ours).execute()

    def _beat(self) -> None:
        try:
            while not self._stop.wait(max(1.0, self.lease_seconds / 3)):
                try:
                    renewed = self._renew(clock.utcnow())
                except Exception as exc:  # a busy database: the next beat tries again
                    warn_of(log, exc, "could not renew the lease of %s %s", self._what,
                            self.row_id)
                    continue
                if renewed != 1:
                    self.lost.set()
                    return
        finally:
            db.close()
