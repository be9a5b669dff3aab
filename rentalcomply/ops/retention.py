"""What grows, how long it is kept, and the hourly purge that forgets the rest.

Every table that grows with use has a retention (settings `retention.*`, config.example.toml):

| table(s)                                    | kept                                    |
|---------------------------------------------|-----------------------------------------|
| activity (the activity log)                 | `retention.activity_days`               |
| event, webhook_delivery, webhook_attempt    | `retention.events_days` (webhooks/)     |
| idempotency_record                          | `retention.idempotency_hours`           |
| dashboard_session, dashboard_password_link  | to their end (`dashboard.session_*`)    |
| pending_task                                | `retention.pending_tasks_days` past due |
| filing's receipt                            | `retention.police_receipts_*` (filings/) |
| police_receipt, police_receipt_filing       | the same, daily (filings/receipts.py)   |
| guest data, built police files              | `retention.guest_documents_*` (checkin/)|
| periodic_tick, worker_heartbeat             | a day, a week (core/scheduling.py)      |

Each purge deletes a few hundred rows per transaction with a pause between two
(core/db.py delete_in_batches): however much has accumulated, no writer waits on it for more than
a moment. The README gives the growth per 1,000 bookings (bench/growth.py).
"""

from __future__ import annotations

import datetime as dt
import logging

from rentalcomply.core import clock
from rentalcomply.core.activity import Activity
from rentalcomply.core.db import delete_in_batches
from rentalcomply.core.models import IdempotencyRecord
from rentalcomply.core.pending import PendingTask
from rentalcomply.dashboard.models import DashboardSession, PasswordLink
from rentalcomply.dashboard.users import policy as session_policy

log = logging.getLogger(__name__)


def purge_activity(days: int, now: dt.datetime | None = None) -> int:
    cutoff = (now or clock.utcnow()) - dt.timedelta(days=days)
    return delete_in_batches(Activity, Activity.created_at < cutoff)


def purge_idempotency_records(hours: int, now: dt.datetime | None = None) -> int:
    cutoff = (now or clock.utcnow()) - dt.timedelta(hours=hours)
    return delete_in_batches(IdempotencyRecord, IdempotencyRecord.created_at < cutoff)


def purge_dashboard_sessions(now: dt.datetime | None = None) -> int:
    """Sessions past their idle or absolute end (one is also removed when it is next presented;
    this catches the ones never presented again), and links used or expired a day ago."""
    now = now or clock.utcnow()
    day_ago = now - dt.timedelta(days=1)
    # A remembered session ("Keep me signed in") has no idle end, only its 30 days.
    idle = ((DashboardSession.last_seen_at <= now - session_policy.idle)
            & (DashboardSession.remembered == False))  # noqa: E712 - SQL
    return (delete_in_batches(DashboardSession, (DashboardSession.expires_at <= now) | idle)
            + delete_in_batches(PasswordLink, (PasswordLink.expires_at <= day_ago)
                                | (PasswordLink.used_at.is_null(False)
                                   & (PasswordLink.used_at <= day_ago))))


def purge_pending_tasks(days: int, now: dt.datetime | None = None) -> int:
    """Work owed that stayed undone `days` after it was due: given up, each kind named in a
    warning (its own failures were logged as they happened)."""
    cutoff = (now or clock.utcnow()) - dt.timedelta(days=days)
    given_up = (PendingTask.select(PendingTask.kind, PendingTask.key)
                .where(PendingTask.due_at < cutoff).tuples())
    removed = 0
    for kind, key in given_up:
        removed += PendingTask.delete().where((PendingTask.kind == kind)
                                              & (PendingTask.key == key)
                                              & (PendingTask.due_at < cutoff)).execute()
        log.warning("gave up %s for %s: still undone %d days after it was due", kind, key, days)
    return removed


def purge_past_retention(settings, now: dt.datetime | None = None) -> dict[str, int]:
    """Every purge of this module with the configured retentions: rows removed, by table."""
    section = settings.retention
    return {
        "activity": purge_activity(section.activity_days, now),
        "idempotency_record": purge_idempotency_records(section.idempotency_hours, now),
        "dashboard_session": purge_dashboard_sessions(now),
        "pending_task": purge_pending_tasks(section.pending_tasks_days, now),
    }
