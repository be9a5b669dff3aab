"""Tax reports in the dashboard: generate, download, mark as filed; due and overdue; the amount
kept on cancelling."""

from __future__ import annotations

import datetime as dt

from rentalcomply.bookings import service as bookings
from rentalcomply.bookings.fees import FeeRates
from rentalcomply.core import clock
from rentalcomply.core.activity import Activity
from rentalcomply.core.db import atomic
from rentalcomply.core.models import Booking
from rentalcomply.properties import service as properties
from rentalcomply.reports import generation, periods
from rentalcomply.reports.models import Report


def _generate(anna, period):
    page = anna.get("/dashboard/reports")
    return anna.post("/dashboard/reports", {"csrf": anna.csrf(page), "period": period}, status=303)


def test_a_report_is_generated_downloaded_and_marked_as_filed(anna, account_a):
    # Last month, closed: a report of the month still running is provisional, never filed.
    period = (clock.today().replace(day=1) - dt.timedelta(days=1)).strftime("%Y-%m")
    code = "rep_" + period.replace("-", "_")
    location = _generate(anna, period).headers["Location"]
    assert location == f"/dashboard/reports/{code}?done=generating"
    # Made at once here: the page says so, and its address forgets "being made".
    page = anna.get(location, status=303).follow()
    assert page.request.path_qs == f"/dashboard/reports/{code}"
    assert "Download PDF" in page.text and Report.get().status == "completed"
    assert "being made" not in page.text
    for fmt, start in (("pdf", b"%PDF"), ("xml", b"<?xml"), ("csv", b"\xef\xbb\xbf")):
        link = anna.get(f"/dashboard/reports/{code}/download/{fmt}", status=303).headers["Location"]
        assert link.startswith(f"/files/reports/{account_a}/{code}.{fmt}?")
        file = anna.get(link)
        assert file.body.startswith(start) and "attachment" in file.headers["Content-Disposition"]
    anna.post(f"/dashboard/reports/{code}/submission", {"csrf": anna.csrf(page), "reference": ""},
              status=400)
    anna.post(f"/dashboard/reports/{code}/submission",
              {"csrf": anna.csrf(page), "reference": "ΑΑΔΕ-2026-000123"}, status=303)
    report = Report.get()
    assert report.status == "submitted" and report.submission_reference == "ΑΑΔΕ-2026-000123"
    assert [a.action for a in Activity.select().order_by(Activity.created_at)] == [
        "report.generate", "report.submitted"]
    listing = anna.get("/dashboard/reports").text
    assert "Filed" in listing and f"/dashboard/reports/{code}/download/pdf" in listing


def test_a_period_not_begun_is_refused_with_the_domains_message(anna):
    response = anna.post("/dashboard/reports", {"csrf": anna.csrf(anna.get("/dashboard/reports")),
                                                "period": "2999-01"}, status=400)
    assert "aria-invalid" in response.text and Report.select().count() == 0


def test_another_accounts_report_is_404(anna, boris, account_b):
    period = clock.today().strftime("%Y-%m")
    _generate(boris, period)
    code = "rep_" + period.replace("-", "_")
    anna.get(f"/dashboard/reports/{code}", status=404)
    anna.get(f"/dashboard/reports/{code}/download/pdf", status=404)
    anna.post(f"/dashboard/reports/{code}/submission",
              {"csrf": anna.csrf(anna.get("/dashboard/reports")), "reference": "x"}, status=404)
    assert code not in anna.get("/dashboard/reports").text


def test_today_lists_reports_overdue_or_due_within_five_days(anna, account_a):
    today = periods.local_today()
    last = today.replace(day=1) - dt.timedelta(days=1)
    before = last.replace(day=1) - dt.timedelta(days=1)
    for day in (last, before):
        generation.request_generation(account_a, day.year, day.month)
    text = anna.get("/dashboard/today").text
    needs = text[text.index("Needs a person"):text.index("Arrivals, next 7 days")]
    # The month before last was due on the 20th of last month: overdue.
    assert f"/dashboard/reports/rep_{before.year:04d}_{before.month:02d}" in needs
    assert "overdue" in needs


