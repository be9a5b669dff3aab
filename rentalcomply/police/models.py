"""Police filing: each property's connector settings and sealed credentials, and one row per
filing of a booking (its kind: arrival, departure, cancellation) with its outcome."""

from __future__ import annotations

import peewee as pw

from rentalcomply.core import clock
from rentalcomply.core.models import Account, Booking, JSONField, Property, Versioned, BaseModel


class PoliceSettings(BaseModel):
    """Per property: the connector's non-secret settings and its credentials, sealed (AES-GCM,
    core/sealing.py) as one JSON object for this property alone; never shown back."""

    property = pw.ForeignKeyField(Property, primary_key=True, on_delete="CASCADE")
    account = pw.ForeignKeyField(Account, on_delete="CASCADE")
    settings = JSONField(default=dict)
    credentials_sealed = pw.TextField(null=True)
    # The names of the credentials set, in clear: what the views show.
    credential_names = JSONField(default=list)
    updated_at = pw.DateTimeField(default=clock.utcnow)


class PoliceFiling(Versioned):
    id = pw.CharField(primary_key=True, max_length=32)
    account = pw.ForeignKeyField(Account, on_delete="CASCADE")
    booking = pw.ForeignKeyField(Booking, on_delete="CASCADE")
    kind = pw.CharField(max_length=16, default="arrival")
    connector = pw.CharField(max_length=32)
    # waiting (check-in not completed) -> queued -> sending -> submitted | rejected | failed;
    # polling (an asynchronous outcome awaited); ready (a file for the host to upload by hand).
    status = pw.CharField(max_length=16, default="waiting")
    deadline = pw.DateTimeField()
    attempts = pw.IntegerField(default=0)
    next_attempt_at = pw.DateTimeField(null=True, index=True)
    # Set, and committed, before the call to the authority; cleared with its outcome. A row still
    # "sending" after a crash is recovered per connector (see service.recover_interrupted).
    sending_since = pw.DateTimeField(null=True)
    remote_id = pw.CharField(max_length=100, null=True)
    reference = pw.CharField(max_length=200, null=True)
    guests = JSONField(default=list)          # per guest: index, accepted, code, message
    error = pw.TextField(null=True)
    receipt_sealed = pw.TextField(null=True)
    receipt_type = pw.CharField(max_length=100, null=True)
    file_sealed = pw.TextField(null=True)
    file_name = pw.CharField(max_length=200, null=True)
    file_type = pw.CharField(max_length=100, null=True)
    at_risk_at = pw.DateTimeField(null=True)
    submitted_at = pw.DateTimeField(null=True)
    created_at = pw.DateTimeField(default=clock.utcnow)
    updated_at = pw.DateTimeField(default=clock.utcnow)

    class Meta:
        indexes = ((("booking", "kind"), True), (("status", "deadline"), False))


class PoliceCodeTable(BaseModel):
    """One code table of an authority as loaded (`IT/comuni`, `ES/municipios`...): where it came
    from, when, and its `version`, which grows with every load. Every process reads this small
    row before using its copy of the table in memory and reloads the rows when it changed, so a
    refresh made anywhere (CLI, worker, another server) is used from the next filing on."""

    id = pw.CharField(primary_key=True, max_length=48)     # "<country>/<table>"
    country = pw.CharField(max_length=2)
    name = pw.CharField(max_length=32)      # comuni, stati, documenti, tipo_alloggiato...
    version = pw.IntegerField(default=1)
    source = pw.CharField(max_length=300)
    loaded_at = pw.DateTimeField(default=clock.utcnow)
    row_count = pw.IntegerField(default=0)


class PoliceCode(BaseModel):
    """One code of an authority's table, with the last day it is valid (None: in force). The
    authority's tables give no start of validity: a code is valid up to `valid_to`."""

    id = pw.AutoField()
    table = pw.ForeignKeyField(PoliceCodeTable, on_delete="CASCADE", column_name="table_id")
    code = pw.CharField(max_length=64)
    name = pw.CharField(max_length=300)
    province = pw.CharField(max_length=8, default="")
    valid_to = pw.DateField(null=True)

    class Meta:
        indexes = ((("table", "code"), False),)
