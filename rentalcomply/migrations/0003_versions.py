"""A `version` on properties, bookings, channel connections and webhook endpoints; the resource
each webhook delivery announces, so that one endpoint gets one resource's events in order; the
one-row marker of API key changes, so that a key revoked by another process is refused at once.

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
    # Deliveries made before this have none: they keep going out in any order, as they did.
    db.execute_sql('ALTER TABLE "webhook_delivery" ADD COLUMN "resource_key" VARCHAR(100)')
    db.execute_sql('ALTER TABLE "webhook_delivery" ADD COLUMN "resource_version" INTEGER')
    # The turn of a delivery: the waiting deliveries of its endpoint and resource.
    db.execute_sql('CREATE INDEX "webhook_delivery_endpoint_id_resource_key_status" ON '
                   '"webhook_delivery" ("endpoint_id", "resource_key", "status")')
    db.execute_sql('CREATE TABLE "api_key_change" ("id" INTEGER NOT NULL PRIMARY KEY, '
                   '"marker" VARCHAR(32) NOT NULL)')
    db.execute_sql("INSERT INTO \"api_key_change\" (\"id\", \"marker\") VALUES (1, 'initial')")


def down(migrator, db):
    db.execute_sql('DROP TABLE IF EXISTS "api_key_change"')
    db.execute_sql('DROP INDEX IF EXISTS "webhook_delivery_endpoint_id_resource_key_status"')
    migrator.migrate(migrator.drop_column("webhook_delivery", "resource_version"),
                     migrator.drop_column("webhook_delivery", "resource_key"),
                     *[migrator.drop_column(table, "version") for table in TABLES])
