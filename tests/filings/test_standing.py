"""Where a booking stands with the police as every page says it (filings/standing.py), on a frozen
clock: a stay whose guests never checked in goes from Pending to At risk to Deadline passed and
is listed for a person from 24 hours before its deadline, also when it was imported after the
deadline (and announced police.at_risk then, once); a held filing is Held though the
booking is stored QUEUED; a code hold is named by the guest and the value they typed."""

from __future__ import annotations

import datetime as dt

from rentalcomply.checkin import booking_links
from rentalcomply.checkin import service as checkin_service
from rentalcomply.checkin.models import Checkin
from rentalcomply.core import clock
from rentalcomply.core.models import Booking, Event
from rentalcomply.filings import standing, sweep
from rentalcomply.filings.models import Filing

ARRIVAL = dt.date(2030, 11, 20)  # Rome is UTC+1: due 21 Nov 14:00 local, 13:00 UTC
DUE = dt.datetime(2030, 11, 21, 13, 0)


def _at(moment: dt.datetime) -> None:
    clock.travel(moment - clock.utcnow())


def test_a_stay_never_checked_in_is_pending_then_at_risk_then_past_its_deadline(
        frozen_clock, make_booking, account_a, italian_property):
    _at(dt.datetime(2030, 11, 19, 9, 0))
    booking = make_booking(arrival=ARRIVAL)
    assert standing.shown_status(booking) == "PENDING"
    assert standing.unfiled(account_a) == []

    _at(DUE - dt.timedelta(hours=23))  # the evening before: in the next morning's e-mail
    assert standing.shown_status(Booking.get_by_id(booking.id)) == "AT_RISK"
    [item] = standing.unfiled(account_a)
    assert (item.booking.id, item.why, item.deadline, item.passed) == (
        booking.id, "not_checked_in", DUE, False)

    _at(DUE + dt.timedelta(minutes=1))
    assert standing.shown_status(Booking.get_by_id(booking.id)) == "OVERDUE"
    [item] = standing.unfiled(account_a)
    assert item.passed
    assert Booking.get_by_id(booking.id).report_status == "PENDING"  # shown, never stored


def test_a_stay_imported_after_its_deadline_is_listed_at_once(
        frozen_clock, make_booking, account_a, italian_property):
    _at(DUE + dt.timedelta(days=1))  # imported two days after the arrival
    booking = make_booking(arrival=ARRIVAL)
    sweep.run_due()  # the worker's minute: its at-risk window before the deadline is gone
    [item] = standing.unfiled(account_a)
    assert item.booking.id == booking.id and item.passed and item.deadline == DUE
    # Announced at once to webhooks too, and once only.
    sweep.run_due()
    assert [e.data["id"] for e in Event.select() if e.type == "police.at_risk"] == [booking.id]


def test_a_held_filing_is_held_though_the_booking_is_stored_queued_and_names_the_guest(
        frozen_clock, make_booking, account_a, italian_property):
    _at(dt.datetime(2030, 11, 19, 9, 0))
    booking = make_booking(arrival=ARRIVAL)
    booking_links.ensure_links([booking.id])
    party = {"guests": [{"first_name": "Javier", "last_name": "Ruiz",
                         "birth_municipality": "Dos Hermanas"},
                        {"first_name": "Lucía", "last_name": "Ruiz",
                         "document_issue_place": "Sevilla"}]}
    Checkin.update(guests_sealed=checkin_service._seal(booking.id, party)).where(
        Checkin.booking == booking.id).execute()
    reason = ("held: guest 1 birth_municipality has no code in the starter code tables; guest 2 "
              "document_issue_place has no code in the starter code tables; load the "
              "authority's tables: `rentalcomply police refresh-codes`")
    Filing.create(id="pf_held", account=account_a, booking=booking.id, kind="arrival",
                  authority="alloggiati", status="held", held_reason=reason, deadline=DUE)
    Booking.update(report_status="QUEUED", report_error=reason,
                   checkin_status="COMPLETED").where(Booking.id == booking.id).execute()
    booking = Booking.get_by_id(booking.id)
    assert standing.shown_status(booking) == "HELD"
    assert [(v.guest, v.field, v.value) for v in standing.held_values(booking, reason)] == [
        ("Javier Ruiz", "birth_municipality", "Dos Hermanas"),
        ("Lucía Ruiz", "document_issue_place", "Sevilla")]
    assert standing.unfiled(account_a) == []  # checked in: a hold is not a missing party


def test_a_cancelled_booking_keeps_its_stored_status(
        frozen_clock, make_booking, account_a, italian_property):
    _at(DUE + dt.timedelta(hours=2))
    booking = make_booking(arrival=ARRIVAL)
    Booking.update(status="cancelled", report_status="NOT_REQUIRED").where(
        Booking.id == booking.id).execute()
    assert standing.shown_status(Booking.get_by_id(booking.id)) == "NOT_REQUIRED"
    assert standing.unfiled(account_a) == []
