"""What the worker does each minute (`run_due`): queue the filings of completed check-ins and
each authority's own work, recover interrupted calls, attempt what is due, and announce
`police.at_risk` before a deadline; and the daily purge of built files."""

from __future__ import annotations

import datetime as dt

from peewee import fn

from rentalcomply.checkin.retention import Retention
from rentalcomply.core import clock, sealing
from rentalcomply.core.db import atomic
from rentalcomply.core.models import Booking, Property
from rentalcomply.filings import periods, registry
from rentalcomply.filings.deadlines import deadline
from rentalcomply.filings.engine import (attempt, emit, filing_row, locked,
                                         recover_interrupted, save_booking, save_filing)
from rentalcomply.filings.models import Filing
from rentalcomply.filings.retention import past_period_filings
from rentalcomply.filings.party import guests_of

AT_RISK_BEFORE = dt.timedelta(hours=6)


def queue_completed() -> list[str]:
    """Queue a filing for every booking whose check-in completed while it was PENDING (the
    check-in sets PENDING when it completes); filed at once, whatever the deadline left."""
    ids = [booking_id for (booking_id,) in
           Booking.select(Booking.id).where((Booking.report_status == "PENDING")
                                            & (Booking.checkin_status == "COMPLETED")).tuples()]
    ids += _arrivals_behind_a_side_filing()
    queued = []
    for booking_id in ids:
        with atomic():
            booking = Booking.get_or_none(Booking.id == booking_id)
            if booking is None or booking.checkin_status != "COMPLETED" or not (
                    booking.report_status == "PENDING" or arrival_not_started(booking)):
                continue
            prop = Property.get_by_id(booking.property_id)
            if prop.police_connector == "none" or booking.status == "cancelled" \
                    or _nobody_to_file(booking, prop):
                save_booking(booking, report_status="NOT_REQUIRED", report_error=None)
                continue
            row = filing_row(booking, prop)
            if row.status in ("waiting", "rejected", "failed"):
                save_filing(row, status="queued", authority=prop.police_connector,
                            next_attempt_at=clock.utcnow(), error=None)
            save_booking(booking, report_status="QUEUED", report_error=None)
            queued.append(row.id)
    return queued


def _nobody_to_file(booking: Booking, prop: Property) -> bool:
    """A party the authority does not want (Portugal: its own citizens): no filing is made (and
    none can fail)."""
    authority = registry.of_country(prop.country)
    try:
        guests = guests_of(booking, prop.country)
    except sealing.Unsealable:
        return False  # the attempt says why, where a person sees it
    if not guests or not authority.nothing_to_file(guests):
        return False
    Filing.delete().where((Filing.booking == booking.id) & (Filing.status == "waiting")).execute()
    return True


def due_filings(now: dt.datetime | None = None) -> list[str]:
    now = now or clock.utcnow()
    return [fid for (fid,) in Filing.select(Filing.id).where(
        Filing.status.in_(("queued", "polling")) & (Filing.next_attempt_at <= now)
        & Filing.booking.is_null(False))  # a period filing's attempt is periods.py's
        .order_by(Filing.deadline).tuples()]


def announce_at_risk(now: dt.datetime | None = None) -> list[str]:
    """`police.at_risk`, once per filing, when its deadline is 6 hours away (or less, or
    passed) and nothing is filed yet: check-in not completed, or the filing not yet accepted. A
    stay imported after its deadline is announced too, at once: the window before the deadline
    is not the only time a person can still act."""
    now = now or clock.utcnow()
    today = now.date()
    announced = []
    candidates = (Booking.select(Booking.id)
                  .where(Booking.report_status.in_(("PENDING", "QUEUED", "REJECTED", "FAILED"))
                         & (Booking.status != "cancelled") & (Booking.is_block == False)  # noqa: E712
                         & (Booking.arrival_date <= today + dt.timedelta(days=2))
                         & (Booking.arrival_date >= today - dt.timedelta(days=8))))
    for (booking_id,) in candidates.tuples():
        booking = Booking.get_by_id(booking_id)
        prop = Property.get_by_id(booking.property_id)
        if prop.police_connector == "none":
            continue
        if booking.report_status in ("REJECTED", "FAILED") and not arrival_not_started(booking):
            continue  # the arrival's own refusal or failure was announced; a side filing's is not it
        due = deadline(prop, booking)
        if now < due - AT_RISK_BEFORE:
            continue
        with atomic():
            booking = Booking.get_by_id(booking_id)
            row = filing_row(booking, prop)
            if row.at_risk_at is not None or row.status in ("submitted", "failed", "rejected"):
                continue
            save_filing(row, at_risk_at=now)
            emit(booking, "police.at_risk", row)
            announced.append(booking_id)
    for authority in registry.authorities():
        announced += authority.at_risk(now)
    return announced


