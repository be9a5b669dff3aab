"""The peewee models: what the application reads and writes today.

The schema itself is made by the numbered files in rentalcomply/migrations/, never by
`create_tables` here: a live database is only ever changed by a migration.

Conventions: primary keys are prefixed random ids (`book_...`); times are naive UTC; money is
integer cents; every row an account owns carries `account` so that every query can be filtered by
the caller's account.
"""

from __future__ import annotations

import builtins
import json

import peewee as pw

from rentalcomply.core import clock
from rentalcomply.core.db import db


class JSONField(pw.TextField):
    def db_value(self, value):
        return None if value is None else json.dumps(value, separators=(",", ":"), sort_keys=True)

    def python_value(self, value):
        return None if value is None else json.loads(value)


class BaseModel(pw.Model):
    class Meta:
        database = db
        legacy_table_names = False


class Versioned(BaseModel):
    """A resource with a `version` that grows by one with every change of its row.

    Shown in the resource's API view, hence in every event announcing it, so that a receiver can
    keep the newest state whatever order events reach it in (timestamps have one-second
    resolution). The bump is part of the UPDATE itself (`version = version + 1`), both in
    `save()` of a loaded row and in any bulk `Model.update(...)`, so two concurrent changes never
    share a version; after `save()` the instance holds the version the database wrote. An upsert
    (`insert(...).on_conflict(update=...)`) is not covered: put `version: Model.version + 1` in
    its update yourself.
    """

    version = pw.IntegerField(default=1, constraints=[pw.SQL("DEFAULT 1")])

    def save(self, force_insert=False, only=None):
        cls = type(self)
        if force_insert or self._pk is None:
            return super().save(force_insert=force_insert, only=only)
        before = self.version
        self.version = cls.version + 1  # an expression: the UPDATE adds one itself
        if only is not None:
            only = [*only, cls.version]
        try:
            rows = super().save(only=only)
        except BaseException:
            self.version = before
            raise
        found = (cls.select(cls.version).where(cls._meta.primary_key == self._pk)
                 .tuples().first())
        self.version = found[0] if found else (before or 0) + 1
        self._dirty.discard("version")
        return rows

    @classmethod
    def update(cls, __data=None, **update):
        """`Model.update(...)` that also adds one to the version of every row it changes."""
        data = dict(__data or {}, **update)
        # By name: `key == cls.version` would build an SQL expression, not compare.
        if not any(getattr(key, "name", key) == "version" for key in data):
            data[cls.version] = cls.version + 1
        return super().update(data)


class Account(BaseModel):
    id = pw.CharField(primary_key=True, max_length=32)
    name = pw.CharField(max_length=200)
    created_at = pw.DateTimeField(default=clock.utcnow)


class ApiKey(BaseModel):
    id = pw.CharField(primary_key=True, max_length=32)
    account = pw.ForeignKeyField(Account, backref="api_keys", on_delete="CASCADE")
    name = pw.CharField(max_length=200, default="")
    # HMAC-SHA256 of the whole key under the server secret; the key itself is never stored.
    key_hash = pw.CharField(max_length=64, unique=True)
    # The first characters of the key, so an admin can tell keys apart in `keys list`.
    key_hint = pw.CharField(max_length=16)
    scopes = pw.CharField(max_length=100)  # space-separated
    created_at = pw.DateTimeField(default=clock.utcnow)
    last_used_at = pw.DateTimeField(null=True)
    expires_at = pw.DateTimeField(null=True)
    revoked_at = pw.DateTimeField(null=True)

    @property
    def scope_set(self) -> set[str]:
        return set(self.scopes.split())


class ApiKeyChange(BaseModel):
    """One row whose `marker` takes a new random value in the transaction of every change of an
    API key (revocation, rotation): every process reads it per request, one primary-key lookup,
    and drops the keys it caches when it moved (accounts.service.find_key)."""

    id = pw.IntegerField(primary_key=True)
    marker = pw.CharField(max_length=32)


