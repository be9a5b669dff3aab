"""Access instructions (door code, Wi-Fi, how to get in): sealed per property, shown to a guest
who has completed check-in from some hours before arrival, and e-mailed once per booking.

Plain `ADD COLUMN`s, taken in place by SQLite and PostgreSQL (peewee's add_column would rebuild
each SQLite table); rows written without them get the default.
"""

from peewee import PostgresqlDatabase


def up(migrator, db):
    datetime = "TIMESTAMP" if isinstance(db, PostgresqlDatabase) else "DATETIME"
    for statement in (
        # AES-GCM under a key derived from the server secret, for this property alone.
        'ALTER TABLE "property" ADD COLUMN "access_instructions_sealed" TEXT',
        'ALTER TABLE "property" ADD COLUMN "access_instructions_hours_before" INTEGER NOT NULL '
        'DEFAULT 24',
        # Claimed (set) before the e-mail is sent: a conditional UPDATE only one worker can win.
        f'ALTER TABLE "checkin" ADD COLUMN "access_sent_at" {datetime}',
    ):
        db.execute_sql(statement)


def down(migrator, db):
    for table, column in (("checkin", "access_sent_at"),
                          ("property", "access_instructions_hours_before"),
                          ("property", "access_instructions_sealed")):
        db.execute_sql(f'ALTER TABLE "{table}" DROP COLUMN "{column}"')
