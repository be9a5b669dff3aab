"""The imports' own tables (migrations 0028_imports.py and 0042_listing_aliases.py make them)."""

from __future__ import annotations

import peewee as pw

from rentalcomply.core.models import Account, BaseModel, Property


class ImportPreview(BaseModel):
    """A file previewed in the dashboard, sealed for its account (core/sealing.py), kept until
    it is applied or a day has passed: the apply reads the very bytes that were previewed."""

    id = pw.CharField(primary_key=True, max_length=32)
    account = pw.ForeignKeyField(Account, on_delete="CASCADE")
    user_id = pw.CharField(max_length=32)
    sealed_file = pw.TextField()
    created_at = pw.DateTimeField(index=True)


class ListingAlias(BaseModel):
    """A channel's name of a listing (Airbnb's listing title, Booking.com's property or unit
    name) that is not the property's own name, as the host answered it once: every later file
    with that name goes to that property without asking (imports/listings.py)."""

    id = pw.CharField(primary_key=True, max_length=32)
    account = pw.ForeignKeyField(Account, on_delete="CASCADE")
    property = pw.ForeignKeyField(Property, on_delete="CASCADE")
    channel = pw.CharField(max_length=16)  # "airbnb" or "booking"
    title = pw.CharField(max_length=300)  # as the file writes it
    # The title with case, accents and spacing folded: what a file's name is compared with.
    folded = pw.CharField(max_length=300)
    created_at = pw.DateTimeField()

    class Meta:
        indexes = ((("account", "channel", "folded"), True),)
