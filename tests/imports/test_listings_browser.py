"""A new agency's files imported in headless Chromium against the real server: Airbnb's CSV of
twelve listings and Booking.com's download of three properties, one question per unknown
listing, the answers remembered, every row on its property, phones and bookers kept. Screenshots
of the questions and the preview go to tests/artifacts/imports/ (git-ignored)."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from rentalcomply.core.models import Booking
from rentalcomply.dashboard import users
from tests.axe import violations
from tests.dashboard.conftest import make_user
from tests.imports.conftest import FILES
from tests.imports.make_listing_files import AIRBNB_LISTINGS, BOOKING_PROPERTIES

playwright_api = pytest.importorskip("playwright.sync_api")
pytestmark = [pytest.mark.server]

CHROMIUM = "/usr/bin/chromium"
ARTIFACTS = Path(__file__).resolve().parents[1] / "artifacts" / "imports"
if not os.path.exists(CHROMIUM):
    pytest.skip("Chromium is not installed (apt-get install chromium)", allow_module_level=True)

from tests.dashboard.test_browser import (VIEWPORTS, WIDER_THAN_SCREEN, _shows,  # noqa: E402
                                          _sign_in, chromium, server, settings, visible)
from tests.checkin.conftest import smtp_server  # noqa: E402,F401  (fixture of `settings`)
from tests.imports.conftest import agency  # noqa: E402,F401  (fixture)

__all__ = ["chromium", "server", "settings"]  # fixtures


def _upload(page, base_url: str, name: str) -> None:
    page.goto(base_url + "/dashboard/bookings/import")
    visible(page.get_by_role("heading", name="Import reservations"))
    page.set_input_files("#file", str(FILES / name))
    page.get_by_role("button", name="Preview").click()


def _answer(page, answers: dict[str, str]) -> None:
    """Each question is the listing's title as a label, its select the agency's properties."""
    visible(page.get_by_role("heading", name="Which property is each listing?"))
    assert page.locator(".listing-question select").count() == len(answers)
    for title, name in answers.items():
        page.get_by_label(title, exact=True).select_option(label=name)


def _fits(page, size: str, shot: str) -> None:
    overflow = page.evaluate("document.documentElement.scrollWidth - window.innerWidth")
    page.screenshot(path=str(ARTIFACTS / f"{shot}-{size}.png"), full_page=True)
    assert overflow <= 0, (shot, size, overflow, page.evaluate(WIDER_THAN_SCREEN))
    assert violations(page) == [], (shot, size)


@pytest.mark.parametrize("size", ["phone", "desktop"])
def test_an_agencys_airbnb_and_booking_files_are_mapped_once_in_the_browser(
        settings, account_a, agency, server, chromium, size):
    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    users.configure(settings)
    make_user(account_a, "host@example.com")
    context = chromium.new_context(viewport=VIEWPORTS[size])
    page = context.new_page()
    _sign_in(page, server.base_url, "host@example.com")

    _upload(page, server.base_url, "agency_airbnb_oct.csv")
    assert _shows(page, "Preview: 0 new, 0 filled in, 1 unchanged, 0 conflicts, 14 waiting for "
                        "their listing’s property.")
    assert page.get_by_role("button", name="Apply these changes").count() == 0
    _answer(page, {title: name for title, (name, _, _) in AIRBNB_LISTINGS.items()})
    _fits(page, size, "listings-asked")
    page.get_by_role("button", name="Preview with these properties").click()
    assert _shows(page, "Preview: 14 new, 0 filled in, 1 unchanged, 0 conflicts.")
    rows = page.locator("#import-rows tbody tr")
    assert rows.count() == 15
    for index in range(15):
        cell = rows.nth(index).locator(".import-property")
        title = cell.locator(".muted").inner_text().strip()
        assert cell.locator("strong").inner_text().strip() == AIRBNB_LISTINGS[title][0]
    assert "+49 151 23456789" in rows.nth(0).inner_text()
    _fits(page, size, "listings-preview")
    page.get_by_role("button", name="Apply these changes").click()
    assert _shows(page, "Imported: 14 new, 0 filled in, 1 unchanged, 0 conflicts.")

    _upload(page, server.base_url, "agency_airbnb_jan.csv")  # the next month asks nothing
    assert _shows(page, "Preview: 12 new, 0 filled in, 0 unchanged, 0 conflicts.")
    assert page.locator(".listing-question").count() == 0

    _upload(page, server.base_url, "agency_booking.xls")
    assert _shows(page, "Preview: 0 new, 0 filled in, 0 unchanged, 0 conflicts, 6 waiting for "
                        "their listing’s property.")
    _answer(page, BOOKING_PROPERTIES)
    page.get_by_role("button", name="Preview with these properties").click()
    assert _shows(page, "Preview: 6 new, 0 filled in, 0 unchanged, 0 conflicts.")
    first = page.locator("#import-rows tbody tr").first.inner_text()
    assert "Schmidt, Anna" in first and "FLR Oltrarno 2BR" in first and "+49 30 901820" in first
    _fits(page, size, "listings-booking-preview")
    page.get_by_role("button", name="Apply these changes").click()
    assert _shows(page, "Imported: 6 new, 0 filled in, 0 unchanged, 0 conflicts.")
    anna = Booking.get(Booking.external_ref == "5012345601")
    assert (anna.guest_name, anna.guest_phone) == ("Schmidt, Anna", "+49 30 901820")

    page.goto(server.base_url + f"/dashboard/properties/{agency['FLR Oltrarno 2BR']}")
    aliases = page.locator("#listing-alias-list").inner_text()
    assert "Bright 2BR flat in Oltrarno with balcony" in aliases
    assert "Oltrarno Bright Flat" in aliases
    _fits(page, size, "property-listing-names")
    context.close()
