"""Check-in on a booking's page: the guests with masked document numbers, the link, resending it
(a real e-mail to a loopback SMTP server)."""

from __future__ import annotations

import datetime as dt

import pytest

from rentalcomply.bookings import service as bookings
from rentalcomply.bookings.fees import FeeRates
from rentalcomply.checkin import service as checkin
from rentalcomply.core import clock
from rentalcomply.core.activity import Activity
from rentalcomply.core.db import atomic
from rentalcomply.core.models import Booking, Event
from rentalcomply.dashboard import users
from rentalcomply.properties import service as properties
from tests.checkin.conftest import greek_party, smtp_server  # noqa: F401 - the fixture
from tests.conftest import bootstrapped_settings
from tests.dashboard.conftest import DASHBOARD_ENV


@pytest.fixture
def settings(tmp_path, smtp_server):  # noqa: F811
    with bootstrapped_settings(tmp_path, RENTALCOMPLY_SMTP_HOST="127.0.0.1",
                               RENTALCOMPLY_SMTP_PORT=smtp_server.port,
                               RENTALCOMPLY_SERVER_PUBLIC_URL="https://stay.example.org",
                               **DASHBOARD_ENV) as settings:
        users.configure(settings)
        users.forget_failures()
        yield settings


def _booking(settings, account_id, email="maria@example.com"):
    prop = properties.create_property(account_id, name="Villa Anemoi", address="Oia, Santorini",
                                      max_guests=6)
    arrival = clock.today() + dt.timedelta(days=10)
    with atomic():
        return bookings.create_booking(account_id, rates=FeeRates.from_settings(settings),
                                       property_id=prop.id, guest_name="Maria Papadopoulou",
                                       guest_email=email, arrival_date=arrival,
                                       departure_date=arrival + dt.timedelta(days=4),
                                       guest_count=2)


def test_the_booking_page_shows_the_guests_with_document_numbers_masked(anna, settings, account_a):
    booking = _booking(settings, account_a)
    checkin.put_guests(account_a, booking.id, greek_party())
    text = anna.get(f"/dashboard/bookings/{booking.id}").text
    assert "Μαρία Παπαδοπούλου" in text and "Γιώργος Παπαδόπουλος" in text
    assert "ΑΒ123456" not in text and "*****456" in text
    assert "094259216" not in text
    # Countries and documents by name, in the page's language (CLDR's country names)
    party = {"aria-labelledby": "party"}
    row = anna.get(f"/dashboard/bookings/{booking.id}").html.find("section", attrs=party)
    cells = [td.get_text(" ", strip=True) for td in row.find_all("td")]
    assert "Greece" in cells and any(c.startswith("Identity card ") and c.endswith(", Greece")
                                     for c in cells), cells
    greek = anna.get(f"/dashboard/bookings/{booking.id}?lang=el").html.find("section", attrs=party)
    cells = [td.get_text(" ", strip=True) for td in greek.find("tbody").find_all("td")]
    assert "Ελλάδα" in cells and any(c.startswith("Δελτίο ταυτότητας ") for c in cells), cells


def test_resending_the_link_e_mails_the_guest_and_is_recorded(anna, settings, account_a,
                                                              smtp_server):  # noqa: F811
    booking = _booking(settings, account_a)
    page = anna.get(f"/dashboard/bookings/{booking.id}")
    link = checkin.link(settings.server.public_url, booking.id)
    assert link in page.text  # with its copy button
    anna.post(f"/dashboard/bookings/{booking.id}/checkin/resend", {"csrf": anna.csrf(page)},
              status=303)
    [message] = smtp_server.wait(1)
    assert message["To"] == "maria@example.com" and smtp_server.link() == link
    assert Booking.get_by_id(booking.id).checkin_status == "INVITED"
    assert Event.select().where(Event.type == "checkin.invited").count() == 1
    assert Activity.get().action == "checkin.resend"
    assert link not in Activity.get().action and Activity.get().resource_id == booking.id


def test_resending_without_an_e_mail_address_says_why(anna, settings, account_a):
    booking = _booking(settings, account_a, email=None)
    page = anna.get(f"/dashboard/bookings/{booking.id}")
    refused = anna.post(f"/dashboard/bookings/{booking.id}/checkin/resend",
                        {"csrf": anna.csrf(page)}, status=422)
    assert "The booking has no guest e-mail address: add one with “Edit the booking” first" in \
        refused.text and "guest_email" not in refused.text.split("<main")[1]
    assert Booking.get_by_id(booking.id).checkin_status == "NOT_STARTED"
    assert Activity.select().count() == 0


def test_another_accounts_booking_cannot_be_resent(anna, settings, account_b):
    booking = _booking(settings, account_b)
    anna.post(f"/dashboard/bookings/{booking.id}/checkin/resend",
              {"csrf": anna.csrf(anna.get("/dashboard/today"))}, status=404)
    assert Booking.get_by_id(booking.id).checkin_status == "NOT_STARTED"


def test_a_mail_server_that_refuses_says_so_and_invites_nobody(anna, settings, account_a,
                                                               smtp_server):  # noqa: F811
    smtp_server.refuse_with = "451 4.3.0 try again later"
    booking = _booking(settings, account_a)
    page = anna.get(f"/dashboard/bookings/{booking.id}")
    refused = anna.post(f"/dashboard/bookings/{booking.id}/checkin/resend",
                        {"csrf": anna.csrf(page)}, status=502)
    notice = refused.html.find(class_="notice error").get_text(" ")
    assert "The check-in e-mail was not sent. The mail server refused the message." in notice
    assert "451" not in notice  # the server's code is for the log
    assert Booking.get_by_id(booking.id).checkin_status == "NOT_STARTED"
    assert Activity.select().count() == 0
