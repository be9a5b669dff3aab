"""Channel sync: the domain functions the routes, the dashboard, the worker and the CLI call;
they know nothing of Bottle. Here: which connections are due, the trigger's turn and the trigger
left behind, the status, accepting removals.

The sync itself, lowest to highest: options.py (the settings), results.py (what a sync did, and
its views), writing.py (one write transaction at a time; waking the dispatcher), lease.py,
parser_processes.py, apply.py (a parsed feed applied: stays, cancellations, the removal guard,
conflicts), one_connection.py (`sync_connection`), account_state.py, runs.py (`sync_many`), and
this module.
"""

from __future__ import annotations

import datetime as dt
import logging

from rentalcomply.core import clock
from rentalcomply.core.db import atomic
from rentalcomply.core.errors import NotFound
from rentalcomply.core.models import ChannelConnection
from rentalcomply.properties import service as properties
from rentalcomply.sync.account_state import account_state
from rentalcomply.sync.models import SyncAccountState
from rentalcomply.sync.options import SyncOptions, configured_options
from rentalcomply.sync.results import SyncResult, status_view
from rentalcomply.sync.runs import sync_many

log = logging.getLogger(__name__)

TRIGGER_COOLDOWN_SECONDS = 300


# --- what is due --------------------------------------------------------------------------------

def connection_ids(account_id: str | None = None, *, due_only: bool = False,
                   options: SyncOptions | None = None) -> list[str]:
    """The connections to sync (not disabled), oldest first; `due_only`: those whose last attempt
    is older than `sync.interval_minutes` and that no one is syncing now."""
    condition = ChannelConnection.status != "disabled"
    if account_id is not None:
        condition &= ChannelConnection.account == account_id
    if due_only:
        options = options or configured_options()
        now = clock.utcnow()
        cutoff = now - dt.timedelta(minutes=options.interval_minutes)
        condition &= (ChannelConnection.last_sync_attempt.is_null()
                      | (ChannelConnection.last_sync_attempt <= cutoff))
        condition &= (ChannelConnection.lease_until.is_null()
                      | (ChannelConnection.lease_until < now))
    query = (ChannelConnection.select(ChannelConnection.id).where(condition)
             .order_by(ChannelConnection.created_at, ChannelConnection.id))
    return [row.id for row in query]


def sync_account(account_id: str, options: SyncOptions | None = None, *,
                 accept_removals: bool = False, progress=None,
                 requested_at: dt.datetime | None = None) -> list[SyncResult]:
    """Every connection of the account. `requested_at`: when the sync was asked for (a trigger);
    a connection attempted since then already answers it and is not fetched again, and counts
    towards `last_sync_all` as this run's own would."""
    return sync_many(connection_ids(account_id), options, accept_removals=accept_removals,
                     progress=progress, attempted_before=requested_at, since=requested_at)


# A trigger whose run has not begun this long after it was asked for is taken for lost (its
# task was on a worker that died, or in a Redis that forgot) and run by the periodic sync.
TRIGGER_GRACE_SECONDS = 120


def sync_due(options: SyncOptions | None = None) -> list[SyncResult]:
    """What the periodic task runs every minute: every connection whose turn has come, the
    connections of a trigger whose own task was lost, and those whose host accepted removals
    but whose own task was lost (or could not be queued).

    Each claim checks again, in its UPDATE, that the connection is still due: the list was read
    when the run began, and a connection synced since by a trigger or another process is skipped
    rather than fetched twice."""
    options = options or configured_options()
    begun = clock.utcnow()
    # The same cutoff as connection_ids(due_only=True): attempted at or before it.
    cutoff = begun - dt.timedelta(minutes=options.interval_minutes)
    results = sync_many(connection_ids(due_only=True, options=options), options,
                        attempted_before=cutoff + dt.timedelta(microseconds=1))
    accepted = removals_accepted()
    if accepted:  # attempted since this run began: its own task came first
        results += sync_many(accepted, options, attempted_before=begun)
    for account_id, requested_at in triggers_left_behind():
        behind = connections_not_attempted_since(account_id, requested_at)
        if behind:
            log.info("sync: running the connections of a trigger of %s left behind", account_id)
            results += sync_many(behind, options, since=requested_at,
                                 attempted_before=requested_at)
    return results


