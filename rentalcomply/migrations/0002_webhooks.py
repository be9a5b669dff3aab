"""Webhook endpoints, their deliveries and each delivery attempt.

A frozen copy of rentalcomply/webhooks/models.py as it was when this migration was written.
"""

from peewee import CharField, DateTimeField, ForeignKeyField, IntegerField, Model, TextField


def up(migrator, db):
    class Base(Model):
        class Meta:
            database = db
            legacy_table_names = False

    # Stand-ins for tables of 0001, only so that the foreign keys below can name them.
    class Account(Base):
        id = CharField(primary_key=True, max_length=32)

    class Event(Base):
        id = CharField(primary_key=True, max_length=32)

    class WebhookEndpoint(Base):
        id = CharField(primary_key=True, max_length=32)
        account = ForeignKeyField(Account, on_delete="CASCADE")
        url = TextField()
        description = CharField(max_length=200, default="")
        events = TextField()
        status = CharField(max_length=16, default="active")
        disabled_reason = TextField(null=True)
        disabled_at = DateTimeField(null=True)
        secret_sealed = TextField()
        previous_secret_sealed = TextField(null=True)
        previous_secret_expires_at = DateTimeField(null=True)
        failing_since = DateTimeField(null=True)
        last_success_at = DateTimeField(null=True)
        created_at = DateTimeField()
        updated_at = DateTimeField()

        class Meta:
            indexes = ((("account", "created_at"), False),)

    class WebhookDelivery(Base):
        id = CharField(primary_key=True, max_length=32)
        account = ForeignKeyField(Account, on_delete="CASCADE")
        endpoint = ForeignKeyField(WebhookEndpoint, on_delete="CASCADE")
        event = ForeignKeyField(Event, on_delete="CASCADE")
        event_type = CharField(max_length=64)
        status = CharField(max_length=16, default="pending")
        attempts = IntegerField(default=0)
        last_status_code = IntegerField(null=True)
        last_error = TextField(null=True)
        last_attempt_at = DateTimeField(null=True)
        next_attempt_at = DateTimeField(null=True)
        locked_until = DateTimeField(null=True)
        created_at = DateTimeField()
        completed_at = DateTimeField(null=True)

        class Meta:
            indexes = (
                # One delivery per event and endpoint, whoever dispatches.
                (("event", "endpoint"), True),
                (("endpoint", "created_at"), False),
                # The sweep: pending deliveries whose next attempt is due.
                (("status", "next_attempt_at"), False),
            )

    class WebhookAttempt(Base):
        delivery = ForeignKeyField(WebhookDelivery, on_delete="CASCADE")
        number = IntegerField()
        attempted_at = DateTimeField()
        duration_ms = IntegerField()
        status_code = IntegerField(null=True)
        error = TextField(null=True)
        response_excerpt = TextField(null=True)

    db.create_tables([WebhookEndpoint, WebhookDelivery, WebhookAttempt], safe=False)


def down(migrator, db):
    for table in ("webhook_attempt", "webhook_delivery", "webhook_endpoint"):
        db.execute_sql(f"DROP TABLE IF EXISTS {table}")
