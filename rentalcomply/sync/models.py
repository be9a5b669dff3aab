"""The sync's own tables (migrations/0006_sync.py makes them)."""

from __future__ import annotations

import peewee as pw

from rentalcomply.core.models import Account, BaseModel, Booking, Property


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
