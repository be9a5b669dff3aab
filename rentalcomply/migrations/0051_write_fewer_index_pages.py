"""Indexes that writes updated for nothing: each is a page a commit writes to the WAL (a POST
/bookings wrote about twenty, bench/post_statements.py; a burst of webhooks eight per delivery).

Each of these duplicates the first column of a composite index, which serves the same lookups
(the foreign keys' cascades among them), on SQLite and PostgreSQL alike:
- `activity_account_id`: (account_id, created_at). Every change made with a key writes a line.
- `webhook_delivery_endpoint_id`: (endpoint_id, created_at) and (endpoint_id, resource_key,
  status). `webhook_delivery_event_id`: the unique (event_id, endpoint_id). The dispatcher writes
  a delivery per event and endpoint.
- `webhook_endpoint_account_id`: (account_id, created_at).

And `checkin_access_failed_at`: only check-ins whose access e-mail failed are ever looked up by
it (Today's "Needs a person", by account), yet every new booking's check-in row, with no failure,
had an entry in it. It becomes a partial index of the failed ones, by account.
"""

REDUNDANT = {"activity_account_id": ("activity", "account_id"),
             "webhook_delivery_endpoint_id": ("webhook_delivery", "endpoint_id"),
             "webhook_delivery_event_id": ("webhook_delivery", "event_id"),
             "webhook_endpoint_account_id": ("webhook_endpoint", "account_id")}


def up(migrator, db):
    for name in REDUNDANT:
        db.execute_sql(f'DROP INDEX IF EXISTS "{name}"')
    db.execute_sql('DROP INDEX IF EXISTS "checkin_access_failed_at"')
    db.execute_sql('CREATE INDEX IF NOT EXISTS "checkin_access_failed" ON "checkin" ("account_id") '
                   'WHERE "access_failed_at" IS NOT NULL')


def down(migrator, db):
    db.execute_sql('DROP INDEX IF EXISTS "checkin_access_failed"')
    db.execute_sql('CREATE INDEX IF NOT EXISTS "checkin_access_failed_at" ON "checkin" '
                   '("access_failed_at")')
    for name, (table, column) in REDUNDANT.items():
        db.execute_sql(f'CREATE INDEX IF NOT EXISTS "{name}" ON "{table}" ("{column}")')
