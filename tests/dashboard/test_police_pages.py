"""Police filings in the dashboard: at risk on Today, filing again, another account's booking."""

from __future__ import annotations

import datetime as dt

from rentalcomply.bookings import service as bookings
from rentalcomply.bookings.fees import FeeRates
from rentalcomply.core import clock
from rentalcomply.core.activity import Activity
from rentalcomply.core.db import atomic
from rentalcomply.core.models import Booking
from rentalcomply.filings.models import Filing
from rentalcomply.properties import service as properties


def _booking(settings, account_id, guest="Giulia Bianchi"):
    prop = properties.create_property(account_id, name="Casa Limone", address="Via Roma 1, Sorrento",
                                      country="IT", timezone="Europe/Rome")
    arrival = clock.today()
    with atomic():
        return bookings.create_booking(account_id, rates=FeeRates.from_settings(settings),
                                       property_id=prop.id, guest_name=guest, arrival_date=arrival,
                                       departure_date=arrival + dt.timedelta(days=3), guest_count=2)


def test_a_filing_announced_at_risk_needs_a_person_on_today(anna, settings, account_a):
    booking = _booking(settings, account_a)
    Filing.create(id="pf_test1", account=account_a, booking=booking.id, kind="arrival",
                        authority="alloggiati", status="waiting",
                        deadline=clock.utcnow() + dt.timedelta(hours=5), at_risk_at=clock.utcnow())
    text = anna.get("/dashboard/today").text
    needs = text[text.index("Needs a person"):text.index("Arrivals, next 7 days")]
    assert "Giulia Bianchi" in needs and "At risk" in needs
    assert Booking.get_by_id(booking.id).report_status != "AT_RISK"  # shown, never stored


def test_a_filing_held_for_the_code_tables_needs_a_person_on_today_with_its_reason(
        anna, settings, account_a):
    booking = _booking(settings, account_a)
    reason = ("held: guest 1 address_city: \u201cMelilla\u201d is not a municipality of INE's list "
              "(postcode 52001 is in a municipality the list in use lacks (52001)); the table in "
              "use is not the authority's whole list: load the authority's current tables")
    Filing.create(id="pf_test2", account=account_a, booking=booking.id, kind="arrival",
                        authority="alloggiati", status="held", error=reason,
                        deadline=clock.utcnow() + dt.timedelta(hours=20))
    Booking.update(report_status="QUEUED", report_error=reason).where(
        Booking.id == booking.id).execute()
    text = anna.get("/dashboard/today").text
    needs = text[text.index("Needs a person"):text.index("Arrivals, next 7 days")]
    assert "Giulia Bianchi" in needs and "Held" in needs
    assert "not the authority’s whole list" in needs and "goes out by itself" in needs


def test_filing_again_says_why_it_cannot_and_changes_nothing(anna, settings, account_a):
    booking = _booking(settings, account_a)
    page = anna.get(f"/dashboard/bookings/{booking.id}")
    refused = anna.post(f"/dashboard/bookings/{booking.id}/police/refile",
                        {"csrf": anna.csrf(page)}, status=409)
    assert "files nothing with the police" in refused.text
    assert Activity.select().count() == 0


def test_another_accounts_booking_cannot_be_filed_by_url(anna, settings, account_b):
    booking = _booking(settings, account_b)
    csrf = anna.csrf(anna.get("/dashboard/today"))
    anna.post(f"/dashboard/bookings/{booking.id}/police/refile", {"csrf": csrf}, status=404)
    anna.post(f"/dashboard/bookings/{booking.id}/police/filed", {"csrf": csrf}, status=404)
    anna.get(f"/dashboard/bookings/{booking.id}/police/file", status=404)
