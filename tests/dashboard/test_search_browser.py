"""The header's search, the phone's header and the bookings' rows, and staying signed in, in
headless Chromium at 390×844 and 1366×800 (screenshots in tests/artifacts/dashboard/)."""

from __future__ import annotations

import datetime as dt
import re
import time

import pytest

from rentalcomply.bookings import service as bookings
from rentalcomply.bookings.fees import FeeRates
from rentalcomply.checkin import service as checkin
from rentalcomply.checkin.models import Checkin
from rentalcomply.core import clock
from rentalcomply.core.db import atomic
from rentalcomply.core.models import Booking
from rentalcomply.properties import service as properties
from tests.axe import violations
from tests.checkin.conftest import smtp_server  # noqa: F401 - the fixture
from tests.dashboard.conftest import PASSWORD, make_user
from tests.dashboard.test_browser import (ARTIFACTS, chromium, server, settings,  # noqa: F401
                                          visible)

pytestmark = [pytest.mark.server, pytest.mark.long]

SIZES = {"phone": {"width": 390, "height": 844}, "desktop": {"width": 1366, "height": 800}}


def _seed(settings, account_id):
    rates = FeeRates.from_settings(settings)
    home = properties.create_property(account_id, name="Casa Lucia", address="Via Roma 1")
    other = properties.create_property(account_id, name="Harbour Loft", address="Akti 3")
    start = clock.today() + dt.timedelta(days=5)
    made = {}
    with atomic():
        for n, (name, prop) in enumerate([("Luca Ferrari", home), ("Hannah Schmidt", home),
                                          ("Nikos Papadakis", other), ("Ana García", other),
                                          ("Chen Wei", home), ("Olivia Brown", other)]):
            arrival = start + dt.timedelta(days=3 * n)
            made[name] = bookings.create_booking(
                account_id, rates=rates, property_id=prop.id, guest_name=name,
                arrival_date=arrival, departure_date=arrival + dt.timedelta(days=2),
                guest_count=3, guest_phone="+39 333 123 4567" if n == 0 else None,
                guest_email="luca.ferrari@example.it" if n == 0 else None)
    Booking.update(external_ref="HMXK4T2PQ9", channel="airbnb").where(
        Booking.id == made["Hannah Schmidt"].id).execute()
    ferrari = made["Luca Ferrari"]
    checkin.save_progress(ferrari, Checkin.get(Checkin.booking == ferrari.id),
                          [{"first_name": "Luca", "last_name": "Ferrari"},
                           {"first_name": "Lucía", "last_name": "Ferrari Gómez"}],
                          consent=True, lang="en")
    return made


def _sign_in(page, base, remember=False):
    page.goto(base + "/dashboard/sign-in")
    page.get_by_label("E-mail address").fill("owner@agency.example")
    page.get_by_label("Password", exact=True).fill(PASSWORD)
    if remember:
        page.get_by_label("Keep me signed in on this device for 30 days").check()
    page.get_by_role("button", name="Sign in").click()
    page.wait_for_url(re.compile(r".*/dashboard/today$"))


def _search(page, text):
    box = page.get_by_role("searchbox", name="Find a booking")
    box.fill(text)
    box.press("Enter")
    page.wait_for_url(re.compile(r".*/dashboard/search\?q="))
    visible(page.get_by_role("heading", name="Search"))
    return page.locator("main table.list tbody tr")


def _deadline_shows(locator, count, timeout=15.0):
    deadline = time.monotonic() + timeout
    while locator.count() != count and time.monotonic() < deadline:
        time.sleep(0.05)
    return locator.count()


