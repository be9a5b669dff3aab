"""The morning e-mail to each account's owners (dashboard/morning.py).

- `dashboard_morning_mail`: one row per account and local date whose morning was looked at; its
  key (account, local_date) is what lets only one worker send a morning's e-mails.
- `dashboard_account_setting.morning_email`: an owner may turn the e-mail off for the account.
  The row now exists for that choice alone, so its `timezone` may be null (not chosen: the first
  property's zone, as before).
- `dashboard_user.lang`: the language the user's pages were last in, which the e-mail is written
  in (null until known: English).

SQLite takes `ADD COLUMN` in place; dropping the NOT NULL rebuilds the small settings table
(peewee's migrator copies it), PostgreSQL alters it in place.
"""

from peewee import (BooleanField, CharField, CompositeKey, DateField, DateTimeField,
                    ForeignKeyField, IntegerField, Model)


def up(migrator, db):
    class Base(Model):
        class Meta:
            database = db
            legacy_table_names = False

    class Account(Base):
        id = CharField(primary_key=True, max_length=32)

    class DashboardMorningMail(Base):
        account = ForeignKeyField(Account, on_delete="CASCADE")
        local_date = DateField()
        checked_at = DateTimeField()
        items = IntegerField()
        recipients = IntegerField()

        class Meta:
            table_name = "dashboard_morning_mail"
            primary_key = CompositeKey("account", "local_date")

    db.create_tables([DashboardMorningMail])
    migrator.migrate(
        migrator.add_column("dashboard_user", "lang", CharField(max_length=8, null=True)),
        migrator.add_column("dashboard_account_setting", "morning_email",
                            BooleanField(default=True)),
        migrator.drop_not_null("dashboard_account_setting", "timezone"),
    )


def down(migrator, db):
    db.execute_sql('DELETE FROM "dashboard_account_setting" WHERE "timezone" IS NULL')
    migrator.migrate(
        migrator.add_not_null("dashboard_account_setting", "timezone"),
        migrator.drop_column("dashboard_account_setting", "morning_email"),
        migrator.drop_column("dashboard_user", "lang"),
    )
    db.execute_sql('DROP TABLE IF EXISTS "dashboard_morning_mail"')
