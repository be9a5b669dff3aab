"""The report row: one per account and period (`rep_YYYY_MM`, `rep_YYYY`)."""

from __future__ import annotations

import peewee as pw

from rentalcomply.core import clock
from rentalcomply.core.models import Account, BaseModel, JSONField, Versioned


class Report(Versioned):
    # `code` is the public id, unique within an account only (another account has its own
    # rep_2026_03), so the row has a private integer key.
    account = pw.ForeignKeyField(Account, on_delete="CASCADE")
    code = pw.CharField(max_length=16)
    year = pw.IntegerField()
    month = pw.IntegerField(null=True)
    status = pw.CharField(max_length=16, default="pending")
    booking_count = pw.IntegerField(default=0)
    nights = pw.IntegerField(default=0)
    total_revenue_cents = pw.IntegerField(default=0)
    net_revenue_cents = pw.IntegerField(default=0)
    climate_fee_total_cents = pw.IntegerField(default=0)
    cancellation_count = pw.IntegerField(default=0)
    amount_kept_cents = pw.IntegerField(default=0)
    needs_attention_count = pw.IntegerField(default=0)
    # {"store": "database", "pdf": {"name", "size"}, "xml": ..., "csv": ...}: the files are
    # ReportFile rows. Reports made by earlier versions: {"dir": <folder under
    # reports/<account>/>, ...}, files on disk.
    files = JSONField(null=True)
    error = pw.TextField(null=True)
    requested_at = pw.DateTimeField(null=True)
    generated_at = pw.DateTimeField(null=True)
    generation_count = pw.IntegerField(default=0)
    submitted_at = pw.DateTimeField(null=True)
    submission_reference = pw.CharField(max_length=100, null=True)
    due_soon_sent_at = pw.DateTimeField(null=True)
    # The files were made while the period was running: they hold the stays ended by `as_of`.
    provisional = pw.BooleanField(default=False)
    as_of = pw.DateField(null=True)
    # The generation's work, apart from `status` (a submitted report stays submitted while it is
    # regenerated): `queued`, `running` or None; the process holding it renews its lease.
    job = pw.CharField(max_length=16, null=True)
    lease_owner = pw.CharField(max_length=100, null=True)
    lease_expires_at = pw.DateTimeField(null=True)
    created_at = pw.DateTimeField(default=clock.utcnow)
    updated_at = pw.DateTimeField(default=clock.utcnow)

    class Meta:
        indexes = ((("account", "code"), True), (("account", "year", "month"), False))


class ReportFile(BaseModel):
    """One generated file of a report, sealed (core/sealing), in the database: every server
    process can serve it, and a backup of the database holds it."""

    report = pw.ForeignKeyField(Report, on_delete="CASCADE", backref="stored_files")
    format = pw.CharField(max_length=8)
    content = pw.TextField()  # sealed, ASCII
    size = pw.IntegerField()  # of the opened file

    class Meta:
        indexes = ((("report", "format"), True),)
