"""A connection's lease: one connection is never synced twice at once, whatever the number of
workers or processes. It is taken with a conditional UPDATE and outlives a crashed worker by at
most its length (the whole fetch budget plus two minutes, `SyncOptions.lease_seconds`)."""

from __future__ import annotations

import datetime as dt
import logging

from rentalcomply.core import clock
from rentalcomply.core.db import db
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
    moment = ChannelConnection.lease_until.db_value  # as peewee stores a time
    sql, values = _CLAIM_SQL, [owner, moment(now + dt.timedelta(seconds=lease_seconds)),
                               connection_id, moment(now)]
    if attempted_before is not None:
        sql += _NOT_ATTEMPTED_SINCE_SQL
        values.append(moment(attempted_before))
    with write_turn():
        claimed = db.execute_sql(sql.replace("?", db.param), values).rowcount
    return claimed == 1


# Written out: every sync claims its lease, and peewee building the UPDATE was most of its cost.
# The lease is bookkeeping, not a change of the connection: its version stays.
_CLAIM_SQL = ('UPDATE "channel_connection" SET "lease_owner" = ?, "lease_until" = ? '
              'WHERE "id" = ? AND ("lease_until" IS NULL OR "lease_until" < ?)')
_NOT_ATTEMPTED_SINCE_SQL = ' AND ("last_sync_attempt" IS NULL OR "last_sync_attempt" < ?)'


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