def test_cancelling_with_an_amount_kept_and_correcting_it(anna, settings, account_a):
    prop = properties.create_property(account_a, name="Sea View", address="Akti 1")
    arrival = clock.today() + dt.timedelta(days=20)
    with atomic():
        booking = bookings.create_booking(account_a, rates=FeeRates.from_settings(settings),
                                          property_id=prop.id, guest_name="Maria Rossi",
                                          arrival_date=arrival,
                                          departure_date=arrival + dt.timedelta(days=3),
                                          guest_count=2)
    page = anna.get(f"/dashboard/bookings/{booking.id}")
    bad = anna.post(f"/dashboard/bookings/{booking.id}/cancel",
                    {"csrf": anna.csrf(page), "amount_kept": "lots"}, status=400)
    assert "amount_kept-error" in bad.text and Booking.get_by_id(booking.id).status == "confirmed"
    anna.post(f"/dashboard/bookings/{booking.id}/cancel",
              {"csrf": anna.csrf(page), "amount_kept": "120,50", "confirm": "yes"}, status=303)
    cancelled = Booking.get_by_id(booking.id)
    assert cancelled.status == "cancelled" and cancelled.amount_kept_cents == 12050
    anna.post(f"/dashboard/bookings/{booking.id}/cancel",
              {"csrf": anna.csrf(page), "amount_kept": "80"}, status=303)
    assert Booking.get_by_id(booking.id).amount_kept_cents == 8000
    assert "€80.00" in anna.get(f"/dashboard/bookings/{booking.id}").text


def test_a_report_of_the_running_month_says_it_is_provisional(anna):
    period = clock.today().strftime("%Y-%m")
    # Made at once here: the page drops its "being made" address and shows the report.
    page = anna.get(_generate(anna, period).headers["Location"], status=303).follow()
    assert "provisional" in page.text and "The period is still running" in page.text
    assert "provisional" in anna.get("/dashboard/reports").text


def test_bookings_that_need_attention_are_named_and_filing_asks_for_file_anyway(
        anna, settings, account_a):
    prop = properties.create_property(account_a, name="Sea View", address="Akti 1")  # no AMA
    # Last month: a report of the running month is provisional, and never filed.
    arrival = (clock.today().replace(day=1) - dt.timedelta(days=1)).replace(day=1)
    with atomic():
        booking = bookings.create_booking(account_a, rates=FeeRates.from_settings(settings),
                                          property_id=prop.id, guest_name="Maria Rossi",
                                          arrival_date=arrival,
                                          departure_date=arrival + dt.timedelta(days=1),
                                          guest_count=2)
    period = arrival.strftime("%Y-%m")
    code = "rep_" + period.replace("-", "_")
    page = anna.get(_generate(anna, period).headers["Location"], status=303).follow()
    assert "Bookings that need attention" in page.text
    assert f'href="/dashboard/bookings/{booking.id}"' in page.text and "Maria Rossi" in page.text
    assert "no AADE registry number" in page.text and f'href="/dashboard/properties/{prop.id}"' \
        in page.text
    assert "File anyway" in page.text
    refused = anna.post(f"/dashboard/reports/{code}/submission",
                        {"csrf": anna.csrf(page), "reference": "R-1"}, status=409)
    assert "need attention" in refused.text and Report.get().status == "completed"
    anna.post(f"/dashboard/reports/{code}/submission",
              {"csrf": anna.csrf(page), "reference": "R-1", "anyway": "yes"}, status=303)
    assert Report.get().status == "submitted"
    greek = anna.get(f"/dashboard/reports/{code}?lang=el").text
    assert "Κρατήσεις που χρειάζονται προσοχή" in greek and "ΑΜΑ" in greek
