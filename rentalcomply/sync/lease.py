"""A connection's lease: one connection is never synced twice at once, whatever the number of
workers or processes. It is taken with a conditional UPDATE and outlives a crashed worker by at
most its length (the whole fetch budget plus two minutes, `SyncOptions.lease_seconds`)."""

from __future__ import annotations

import datetime as dt
import logging

from rentalcomply.core import clock
from rentalcomply.core.models import ChannelConnection
from rentalcomply.sync.writing import write_turn

# Every part of a sync logs under the sync service's name: one name to filter the log on.
log = logging.getLogger("rentalcomply.sync.service")


def claim_lease(connection_id: str, owner: str, lease_seconds: int,
                attempted_before: dt.datetime | None = None) -> bool:
    """Take the connection's lease. `attempted_before`: only if its last attempt is older than
    that, checked in the same UPDATE. The list a run works through was read when it began; a
    connection another worker synced since then is no longer due, and is not fetched again."""
    now = clock.utcnow()
    condition = ((ChannelConnection.id == connection_id)
                 & (ChannelConnection.lease_until.is_null()
                    | (ChannelConnection.lease_until < now)))
    if attempted_before is not None:
        condition &= (ChannelConnection.last_sync_attempt.is_null()
                      | (ChannelConnection.last_sync_attempt < attempted_before))
    with write_turn():
        claimed = (ChannelConnection
                   # The lease is bookkeeping, not a change of the connection: no new version.
                   .update(lease_owner=owner, lease_until=now + dt.timedelta(seconds=lease_seconds),
                           version=ChannelConnection.version)
                   .where(condition)
                   .execute())
    return claimed == 1


def release_lease(connection_id: str, owner: str) -> None:
    try:
        with write_turn():
            (ChannelConnection.update(lease_owner=None, lease_until=None,
                                      version=ChannelConnection.version)
             .where((ChannelConnection.id == connection_id)
                    & (ChannelConnection.lease_owner == owner)).execute())
    except Exception:  # the lease expires by itself
        log.warning("could not release the sync lease of %s", connection_id, exc_info=True)


def lease_given_back(connection: ChannelConnection, owner: str) -> list:
    """Clear our lease in the recording transaction itself (one write fewer per sync); the
    fields to save. Another's lease (ours expired) is left alone."""
    if connection.lease_owner != owner:
        return []
    connection.lease_owner = connection.lease_until = None
    return [ChannelConnection.lease_owner, ChannelConnection.lease_until]
