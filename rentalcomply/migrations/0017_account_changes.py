"""An index for the overlap check of a new booking, and a per-account change version, bumped by the database itself (triggers) in the transaction of
every change of the rows that the API's cached answers show (web/answer_cache.py).

Triggers rather than application code: every way a row changes — the API, the dashboard, a sync's
bulk INSERT, the police worker, a check-in, a report, raw SQL — bumps it, in every process, in the
same transaction as the change, so a page cached against the version can never outlive a change.

SQLite: a plain AFTER trigger per row (writers already take the database one at a time).
PostgreSQL: a constraint trigger DEFERRED to the commit, bumping once per transaction and account
(a transaction-local setting remembers it did), so the version row is the last lock a write
transaction takes: no deadlock with the property and booking locks taken before it, and held for
only the moment of the commit.
"""

from peewee import BigIntegerField, CharField, Model, PostgresqlDatabase

# The tables whose rows the cached answers show, each with its account column.
TABLES = ("booking", "property", "channel_connection", "police_settings")


def up(migrator, db):
    class Base(Model):
        class Meta:
            database = db
            legacy_table_names = False

    class AccountChange(Base):
        account_id = CharField(primary_key=True, max_length=32)
        version = BigIntegerField()

    db.create_tables([AccountChange])
    # The overlap check of every booking written asks for the property's stays that depart after
    # the new arrival: with only (property, arrival_date) it read every earlier stay of the
    # property, a thousand rows for a busy one.
    db.execute_sql("CREATE INDEX IF NOT EXISTS booking_property_departure "
                   "ON booking (property_id, departure_date)")
    if isinstance(db, PostgresqlDatabase):
        db.execute_sql("""
            CREATE OR REPLACE FUNCTION rentalcomply_account_changed() RETURNS trigger AS $$
            DECLARE
                account text;
                marker text;
            BEGIN
                IF TG_OP = 'DELETE' THEN account := OLD.account_id; ELSE account := NEW.account_id; END IF;
                marker := 'rentalcomply.changed_' || md5(account);
                IF current_setting(marker, true) = '1' THEN
                    RETURN NULL;
                END IF;
                PERFORM set_config(marker, '1', true);
                INSERT INTO account_change (account_id, version) VALUES (account, 1)
                    ON CONFLICT (account_id) DO UPDATE SET version = account_change.version + 1;
                RETURN NULL;
            END
            $$ LANGUAGE plpgsql""")
        for table in TABLES:
            db.execute_sql(
                f"CREATE CONSTRAINT TRIGGER {table}_account_changed "
                f"AFTER INSERT OR UPDATE OR DELETE ON {table} DEFERRABLE INITIALLY DEFERRED "
                f"FOR EACH ROW EXECUTE FUNCTION rentalcomply_account_changed()")
        return
    for table in TABLES:
        for operation, row in (("INSERT", "NEW"), ("UPDATE", "NEW"), ("DELETE", "OLD")):
            db.execute_sql(
                f"CREATE TRIGGER {table}_account_changed_{operation.lower()} "
                f"AFTER {operation} ON {table} BEGIN "
                f"INSERT INTO account_change (account_id, version) VALUES ({row}.account_id, 1) "
                f"ON CONFLICT (account_id) DO UPDATE SET version = version + 1; END")


def down(migrator, db):
    if isinstance(db, PostgresqlDatabase):
        for table in TABLES:
            db.execute_sql(f"DROP TRIGGER IF EXISTS {table}_account_changed ON {table}")
        db.execute_sql("DROP FUNCTION IF EXISTS rentalcomply_account_changed()")
    else:
        for table in TABLES:
            for operation in ("insert", "update", "delete"):
                db.execute_sql(f"DROP TRIGGER IF EXISTS {table}_account_changed_{operation}")
    db.execute_sql("DROP INDEX IF EXISTS booking_property_departure")
    db.execute_sql("DROP TABLE IF EXISTS account_change")
