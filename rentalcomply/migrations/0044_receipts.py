"""The authorities' daily receipts (rentalcomply/filings/receipts.py): `police_receipt`, one per
property, authority and day (Alloggiati Web's `Ricevuta`), its PDF sealed; and
`police_receipt_filing`, the filings of that day it acknowledges.

Two new tables; a frozen copy of the models as they were when this migration was written.
"""

from peewee import (CharField, CompositeKey, DateField, DateTimeField, ForeignKeyField,
                    IntegerField, Model, TextField)


def up(migrator, db):
    class Base(Model):
        class Meta:
            database = db
            legacy_table_names = False

    class Account(Base):  # stand-ins of earlier tables, for the foreign keys
        id = CharField(primary_key=True, max_length=32)

    class Property(Base):
        id = CharField(primary_key=True, max_length=32)

    class Filing(Base):
        id = CharField(primary_key=True, max_length=32)

    class PoliceReceipt(Base):
        id = CharField(primary_key=True, max_length=32)
        account = ForeignKeyField(Account, on_delete="CASCADE")
        property = ForeignKeyField(Property, on_delete="CASCADE")
        authority = CharField(max_length=32)
        account_user = CharField(max_length=100)
        day = DateField()
        status = CharField(max_length=16, default="pending")
        attempts = IntegerField(default=0)
        next_attempt_at = DateTimeField(null=True, index=True)
        error = TextField(null=True)
        pdf_sealed = TextField(null=True)
        content_type = CharField(max_length=100, null=True)
        fetched_at = DateTimeField(null=True)
        created_at = DateTimeField()
        updated_at = DateTimeField()

        class Meta:
            table_name = "police_receipt"
            indexes = ((("property", "authority", "day"), True),)

    class PoliceReceiptFiling(Base):
        receipt = ForeignKeyField(PoliceReceipt, on_delete="CASCADE")
        filing = ForeignKeyField(Filing, on_delete="CASCADE")
        linked_at = DateTimeField()

        class Meta:
            table_name = "police_receipt_filing"
            primary_key = CompositeKey("receipt", "filing")

    db.create_tables([PoliceReceipt, PoliceReceiptFiling], safe=False)


def down(migrator, db):
    db.execute_sql('DROP TABLE "police_receipt_filing"')
    db.execute_sql('DROP TABLE "police_receipt"')
