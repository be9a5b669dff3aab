"""The tables of webhooks: endpoints, one delivery per (event, endpoint), and each attempt.

Made by migrations/0002_webhooks.py; change both together, with a new migration.
"""

from __future__ import annotations

import peewee as pw

from rentalcomply.core import clock
from rentalcomply.core.models import Account, BaseModel, Event, JSONField, Versioned


class WebhookEndpoint(Versioned):
    id = pw.CharField(primary_key=True, max_length=32)
    # Foreign keys with index=False: a composite index starting with the column serves them
    # (migration 0051).
    account = pw.ForeignKeyField(Account, on_delete="CASCADE", index=False)
    url = pw.TextField()
    description = pw.CharField(max_length=200, default="")
    events = JSONField()  # list of event names, or ["*"]
    status = pw.CharField(max_length=16, default="active")  # active | disabled
    disabled_reason = pw.TextField(null=True)
    disabled_at = pw.DateTimeField(null=True)
    # Encrypted under a key derived from the server secret (service.seal); never in clear.
    secret_sealed = pw.TextField()
    # The secret replaced by the last rotation, signing alongside until previous_secret_expires_at.
    previous_secret_sealed = pw.TextField(null=True)
    previous_secret_expires_at = pw.DateTimeField(null=True)
    # First failed attempt since the last success; None while the endpoint answers.
    failing_since = pw.DateTimeField(null=True)
    last_success_at = pw.DateTimeField(null=True)
    created_at = pw.DateTimeField(default=clock.utcnow)
    updated_at = pw.DateTimeField(default=clock.utcnow)


class WebhookDelivery(BaseModel):
    id = pw.CharField(primary_key=True, max_length=32)
    account = pw.ForeignKeyField(Account, on_delete="CASCADE")
    endpoint = pw.ForeignKeyField(WebhookEndpoint, backref="deliveries", on_delete="CASCADE",
                                  index=False)
    event = pw.ForeignKeyField(Event, on_delete="CASCADE", index=False)
    event_type = pw.CharField(max_length=64)
    status = pw.CharField(max_length=16, default="pending")  # pending | succeeded | failed
    attempts = pw.IntegerField(default=0)
    last_status_code = pw.IntegerField(null=True)
    last_error = pw.TextField(null=True)
    last_attempt_at = pw.DateTimeField(null=True)
    next_attempt_at = pw.DateTimeField(null=True)
    # An attempt in flight holds the delivery until then, so that the sweep and a scheduled retry
    # never send the same delivery twice at once; a crash mid-attempt frees it when it passes.
    locked_until = pw.DateTimeField(null=True)
    created_at = pw.DateTimeField(default=clock.utcnow)
    completed_at = pw.DateTimeField(null=True)
    # The resource the event announces (`booking:book_...`) and its version then (events.resource_of):
    # of the deliveries of one endpoint and resource, only the lowest version not yet tried goes
    # out; see delivery._claim. None for events that announce no versioned resource.
    resource_key = pw.CharField(max_length=100, null=True)
    resource_version = pw.IntegerField(null=True)


class WebhookAttempt(BaseModel):
    delivery = pw.ForeignKeyField(WebhookDelivery, backref="attempt_rows", on_delete="CASCADE")
    number = pw.IntegerField()
    attempted_at = pw.DateTimeField()
    duration_ms = pw.IntegerField()
    status_code = pw.IntegerField(null=True)
    error = pw.TextField(null=True)
    response_excerpt = pw.TextField(null=True)
