"""The dashboard's people and their account's preferences.

- `dashboard_user.role`: `owner` (everything) or `member` (no API keys, webhooks or users).
  Users made before this were made by the server's administrator: they stay owners.
- `dashboard_account_setting`: one row per account that chose something, today its time zone,
  in which the dashboard shows every time that belongs to no property.
- `dashboard_booking_note`: the team's own note on a booking (a gate code, "pays cash on
  arrival"), written in the booking's form; not part of the booking the API and webhooks carry.

Plain `ADD COLUMN ... NOT NULL DEFAULT`, taken in place by SQLite and PostgreSQL.
"""

from peewee import CharField, DateTimeField, ForeignKeyField, Model, TextField


def up(migrator, db):
    db.execute_sql("ALTER TABLE \"dashboard_user\" ADD COLUMN \"role\" VARCHAR(16) NOT NULL "
                   "DEFAULT 'owner'")

    class Base(Model):
        class Meta:
            database = db
            legacy_table_names = False

    class Account(Base):
        id = CharField(primary_key=True, max_length=32)

    class DashboardAccountSetting(Base):
        account = ForeignKeyField(Account, primary_key=True, on_delete="CASCADE")
        timezone = CharField(max_length=64)
        updated_at = DateTimeField()

    class Booking(Base):
        id = CharField(primary_key=True, max_length=32)

    class DashboardBookingNote(Base):
        booking = ForeignKeyField(Booking, primary_key=True, on_delete="CASCADE")
        account = ForeignKeyField(Account, on_delete="CASCADE")
        text = TextField()
        updated_at = DateTimeField()

    db.create_tables([DashboardAccountSetting, DashboardBookingNote])


def down(migrator, db):
    db.execute_sql('DROP TABLE IF EXISTS "dashboard_booking_note"')
    db.execute_sql('DROP TABLE IF EXISTS "dashboard_account_setting"')
    migrator.migrate(migrator.drop_column("dashboard_user", "role"))
