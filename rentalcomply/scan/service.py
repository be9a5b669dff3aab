"""Scanning a guest's document: a photo in, the guest form's fields (or the reason there are none)
out. What the guest page and its script call; knows nothing of the web.

The rule above all holds here too: nothing is filled in unless every check digit and the
composite agree. A zone that fails is said to fail, with a tip, and the form stays for typing.
The photo is read in memory and dropped; it is kept (sealed) only when the account's owner keeps
document images (keeping.py). It is never logged, nor any field read from it.
"""

from __future__ import annotations

import dataclasses
import datetime as dt

from rentalcomply.core import clock
from rentalcomply.core.db import atomic
from rentalcomply.scan import images, keeping, prefill, reader
from rentalcomply.scan.models import DocumentFlag

# What the zone never holds: the guest types these (id-documents.md).
NOT_IN_THE_ZONE = ("birth_municipality", "birth_province", "birth_country",
                   "document_support_number", "document_issue_place", "address_street")

# The words (scan/words.py) an outcome may say.
MESSAGES = ("scan.read", "scan.failed", "scan.not_found", "scan.too_large", "scan.not_image",
            "scan.heic", "scan.no_file", "scan.limited")


@dataclasses.dataclass
class Outcome:
    status: str                       # read, failed, refused
    values: dict[str, str] = dataclasses.field(default_factory=dict)
    message: str = ""                 # a key of scan/words.py
    warning: str = ""                 # scan.expired / scan.expires_during_stay, or ""
    expiry: dt.date | None = None
    kept: bool = False


def enabled() -> bool:
    return reader.available()[0]


def scan_document(booking, guest_index: int, data: bytes) -> Outcome:
    """Read the document in `data` for guest `guest_index` of `booking`."""
    try:
        media_type = images.accept(data)
    except images.Refused as refused:
        return Outcome("refused", message=refused.key)
    try:
        reading = reader.read_image(data, today=clock.today())
    except reader.Unreadable:
        return Outcome("failed", message="scan.not_found")
    if not reading.valid:
        return Outcome("failed", message="scan.failed")
    outcome = Outcome("read", values=prefill.form_values(reading), message="scan.read")
    problem = prefill.expiry_problem(reading, clock.today(), booking.departure_date)
    if problem:
        outcome.warning = "scan." + problem
        outcome.expiry = dt.date.fromisoformat(reading.fields["expiry_date"])
    _flag(booking.id, guest_index, problem, outcome.expiry)
    outcome.kept = keeping.keep(booking, guest_index, data, media_type)
    return outcome


def _flag(booking_id: str, guest_index: int, problem: str | None, expiry: dt.date | None) -> None:
    """The host's line on the booking page: this scan's verdict replaces the guest's last."""
    with atomic():
        DocumentFlag.delete().where((DocumentFlag.booking == booking_id)
                                    & (DocumentFlag.guest_index == guest_index)).execute()
        if problem:
            DocumentFlag.create(booking=booking_id, guest_index=guest_index, problem=problem,
                                expiry_date=expiry)


def flags(booking_id: str) -> list[DocumentFlag]:
    """The booking's documents that expired or expire before departure, by guest."""
    return list(DocumentFlag.select().where(DocumentFlag.booking == booking_id)
                .order_by(DocumentFlag.guest_index))