def side_filings_at_risk(kinds: tuple[str, ...], now: dt.datetime) -> list[str]:
    """`police.at_risk`, once, for side filings (`kinds`) not yet accepted 6 hours before their
    deadline (an authority's at_risk hook calls it with its own side kinds)."""
    announced = []
    rows = (Filing.select(Filing.id)
            .join(Booking, on=(Filing.booking == Booking.id))
            .where(Filing.kind.in_(kinds)
                   # `ready`: a file built for the host (the `file` connector) not uploaded yet
                   & Filing.status.in_(("waiting", "queued", "polling", "ready"))
                   & Filing.at_risk_at.is_null() & (Booking.status == "confirmed")
                   & (Filing.deadline > now)
                   & (Filing.deadline <= now + AT_RISK_BEFORE)))
    for (filing_id,) in rows.tuples():
        with atomic():
            row = locked(filing_id)
            if row is None or row.at_risk_at is not None:
                continue
            booking = Booking.get_by_id(row.booking_id)
            save_filing(row, at_risk_at=now)
            emit(booking, "police.at_risk", row)
            announced.append(booking.id)
    return announced


def arrival_status(booking: Booking) -> str:
    """The booking's report status as its traveller report (arrival) alone makes it."""
    arrival = Filing.get_or_none((Filing.booking == booking.id) & (Filing.kind == "arrival"))
    status = arrival.status if arrival is not None else "waiting"
    return {"waiting": "PENDING", "submitted": "SUBMITTED", "rejected": "REJECTED",
            "failed": "FAILED"}.get(status, "QUEUED")


def arrival_not_started(booking: Booking) -> bool:
    """A side filing's state shows on the booking (REJECTED, FAILED; QUEUED when re-filed) while
    its traveller report has not started: a completed check-in is still filed."""
    return booking.report_status in ("REJECTED", "FAILED", "QUEUED") and arrival_status(booking) == \
        "PENDING" and Filing.select().where(
            (Filing.booking == booking.id) & Filing.kind.in_(registry.side_kinds())).exists()


def _arrivals_behind_a_side_filing() -> list[str]:
    side, arrival = Filing.alias(), Filing.alias()
    return [booking_id for (booking_id,) in Booking.select(Booking.id).where(
        Booking.report_status.in_(("REJECTED", "FAILED", "QUEUED"))
        & (Booking.checkin_status == "COMPLETED")
        & fn.EXISTS(side.select(side.id).where(
            (side.booking == Booking.id) & side.kind.in_(registry.side_kinds())))
        & ~fn.EXISTS(arrival.select(arrival.id).where(
            (arrival.booking == Booking.id) & (arrival.kind == "arrival")
            & (arrival.status != "waiting")))).tuples()]


def work_waiting() -> bool:
    """Whether a run has something to do now (asked after every commit that emitted events)."""
    return (Booking.select(Booking.id).where((Booking.report_status == "PENDING")
                                            & (Booking.checkin_status == "COMPLETED")).exists()
            or bool(due_filings()) or any(a.work_waiting() for a in registry.authorities())
            or periods.work_waiting())


def _follow_ups() -> list[str]:
    return [fid for authority in registry.authorities() for fid in authority.follow_ups()]


def run_due() -> dict[str, int]:
    """Everything the worker does each minute, in order."""
    _follow_ups()
    queued = queue_completed() + [fid for a in registry.authorities() for fid in a.queue_work()]
    recovered = recover_interrupted()
    due = due_filings()
    attempted = [attempt(fid) for fid in due]
    _follow_ups()  # a batch accepted just now, of a booking cancelled meanwhile
    # What an outcome just now made due (that cancellation; a reservation sent again once the
    # cancellation of its old dates was accepted) goes in the same run.
    attempted += [attempt(fid) for fid in due_filings() if fid not in due]
    at_risk = announce_at_risk()
    # The period filings (statistics, tax returns): made from their period's first day, queued
    # once it ends, attempted, announced at risk (periods.py).
    in_periods = periods.run_due()
    return {"queued": len(queued), "recovered": len(recovered),
            "attempted": sum(1 for a in attempted if a), "at_risk": len(at_risk),
            **in_periods}


def purge_files(retention) -> int:
    """Erase built files (they hold the guests' identity) with the guest data, after the
    retention of the property's country (`checkin.retention.Retention`; a number is days for
    every country); receipts and outcomes stay. A period's file (its statistics, its tax return)
    goes once its period's last day is as far past as a stay's departure."""
    past = Retention.of(retention).past(clock.today())
    stale = [fid for (fid,) in Filing.select(Filing.id)
             .join(Booking, on=(Filing.booking == Booking.id))
             .join(Property, on=(Booking.property == Property.id))
             .where(Filing.file_sealed.is_null(False) & past)
             .tuples()]
    stale += past_period_filings(retention, Filing.file_sealed)
    for filing_id in stale:
        with atomic():
            Filing.update(file_sealed=None, updated_at=clock.utcnow()).where(
                Filing.id == filing_id).execute()
    return len(stale)


