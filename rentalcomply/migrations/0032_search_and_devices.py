"""Finding a booking from the header, and staying signed in on a device (dashboard/search.py,
dashboard/users.py).

- `dashboard_search_term`: the terms each booking is found by. Terms of what the booking row holds
  in clear (the lead guest's name, e-mail, phone, channel code, reference) are kept as normalised
  text, so a prefix finds them; terms from the sealed guest party (the other guests' names, e-mail
  addresses and phones) are kept only as HMACs under the server secret, so a copy of the database
  does not give the party away.
- `dashboard_search_stamp`: the versions of the booking and its check-in the terms were made from;
  a search first brings the terms of changed bookings up to date.
- `dashboard_session.remembered`, `.device`: a session kept for 30 days on a device the person
  chose to stay signed in on (no idle end), and the browser it is, for Account's list.
- `checkin.access_failed_at`, `.access_problem`: the e-mail with the access instructions did not
  go (checkin/access.py), and why in a word (`address` refused, or `mail` failing), for the
  booking's page and Today's "Needs a person"; cleared when one goes.

A frozen copy of the model as it was when this migration was written.
"""

from peewee import CharField, ForeignKeyField, IntegerField, Model, PostgresqlDatabase


# Plain ADD COLUMNs, taken in place by SQLite and PostgreSQL (peewee's add_column would rebuild the
# SQLite table for a NOT NULL column, and a rebuilt table loses its triggers).
def _columns(db) -> tuple[tuple[str, str], ...]:
    datetime = "TIMESTAMP" if isinstance(db, PostgresqlDatabase) else "DATETIME"
    return (
        ('ALTER TABLE "dashboard_session" ADD COLUMN "remembered" BOOLEAN NOT NULL DEFAULT FALSE',
         'ALTER TABLE "dashboard_session" DROP COLUMN "remembered"'),
        ('ALTER TABLE "dashboard_session" ADD COLUMN "device" VARCHAR(120)',
         'ALTER TABLE "dashboard_session" DROP COLUMN "device"'),
        (f'ALTER TABLE "checkin" ADD COLUMN "access_failed_at" {datetime}',
         'ALTER TABLE "checkin" DROP COLUMN "access_failed_at"'),
        ('ALTER TABLE "checkin" ADD COLUMN "access_problem" VARCHAR(16)',
         'ALTER TABLE "checkin" DROP COLUMN "access_problem"'),
        # Today looks up the few failed ones among every check-in of the account.
        ('CREATE INDEX "checkin_access_failed_at" ON "checkin" ("access_failed_at")',
         'DROP INDEX IF EXISTS "checkin_access_failed_at"'),
    )


def up(migrator, db):
    class Base(Model):
        class Meta:
            database = db
            legacy_table_names = False

    class Account(Base):
        id = CharField(primary_key=True, max_length=32)

    class Booking(Base):
        id = CharField(primary_key=True, max_length=32)

    class DashboardSearchTerm(Base):
        account = ForeignKeyField(Account, on_delete="CASCADE")
        booking = ForeignKeyField(Booking, on_delete="CASCADE")
        term = CharField(max_length=120)

        class Meta:
            table_name = "dashboard_search_term"
            indexes = ((("account", "term"), False), (("booking",), False))

    class DashboardSearchStamp(Base):
        booking = ForeignKeyField(Booking, primary_key=True, on_delete="CASCADE")
        account = ForeignKeyField(Account, on_delete="CASCADE")
        booking_version = IntegerField()
        checkin_version = IntegerField()

        class Meta:
            table_name = "dashboard_search_stamp"

    db.create_tables([DashboardSearchTerm, DashboardSearchStamp])
    for statement, _ in _columns(db):
        db.execute_sql(statement)


def down(migrator, db):
    for _, statement in reversed(_columns(db)):
        db.execute_sql(statement)
    db.execute_sql('DROP TABLE IF EXISTS "dashboard_search_stamp"')
    db.execute_sql('DROP TABLE IF EXISTS "dashboard_search_term"')
