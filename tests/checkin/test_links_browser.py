"""The check-in links in headless Chromium at phone size (390×844), against the real server on a
loopback port: a booking made without e-mail, its link copied from the booking page, opens the
guest page at once; an Airbnb feed booking (a feed served on loopback and synced) is reached
through the property's link with its HM code and arrival date; a wrong code is refused and the
tenth wrong try is limited. Screenshots go to tests/artifacts/checkin-links/ (git-ignored)."""

from __future__ import annotations

import datetime as dt
import os
import urllib.parse
from pathlib import Path

import pytest

from rentalcomply.bookings import service as bookings
from rentalcomply.bookings.fees import FeeRates
from rentalcomply.checkin import links
from rentalcomply.core import clock
from rentalcomply.core.models import Booking
from rentalcomply.dashboard import users
from rentalcomply.properties import service as properties
from rentalcomply.sync import service as sync
from tests.conftest import bootstrapped_settings
from tests.dashboard.conftest import DASHBOARD_ENV, make_user
from tests.dashboard.test_browser import (_shows, _sign_in, chromium, server,  # noqa: F401 - fixtures
                                         visible)
from tests.sync.conftest import FeedServer, calendar, event

pytest.importorskip("playwright.sync_api")

pytestmark = [pytest.mark.server]

CHROMIUM = "/usr/bin/chromium"
PHONE = {"width": 390, "height": 844}
ARTIFACTS = Path(__file__).resolve().parents[1] / "artifacts" / "checkin-links"

if not os.path.exists(CHROMIUM):
    pytest.skip("Chromium is not installed (apt-get install chromium)", allow_module_level=True)


@pytest.fixture
def settings(tmp_path, mail_server):
    with bootstrapped_settings(tmp_path, **DASHBOARD_ENV, **mail_server.env,
                               RENTALCOMPLY_SYNC_ALLOW_PRIVATE_ADDRESSES="true") as settings:
        users.configure(settings)
        users.forget_failures()
        yield settings
        users.forget_failures()


@pytest.fixture
def feeds():
    started = FeedServer()
    yield started
    started.stop()


def _shot(page, name: str) -> None:
    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(ARTIFACTS / f"{name}.png"), full_page=True)


def _on(base: str, url: str) -> str:
    """The link as the server printed it, on the loopback server under test."""
    parts = urllib.parse.urlsplit(url)
    return base + parts.path + (f"?{parts.query}" if parts.query else "")


def test_a_link_copied_from_a_booking_without_e_mail_opens_the_guest_page_at_once(
        settings, account_a, server, chromium):
    base = server.base_url
    prop = properties.create_property(account_a, name="Villa Anemoi", address="Oia")
    day = clock.today() + dt.timedelta(days=6)
    booking = bookings.create_booking(account_a, rates=FeeRates.from_settings(settings),
                                      property_id=prop.id, guest_name="Walk-in guest",
                                      arrival_date=day, departure_date=day + dt.timedelta(days=3),
                                      guest_count=2, source="walk_in")
    make_user(account_a, "host@agency.example")
    context = chromium.new_context(viewport=PHONE)
    context.grant_permissions(["clipboard-read", "clipboard-write"], origin=base)
    page = context.new_page()
    _sign_in(page, base, "host@agency.example")
    page.goto(f"{base}/dashboard/bookings/{booking.id}")
    visible(page.get_by_role("heading", name="Check-in link"))
    assert page.locator(".qr-code svg").count() == 1
    reference = page.locator("#booking-reference").inner_text()
    assert reference == bookings.booking_view(booking)["reference"]
    _shot(page, "booking-page-phone")
    page.get_by_role("button", name="Copy").click()
    copied = page.evaluate("navigator.clipboard.readText()")
    assert "/checkin/" in copied and copied == page.locator("#checkin-link").input_value()

    guest = context.new_page()
    guest.goto(_on(base, copied))
    visible(guest.get_by_role("heading", name="Online check-in"))
    assert "Villa Anemoi" in guest.content()
    _shot(guest, "guest-page-from-copied-link")

    # The host sent it by WhatsApp: marked as shared, the booking is invited.
    page.get_by_role("button", name="I sent the link myself").click()
    assert _shows(page, "The check-in link is marked as sent to the guest.")
    assert Booking.get_by_id(booking.id).checkin_status == "INVITED"

    # The property's link for the channels, with its QR code and the message to paste.
    page.goto(f"{base}/dashboard/properties/{prop.id}")
    visible(page.get_by_role("heading", name="Check-in link for the channels’ messages"))
    assert "/checkin/p/" in page.locator("#property-link").input_value()
    assert page.locator("#property-link-message").inner_text().count("/checkin/p/") == 1
    _shot(page, "property-page-phone")
    context.close()


