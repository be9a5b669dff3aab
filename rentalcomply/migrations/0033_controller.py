"""The data controller a guest's privacy notice names (accounts/controller.py).

- `account_controller`: per account, the legal name, postal address and contact (e-mail and
  phone) of whoever decides what is done with the guests' details; until it has a legal name,
  the notice names the host by the property, and the dashboard's Account page says so.

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

    class AccountController(Base):
        account = ForeignKeyField(Account, primary_key=True, on_delete="CASCADE")
        legal_name = CharField(max_length=200, null=True)
        address = CharField(max_length=500, null=True)
        email = CharField(max_length=254, null=True)
        phone = CharField(max_length=50, null=True)
        updated_at = DateTimeField()

        class Meta:
            table_name = "account_controller"

    db.create_tables([AccountController])


def down(migrator, db):
    db.execute_sql('DROP TABLE IF EXISTS "account_controller"')
