"""Periodic ticks recorded as done only once queued, and indexes for the retention purges.

- `periodic_tick.claimed_at`, `periodic_tick.queued_at` (core/scheduling.py): a tick whose task
  could not be queued (the queue away) stays open and is queued when the queue is back. The ticks
  already recorded were queued (or are past caring): they are marked done.
- `activity (created_at)` and `event (created_at)`: the retention purge (ops/retention.py) takes
  the oldest rows a batch at a time; without these each batch would read the whole table.
"""

from peewee import DateTimeField


def up(migrator, db):
    migrator.migrate(
        migrator.add_column("periodic_tick", "claimed_at", DateTimeField(null=True)),
        migrator.add_column("periodic_tick", "queued_at", DateTimeField(null=True)),
    )
    db.execute_sql('UPDATE "periodic_tick" SET "queued_at" = "tick", "claimed_at" = "tick"')
    db.execute_sql('CREATE INDEX "activity_created_at" ON "activity" ("created_at")')
    db.execute_sql('CREATE INDEX "event_created_at" ON "event" ("created_at")')


def down(migrator, db):
    db.execute_sql('DROP INDEX IF EXISTS "event_created_at"')
    db.execute_sql('DROP INDEX IF EXISTS "activity_created_at"')
    migrator.migrate(
        migrator.drop_column("periodic_tick", "queued_at"),
        migrator.drop_column("periodic_tick", "claimed_at"),
    )