def test_an_airbnb_guest_finds_the_booking_through_the_property_link(
        settings, account_a, server, chromium, feeds):
    base = server.base_url
    prop = properties.create_property(account_a, name="Casa Limone", address="Amalfi")
    arrival = clock.today() + dt.timedelta(days=12)
    feeds.serve("/airbnb.ics", calendar(event(
        "abnb-1@airbnb.com", arrival.strftime("%Y%m%d"),
        (arrival + dt.timedelta(days=4)).strftime("%Y%m%d"), "Reserved",
        "DESCRIPTION:Reservation URL: https://www.airbnb.com/hosting/reservations/details/"
        "HMQ8Z3KX2P\\nPhone Number (Last 4 Digits): 0427")))
    properties.add_channel(account_a, prop.id, provider="airbnb",
                           ical_url=feeds.url("/airbnb.ics"), allow_private_addresses=True)
    sync.sync_account(account_a)
    imported = Booking.get(Booking.property == prop.id)
    assert (imported.external_ref, imported.guest_phone_last4) == ("HMQ8Z3KX2P", "0427")

    page = chromium.new_page(viewport=PHONE, locale="it-IT",
                             extra_http_headers={"Accept-Language": "it-IT,it;q=0.9"})
    property_link = _on(base, links.property_link("https://rc.example.org", prop))
    page.goto(property_link)
    visible(page.get_by_role("heading", name="Trovi la Sua prenotazione"))
    page.get_by_role("link", name="EN").click()
    visible(page.get_by_role("heading", name="Find your booking"))
    _shot(page, "property-link-phone")

    # A wrong code: refused, nothing about any booking shown.
    page.get_by_label("Booking reference").fill("HMWRONG000")
    page.get_by_label("Arrival date").fill(arrival.isoformat())
    page.get_by_role("button", name="Continue").click()
    assert _shows(page, "We found no current booking with these details")
    assert "Casa Limone" in page.content() and "HMQ8Z3KX2P" not in page.content()
    _shot(page, "property-link-wrong-code")

    # The right code as a guest types it, and the arrival date: the booking's own page.
    page.get_by_label("Booking reference").fill("hmq8 z3kx2p")
    page.get_by_label("Arrival date").fill(arrival.isoformat())
    page.get_by_role("button", name="Continue").click()
    visible(page.get_by_role("heading", name="Online check-in"))
    assert "/checkin/p/" not in page.url
    _shot(page, "property-link-found")

    # Eight more wrong tries are refused; the tenth is limited.
    page.goto(property_link + "?lang=en")
    for _ in range(8):
        page.get_by_label("Booking reference").fill("HMWRONG000")
        page.get_by_label("Arrival date").fill(arrival.isoformat())
        page.get_by_role("button", name="Continue").click()
        assert _shows(page, "We found no current booking with these details")
    page.get_by_label("Booking reference").fill("HMQ8Z3KX2P")
    page.get_by_label("Arrival date").fill(arrival.isoformat())
    with page.expect_response(lambda r: "/checkin/p/" in r.url and r.request.method == "POST") \
            as answer:
        page.get_by_role("button", name="Continue").click()
    assert answer.value.status == 429
    visible(page.get_by_role("heading", name="Too many attempts"))
    _shot(page, "property-link-limited")
