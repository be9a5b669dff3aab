"""The channels' listing names remembered (rentalcomply/imports/listings.py), and the booking
date an export gives.

- `listing_alias`: an Airbnb listing title or Booking.com property name the host said is one of
  the account's properties, so that the next file goes there without asking.
- `booking.booked_at`: when the guest booked (naive UTC), from the export; deadlines counted
  from the booking (Spain's reservation communication) use it. Null for existing bookings, whose
  `created_at` stands for it as before.

A plain `ADD COLUMN` and a new table; a frozen copy of the model as it was when this migration
was written.
"""

from peewee import CharField, DateTimeField, ForeignKeyField, Model, PostgresqlDatabase


def up(migrator, db):
    class Base(Model):
        class Meta:
            database = db
            legacy_table_names = False

    class Account(Base):  # stand-ins of 0001's tables, for the foreign keys
        id = CharField(primary_key=True, max_length=32)

    class Property(Base):
        id = CharField(primary_key=True, max_length=32)

    class ListingAlias(Base):
        id = CharField(primary_key=True, max_length=32)
        account = ForeignKeyField(Account, on_delete="CASCADE")
        property = ForeignKeyField(Property, on_delete="CASCADE")
        channel = CharField(max_length=16)
        title = CharField(max_length=300)
        folded = CharField(max_length=300)
        created_at = DateTimeField()

        class Meta:
            indexes = ((("account", "channel", "folded"), True),)

    db.create_tables([ListingAlias], safe=False)
    datetime = "TIMESTAMP" if isinstance(db, PostgresqlDatabase) else "DATETIME"
    db.execute_sql(f'ALTER TABLE "booking" ADD COLUMN "booked_at" {datetime}')


def down(migrator, db):
    db.execute_sql('DROP TABLE "listing_alias"')
    db.execute_sql('ALTER TABLE "booking" DROP COLUMN "booked_at"')
