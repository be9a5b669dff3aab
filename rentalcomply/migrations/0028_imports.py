"""The channels' reservation exports (rentalcomply/imports): the party's make-up, the price's
currency, and which fields the host set by hand (an import never overwrites those).

`host_fields`: a JSON list of booking field names (`guest_name`, `guest_count`,
`total_price_cents`, ...) that the host typed (API, dashboard, CLI), written by
bookings.service. Existing manual bookings were typed whole by the host; on existing channel
bookings, what differs from what a sync writes (a count above 1, a price, an e-mail or phone)
was typed by the host.

`import_preview`: a file the dashboard previewed, sealed, until the host applies it (or a day
passes): the preview is applied exactly as shown, from the same bytes.

Plain `ADD COLUMN`s, taken in place by SQLite and PostgreSQL; a frozen copy of
rentalcomply/imports/models.py as it was when this migration was written.
"""

import json

from peewee import CharField, DateTimeField, ForeignKeyField, Model, TextField

HOST_TYPED_MANUAL = ["guest_name", "guest_email", "guest_phone", "guest_language", "guest_count",
                     "total_price_cents", "payment_method"]


def up(migrator, db):
    class Base(Model):
        class Meta:
            database = db
            legacy_table_names = False

    class Account(Base):  # a stand-in of 0001's table, for the foreign key
        id = CharField(primary_key=True, max_length=32)

    class ImportPreview(Base):
        id = CharField(primary_key=True, max_length=32)
        account = ForeignKeyField(Account, on_delete="CASCADE")
        user_id = CharField(max_length=32)
        sealed_file = TextField()
        created_at = DateTimeField(index=True)

    db.create_tables([ImportPreview], safe=False)
    for statement in (
        'ALTER TABLE "booking" ADD COLUMN "adults" INTEGER',
        'ALTER TABLE "booking" ADD COLUMN "children" INTEGER',
        'ALTER TABLE "booking" ADD COLUMN "infants" INTEGER',
        'ALTER TABLE "booking" ADD COLUMN "currency" VARCHAR(3)',
        'ALTER TABLE "booking" ADD COLUMN "host_fields" TEXT',
    ):
        db.execute_sql(statement)
    manual = json.dumps(sorted(HOST_TYPED_MANUAL), separators=(",", ":"))
    db.execute_sql('UPDATE "booking" SET "host_fields" = %s WHERE "channel" = %s'
                   .replace("%s", db.param), (manual, "manual"))
    rows = db.execute_sql(
        'SELECT "id", "guest_count", "total_price_cents", "guest_email", "guest_phone" '
        'FROM "booking" WHERE "channel" <> %s AND "is_block" = %s'.replace("%s", db.param),
        ("manual", False)).fetchall()
    for booking_id, count, price, email, phone in rows:
        typed = [name for name, typed_by_host in (
            ("guest_count", count is not None and count != 1), ("total_price_cents", price is not None),
            ("guest_email", email is not None), ("guest_phone", phone is not None)) if typed_by_host]
        if typed:
            db.execute_sql('UPDATE "booking" SET "host_fields" = %s WHERE "id" = %s'
                           .replace("%s", db.param),
                           (json.dumps(sorted(typed), separators=(",", ":")), booking_id))


def down(migrator, db):
    db.execute_sql('DROP TABLE "import_preview"')
    for column in ("host_fields", "currency", "infants", "children", "adults"):
        db.execute_sql(f'ALTER TABLE "booking" DROP COLUMN "{column}"')
