"""Each account's row of sync bookkeeping (`SyncAccountState`): when a run last saw all its
connections attempted (`last_sync_all`); the trigger's turn is taken in service.py."""

from __future__ import annotations

import datetime as dt

from rentalcomply.core import clock
from rentalcomply.core.models import ChannelConnection
from rentalcomply.sync.models import SyncAccountState
from rentalcomply.sync.results import SyncResult
from rentalcomply.sync.writing import write_turn


def note_complete_accounts(results: list[SyncResult], since: dt.datetime) -> None:
    """`last_sync_all`: when a run last saw every (enabled) connection of an account attempted
    since it began — by itself, by a run beside it, or by the run it continues."""
    accounts = {result.account_id for result in results
                if result.account_id and result.status not in ("skipped", "deferred")}
    if not accounts:
        return
    now = clock.utcnow()
    with write_turn():
        for account_id in accounts:
            behind = (ChannelConnection.select().where(
                (ChannelConnection.account == account_id)
                & (ChannelConnection.status != "disabled")
                & (ChannelConnection.last_sync_attempt.is_null()
                   | (ChannelConnection.last_sync_attempt < since))).exists())
            if not behind:
                account_state(account_id)
                (SyncAccountState.update(last_sync_all=now)
                 .where(SyncAccountState.account == account_id).execute())


def account_state(account_id: str) -> SyncAccountState:
    """The account's row, made on first use."""
    state = SyncAccountState.get_or_none(SyncAccountState.account == account_id)
    if state is None:
        SyncAccountState.insert(account=account_id).on_conflict_ignore().execute()
        state = SyncAccountState.get(SyncAccountState.account == account_id)
    return state
