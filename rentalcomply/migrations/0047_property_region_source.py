"""Where a property's region came from: `property.region_source` is "address" when it was read
from the address (a changed address reads it again) or "host" when the host chose it (never
overwritten by the address); null while the region is unknown (properties/regions.py).

A plain `ADD COLUMN` of a nullable column, taken in place by SQLite and PostgreSQL. A region set
before this migration (by hand or by another version) is kept as the host's: nothing re-derives
what a person may have chosen. An Italian or Spanish property without one gets the region its
address says for certain (the same reading as a new property's), so that only the uncertain ones
are asked in "Needs a person".
"""


def up(migrator, db):
    from rentalcomply.properties.regions import FROM_ADDRESS, derive
    db.execute_sql('ALTER TABLE "property" ADD COLUMN "region_source" VARCHAR(8)')
    db.execute_sql('UPDATE "property" SET "region_source" = \'host\' WHERE "region" IS NOT NULL')
    unknown = db.execute_sql(
        'SELECT "id", "country", "address" FROM "property" '
        'WHERE "region" IS NULL AND "country" IN (\'IT\', \'ES\')').fetchall()
    for property_id, country, address in unknown:
        region = derive(country, address)
        if region:
            db.execute_sql(f'UPDATE "property" SET "region" = {db.param}, '
                           f'"region_source" = {db.param} WHERE "id" = {db.param}',
                           (region, FROM_ADDRESS, property_id))


def down(migrator, db):
    db.execute_sql('ALTER TABLE "property" DROP COLUMN "region_source"')
