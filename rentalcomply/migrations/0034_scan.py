"""Scanning the guest's document (rentalcomply/scan/).

- `scan_setting`: per account, whether its owner keeps the photos of guests' documents (off
  unless turned on).
- `document_image`: a kept photo, sealed for its booking, erased with the stay's guest data.
- `document_flag`: a scanned document that has expired or expires before departure, for the
  host's booking page (erased with the stay's guest data).

A frozen copy of the model as it was when this migration was written.
"""

from peewee import BooleanField, CharField, DateField, DateTimeField, ForeignKeyField, IntegerField, Model, TextField


def up(migrator, db):
    class Base(Model):
        class Meta:
            database = db
            legacy_table_names = False

    class Account(Base):
        id = CharField(primary_key=True, max_length=32)

    class Booking(Base):
        id = CharField(primary_key=True, max_length=32)

    class ScanSetting(Base):
        account = ForeignKeyField(Account, primary_key=True, on_delete="CASCADE")
        keep_images = BooleanField(default=False)
        updated_at = DateTimeField()

        class Meta:
            table_name = "scan_setting"

    class DocumentImage(Base):
        booking = ForeignKeyField(Booking, on_delete="CASCADE")
        account = ForeignKeyField(Account, on_delete="CASCADE")
        guest_index = IntegerField()
        media_type = CharField(max_length=32)
        image_sealed = TextField()
        created_at = DateTimeField()

        class Meta:
            table_name = "document_image"

    class DocumentFlag(Base):
        booking = ForeignKeyField(Booking, on_delete="CASCADE")
        guest_index = IntegerField()
        problem = CharField(max_length=32)
        expiry_date = DateField()
        created_at = DateTimeField()

        class Meta:
            table_name = "document_flag"
            indexes = ((("booking", "guest_index"), True),)

    db.create_tables([ScanSetting, DocumentImage, DocumentFlag])


def down(migrator, db):
    db.execute_sql('DROP TABLE IF EXISTS "document_flag"')
    db.execute_sql('DROP TABLE IF EXISTS "document_image"')
    db.execute_sql('DROP TABLE IF EXISTS "scan_setting"')
