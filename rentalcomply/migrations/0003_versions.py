"""A `version` on properties, bookings, channel connections and webhook endpoints.

Every change of such a row adds one to it (core.models.Versioned), so a receiver of events can
tell the newest state of a resource from an older one whatever order the events reach it in.
Existing rows start at 1.

Plain `ADD COLUMN ... NOT NULL DEFAULT 1`, which SQLite, PostgreSQL and MySQL all take in place:
peewee's add_column would add the column nullable and then rebuild each SQLite table to make it
NOT NULL.
"""

TABLES = ("property", "booking", "channel_connection", "webhook_endpoint")


def up(migrator, db):
    for table in TABLES:
        db.execute_sql(f'ALTER TABLE "{table}" ADD COLUMN "version" INTEGER NOT NULL DEFAULT 1')


def down(migrator, db):
    migrator.migrate(*[migrator.drop_column(table, "version") for table in TABLES])
