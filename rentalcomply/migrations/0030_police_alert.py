"""A police filing refused or failed alerts the account's owners at once (dashboard/police_alerts.py):
`police_alert` keeps, per account, since when an alert waits and when the last one was sent, so
that an account gets at most one such e-mail an hour.

A frozen copy of the model as it was when this migration was written.
"""

from peewee import CharField, DateTimeField, ForeignKeyField, Model


def up(migrator, db):
    class Base(Model):
        class Meta:
            database = db
            legacy_table_names = False

    class Account(Base):
        id = CharField(primary_key=True, max_length=32)

    class PoliceAlert(Base):
        account = ForeignKeyField(Account, primary_key=True, on_delete="CASCADE")
        pending_since = DateTimeField(null=True)
        last_sent_at = DateTimeField(null=True)

        class Meta:
            table_name = "police_alert"

    db.create_tables([PoliceAlert])


def down(migrator, db):
    db.execute_sql('DROP TABLE IF EXISTS "police_alert"')