class Property(Versioned):
    id = pw.CharField(primary_key=True, max_length=32)
    account = pw.ForeignKeyField(Account, backref="properties", on_delete="CASCADE")
    name = pw.CharField(max_length=200)
    address = pw.CharField(max_length=500)
    aade_property_id = pw.CharField(max_length=50, null=True)
    status = pw.CharField(max_length=16, default="active")
    country = pw.CharField(max_length=2, default="GR")
    timezone = pw.CharField(max_length=64, default="Europe/Athens")
    max_guests = pw.IntegerField(null=True)
    climate_fee_category = pw.CharField(max_length=32, default="standard")
    police_connector = pw.CharField(max_length=32, default="none")
    # Italy's CIN (codice identificativo nazionale), as typed: its format is unconfirmed, so it is
    # text, never parsed. Only an Italian property has one (properties/service.py).
    cin = pw.CharField(max_length=40, null=True)
    # The ISO 3166-2 code of the region whose rules apply ("IT-25" Lombardia, "ES-CT" Catalonia):
    # which statistics system and police authority the property owes (properties/regions.py).
    # Null until known: derived from the address only where that is certain, asked otherwise.
    region = pw.CharField(max_length=8, null=True)
    # Where `region` came from: "address" (derived, so a changed address derives it again) or
    # "host" (chosen, never overwritten by the address); null while the region is unknown.
    region_source = pw.CharField(max_length=8, null=True)
    # Spain: the regional tourism licence (HUTB-012345, VUT/MA/12345...), shown wherever the
    # listing is, and an NRUA the host already holds (legacy since STS 620/2026): text as typed.
    licence_number = pw.CharField(max_length=60, null=True)
    nrua = pw.TextField(null=True)
    # The rooms and beds let, reported as available by the monthly tourism statistics.
    rooms = pw.IntegerField(null=True)
    beds = pw.IntegerField(null=True)
    # Bumped to rotate the exported calendar's URL, whose token is derived from it (sync/export.py).
    ical_token_generation = pw.IntegerField(default=0, constraints=[pw.SQL("DEFAULT 0")])
    # Bumped to rotate the property's check-in link, derived from it (checkin/links.py).
    checkin_link_generation = pw.IntegerField(default=0, constraints=[pw.SQL("DEFAULT 0")])
    # Door code, Wi-Fi, how to get in: sealed (AES-GCM, core/sealing.py) for this property alone,
    # never shown back through the API; the guest sees them from so many hours before arrival
    # until the departure day's check-out hour (local time).
    access_instructions_sealed = pw.TextField(null=True)
    # The languages that have a text ("en,it"), never the texts: what a view says is set.
    access_instructions_languages = pw.CharField(max_length=64, null=True)
    access_instructions_hours_before = pw.IntegerField(default=24,
                                                       constraints=[pw.SQL("DEFAULT 24")])
    checkout_hour = pw.IntegerField(default=11, constraints=[pw.SQL("DEFAULT 11")])
    created_at = pw.DateTimeField(default=clock.utcnow)
    updated_at = pw.DateTimeField(default=clock.utcnow)


class PropertyClosedDay(BaseModel):
    """A day the host marked the property closed: the monthly tourism statistics report it as
    closed (ROSS 1000 `apertura=NO`), and no stay may count a night on it."""

    property = pw.ForeignKeyField(Property, backref="closed_days", on_delete="CASCADE")
    day = pw.DateField()
    created_at = pw.DateTimeField(default=clock.utcnow)

    class Meta:
        table_name = "property_closed_day"
        primary_key = pw.CompositeKey("property", "day")


class ChannelConnection(Versioned):
    id = pw.CharField(primary_key=True, max_length=32)
    account = pw.ForeignKeyField(Account, on_delete="CASCADE")
    property = pw.ForeignKeyField(Property, backref="channel_connections", on_delete="CASCADE")
    provider = pw.CharField(max_length=16)
    ical_url = pw.TextField()
    status = pw.CharField(max_length=16, default="pending")
    last_sync_success = pw.DateTimeField(null=True)
    last_sync_attempt = pw.DateTimeField(null=True)
    last_error = pw.TextField(null=True)
    # HTTP validators of the last fetch, for If-None-Match / If-Modified-Since.
    etag = pw.CharField(max_length=200, null=True)
    last_modified = pw.CharField(max_length=100, null=True)
    # The sync holding this connection, and until when: one connection is never synced twice at
    # once, whatever the number of workers (claimed with a conditional UPDATE, sync/lease.py).
    lease_owner = pw.CharField(max_length=32, null=True)
    lease_until = pw.DateTimeField(null=True)
    # The host accepted the removals the last sync held back; the next sync applies them.
    accept_removals = pw.BooleanField(default=False, constraints=[pw.SQL("DEFAULT FALSE")])
    created_at = pw.DateTimeField(default=clock.utcnow)


