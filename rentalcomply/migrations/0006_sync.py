"""Channel sync: a lease on each connection, held removals, the trigger cooldown, reported
conflicts and the rotation counter of each property's exported calendar.

Frozen copies of rentalcomply/sync/models.py and of the columns added to core/models.py as they
were when this migration was written.
"""

from peewee import CharField, DateTimeField, ForeignKeyField, Model, PostgresqlDatabase


def up(migrator, db):
    class Base(Model):
        class Meta:
            database = db
            legacy_table_names = False

    # Stand-ins for tables of 0001, only so that the foreign keys below can name them.
    class Account(Base):
        id = CharField(primary_key=True, max_length=32)

    class Property(Base):
        id = CharField(primary_key=True, max_length=32)

    class Booking(Base):
        id = CharField(primary_key=True, max_length=32)

    # Plain `ADD COLUMN ... NOT NULL DEFAULT`, taken in place by SQLite and PostgreSQL (peewee's
    # add_column would rebuild each SQLite table), and rows written without them get the default.
    datetime = "TIMESTAMP" if isinstance(db, PostgresqlDatabase) else "DATETIME"
    for statement in (
        # Who is syncing the connection now, and until when (a conditional UPDATE claims it).
        'ALTER TABLE "channel_connection" ADD COLUMN "lease_owner" VARCHAR(32)',
        f'ALTER TABLE "channel_connection" ADD COLUMN "lease_until" {datetime}',
        # The host accepted the removals the last sync held back: the next sync applies them.
        'ALTER TABLE "channel_connection" ADD COLUMN "accept_removals" BOOLEAN NOT NULL DEFAULT FALSE',
        # Cancelled because its event left the feed (not by the host): reinstated if it returns.
        'ALTER TABLE "booking" ADD COLUMN "cancelled_by_sync" BOOLEAN NOT NULL DEFAULT FALSE',
        # Bumped to rotate the property's exported calendar URL (the token is derived from it).
        'ALTER TABLE "property" ADD COLUMN "ical_token_generation" INTEGER NOT NULL DEFAULT 0',
    ):
        db.execute_sql(statement)

    class SyncAccountState(Base):
        account = ForeignKeyField(Account, primary_key=True, on_delete="CASCADE")
        last_trigger_at = DateTimeField(null=True)
        last_sync_all = DateTimeField(null=True)

    class SyncConflict(Base):
        account = ForeignKeyField(Account, on_delete="CASCADE")
        property = ForeignKeyField(Property, on_delete="CASCADE")
        first_booking = ForeignKeyField(Booking, on_delete="CASCADE")
        second_booking = ForeignKeyField(Booking, on_delete="CASCADE")
        reported_at = DateTimeField()

        class Meta:
            indexes = ((("first_booking", "second_booking"), True),)

    db.create_tables([SyncAccountState, SyncConflict], safe=False)


def down(migrator, db):
    for table in ("sync_conflict", "sync_account_state"):
        db.execute_sql(f"DROP TABLE IF EXISTS {table}")
    migrator.migrate(
        migrator.drop_column("channel_connection", "lease_owner"),
        migrator.drop_column("channel_connection", "lease_until"),
        migrator.drop_column("channel_connection", "accept_removals"),
        migrator.drop_column("property", "ical_token_generation"),
        migrator.drop_column("booking", "cancelled_by_sync"),
    )
