"""The e-mail and phone a guest types at check-in, on the booking's page (issue 36): shown in the
Guests section as mailto:/tel: links, used to e-mail the link again, never written to a log or
the activity."""

from __future__ import annotations

import datetime as dt
import logging

import pytest

from rentalcomply.bookings import service as bookings
from rentalcomply.bookings.fees import FeeRates
from rentalcomply.checkin import service as checkin
from rentalcomply.core import clock
from rentalcomply.core.activity import Activity
from rentalcomply.core.db import atomic
from rentalcomply.core.models import Booking
from rentalcomply.dashboard import users
from rentalcomply.properties import service as properties
from tests.checkin.conftest import greek_party, smtp_server  # noqa: F401 - the fixture
from tests.conftest import bootstrapped_settings, documented_app
from tests.dashboard.conftest import DASHBOARD_ENV

TYPED_EMAIL = "maria.p+stay@example.org"
TYPED_PHONE = "+30 694 123 4567"


@pytest.fixture
def settings(tmp_path, smtp_server):  # noqa: F811
    with bootstrapped_settings(tmp_path, RENTALCOMPLY_SMTP_HOST="127.0.0.1",
                               RENTALCOMPLY_SMTP_PORT=smtp_server.port,
                               RENTALCOMPLY_SERVER_PUBLIC_URL="https://stay.example.org",
                               **DASHBOARD_ENV) as settings:
        users.configure(settings)
        users.forget_failures()
        yield settings


@pytest.fixture
def guest(wsgi_app):
    """The guest's browser, without JavaScript: the check-in form posted as typed."""
    return documented_app(wsgi_app)


def _booking(settings, account_id, email=None, phone=None):
    """A booking as a channel's file may leave it: neither e-mail nor phone unless given."""
    prop = properties.create_property(account_id, name="Villa Anemoi", address="Oia, Santorini",
                                      max_guests=6)
    arrival = clock.today() + dt.timedelta(days=10)
    with atomic():
        return bookings.create_booking(account_id, rates=FeeRates.from_settings(settings),
                                       property_id=prop.id, guest_name="Maria Papadopoulou",
                                       guest_email=email, guest_phone=phone, arrival_date=arrival,
                                       departure_date=arrival + dt.timedelta(days=4),
                                       guest_count=2)


def _lead_fields(**contact) -> dict:
    lead = {**greek_party()[0], **contact}
    return {f"g0.{name}": value for name, value in lead.items() if value}


def test_a_guest_who_checks_in_with_an_e_mail_and_a_phone_has_both_on_the_booking_page(
        anna, guest, settings, account_a, caplog):
    booking = _booking(settings, account_a)
    path = "/checkin/" + checkin.token_for(booking.id)
    with caplog.at_level(logging.DEBUG):
        guest.post(path, {**_lead_fields(email=TYPED_EMAIL, phone=TYPED_PHONE), "consent": "yes"},
                   status=303)
        assert Booking.get_by_id(booking.id).checkin_status == "COMPLETED"
        page = anna.get(f"/dashboard/bookings/{booking.id}")
    guests = page.html.find("section", attrs={"aria-labelledby": "party"})
    contact = guests.find(class_="guest-contact")
    links = {a["href"]: a.get_text(strip=True) for a in contact.find_all("a")}
    assert links == {"mailto:maria.p+stay@example.org": TYPED_EMAIL,
                     "tel:+306941234567": TYPED_PHONE}, links
    # In the lead guest's row, under the name
    assert "Μαρία Παπαδοπούλου" in contact.find_parent("td").get_text(" ")
    # The booking's own fields are untouched: what the guest typed stays in the sealed party.
    stored = Booking.get_by_id(booking.id)
    assert stored.guest_email is None and stored.guest_phone is None
    greek = anna.get(f"/dashboard/bookings/{booking.id}?lang=el").html
    assert TYPED_EMAIL in greek.find(class_="guest-contact").get_text()
    # Never logged, never in the activity
    for typed in (TYPED_EMAIL, "694 123 4567", "6941234567"):
        assert typed not in caplog.text
        assert not [a for a in Activity.select() if typed in str(a.__data__)]


def test_the_link_goes_to_the_address_the_guest_typed_when_the_booking_has_none(
        anna, guest, settings, account_a, smtp_server):  # noqa: F811
    booking = _booking(settings, account_a)
    path = "/checkin/" + checkin.token_for(booking.id)
    guest.post_json(path + "/progress", {"guests": [{"first_name": "Μαρία",
                                                     "email": TYPED_EMAIL}], "lang": "en"})
    page = anna.get(f"/dashboard/bookings/{booking.id}")
    assert "The booking has no guest e-mail address" not in page.text
    form = page.html.find("form", action=f"/dashboard/bookings/{booking.id}/checkin/resend")
    assert [b.get_text(strip=True) for b in form.find_all("button")] == ["Send the link again"]
    anna.post(f"/dashboard/bookings/{booking.id}/checkin/resend", {"csrf": anna.csrf(page)},
              status=303)
    [message] = smtp_server.wait(1)
    assert message["To"] == TYPED_EMAIL
    assert smtp_server.link() == checkin.link(settings.server.public_url, booking.id)
    assert Activity.get().action == "checkin.resend"


def test_a_typed_address_other_than_the_bookings_is_offered_beside_it(
        anna, guest, settings, account_a, smtp_server):  # noqa: F811
    booking = _booking(settings, account_a, email="guest-8811@relay.example.com")
    path = "/checkin/" + checkin.token_for(booking.id)
    guest.post_json(path + "/progress", {"guests": [{"first_name": "Μαρία",
                                                     "email": TYPED_EMAIL}], "lang": "en"})
    page = anna.get(f"/dashboard/bookings/{booking.id}")
    form = page.html.find("form", action=f"/dashboard/bookings/{booking.id}/checkin/resend")
    buttons = form.find_all("button")
    assert buttons[1]["name"] == "to" and buttons[1]["value"] == "typed"
    assert buttons[1].get_text(strip=True) == f"Send it to {TYPED_EMAIL}, typed by the guest"
    greek = anna.get(f"/dashboard/bookings/{booking.id}?lang=el")
    assert f"Αποστολή στο {TYPED_EMAIL}, που έγραψε ο επισκέπτης" in greek.text
    anna.post(f"/dashboard/bookings/{booking.id}/checkin/resend",
              {"csrf": anna.csrf(page), "to": "typed"}, status=303)
    anna.post(f"/dashboard/bookings/{booking.id}/checkin/resend", {"csrf": anna.csrf(page)},
              status=303)
    messages = smtp_server.wait(2)
    assert [m["To"] for m in messages] == [TYPED_EMAIL, "guest-8811@relay.example.com"]
