"""The filing engine's rows: one `Filing` per thing owed to an authority by a deadline, and each
property's settings and sealed credentials for the authority it files with."""

from __future__ import annotations

import peewee as pw

from rentalcomply.core import clock
from rentalcomply.core.models import Account, Booking, JSONField, Property, Versioned, BaseModel


class AuthoritySettings(BaseModel):
    """Per property: the connector's non-secret settings and its credentials, sealed (AES-GCM,
    core/sealing.py) as one JSON object for this property alone; never shown back."""

    property = pw.ForeignKeyField(Property, primary_key=True, on_delete="CASCADE")
    account = pw.ForeignKeyField(Account, on_delete="CASCADE")
    settings = JSONField(default=dict)
    credentials_sealed = pw.TextField(null=True)
    # The names of the credentials set, in clear: what the views show.
    credential_names = JSONField(default=list)
    updated_at = pw.DateTimeField(default=clock.utcnow)

    class Meta:
        table_name = "police_settings"  # the table of the first authorities, kept on upgrade


class Filing(Versioned):
    """Something owed to an authority by a deadline. Its subject is a booking (a guest
    registration, a reservation communication: `booking` set) or a property and a period (a
    monthly or yearly return: `period` "2026-03" or "2026", `booking` null).

    States (engine.py): waiting (its subject is not complete) -> queued -> sending -> submitted |
    rejected | failed; polling (the authority answers later); ready (a file for the host to upload
    by hand); held (we cannot be sure of a code: nothing is sent, `held_reason` says why)."""

    id = pw.CharField(primary_key=True, max_length=32)
    account = pw.ForeignKeyField(Account, on_delete="CASCADE")
    authority = pw.CharField(max_length=32)      # the registered connector's name
    kind = pw.CharField(max_length=16, default="arrival")
    booking = pw.ForeignKeyField(Booking, null=True, on_delete="CASCADE")
    property = pw.ForeignKeyField(Property, null=True, on_delete="CASCADE")
    period = pw.CharField(max_length=7, null=True)
    status = pw.CharField(max_length=16, default="waiting")
    deadline = pw.DateTimeField()
    attempts = pw.IntegerField(default=0)
    next_attempt_at = pw.DateTimeField(null=True, index=True)
    # Set, and committed, before the call to the authority; cleared with its outcome. A row still
    # "sending" after a crash is recovered per connector (engine.recover_interrupted).
    sending_since = pw.DateTimeField(null=True)
    remote_id = pw.CharField(max_length=100, null=True)
    reference = pw.CharField(max_length=200, null=True)
    guests = JSONField(default=list)          # the authority's answer per guest: index, accepted, code, message
    error = pw.TextField(null=True)
    held_reason = pw.TextField(null=True)
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
        indexes = ((("booking", "kind"), True), (("status", "deadline"), False),
                   (("account", "period"), False),
                   # One filing per property, authority, kind and period (a booking filing's
                   # null period never collides: NULLs are distinct in a unique index).
                   (("property", "authority", "kind", "period"), True))


class ObligationSettings(BaseModel):
    """Per property and authority owed other than the police (statistics, tax: a period
    authority, filings/obligations.py): its non-secret settings and its credentials, sealed for
    this property and authority alone (core/sealing.py); only their names are shown."""

    property = pw.ForeignKeyField(Property, on_delete="CASCADE")
    authority = pw.CharField(max_length=32)
    account = pw.ForeignKeyField(Account, on_delete="CASCADE")
    settings = JSONField(default=dict)
    credentials_sealed = pw.TextField(null=True)
    credential_names = JSONField(default=list)
    created_at = pw.DateTimeField(default=clock.utcnow)
    updated_at = pw.DateTimeField(default=clock.utcnow)

    class Meta:
        table_name = "obligation_settings"
        primary_key = pw.CompositeKey("property", "authority")


class PoliceAlert(BaseModel):
    """Per account: since when an alert of a refused or failed filing waits to be e-mailed to
    its owners, and when the last one went (at most one an hour; dashboard/police_alerts.py)."""

    account = pw.ForeignKeyField(Account, primary_key=True, on_delete="CASCADE")
    pending_since = pw.DateTimeField(null=True)
    last_sent_at = pw.DateTimeField(null=True)

    class Meta:
        table_name = "police_alert"


class PoliceReceipt(BaseModel):
    """An authority's receipt of one day's filings of a property (Alloggiati Web's `Ricevuta`:
    one PDF per web-service account and day, ready once the day has ended), fetched once by
    filings/receipts.py and kept sealed (core/sealing.py) until the police receipts' retention
    has passed. `pending` until fetched (retried with backoff), `kept`, or `failed` when the
    retries are spent (the host fetches it from the authority's site)."""

    id = pw.CharField(primary_key=True, max_length=32)
    account = pw.ForeignKeyField(Account, on_delete="CASCADE")
    property = pw.ForeignKeyField(Property, on_delete="CASCADE")
    authority = pw.CharField(max_length=32)
    # Whose receipt it is: the web-service user of the property's credentials when it was made
    # (a new user is a new account at the authority, with its own receipts).
    account_user = pw.CharField(max_length=100)
    day = pw.DateField()
    status = pw.CharField(max_length=16, default="pending")
    attempts = pw.IntegerField(default=0)
    next_attempt_at = pw.DateTimeField(null=True, index=True)
    error = pw.TextField(null=True)
    pdf_sealed = pw.TextField(null=True)
    content_type = pw.CharField(max_length=100, null=True)
    fetched_at = pw.DateTimeField(null=True)
    created_at = pw.DateTimeField(default=clock.utcnow)
    updated_at = pw.DateTimeField(default=clock.utcnow)

    class Meta:
        table_name = "police_receipt"
        indexes = ((("property", "authority", "day"), True),)


class PoliceReceiptFiling(BaseModel):
    """Which filings a day's receipt acknowledges: those the authority accepted that day."""

    receipt = pw.ForeignKeyField(PoliceReceipt, on_delete="CASCADE")
    filing = pw.ForeignKeyField(Filing, on_delete="CASCADE")
    # When the filing was last found on this day: a filing changed later is looked at again.
    linked_at = pw.DateTimeField(default=clock.utcnow)

    class Meta:
        table_name = "police_receipt_filing"
        primary_key = pw.CompositeKey("receipt", "filing")
