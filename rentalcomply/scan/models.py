"""What scanning keeps: the owner's choice to keep document images, and the images kept (sealed).

Nothing here unless the owner turned keeping on; with it off a scan leaves no trace beyond the
fields the guest confirms.
"""

from __future__ import annotations

import peewee as pw

from rentalcomply.core import clock
from rentalcomply.core.models import Account, BaseModel, Booking


class ScanSetting(BaseModel):
    account = pw.ForeignKeyField(Account, primary_key=True, on_delete="CASCADE")
    keep_images = pw.BooleanField(default=False)
    updated_at = pw.DateTimeField(default=clock.utcnow)

    class Meta:
        table_name = "scan_setting"


class DocumentImage(BaseModel):
    """A photo of a guest's document, sealed for its booking (core/sealing.py), erased with the
    stay's guest data at the end of the retention (checkin/service.py purge_guest_data). One per
    guest of a booking: a re-scan replaces it (migration 0036)."""
    booking = pw.ForeignKeyField(Booking, on_delete="CASCADE")
    account = pw.ForeignKeyField(Account, on_delete="CASCADE")
    guest_index = pw.IntegerField()
    media_type = pw.CharField(max_length=32)
    image_sealed = pw.TextField()
    created_at = pw.DateTimeField(default=clock.utcnow)

    class Meta:
        table_name = "document_image"
        indexes = ((("booking", "guest_index"), True),)


class DocumentFlag(BaseModel):
    """A scanned document that has expired, or expires before the stay's end: the host sees it on
    the booking's page. The latest scan of a guest's document replaces the flag (or clears it)."""
    booking = pw.ForeignKeyField(Booking, on_delete="CASCADE")
    guest_index = pw.IntegerField()
    problem = pw.CharField(max_length=32)  # expired, expires_during_stay
    expiry_date = pw.DateField()
    created_at = pw.DateTimeField(default=clock.utcnow)

    class Meta:
        table_name = "document_flag"
        indexes = ((("booking", "guest_index"), True),)
