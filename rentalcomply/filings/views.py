"""What the API, the dashboard and the morning e-mail show of the filings: a filing, a booking's
filings, and the bookings that need a person (at risk, held)."""

from __future__ import annotations

from rentalcomply.core import clock
from rentalcomply.core.models import Booking
from rentalcomply.filings.models import Filing


def filing_view(row: Filing) -> dict:
    return {
        "id": row.id,
        "kind": row.kind,
        "connector": row.authority,
        "status": row.status,
        "deadline": clock.iso(row.deadline),
        "attempts": row.attempts,
        "next_attempt_at": clock.iso(row.next_attempt_at),
        "reference": row.reference,
        "guests": list(row.guests or []),
        "error": row.error or row.held_reason,
        "file_ready": bool(row.file_sealed),
        "receipt_kept": bool(row.receipt_sealed),
        "at_risk_at": clock.iso(row.at_risk_at),
        "submitted_at": clock.iso(row.submitted_at),
        "version": row.version,
    }


def filings_of(booking_id: str) -> list[Filing]:
    return list(Filing.select().where(Filing.booking == booking_id)
                .order_by(Filing.created_at, Filing.kind))


def at_risk_bookings(account_id: str) -> list[Booking]:
    """Bookings whose filing was announced at risk (its deadline 6 hours away with nothing
    filed) and is still not filed; shown as AT_RISK."""
    return _bookings_with(account_id, Filing.at_risk_at.is_null(False)
                          & Filing.status.not_in(("submitted", "failed", "rejected")), "AT_RISK")


def held_bookings(account_id: str) -> list[Booking]:
    """Bookings whose filing is held (a guest's value has no code in a table that is not the
    authority's whole one, such as INE's shipped list: engine.hold); shown as HELD with the
    reason."""
    return _bookings_with(account_id, Filing.status == "held", "HELD")


def _bookings_with(account_id: str, filing_condition, shown_as: str) -> list[Booking]:
    found = list(Booking.select().join(Filing, on=(Filing.booking == Booking.id))
                 .where((Booking.account == account_id) & filing_condition
                        & (Booking.status != "cancelled"))
                 .order_by(Booking.arrival_date, Booking.id).distinct())
    for booking in found:
        booking.report_status = shown_as  # for display only; never saved
    return found
