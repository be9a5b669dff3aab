"""Accounts, API keys, properties, channel connections, bookings, idempotency records, the outbox.

A frozen copy of the models as they were when this migration was written: later changes to
rentalcomply/core/models.py must come with a migration of their own, never an edit here.
"""
import datetime

from peewee import (BooleanField, CharField, DateField, DateTimeField, ForeignKeyField,
                    IntegerField, Model, TextField)


def up(migrator, db):
    class Base(Model):
        class Meta:
            database = db
            legacy_table_names = False

    class Account(Base):
        id = CharField(primary_key=True, max_length=32)
        name = CharField(max_length=200)
        created_at = DateTimeField(default=datetime.datetime.utcnow)

    class ApiKey(Base):
        id = CharField(primary_key=True, max_length=32)
        account = ForeignKeyField(Account, on_delete="CASCADE")
        name = CharField(max_length=200, default="")
        key_hash = CharField(max_length=64, unique=True)
        key_hint = CharField(max_length=16)
        scopes = CharField(max_length=100)
        created_at = DateTimeField()
        last_used_at = DateTimeField(null=True)
        expires_at = DateTimeField(null=True)
        revoked_at = DateTimeField(null=True)

    class Property(Base):
        id = CharField(primary_key=True, max_length=32)
        account = ForeignKeyField(Account, on_delete="CASCADE")
        name = CharField(max_length=200)
        address = CharField(max_length=500)
        aade_property_id = CharField(max_length=50, null=True)
        status = CharField(max_length=16, default="active")
        country = CharField(max_length=2, default="GR")
        timezone = CharField(max_length=64, default="Europe/Athens")
        max_guests = IntegerField(null=True)
        climate_fee_category = CharField(max_length=32, default="standard")
        police_connector = CharField(max_length=32, default="none")
        created_at = DateTimeField()
        updated_at = DateTimeField()

    class ChannelConnection(Base):
        id = CharField(primary_key=True, max_length=32)
        account = ForeignKeyField(Account, on_delete="CASCADE")
        property = ForeignKeyField(Property, on_delete="CASCADE")
        provider = CharField(max_length=16)
        ical_url = TextField()
        status = CharField(max_length=16, default="pending")
        last_sync_success = DateTimeField(null=True)
        last_sync_attempt = DateTimeField(null=True)
        last_error = TextField(null=True)
        etag = CharField(max_length=200, null=True)
        last_modified = CharField(max_length=100, null=True)
        created_at = DateTimeField()

    class Booking(Base):
        id = CharField(primary_key=True, max_length=32)
        account = ForeignKeyField(Account, on_delete="CASCADE")
        property = ForeignKeyField(Property, on_delete="CASCADE")
        connection = ForeignKeyField(ChannelConnection, null=True, on_delete="SET NULL")
        guest_name = CharField(max_length=200)
        guest_email = CharField(max_length=254, null=True)
        guest_phone = CharField(max_length=40, null=True)
        guest_language = CharField(max_length=8, default="en")
        arrival_date = DateField()
        departure_date = DateField()
        guest_count = IntegerField(default=1)
        channel = CharField(max_length=16, default="manual")
        source = CharField(max_length=16, null=True)
        status = CharField(max_length=16, default="confirmed")
        checkin_status = CharField(max_length=16, default="NOT_STARTED")
        report_status = CharField(max_length=16, default="NOT_REQUIRED")
        report_error = TextField(null=True)
        total_price_cents = IntegerField(null=True)
        payment_method = CharField(max_length=16, null=True)
        climate_fee_cents = IntegerField(default=0)
        external_ref = CharField(max_length=100, null=True)
        external_uid = CharField(max_length=255, null=True)
        is_block = BooleanField(default=False)
        created_at = DateTimeField()
        updated_at = DateTimeField()
        cancelled_at = DateTimeField(null=True)

        class Meta:
            indexes = (
                (("account", "arrival_date"), False),
                (("property", "arrival_date"), False),
                (("connection", "external_uid"), False),
            )

    class IdempotencyRecord(Base):
        account = ForeignKeyField(Account, on_delete="CASCADE")
        key = CharField(max_length=255)
        request_hash = CharField(max_length=64)
        status = IntegerField()
        body = TextField()
        headers = TextField()
        created_at = DateTimeField(index=True)

        class Meta:
            indexes = ((("account", "key"), True),)

    class Event(Base):
        id = CharField(primary_key=True, max_length=32)
        account = ForeignKeyField(Account, on_delete="CASCADE")
        type = CharField(max_length=64)
        data = TextField()
        created_at = DateTimeField()
        dispatched_at = DateTimeField(null=True, index=True)

    db.create_tables([Account, ApiKey, Property, ChannelConnection, Booking,
                      IdempotencyRecord, Event])


def down(migrator, db):
    for table in ("event", "idempotency_record", "booking", "channel_connection", "property",
                  "api_key", "account"):
        db.execute_sql(f"DROP TABLE IF EXISTS {table}")
