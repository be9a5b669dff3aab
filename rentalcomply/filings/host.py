"""What the host does with a booking's filings: file again, mark a hand-filed file filed, fetch
the built file (through a short-lived signed link) or the authority's receipt."""

from __future__ import annotations

from rentalcomply.bookings import service as bookings
from rentalcomply.core import clock, events, sealing, signed_links
from rentalcomply.core.db import atomic
from rentalcomply.core.errors import NotFound, PoliceNotReady, ValidationError
from rentalcomply.core.models import Booking, Property
from rentalcomply.filings import receipts as day_receipts
from rentalcomply.filings import registry
from rentalcomply.filings.deadlines import deadline
from rentalcomply.filings.engine import DOCUMENT_PURPOSE, REFERENCE_MAX, emit, save_booking, save_filing
from rentalcomply.filings.models import Filing
from rentalcomply.filings.views import filing_view, filings_of

LINK_PURPOSE = "police-file"


def booking_and_property(account_id: str, booking_id: str) -> tuple[Booking, Property]:
    booking = bookings.get_booking(account_id, booking_id)
    return booking, Property.get_by_id(booking.property_id)


def refile(account_id: str, booking_id: str) -> dict:
    """File again after a rejection (the host fixed the data) or a failure: guests already
    accepted are not sent again."""
    with atomic():
        booking, prop = booking_and_property(account_id, booking_id)
        if prop.police_connector == "none":
            raise PoliceNotReady("The property files nothing with the police (connector none).")
        if booking.status == "cancelled":
            raise PoliceNotReady("The booking is cancelled.")
        rows = [r for r in Filing.select().where(Filing.booking == booking.id)
                if r.status in ("rejected", "failed", "ready", "held")]
        if booking.checkin_status != "COMPLETED":  # only a side filing can be filed before it
            side_kinds = registry.side_kinds()
            rows = [r for r in rows if r.kind in side_kinds]
            if not rows:
                raise PoliceNotReady("The check-in is not completed: there is nothing to file yet.")
        if not rows:
            raise PoliceNotReady(f"Nothing to file again: the filing is {booking.report_status}.")
        for row in rows:
            save_filing(row, status="queued", authority=prop.police_connector, attempts=0,
                        next_attempt_at=clock.utcnow(), error=None, held_reason=None,
                        sending_since=None, remote_id=None)
        save_booking(booking, report_status="QUEUED", report_error=None)
        events.wake_after_commit()  # filed at once after the commit (filings/tasks.py)
    return police_view(account_id, booking_id)


def mark_filed(account_id: str, booking_id: str, reference: str | None,
               kind: str | None = None) -> dict:
    """The host uploaded the file by hand (`file` connector, the Mossos' file), or typed the
    party into the authority's portal (a filing held for that, the Ertzaintza's): SUBMITTED.
    A side filing (Spain's reservation) leaves the booking's own status alone. `kind`: which of
    the booking's filings (the oldest awaiting the host when None)."""
    reference = (reference or "").strip() or None
    if reference and len(reference) > REFERENCE_MAX:
        raise ValidationError("reference", f"must be at most {REFERENCE_MAX} characters")
    with atomic():
        booking, prop = booking_and_property(account_id, booking_id)
        query = Filing.select().where((Filing.booking == booking.id) & awaits_the_host())
        if kind is not None:
            query = query.where(Filing.kind == kind)
        row = query.order_by(Filing.created_at).first()
        if row is None:
            raise PoliceNotReady("No police file awaits filing for this booking.")
        now = clock.utcnow()
        save_filing(row, status="submitted", submitted_at=now, reference=reference,
                    guests=[{"index": i, "accepted": True, "code": None, "message": None}
                            for i in range(booking.guest_count)])
        side = registry.side_kinds()
        if row.kind in side:  # what follows it (a reservation's cancellation: sent again)
            registry.of_country(prop.country).accepted(booking, prop, row)
        elif not Filing.select().where(
                (Filing.booking == booking.id) & Filing.kind.not_in(list(side))
                & awaits_the_host()).exists():
            save_booking(booking, report_status="SUBMITTED", report_error=None)
        emit(booking, "police.submitted", row)
    return police_view(account_id, booking_id)


def awaits_the_host():
    """The filings the host marks filed: a built file awaiting upload, or one held to be typed
    into the authority's portal (registry.hand_entry_names)."""
    hand = registry.hand_entry_names()
    waiting = Filing.status == "ready"
    if hand:
        waiting |= (Filing.status == "held") & Filing.authority.in_(list(hand))
    return waiting


def file_link(settings, account_id: str, booking_id: str, kind: str = "arrival") -> dict:
    booking, _ = booking_and_property(account_id, booking_id)
    row = Filing.get_or_none((Filing.booking == booking.id) & (Filing.kind == kind))
    if row is None or not row.file_sealed:
        raise PoliceNotReady("No police file is built for this booking yet.")
    return signed_file_link(settings, account_id, row)


def signed_file_link(settings, account_id: str, row: Filing) -> dict:
    """A fresh one-hour signed link of a filing's built file (the booking's police file, the
    filings list): the one link its download route checks."""
    query, expires_at = signed_links.mint(LINK_PURPOSE, _link_fields(account_id, row.id),
                                          settings.police.link_lifetime_seconds)
    url = (f"{settings.server.public_url}/files/police/{account_id}/{row.id}?"
           + "&".join(f"{name}={value}" for name, value in query.items()))
    return {"download_url": url, "expires_at": clock.iso(expires_at), "filename": row.file_name}


def _link_fields(account_id: str, filing_id: str) -> dict[str, str]:
    return {"account": account_id, "filing": filing_id}


def open_signed_file(account_id: str, filing_id: str, query: dict) -> tuple[bytes, str, str]:
    signed_links.check(LINK_PURPOSE, _link_fields(account_id, filing_id), query)
    row = Filing.get_or_none((Filing.id == filing_id) & (Filing.account == account_id))
    if row is None or not row.file_sealed:
        raise NotFound("The police file no longer exists.")
    return (sealing.unseal(DOCUMENT_PURPOSE + row.id, row.file_sealed), row.file_name,
            row.file_type or "application/octet-stream")


def receipt(account_id: str, booking_id: str, kind: str = "arrival") -> tuple[bytes, str]:
    booking, _ = booking_and_property(account_id, booking_id)
    row = Filing.get_or_none((Filing.booking == booking.id) & (Filing.kind == kind))
    if row is None or not row.receipt_sealed:
        raise NotFound("No receipt is kept for this filing.")
    return (sealing.unseal(DOCUMENT_PURPOSE + row.id + ":receipt", row.receipt_sealed),
            row.receipt_type or "application/octet-stream")


def receipts_view(settings, account_id: str, booking_id: str) -> dict:
    booking, _ = booking_and_property(account_id, booking_id)
    return {"booking_id": booking.id,
            "receipts": day_receipts.booking_receipts(settings, account_id, booking)}


def police_view(account_id: str, booking_id: str) -> dict:
    booking, prop = booking_and_property(account_id, booking_id)
    return {
        "booking_id": booking.id,
        "connector": prop.police_connector,
        "report_status": booking.report_status,
        "report_error": booking.report_error,
        "deadline": clock.iso(deadline(prop, booking)) if prop.police_connector != "none" else None,
        "filings": [filing_view(row) for row in filings_of(booking.id)],
    }
