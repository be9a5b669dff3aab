"""Three indexes of the booking table that others already serve: `booking_account_id`,
`booking_property_id` and `booking_connection_id`, each the first column of a composite index
(account and arrival, property and arrival, connection and UID). Every booking written updated
them for nothing: 9 indexes for each row a sync imports, a third of the row's cost in SQLite
(bench/sync.py). The composite indexes serve the same lookups, the foreign keys' cascades
among them, on SQLite and PostgreSQL alike.
"""

REDUNDANT = ("booking_account_id", "booking_property_id", "booking_connection_id")


def up(migrator, db):
    for name in REDUNDANT:
        db.execute_sql(f'DROP INDEX IF EXISTS "{name}"')


def down(migrator, db):
    for name, column in zip(REDUNDANT, ("account_id", "property_id", "connection_id")):
        db.execute_sql(f'CREATE INDEX IF NOT EXISTS "{name}" ON "booking" ("{column}")')
