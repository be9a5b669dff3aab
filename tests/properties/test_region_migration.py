"""Migration 0047 on a database of the release before it: the regions an address says for certain
are read (only then), a region already set is kept as the host's."""

import peewee
from playhouse import migrations as peewee_migrations

from rentalcomply.core.db import MIGRATIONS_DIR


def test_existing_properties_get_the_region_their_address_says_for_certain(tmp_path):
    database = peewee.SqliteDatabase(str(tmp_path / "old.db"))
    runner = peewee_migrations.Runner(database, str(MIGRATIONS_DIR))
    with database.connection_context():
        runner.up("0045_property_region_and_capacity")
        database.execute_sql('INSERT INTO "account" ("id", "name", "created_at") '
                             "VALUES ('acc_1', 'A', '2026-01-01 00:00:00')")
        for prop_id, country, address, region in (
                ("prop_fi", "IT", "Via Maggio 12, 50125 Firenze FI", None),
                ("prop_castro", "IT", "Via Litoranea 4, 73030 Castro", None),
                ("prop_bcn", "ES", "Carrer de Mallorca 401, 08013 Barcelona", None),
                ("prop_chosen", "IT", "Via Maggio 12, 50125 Firenze FI", "IT-21"),
                ("prop_gr", "GR", "Oia, 84702 Santorini", None)):
            database.execute_sql(
                'INSERT INTO "property" ("id", "account_id", "name", "address", "country", '
                '"region", "status", "timezone", "climate_fee_category", "police_connector", '
                '"created_at", "updated_at") VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)',
                (prop_id, "acc_1", prop_id, address, country, region, "active", "Europe/Rome",
                 "standard", "none", "2026-01-01 00:00:00", "2026-01-01 00:00:00"))
        assert "0047_property_region_source" in runner.up()
        rows = dict((row[0], row[1:]) for row in database.execute_sql(
            'SELECT "id", "region", "region_source" FROM "property"').fetchall())
    assert rows == {"prop_fi": ("IT-52", "address"), "prop_castro": (None, None),
                    "prop_bcn": ("ES-CT", "address"), "prop_chosen": ("IT-21", "host"),
                    "prop_gr": (None, None)}
