"""A property's region, its rooms and beds, and the days it was closed.

- `property.region`: the ISO 3166-2 code of the region whose rules apply (`IT-25` Lombardia,
  `IT-52` Toscana, `IT-TN` the autonomous province of Trento, `ES-CT` Catalonia, `ES-PV` the
  Basque Country...): which statistics system and which police authority a property owes
  (properties/regions.py derives it from the address where that is certain, and asks otherwise).
  Null until known.
- `property.rooms`, `property.beds`: the rooms and beds the property lets, which the monthly
  tourism statistics report as available (ISTAT C/59, ROSS 1000 `cameredisponibili`,
  `lettidisponibili`). Null until the host gives them.
- `property_closed_day`: the days the host marked the property closed (ROSS 1000 sends a closed
  day as `apertura=NO`).

Plain `ADD COLUMN`s of nullable columns and a new table, taken in place by SQLite and PostgreSQL.
"""

from peewee import CharField, CompositeKey, DateField, DateTimeField, ForeignKeyField, Model


def up(migrator, db):
    class Base(Model):
        class Meta:
            database = db
            legacy_table_names = False

    class Property(Base):  # a stand-in of 0001's table, for the foreign key
        id = CharField(primary_key=True, max_length=32)

    class PropertyClosedDay(Base):
        property = ForeignKeyField(Property, on_delete="CASCADE")
        day = DateField()
        created_at = DateTimeField()

        class Meta:
            table_name = "property_closed_day"
            primary_key = CompositeKey("property", "day")

    db.execute_sql('ALTER TABLE "property" ADD COLUMN "region" VARCHAR(8)')
    db.execute_sql('ALTER TABLE "property" ADD COLUMN "rooms" INTEGER')
    db.execute_sql('ALTER TABLE "property" ADD COLUMN "beds" INTEGER')
    db.create_tables([PropertyClosedDay], safe=False)


def down(migrator, db):
    db.execute_sql('DROP TABLE "property_closed_day"')
    for column in ("region", "rooms", "beds"):
        db.execute_sql(f'ALTER TABLE "property" DROP COLUMN "{column}"')
