"""A property's obligations beside the police, and one period filing per period.

- `obligation_settings`: per property and authority owed other than the police (statistics, a
  tax return: filings/obligations.py), its non-secret settings and its credentials, sealed for
  that property and authority alone; only their names in clear.
- a unique index on `filing` (property, authority, kind, period): one period filing per
  property, authority, kind and period (filings/periods.py). A booking filing's period is null,
  and NULLs never collide in a unique index (SQLite and PostgreSQL), so the rows an earlier
  release made all stay.

A new table and an index, taken in place by SQLite and PostgreSQL; a frozen copy of the model as
it was when this migration was written.
"""

from peewee import CharField, CompositeKey, DateTimeField, ForeignKeyField, Model, TextField

INDEX = "filing_property_id_authority_kind_period"


def up(migrator, db):
    class Base(Model):
        class Meta:
            database = db
            legacy_table_names = False

    class Account(Base):  # stand-ins of earlier tables, for the foreign keys
        id = CharField(primary_key=True, max_length=32)

    class Property(Base):
        id = CharField(primary_key=True, max_length=32)

    class ObligationSettings(Base):
        property = ForeignKeyField(Property, on_delete="CASCADE")
        authority = CharField(max_length=32)
        account = ForeignKeyField(Account, on_delete="CASCADE")
        settings = TextField()  # JSON, as core.models.JSONField keeps it
        credentials_sealed = TextField(null=True)
        credential_names = TextField()
        created_at = DateTimeField()
        updated_at = DateTimeField()

        class Meta:
            table_name = "obligation_settings"
            primary_key = CompositeKey("property", "authority")

    db.create_tables([ObligationSettings], safe=False)
    db.execute_sql(f'CREATE UNIQUE INDEX "{INDEX}" ON "filing" '
                   '("property_id", "authority", "kind", "period")')


def down(migrator, db):
    db.execute_sql(f'DROP INDEX IF EXISTS "{INDEX}"')
    db.execute_sql('DROP TABLE "obligation_settings"')
