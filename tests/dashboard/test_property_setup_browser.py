"""The police set-up in headless Chromium against the real server on loopback and the authorities'
loopback doubles, at 390×844 and 1366×800: the Alloggiati set-up typed and saved, the connection
test saying "connected" and a refusal in words (English and Greek), a filing held for set-up on
its booking linking to the set-up, and the property pages of Italy, Spain and Greece. Screenshots
go to tests/artifacts/dashboard/ (git-ignored)."""

from __future__ import annotations

import datetime as dt
import os

import pytest

from rentalcomply.bookings import service as bookings
from rentalcomply.bookings.fees import FeeRates
from rentalcomply.core import clock
from rentalcomply.core.db import atomic
from rentalcomply.dashboard import users
from rentalcomply.filings.models import Filing
from rentalcomply.properties import service as properties
from tests.axe import violations
from tests.conftest import bootstrapped_settings
from tests.dashboard.conftest import DASHBOARD_ENV, make_user
from tests.dashboard.test_browser import (  # noqa: F401
    ARTIFACTS,
    _shows,
    _sign_in,
    chromium,
    server,
    visible,
)
from tests.dashboard.test_property_setup_pages import alloggiati, ses  # noqa: F401 - fixtures
from tests.police.conftest import family

pytest.importorskip("playwright.sync_api")

pytestmark = [pytest.mark.server, pytest.mark.browser]

VIEWPORTS = {"phone": {"width": 390, "height": 844}, "desktop": {"width": 1366, "height": 800}}

if not os.path.exists("/usr/bin/chromium"):
    pytest.skip("Chromium is not installed (apt-get install chromium)", allow_module_level=True)


@pytest.fixture
def settings(tmp_path, mail_server, alloggiati, ses):
    with bootstrapped_settings(tmp_path, **DASHBOARD_ENV, **mail_server.env,
                               RENTALCOMPLY_POLICE_ALLOGGIATI_URL=alloggiati.url,
                               RENTALCOMPLY_POLICE_SES_URL=ses.url,
                               RENTALCOMPLY_POLICE_TIMEOUT_SECONDS=5) as settings:
        users.configure(settings)
        users.forget_failures()
        yield settings
        users.forget_failures()


def _shot(page, name: str) -> None:
    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(ARTIFACTS / f"{name}.png"), full_page=True)
    assert violations(page) == [], name  # axe-core on every page the test looks at


def _no_sideways_scroll(page) -> None:
    assert page.evaluate("document.documentElement.scrollWidth - window.innerWidth") <= 0


