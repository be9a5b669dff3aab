"""Work owed until it is done, so that a killed worker does not lose it (core/pending.py).

A frozen copy of the model as it was when this migration was written.
"""

from peewee import CharField, CompositeKey, DateTimeField, IntegerField, Model


def up(migrator, db):
    class Base(Model):
        class Meta:
            database = db
            legacy_table_names = False

    class PendingTask(Base):
        kind = CharField(max_length=64)
        key = CharField(max_length=64)
        due_at = DateTimeField()
        lease_until = DateTimeField(null=True)
        attempts = IntegerField(default=0)

        class Meta:
            table_name = "pending_task"
            primary_key = CompositeKey("kind", "key")

    db.create_tables([PendingTask])
    db.execute_sql("CREATE INDEX pending_task_due ON pending_task (kind, due_at)")


def down(migrator, db):
    db.execute_sql("DROP TABLE IF EXISTS pending_task")
