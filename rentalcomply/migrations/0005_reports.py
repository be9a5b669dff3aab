"""Tax reports (AADE), and the amount a cancelled booking still pays.

A frozen copy of rentalcomply/reports/models.py as it was when this migration was written, and
the booking column `amount_kept_cents` (what the guest still pays after cancelling, declared in
the month of the cancellation).
"""

from peewee import (CharField, DateTimeField, ForeignKeyField, IntegerField, Model, TextField)


def up(migrator, db):
    class Base(Model):
        class Meta:
            database = db
            legacy_table_names = False

    class Account(Base):
        id = CharField(primary_key=True, max_length=32)

    class Report(Base):
        # `code` is the public id (rep_YYYY_MM, rep_YYYY), unique within an account only.
        account = ForeignKeyField(Account, on_delete="CASCADE")
        code = CharField(max_length=16)
        year = IntegerField()
        month = IntegerField(null=True)
        status = CharField(max_length=16, default="pending")
        version = IntegerField(default=1)
        booking_count = IntegerField(default=0)
        nights = IntegerField(default=0)
        total_revenue_cents = IntegerField(default=0)
        net_revenue_cents = IntegerField(default=0)
        climate_fee_total_cents = IntegerField(default=0)
        cancellation_count = IntegerField(default=0)
        amount_kept_cents = IntegerField(default=0)
        needs_attention_count = IntegerField(default=0)
        files = TextField(null=True)
        error = TextField(null=True)
        requested_at = DateTimeField(null=True)
        generated_at = DateTimeField(null=True)
        generation_count = IntegerField(default=0)
        submitted_at = DateTimeField(null=True)
        submission_reference = CharField(max_length=100, null=True)
        due_soon_sent_at = DateTimeField(null=True)
        created_at = DateTimeField()
        updated_at = DateTimeField()

        class Meta:
            indexes = ((("account", "code"), True), (("account", "year", "month"), False))

    db.create_tables([Report], safe=False)
    db.execute_sql("ALTER TABLE booking ADD COLUMN amount_kept_cents INTEGER")


def down(migrator, db):
    db.execute_sql("DROP TABLE IF EXISTS report")
    db.execute_sql("ALTER TABLE booking DROP COLUMN amount_kept_cents")
