"""The imports' own table (migrations/0028_imports.py makes it)."""

from __future__ import annotations

import peewee as pw

from rentalcomply.core.models import Account, BaseModel


class ImportPreview(BaseModel):
    """A file previewed in the dashboard, sealed for its account (core/sealing.py), kept until
    it is applied or a day has passed: the apply reads the very bytes that were previewed."""

    id = pw.CharField(primary_key=True, max_length=32)
    account = pw.ForeignKeyField(Account, on_delete="CASCADE")
    user_id = pw.CharField(max_length=32)
    sealed_file = pw.TextField()
    created_at = pw.DateTimeField(index=True)
