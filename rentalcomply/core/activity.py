"""The activity log: who changed what, through the dashboard or with an API key, and when; and
who was shown a booking's access instructions (the guest page, the e-mail: actor `guest`).

A row is written in the transaction of the change it records (web/routing.py for every API write,
the dashboard's form handler for its own), so a change and its record commit together or not at
all. Never a request body: only the actor, the action (method and route, or a domain verb) and the
id of the resource changed, so neither secrets nor guest data reach the log.
"""

from __future__ import annotations

import peewee as pw

from rentalcomply.core import clock
from rentalcomply.core.db import db, insert_rows
from rentalcomply.core.ids import new_id
from rentalcomply.core.models import Account, BaseModel

ACTOR_TYPES = ("user", "key", "guest")


class Activity(BaseModel):
    id = pw.CharField(primary_key=True, max_length=32)
    # No index of its own: the composite (account, created_at) below serves it (migration 0051).
    account = pw.ForeignKeyField(Account, on_delete="CASCADE", index=False)
    actor_type = pw.CharField(max_length=8)  # user | key | guest (the booking's id)
    actor_id = pw.CharField(max_length=32)
    # The e-mail address of the user or the name of the key at the time, kept for display after
    # the user or key is gone.
    actor_label = pw.CharField(max_length=254, default="")
    action = pw.CharField(max_length=200)
    resource_id = pw.CharField(max_length=64, null=True)
    created_at = pw.DateTimeField(default=clock.utcnow_precise)

    class Meta:
        indexes = ((("account", "created_at"), False),)


def record(account_id: str, actor_type: str, actor_id: str, actor_label: str, action: str,
           resource_id: str | None = None) -> None:
    """Record a change. Call inside the transaction that makes it."""
    if actor_type not in ACTOR_TYPES:
        raise ValueError(f"unknown actor type {actor_type!r}")
    if not db.in_transaction():
        raise RuntimeError("activity.record() must be called inside the transaction of the change")
    values = {"id": new_id("act"), "account": account_id, "actor_type": actor_type,
              "actor_id": actor_id, "actor_label": (actor_label or "")[:254],
              "action": action[:200],
              "resource_id": resource_id[:64] if isinstance(resource_id, str) else None,
              "created_at": clock.utcnow_precise()}
    # A prepared INSERT of every column, no model built first: written by every API change.
    insert_rows(Activity, [values])


def recent(account_id: str, *, page: int = 1, limit: int = 50) -> tuple[list[Activity], int]:
    """The account's activity, newest first, one page of it and the total."""
    query = (Activity.select().where(Activity.account == account_id)
             .order_by(Activity.created_at.desc(), Activity.id.desc()))
    return list(query.paginate(page, limit)), query.count()
