"""Where a property's region came from: `property.region_source` is "address" when it was read
from the address (a changed address reads it again) or "host" when the host chose it (never
overwritten by the address); null while the region is unknown (properties/regions.py).

A plain `ADD COLUMN` of a nullable column, taken in place by SQLite and PostgreSQL. A region set
before this migration (by hand or by another version) is kept as the host's: nothing re-derives
what a person may have chosen.
"""


def up(migrator, db):
    db.execute_sql('ALTER TABLE "property" ADD COLUMN "region_source" VARCHAR(8)')
    db.execute_sql('UPDATE "property" SET "region_source" = \'host\' WHERE "region" IS NOT NULL')


def down(migrator, db):
    db.execute_sql('ALTER TABLE "property" DROP COLUMN "region_source"')
