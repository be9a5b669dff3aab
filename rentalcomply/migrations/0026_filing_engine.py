"""One table for every filing: `police_filing` becomes `filing` (rentalcomply/filings/models.py).

- `connector` is renamed `authority`: the filing names who it goes to, whatever carries it.
- `property_id`: the property the filing is about (a booking's filing: the booking's property),
  so that a filing with no booking still has one.
- `period` ("2026-03", "2026"): a filing owed per period rather than per booking; null for a
  booking's. `booking_id` becomes nullable for those.
- `held_reason`: why a `held` filing waits. A held row of `police_filing` kept that reason in
  `error`; it moves to `held_reason`, and `error` is left for what went wrong.

Every row keeps its id, so the sealed files and receipts (whose seal purpose holds the id) open as
before. Plain CREATE TABLE / INSERT ... SELECT / DROP TABLE, which SQLite and PostgreSQL both run
inside the migration's transaction.

A frozen copy of the model as it was when this migration was written.
"""

from peewee import (SQL, CharField, DateTimeField, ForeignKeyField, IntegerField, Model,
                    TextField)

# The columns both tables have under the same name, in police_filing's order.
SHARED_COLUMNS = ("id", "account_id", "booking_id", "kind", "status", "deadline", "attempts",
                  "next_attempt_at", "sending_since", "remote_id", "reference", "guests",
                  "receipt_sealed", "receipt_type", "file_sealed", "file_name", "file_type",
                  "at_risk_at", "submitted_at", "version", "created_at", "updated_at")


def _tables(db):
    """The frozen models of both tables (and stand-ins for the tables they point at)."""
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

    class Filing(Base):
        id = CharField(primary_key=True, max_length=32)
        account = ForeignKeyField(Account, on_delete="CASCADE")
        booking = ForeignKeyField(Booking, null=True, on_delete="CASCADE")
        kind = CharField(max_length=16, default="arrival")
        authority = CharField(max_length=32)
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
        property = ForeignKeyField(Property, null=True, on_delete="CASCADE")
        period = CharField(max_length=7, null=True)
        held_reason = TextField(null=True)

        class Meta:
            table_name = "filing"
            indexes = ((("booking", "kind"), True), (("status", "deadline"), False),
                       (("account", "period"), False))

    # As migration 0009 made it.
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

    return Filing, PoliceFiling


def _columns(names) -> str:
    return ", ".join(f'"{name}"' for name in names)


def up(migrator, db):
    Filing, _ = _tables(db)
    db.create_tables([Filing], safe=False)
    shared = _columns(SHARED_COLUMNS)
    from_old = ", ".join(f'pf."{name}"' for name in SHARED_COLUMNS)
    # A LEFT JOIN: a row whose booking is somehow gone still moves (without a property) rather
    # than vanishing with the table.
    db.execute_sql(
        f'INSERT INTO "filing" ({shared}, "authority", "error", "held_reason", "property_id", '
        f'"period") '
        f'SELECT {from_old}, pf."connector", '
        f"CASE WHEN pf.\"status\" = 'held' THEN NULL ELSE pf.\"error\" END, "
        f"CASE WHEN pf.\"status\" = 'held' THEN pf.\"error\" ELSE NULL END, "
        f'b."property_id", NULL '
        f'FROM "police_filing" pf LEFT JOIN "booking" b ON b."id" = pf."booking_id"')
    db.execute_sql('DROP TABLE "police_filing"')


def down(migrator, db):
    """Back to `police_filing`. A filing with no booking (one owed per period) has no place
    there: it is dropped with `filing`."""
    _, PoliceFiling = _tables(db)
    db.create_tables([PoliceFiling], safe=False)
    shared = _columns(SHARED_COLUMNS)
    from_new = ", ".join(f'f."{name}"' for name in SHARED_COLUMNS)
    db.execute_sql(
        f'INSERT INTO "police_filing" ({shared}, "connector", "error") '
        f'SELECT {from_new}, f."authority", '
        f"CASE WHEN f.\"status\" = 'held' THEN COALESCE(f.\"held_reason\", f.\"error\") "
        f'ELSE f."error" END '
        f'FROM "filing" f WHERE f."booking_id" IS NOT NULL')
    db.execute_sql('DROP TABLE "filing"')
