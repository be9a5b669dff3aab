"""Periodic tasks once per tick across workers, and worker heartbeats (core/scheduling.py).

A frozen copy of the models as they were when this migration was written.
"""

from peewee import CharField, CompositeKey, DateTimeField, Model


def up(migrator, db):
    class Base(Model):
        class Meta:
            database = db
            legacy_table_names = False

    class PeriodicTick(Base):
        name = CharField(max_length=200)
        tick = DateTimeField()
        worker = CharField(max_length=200)

        class Meta:
            primary_key = CompositeKey("name", "tick")

    class WorkerHeartbeat(Base):
        worker = CharField(primary_key=True, max_length=200)
        started_at = DateTimeField()
        seen_at = DateTimeField()

    db.create_tables([PeriodicTick, WorkerHeartbeat])


def down(migrator, db):
    db.execute_sql("DROP TABLE IF EXISTS periodic_tick")
    db.execute_sql("DROP TABLE IF EXISTS worker_heartbeat")