@pytest.mark.parametrize("size", ["phone", "desktop"])
def test_the_header_finds_a_guest_by_name_phone_and_code_at_both_sizes(
        settings, account_a, server, chromium, size):
    base = server.base_url
    make_user(account_a, "owner@agency.example")
    _seed(settings, account_a)
    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    context = chromium.new_context(viewport=SIZES[size])
    page = context.new_page()
    _sign_in(page, base)

    rows = _search(page, "lucia")  # Lucía, a guest of the party the check-in holds
    assert _deadline_shows(rows, 1) == 1
    assert "Luca Ferrari" in rows.first.inner_text() and "Lucía Ferrari Gómez" in rows.first.inner_text()
    assert "Casa Lucia" in rows.first.inner_text()
    page.screenshot(path=str(ARTIFACTS / f"search-lucia-{size}.png"), full_page=True)
    assert violations(page) == []  # axe-core
    rows = _search(page, "ferrari luca")
    assert _deadline_shows(rows, 1) == 1 and "Luca Ferrari" in rows.first.inner_text()
    rows = _search(page, "333 123 4567")
    assert _deadline_shows(rows, 1) == 1 and "Luca Ferrari" in rows.first.inner_text()
    rows = _search(page, "HMXK4T2PQ9")
    assert _deadline_shows(rows, 1) == 1 and "Hannah Schmidt" in rows.first.inner_text()
    rows.first.get_by_role("link", name="Hannah Schmidt").click()
    visible(page.get_by_role("heading", name="Hannah Schmidt"))
    overflow = page.evaluate("document.documentElement.scrollWidth - window.innerWidth")
    assert overflow <= 0

    header = page.locator("header.top").bounding_box()["height"]
    page.goto(base + "/dashboard/bookings")
    row = page.locator("main table.list tbody tr").first.bounding_box()["height"]
    print(size, "header", header, "px; a booking row", row, "px")
    page.screenshot(path=str(ARTIFACTS / f"bookings-rows-{size}.png"), full_page=True)
    assert violations(page) == []  # axe-core
    if size == "phone":
        assert header < 80, header  # one row: the mark, the search, the menu button
        assert row < 120, row  # a compact row (about 110 px), not a card of six labelled lines (370)
        # The filters fold under one line; the list starts on the first screen.
        assert not page.get_by_label("Guest or reservation code").is_visible()
        assert page.locator("main table.list").bounding_box()["y"] < 400
        assert not page.get_by_role("link", name="Calendar").is_visible()
        page.get_by_role("link", name="Menu").click()
        nav = page.get_by_role("navigation", name="Main")
        visible(nav)
        assert nav.get_by_role("link").count() == 11  # Filings since issue 37, Tourist taxes since 40
        visible(page.get_by_role("button", name="Sign out", exact=True))
        page.screenshot(path=str(ARTIFACTS / f"menu-open-{size}.png"), full_page=True)
        assert violations(page) == []  # axe-core
        nav.get_by_role("link", name="Calendar").click()
        page.wait_for_url(re.compile(r".*/dashboard/calendar"))
    else:
        assert not page.get_by_role("link", name="Menu").is_visible()
        visible(page.get_by_role("navigation", name="Main").get_by_role("link", name="Calendar"))
        visible(page.get_by_label("Guest or reservation code"))  # the filters open
        assert header < 140, header
    context.close()


def test_on_a_phone_without_javascript_the_menu_and_the_search_still_work(
        settings, account_a, server, chromium):
    base = server.base_url
    make_user(account_a, "owner@agency.example")
    _seed(settings, account_a)
    context = chromium.new_context(java_script_enabled=False, viewport=SIZES["phone"])
    page = context.new_page()
    _sign_in(page, base)
    rows = _search(page, "ferrari luca")
    assert _deadline_shows(rows, 1) == 1
    page.get_by_role("link", name="Menu").click()  # #menu: shown by :target
    visible(page.get_by_role("navigation", name="Main").get_by_role("link", name="Reports"))
    page.get_by_role("navigation", name="Main").get_by_role("link", name="Reports").click()
    page.wait_for_url(re.compile(r".*/dashboard/reports"))
    context.close()


@pytest.mark.parametrize("size", ["phone", "desktop"])
def test_keep_me_signed_in_is_listed_in_account_and_signed_out_from_there(
        settings, account_a, server, chromium, size):
    base = server.base_url
    make_user(account_a, "owner@agency.example")
    context = chromium.new_context(viewport=SIZES[size])
    page = context.new_page()
    _sign_in(page, base, remember=True)
    [cookie] = [c for c in context.cookies() if c["name"] == "rc_session"]
    days = (cookie["expires"] - time.time()) / 86400
    assert 29.9 < days <= 30  # kept when the browser closes, for 30 days
    page.goto(base + "/dashboard/settings/account")
    devices = page.locator("table.devices tbody tr")
    assert devices.count() == 1 and "This device" in devices.first.inner_text()
    assert "Chrome" in devices.first.inner_text()
    page.locator("#devices").scroll_into_view_if_needed()
    page.screenshot(path=str(ARTIFACTS / f"account-devices-{size}.png"), full_page=True)
    assert violations(page) == []  # axe-core
    devices.first.get_by_role("button", name="Sign out this device").click()
    page.wait_for_url(re.compile(r".*/dashboard/sign-in\?done=signed_out"))
    page.goto(base + "/dashboard/today")
    assert "/dashboard/sign-in" in page.url
    context.close()