def test_police_set_up_and_its_connection_test_in_a_real_browser(settings, account_a, owner,
                                                                  server, chromium, alloggiati):
    base = server.base_url
    make_user(account_a, "owner@agency.example")
    casa = properties.create_property(account_a, name="Casa Limone", address="Via Roma 1, Sorrento",
                                      country="IT", police_connector="alloggiati")
    sol = properties.create_property(account_a, name="Casa Sol", address="Calle Mayor 1, Madrid",
                                     country="ES", timezone="Europe/Madrid",
                                     police_connector="ses_hospedajes")
    studio = properties.create_property(account_a, name="Studio Plaka", address="Adrianou 12, Athens",
                                        aade_property_id="00000912345")
    arrival = clock.today()
    with atomic():
        booking = bookings.create_booking(
            account_a, rates=FeeRates.from_settings(settings), property_id=casa.id,
            guest_name="Giulia Bianchi", guest_email="giulia@example.com", arrival_date=arrival,
            departure_date=arrival + dt.timedelta(days=3), guest_count=2)
    owner.put_json(f"/api/v1/bookings/{booking.id}/guests", {"guests": family()})
    assert Filing.get(Filing.booking == booking.id).status == "held"

    for size, viewport in VIEWPORTS.items():
        context = chromium.new_context(viewport=viewport)
        page = context.new_page()
        _sign_in(page, base, "owner@agency.example")
        for lang in ("en", "el"):
            for name, prop in (("it", casa), ("es", sol), ("gr", studio)):
                page.goto(f"{base}/dashboard/properties/{prop.id}?lang={lang}")
                visible(page.locator("h1").first)
                _no_sideways_scroll(page)
                _shot(page, f"property-{name}-{lang}-{size}")
            page.goto(f"{base}/dashboard/bookings/{booking.id}?lang={lang}")
            visible(page.locator("h1").first)
            _shot(page, f"booking-held-for-setup-{lang}-{size}")
        page.goto(f"{base}/dashboard/bookings/{booking.id}?lang=en")
        assert _shows(page, "Held: set-up needed")
        page.get_by_role("link", name="Complete the set-up").click()
        page.wait_for_url(f"**/dashboard/properties/{casa.id}#police-setup")
        assert _shows(page, "its set-up is not complete")
        context.close()

    # Typed and saved at the phone's width; tested, refused, then connected.
    context = chromium.new_context(viewport=VIEWPORTS["phone"])
    page = context.new_page()
    _sign_in(page, base, "owner@agency.example")
    page.goto(f"{base}/dashboard/properties/{casa.id}?lang=en")
    page.get_by_label("Alloggiati Web user").fill("RM012345")
    page.get_by_label("Alloggiati Web password").fill("sbagliata")
    page.get_by_label("Web service key (WSKEY)").fill("WSKEY1")
    page.get_by_role("button", name="Save the police set-up").click()
    assert _shows(page, "The police set-up is saved.")
    assert "sbagliata" not in page.content()
    page.get_by_role("button", name="Test the connection").click()
    assert _shows(page, "Refused: Alloggiati Web did not accept the user, password or key.")
    _shot(page, "property-it-test-refused-en-phone")
    # The set-up was complete, so the held filing went, and was refused for its credentials:
    # nothing was taken (no Send), and the new password below files it again by itself.
    assert "Send" not in alloggiati.calls
    page.goto(f"{base}/dashboard/properties/{casa.id}?lang=el")
    page.get_by_label("Κωδικός Alloggiati Web").fill("segreto")
    page.get_by_role("button", name="Αποθήκευση ρυθμίσεων δήλωσης").click()
    assert _shows(page, "Οι ρυθμίσεις δήλωσης στην αστυνομία αποθηκεύτηκαν.")
    page.get_by_role("button", name="Δοκιμή σύνδεσης").click()
    assert _shows(page, "Συνδέθηκε: η υπηρεσία Alloggiati Web δέχτηκε αυτά τα στοιχεία.")
    _shot(page, "property-it-test-connected-el-phone")
    context.close()

    # Desktop: Spain's codes checked as typed, then saved and tested against SES's double.
    context = chromium.new_context(viewport=VIEWPORTS["desktop"])
    page = context.new_page()
    _sign_in(page, base, "owner@agency.example")
    page.goto(f"{base}/dashboard/properties/{sol.id}?lang=en")
    page.get_by_label("Landlord code (código de arrendador)").fill("12AB")
    page.get_by_label("Establishment code (código de establecimiento)").fill("0000012345")
    page.get_by_label("SES.Hospedajes web-service user").fill("ses-user")
    page.get_by_label("SES.Hospedajes web-service password").fill("ses-pass")
    page.get_by_role("button", name="Save the police set-up").click()
    assert _shows(page, "The landlord code is 10 digits")
    # What was typed stays (the user too, shown as text); the password is asked again.
    assert page.get_by_label("Establishment code (código de establecimiento)").input_value() \
        == "0000012345"
    assert page.get_by_label("SES.Hospedajes web-service user").input_value() == "ses-user"
    assert page.get_by_label("SES.Hospedajes web-service password").input_value() == ""
    assert _shows(page, "What you typed here was not kept, as a password never is")
    assert "ses-pass" not in page.content()
    _shot(page, "property-es-code-refused-en-desktop")
    page.get_by_label("Landlord code (código de arrendador)").fill("0000000042")
    page.get_by_label("SES.Hospedajes web-service user").fill("ses-user")
    page.get_by_label("SES.Hospedajes web-service password").fill("ses-pass")
    page.get_by_role("button", name="Save the police set-up").click()
    assert _shows(page, "The police set-up is saved.")
    page.get_by_role("button", name="Test the connection").click()
    assert _shows(page, "Connected: SES.Hospedajes accepted these details. Nothing was filed.")
    _shot(page, "property-es-test-connected-en-desktop")
    context.close()

    # The right password saved, the filing refused for its credentials went out by itself.
    assert Filing.get(Filing.booking == booking.id).status == "submitted"
