"""`worker_heartbeat.stopped_at` (core/scheduling.py): a worker that stopped cleanly says so, so
that `doctor` does not count it alive until its last heartbeat grows stale."""

from peewee import DateTimeField


def up(migrator, db):
    migrator.migrate(migrator.add_column("worker_heartbeat", "stopped_at",
                                         DateTimeField(null=True)))


def down(migrator, db):
    migrator.migrate(migrator.drop_column("worker_heartbeat", "stopped_at"))