def removals_accepted() -> list[str]:
    """Connections whose host accepted the removals a sync held back and that no sync is on:
    the flag is in the database, so the periodic sync applies them should the task queued with
    the acceptance be lost."""
    now = clock.utcnow()
    return [row.id for row in ChannelConnection.select(ChannelConnection.id).where(
        (ChannelConnection.accept_removals == True)  # noqa: E712 (SQL)
        & (ChannelConnection.status != "disabled")
        & (ChannelConnection.lease_until.is_null() | (ChannelConnection.lease_until < now)))]


def triggers_left_behind() -> list[tuple[str, dt.datetime]]:
    """(account, asked at) of every trigger of the last day that no complete run has answered
    `TRIGGER_GRACE_SECONDS` after it was asked for. The trigger's time is kept in the database
    (the cooldown), so it outlives a task that is lost."""
    now = clock.utcnow()
    rows = (SyncAccountState.select(SyncAccountState.account, SyncAccountState.last_trigger_at)
            .where(SyncAccountState.last_trigger_at.is_null(False)
                   & (SyncAccountState.last_trigger_at
                      <= now - dt.timedelta(seconds=TRIGGER_GRACE_SECONDS))
                   & (SyncAccountState.last_trigger_at >= now - dt.timedelta(days=1))
                   & (SyncAccountState.last_sync_all.is_null()
                      | (SyncAccountState.last_sync_all < SyncAccountState.last_trigger_at)))
            .tuples())
    return [(account_id, asked_at) for account_id, asked_at in rows]


def connections_not_attempted_since(account_id: str, moment: dt.datetime) -> list[str]:
    now = clock.utcnow()
    query = (ChannelConnection.select(ChannelConnection.id)
             .where((ChannelConnection.account == account_id)
                    & (ChannelConnection.status != "disabled")
                    & (ChannelConnection.last_sync_attempt.is_null()
                       | (ChannelConnection.last_sync_attempt < moment))
                    & (ChannelConnection.lease_until.is_null()
                       | (ChannelConnection.lease_until < now)))
             .order_by(ChannelConnection.created_at, ChannelConnection.id))
    return [row.id for row in query]


# --- the API's questions ------------------------------------------------------------------------

def claim_trigger(account_id: str) -> tuple[bool, dt.datetime]:
    """Take the account's trigger turn: (allowed, next_allowed_at). One turn per 5 minutes per
    account, decided by a conditional UPDATE in the database, so it holds across processes."""
    now = clock.utcnow()
    cooldown = dt.timedelta(seconds=TRIGGER_COOLDOWN_SECONDS)
    with atomic():
        state = account_state(account_id)
        taken = (SyncAccountState.update(last_trigger_at=now)
                 .where((SyncAccountState.account == account_id)
                        & (SyncAccountState.last_trigger_at.is_null()
                           | (SyncAccountState.last_trigger_at <= now - cooldown)))
                 .execute())
        if taken:
            return True, now + cooldown
        state = SyncAccountState.get(SyncAccountState.account == account_id)
        return False, state.last_trigger_at + cooldown


def status(account_id: str) -> dict:
    state = SyncAccountState.get_or_none(SyncAccountState.account == account_id)
    connections = (ChannelConnection.select().where(ChannelConnection.account == account_id)
                   .order_by(ChannelConnection.created_at, ChannelConnection.id))
    return {"last_sync_all": clock.iso(state.last_sync_all) if state else None,
            "connections": [status_view(connection) for connection in connections]}


def get_connection(account_id: str, property_id: str, connection_id: str) -> ChannelConnection:
    connection = ChannelConnection.get_or_none(
        (ChannelConnection.id == connection_id) & (ChannelConnection.property == property_id)
        & (ChannelConnection.account == account_id))
    if connection is None:
        raise NotFound("No such channel connection.")
    return connection


def accept_removals(account_id: str, property_id: str, connection_id: str) -> ChannelConnection:
    """The host confirms the removals a sync held back; the next sync of it applies them."""
    with atomic():
        properties.get_property(account_id, property_id)
        connection = get_connection(account_id, property_id, connection_id)
        connection.accept_removals = True
        connection.save(only=[ChannelConnection.accept_removals])
    return connection
