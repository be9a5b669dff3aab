"""Tourist taxes: an account's own rule sets, the sets each property names, and what each stay
owes (rentalcomply/taxes/models.py says what each column holds).

Three new tables, a frozen copy of the models as they shipped; SQLite and PostgreSQL alike. The
booking and property answers show their rows, and those answers are cached against the account's
change version (web/answer_cache.py): each table gets 0017's triggers, so every change of a row
bumps the version in its own transaction.
"""

from peewee import (CharField, DateTimeField, ForeignKeyField, IntegerField, Model,
                    PostgresqlDatabase, TextField)

TABLES = ("tax_rule_set", "property_tax_rules", "booking_tax")


def up(migrator, db):
    class Base(Model):
        class Meta:
            database = db
            legacy_table_names = False

    class Account(Base):  # stand-ins of 0001's tables, for the foreign keys
        id = CharField(primary_key=True, max_length=32)

    class Property(Base):
        id = CharField(primary_key=True, max_length=32)

    class Booking(Base):
        id = CharField(primary_key=True, max_length=32)

    class TaxRuleSet(Base):
        id = CharField(primary_key=True, max_length=32)
        account = ForeignKeyField(Account, on_delete="CASCADE", index=True)
        body = TextField()
        version = IntegerField(default=1)
        created_at = DateTimeField()
        updated_at = DateTimeField()

    class PropertyTaxRules(Base):
        property = ForeignKeyField(Property, primary_key=True, on_delete="CASCADE")
        account = ForeignKeyField(Account, on_delete="CASCADE", index=True)
        rule_set_ids = TextField()

    class BookingTax(Base):
        booking = ForeignKeyField(Booking, primary_key=True, on_delete="CASCADE")
        account = ForeignKeyField(Account, on_delete="CASCADE", index=True)
        status = CharField(max_length=16)
        amount_cents = IntegerField(null=True)
        view = TextField()
        party = TextField(null=True)
        exemptions = TextField()
        collected_at = DateTimeField(null=True)
        collected_method = CharField(max_length=16, null=True)
        updated_at = DateTimeField()

    db.create_tables([TaxRuleSet, PropertyTaxRules, BookingTax], safe=False)
    for table in TABLES:  # as 0017 did for the booking's and the property's tables
        if isinstance(db, PostgresqlDatabase):
            db.execute_sql(
                f"CREATE CONSTRAINT TRIGGER {table}_account_changed "
                f"AFTER INSERT OR UPDATE OR DELETE ON {table} DEFERRABLE INITIALLY DEFERRED "
                f"FOR EACH ROW EXECUTE FUNCTION rentalcomply_account_changed()")
            continue
        for operation, row in (("INSERT", "NEW"), ("UPDATE", "NEW"), ("DELETE", "OLD")):
            db.execute_sql(
                f"CREATE TRIGGER {table}_account_changed_{operation.lower()} "
                f"AFTER {operation} ON {table} BEGIN "
                f"INSERT INTO account_change (account_id, version) VALUES ({row}.account_id, 1) "
                f"ON CONFLICT (account_id) DO UPDATE SET version = version + 1; END")


def down(migrator, db):
    for table in reversed(TABLES):  # the triggers go with their tables
        db.execute_sql(f'DROP TABLE "{table}"')
