"""Digital check-in: one row per booking holding its link's hash and the sealed guest party, and
the last e-mail delivery error on the booking.

A frozen copy of rentalcomply/checkin/models.py as it was when this migration was written.
"""

from peewee import (SQL, BooleanField, CharField, DateTimeField, ForeignKeyField, IntegerField,
                    Model, TextField)


def up(migrator, db):
    class Base(Model):
        class Meta:
            database = db
            legacy_table_names = False

    # Stand-ins for tables of 0001, only so that the foreign keys below can name them.
    class Account(Base):
        id = CharField(primary_key=True, max_length=32)

    class Booking(Base):
        id = CharField(primary_key=True, max_length=32)

    class Checkin(Base):
        booking = ForeignKeyField(Booking, primary_key=True, on_delete="CASCADE")
        account = ForeignKeyField(Account, on_delete="CASCADE")
        token_hash = CharField(max_length=64, unique=True)
        guests_sealed = TextField(null=True)
        lead_guest_name = CharField(max_length=200, null=True)
        consent_at = DateTimeField(null=True)
        invited_at = DateTimeField(null=True)
        auto_invited = BooleanField(default=False)
        sends = TextField(default="[]")
        completed_at = DateTimeField(null=True)
        purged_at = DateTimeField(null=True)
        version = IntegerField(default=1, constraints=[SQL("DEFAULT 1")])
        created_at = DateTimeField()
        updated_at = DateTimeField()

    db.create_tables([Checkin], safe=False)
    migrator.migrate(migrator.add_column("booking", "checkin_error", TextField(null=True)))


def down(migrator, db):
    migrator.migrate(migrator.drop_column("booking", "checkin_error"))
    db.execute_sql("DROP TABLE IF EXISTS checkin")