class Booking(Versioned):
    id = pw.CharField(primary_key=True, max_length=32)
    # No index of their own: composite indexes starting with each serve them (migration 0050).
    account = pw.ForeignKeyField(Account, on_delete="CASCADE", index=False)
    property = pw.ForeignKeyField(Property, backref="bookings", on_delete="CASCADE", index=False)
    connection = pw.ForeignKeyField(ChannelConnection, null=True, on_delete="SET NULL",
                                    index=False)
    guest_name = pw.CharField(max_length=200)
    guest_email = pw.CharField(max_length=254, null=True)
    guest_phone = pw.CharField(max_length=40, null=True)
    guest_language = pw.CharField(max_length=8, default="en")
    arrival_date = pw.DateField()
    departure_date = pw.DateField()
    guest_count = pw.IntegerField(default=1)
    channel = pw.CharField(max_length=16, default="manual")
    source = pw.CharField(max_length=16, null=True)
    status = pw.CharField(max_length=16, default="confirmed")
    checkin_status = pw.CharField(max_length=16, default="NOT_STARTED")
    # Why the last check-in e-mail could not be delivered; cleared by a delivery that succeeds.
    checkin_error = pw.TextField(null=True)
    report_status = pw.CharField(max_length=16, default="NOT_REQUIRED")
    report_error = pw.TextField(null=True)
    total_price_cents = pw.IntegerField(null=True)
    payment_method = pw.CharField(max_length=16, null=True)
    climate_fee_cents = pw.IntegerField(default=0)
    external_ref = pw.CharField(max_length=100, null=True)
    # The feed event's UID, so a sync updates the booking it made instead of inserting another.
    external_uid = pw.CharField(max_length=255, null=True)
    # Channel blocks ("Not available") are kept for conflict detection but are not bookings.
    is_block = pw.BooleanField(default=False)
    # The last four digits of the guest's phone where the channel gives them (Airbnb's feed): a
    # guest opening the property's check-in link may answer with them (checkin/links.py).
    guest_phone_last4 = pw.CharField(max_length=4, null=True)
    # Cancelled by a sync because its event left the feed: a sync reinstates it if the event comes
    # back (a host's own cancellation stays).
    cancelled_by_sync = pw.BooleanField(default=False, constraints=[pw.SQL("DEFAULT FALSE")])
    created_at = pw.DateTimeField(default=clock.utcnow)
    updated_at = pw.DateTimeField(default=clock.utcnow)
    cancelled_at = pw.DateTimeField(null=True)
    # What the guest still pays after cancelling (declared to AADE in the month of the
    # cancellation); null when nothing is kept or it was not recorded.
    amount_kept_cents = pw.IntegerField(null=True)
    # The party as a channel's export gives it (guest_count is their sum); null when not known.
    adults = pw.IntegerField(null=True)
    children = pw.IntegerField(null=True)
    infants = pw.IntegerField(null=True)
    # Of total_price_cents when it came from a channel's export; null means euros typed by hand.
    currency = pw.CharField(max_length=3, null=True)
    # The fields the host typed (bookings.service records them): an import never overwrites them.
    host_fields = JSONField(null=True)
    # When the guest booked, as the channel's export says (naive UTC); null when unknown, when
    # created_at stands for it. Spain's reservation communication is due 24 hours from it.
    booked_at = pw.DateTimeField(null=True)

    @builtins.property  # `property` is a field name in this class body
    def nights(self) -> int:
        return (self.departure_date - self.arrival_date).days


class IdempotencyRecord(BaseModel):
    account = pw.ForeignKeyField(Account, on_delete="CASCADE")
    key = pw.CharField(max_length=255)
    request_hash = pw.CharField(max_length=64)
    status = pw.IntegerField()
    body = pw.TextField()
    headers = JSONField(default=dict)
    created_at = pw.DateTimeField(default=clock.utcnow)

    class Meta:
        indexes = ((("account", "key"), True),)


class Event(BaseModel):
    """The outbox: written in the transaction of the change it announces."""

    id = pw.CharField(primary_key=True, max_length=32)
    account = pw.ForeignKeyField(Account, on_delete="CASCADE")
    type = pw.CharField(max_length=64)
    data = JSONField()
    created_at = pw.DateTimeField(default=clock.utcnow)
    # Set once every matching endpoint has a delivery row; the dispatcher looks for NULL here.
    dispatched_at = pw.DateTimeField(null=True, index=True)
