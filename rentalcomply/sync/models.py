"""The sync's own tables (migrations/0006_sync.py makes them)."""

from __future__ import annotations

import peewee as pw

from rentalcomply.core.db import column_list, db, model_from_row
from rentalcomply.core.models import Account, BaseModel, Booking, ChannelConnection, Property


class SyncAccountState(BaseModel):
    """Per account: when `POST /sync/trigger` last ran (the cooldown, kept in the database so it
    holds across processes) and when the last sync of all its connections finished."""

    account = pw.ForeignKeyField(Account, primary_key=True, on_delete="CASCADE")
    last_trigger_at = pw.DateTimeField(null=True)
    last_sync_all = pw.DateTimeField(null=True)


class SyncConflict(BaseModel):
    """A pair of overlapping bookings already announced (`booking.conflict` fires once a pair)."""

    account = pw.ForeignKeyField(Account, on_delete="CASCADE")
    property = pw.ForeignKeyField(Property, on_delete="CASCADE")
    first_booking = pw.ForeignKeyField(Booking, on_delete="CASCADE", backref="+")
    second_booking = pw.ForeignKeyField(Booking, on_delete="CASCADE", backref="+")
    reported_at = pw.DateTimeField()

    class Meta:
        indexes = ((("first_booking", "second_booking"), True),)


def connection_by_id(connection_id: str, *, must_exist: bool = False) -> ChannelConnection | None:
    """The connection's row, read with written-out SQL: a sync reads it four times, and peewee
    building each query was a tenth of a first sync's processor time (bench/sync.py).
    `must_exist`: raise ChannelConnection.DoesNotExist rather than give None."""
    row = db.execute_sql(_CONNECTION_SQL.replace("?", db.param), (connection_id,)).fetchone()
    if row is None and must_exist:
        raise ChannelConnection.DoesNotExist(f"no channel connection {connection_id}")
    return model_from_row(ChannelConnection, row) if row is not None else None


_CONNECTION_SQL = (f'SELECT {column_list(ChannelConnection)} FROM '
                   f'"{ChannelConnection._meta.table_name}" WHERE "id" = ?')
