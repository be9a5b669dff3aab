"""Deadlines with a stepped clock: a filing that keeps failing is FAILED and announced before its
deadline; a check-in never completed raises police.at_risk 6 hours before it, once."""

import datetime as dt
import zoneinfo

import pytest

from rentalcomply.core import clock
from rentalcomply.core.models import Booking, Event, Property
from rentalcomply.filings import deadlines, sweep
from tests.police.conftest import family, put_guests, travel_to

ROME = zoneinfo.ZoneInfo("Europe/Rome")


def rome_utc(day: dt.date, hour: int) -> dt.datetime:
    return (dt.datetime.combine(day, dt.time(hour), tzinfo=ROME)
            .astimezone(dt.timezone.utc).replace(tzinfo=None))


def events_of(kind):
    return [e for e in Event.select().order_by(Event.created_at) if e.type == kind]


@pytest.fixture
def police_env():
    return {"RENTALCOMPLY_POLICE_MAX_ATTEMPTS": 50}


def test_deadlines_per_country(settings, make_booking, italian_property):
    tomorrow = clock.today() + dt.timedelta(days=1)
    long_stay = make_booking(arrival=tomorrow, nights=3)
    one_night = make_booking(arrival=tomorrow + dt.timedelta(days=5), nights=1)
    assert deadlines.deadline(italian_property, long_stay) == rome_utc(tomorrow, 14) + dt.timedelta(hours=24)
    assert deadlines.deadline(italian_property, one_night) == \
        rome_utc(tomorrow + dt.timedelta(days=5), 14) + dt.timedelta(hours=6)
    spain = Property(country="ES", timezone="Europe/Madrid")
    assert deadlines.deadline(spain, long_stay) == rome_utc(tomorrow, 14) + dt.timedelta(hours=24)
    portugal = Property(country="PT", timezone="Europe/Lisbon")
    friday = dt.date(2026, 11, 27)
    stay = Booking(arrival_date=friday, departure_date=friday + dt.timedelta(days=5))
    # Three working days after Friday: Monday, Tuesday, Wednesday (Lisbon is UTC in winter).
    assert deadlines.deadline(portugal, stay) == dt.datetime(2026, 12, 2, 23, 59)
    assert deadlines.deadline(portugal, stay, "departure") == dt.datetime(2026, 12, 7, 23, 59)


def test_a_filing_that_keeps_failing_is_failed_and_announced_before_its_deadline(
        owner, double, make_booking):
    arrival = clock.today() + dt.timedelta(days=1)
    booking = make_booking(arrival=arrival, nights=1)  # one night: 6 hours to file
    deadline = rome_utc(arrival, 14) + dt.timedelta(hours=6)
    travel_to(rome_utc(arrival, 13))
    double.down()  # and it never comes back
    put_guests(owner, booking.id, family())
    assert Booking.get_by_id(booking.id).report_status == "QUEUED"
    while clock.utcnow() < deadline and Booking.get_by_id(booking.id).report_status == "QUEUED":
        clock.travel(dt.timedelta(minutes=2))
        sweep.run_due()
    failed = events_of("police.failed")
    assert len(failed) == 1
    assert failed[0].created_at < deadline - dt.timedelta(minutes=59)
    shown = owner.get(f"/api/v1/bookings/{booking.id}").json["data"]
    assert shown["report_status"] == "FAILED"
    assert "cannot be reached" in shown["report_error"] and "attempts" in shown["report_error"]
    attempts = owner.get(f"/api/v1/bookings/{booking.id}/police").json["data"]["filings"][0]["attempts"]
    assert 5 <= attempts < 50  # retried, with growing gaps, then given up in time
    clock.travel(dt.timedelta(hours=1))
    sweep.run_due()
    assert len(events_of("police.failed")) == 1  # announced once


def test_a_check_in_never_completed_raises_at_risk_six_hours_before_the_deadline(
        owner, make_booking):
    arrival = clock.today() + dt.timedelta(days=1)
    booking = make_booking(arrival=arrival, nights=3)
    deadline = rome_utc(arrival, 14) + dt.timedelta(hours=24)
    travel_to(deadline - dt.timedelta(hours=6, minutes=5))
    sweep.run_due()
    assert events_of("police.at_risk") == []
    clock.travel(dt.timedelta(minutes=6))
    sweep.run_due()
    at_risk = events_of("police.at_risk")
    assert len(at_risk) == 1 and at_risk[0].data["id"] == booking.id
    assert at_risk[0].data["report_status"] == "PENDING"
    assert at_risk[0].data["police"]["deadline"] == clock.iso(deadline)
    clock.travel(dt.timedelta(hours=1))
    sweep.run_due()
    assert len(events_of("police.at_risk")) == 1


def test_a_filed_booking_is_never_at_risk(owner, double, make_booking):
    arrival = clock.today() + dt.timedelta(days=1)
    booking = make_booking(arrival=arrival, nights=3)
    put_guests(owner, booking.id, family())
    travel_to(rome_utc(arrival, 14) + dt.timedelta(hours=20))
    sweep.run_due()
    assert events_of("police.at_risk") == []
    assert Booking.get_by_id(booking.id).report_status == "SUBMITTED"
