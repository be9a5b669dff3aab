"""Police filing: per-property connector settings with sealed credentials, one row per filing of
a booking, and an index on the booking's report_status (the worker looks for PENDING ones).

A frozen copy of rentalcomply/police/models.py as it was when this migration was written.
"""

from peewee import (SQL, CharField, DateTimeField, ForeignKeyField, IntegerField, Model,
                    TextField)


def up(migrator, db):
    class Base(Model):
        class Meta:
            database = db
            legacy_table_names = False

    class Account(Base):
        id = CharField(primary_key=True, max_length=32)

    class Property(Base):
        id = CharField(primary_key=True, max_length=32)

    class Booking(Base):
        id = CharField(primary_key=True, max_length=32)

    class PoliceSettings(Base):
        property = ForeignKeyField(Property, primary_key=True, on_delete="CASCADE")
        account = ForeignKeyField(Account, on_delete="CASCADE")
        settings = TextField(default="{}")
        credentials_sealed = TextField(null=True)
        credential_names = TextField(default="[]")
        updated_at = DateTimeField()

    class PoliceFiling(Base):
        id = CharField(primary_key=True, max_length=32)
        account = ForeignKeyField(Account, on_delete="CASCADE")
        booking = ForeignKeyField(Booking, on_delete="CASCADE")
        kind = CharField(max_length=16, default="arrival")
        connector = CharField(max_length=32)
        status = CharField(max_length=16, default="waiting")
        deadline = DateTimeField()
        attempts = IntegerField(default=0)
        next_attempt_at = DateTimeField(null=True, index=True)
        sending_since = DateTimeField(null=True)
        remote_id = CharField(max_length=100, null=True)
        reference = CharField(max_length=200, null=True)
        guests = TextField(default="[]")
        error = TextField(null=True)
        receipt_sealed = TextField(null=True)
        receipt_type = CharField(max_length=100, null=True)
        file_sealed = TextField(null=True)
        file_name = CharField(max_length=200, null=True)
        file_type = CharField(max_length=100, null=True)
        at_risk_at = DateTimeField(null=True)
        submitted_at = DateTimeField(null=True)
        version = IntegerField(default=1, constraints=[SQL("DEFAULT 1")])
        created_at = DateTimeField()
        updated_at = DateTimeField()

        class Meta:
            indexes = ((("booking", "kind"), True), (("status", "deadline"), False))

    db.create_tables([PoliceSettings, PoliceFiling], safe=False)
    db.execute_sql("CREATE INDEX booking_report_status ON booking (report_status)")


def down(migrator, db):
    db.execute_sql("DROP INDEX IF EXISTS booking_report_status")
    db.execute_sql("DROP TABLE IF EXISTS police_filing")
    db.execute_sql("DROP TABLE IF EXISTS police_settings")
