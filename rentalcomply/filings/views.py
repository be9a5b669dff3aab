"""What the API, the dashboard and the morning e-mail show of the filings: a filing, a booking's
filings, the bookings that need a person (at risk, held), and a period's filings per property
(the Reports page)."""

from __future__ import annotations

import datetime as dt

from peewee import fn

from rentalcomply.core import clock
from rentalcomply.core.models import Booking
from rentalcomply.filings.models import Filing

# How the Reports page counts a period's filings: what the authority took, what is held for a
# code or a set-up, what it refused; the rest (waiting for check-in, being sent, a file to upload,
# failed to send) are not filed yet.
OUTCOMES = {"submitted": "filed", "held": "held", "rejected": "refused"}
NOT_FILED = "not_filed"
# Never sent, and owed no more once the stay is cancelled: not counted.
UNSENT = ("waiting", "queued", "held", "ready")


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


def period_counts(account_id: str, first_day: dt.date, last_day: dt.date,
                  periods: tuple[str, ...] = ()) -> dict[str, dict[str, int]]:
    """Per property, its filings of the period by outcome (OUTCOMES, else NOT_FILED): those of
    the stays that overlap [first_day, last_day], as the Bookings list filters them (so its
    link shows the same stays), and the property's returns of `periods` ("2026-03", "2026").
    A cancelled stay's filings count only once something was sent."""
    counts: dict[str, dict[str, int]] = {}

    def add(property_id: str, status: str, number: int) -> None:
        outcome = OUTCOMES.get(status, NOT_FILED)
        mine = counts.setdefault(property_id, {"filed": 0, "held": 0, "refused": 0,
                                               NOT_FILED: 0})
        mine[outcome] += number

    stays = (Filing.select(Booking.property.alias("property_id"), Filing.status,
                           fn.COUNT(Filing.id).alias("number"))
             .join(Booking, on=(Filing.booking == Booking.id))
             .where((Filing.account == account_id) & (Booking.arrival_date <= last_day)
                    & (Booking.departure_date > first_day)
                    & ((Booking.status != "cancelled") | Filing.status.not_in(UNSENT)))
             .group_by(Booking.property, Filing.status).dicts())
    for row in stays:
        add(row["property_id"], row["status"], row["number"])
    if periods:
        returns = (Filing.select(Filing.property.alias("property_id"), Filing.status,
                                 fn.COUNT(Filing.id).alias("number"))
                   .where((Filing.account == account_id) & Filing.booking.is_null()
                          & Filing.period.in_(list(periods)) & Filing.property.is_null(False))
                   .group_by(Filing.property, Filing.status).dicts())
        for row in returns:
            add(row["property_id"], row["status"], row["number"])
    return counts
