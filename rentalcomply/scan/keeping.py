"""Keeping the photos of guests' documents: only when the account's owner turned it on.

Off by default, and for a reason: Spain's data protection agency holds that accommodation may not
keep copies of identity documents (shared/domain/id-documents.md, "Privacy"). When on, each photo
is sealed for its booking (AES-GCM under a key of its own purpose, core/sealing.py), kept in the
database (so in every backup) and erased with the stay's guest data when its retention ends.
"""

from __future__ import annotations

from rentalcomply.core import clock, sealing
from rentalcomply.core.db import atomic
from rentalcomply.core.models import Booking, Property
from rentalcomply.scan.models import DocumentFlag, DocumentImage, ScanSetting


def _purpose(booking_id: str) -> str:
    return f"document-image:{booking_id}"


def keeps_images(account_id: str) -> bool:
    row = ScanSetting.get_or_none(ScanSetting.account == account_id)
    return bool(row and row.keep_images)


def set_keep_images(account_id: str, keep: bool) -> None:
    with atomic():
        now = clock.utcnow()
        updated = (ScanSetting.update(keep_images=keep, updated_at=now)
                   .where(ScanSetting.account == account_id).execute())
        if not updated:
            ScanSetting.create(account=account_id, keep_images=keep, updated_at=now)


def keep(booking, guest_index: int, data: bytes, media_type: str) -> bool:
    """Seal and keep the photo if the booking's account keeps them; whether it was kept. It
    replaces the guest's photo kept before: the latest scan is the document the guest went on
    with, and older ones would only pile up (issue 35)."""
    if not keeps_images(booking.account_id):
        return False
    sealed = sealing.seal(_purpose(booking.id), data)  # before the transaction: it takes time
    with atomic():
        DocumentImage.delete().where((DocumentImage.booking == booking.id)
                                     & (DocumentImage.guest_index == guest_index)).execute()
        DocumentImage.create(booking=booking.id, account=booking.account_id,
                             guest_index=guest_index, media_type=media_type,
                             image_sealed=sealed)
    return True


def kept_images(booking_id: str) -> list[tuple[int, str, bytes]]:
    """(guest index, media type, the photo) of every photo kept for a booking."""
    return [(row.guest_index, row.media_type, sealing.unseal(_purpose(booking_id), row.image_sealed))
            for row in DocumentImage.select().where(DocumentImage.booking == booking_id)
            .order_by(DocumentImage.id)]


def erase(booking_ids) -> int:
    """Erase the photos (and the expiry flags) of these bookings, whose guest data is erased."""
    booking_ids = list(booking_ids)
    with atomic():
        DocumentFlag.delete().where(DocumentFlag.booking.in_(booking_ids)).execute()
        return DocumentImage.delete().where(DocumentImage.booking.in_(booking_ids)).execute()


def erase_past(past) -> int:
    """Erase the photos of stays past their retention (`past`: checkin.retention's condition on
    Booking joined with its Property)."""
    stale = set()
    for model in (DocumentImage, DocumentFlag):
        stale |= {booking_id for (booking_id,) in (
            model.select(model.booking).distinct()
            .join(Booking, on=(model.booking == Booking.id))
            .join(Property, on=(Booking.property == Property.id)).where(past).tuples())}
    return erase(stale) if stale else 0
