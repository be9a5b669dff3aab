"""A property's region, rooms, beds and closed days on the dashboard in headless Chromium:
Today's unknown region leads to the property page's select, chosen there; rooms and beds
entered; a range closed and listed; axe-core finds nothing on the pages. Screenshots go to
tests/artifacts/dashboard/ (git-ignored)."""

from __future__ import annotations

import datetime as dt

import pytest

from rentalcomply.core import clock
from rentalcomply.properties import service as properties
from tests.axe import violations
from tests.dashboard.test_browser import (ARTIFACTS, _sign_in, chromium, server,  # noqa: F401
                                          settings, smtp_server, visible)

pytest.importorskip("playwright.sync_api")

pytestmark = [pytest.mark.server]


def test_the_region_is_chosen_rooms_entered_and_days_closed_on_the_property_page(
        settings, account_a, server, chromium):
    from tests.dashboard.conftest import make_user
    prop = properties.create_property(account_a, name="Casa Castro", country="IT",
                                      address="Via Litoranea 4, 73030 Castro",
                                      cin="IT075018C2ABCDEFGH")
    make_user(account_a, "owner@agency.example")
    first = clock.today() + dt.timedelta(days=12)
    context = chromium.new_context(viewport={"width": 1280, "height": 900})
    try:
        page = context.new_page()
        _sign_in(page, server.base_url, "owner@agency.example")
        item = page.locator("#region-missing")
        visible(item)
        visible(page.locator("#capacity-missing"))
        ARTIFACTS.mkdir(parents=True, exist_ok=True)
        page.screenshot(path=str(ARTIFACTS / "today-region-missing.png"), full_page=True)
        assert violations(page) == []
        item.get_by_role("link", name="Choose the region").click()
        page.wait_for_url(f"**/dashboard/properties/{prop.id}#region")
        assert "does not say it for certain" in page.locator("#region-hint").inner_text()
        page.select_option("#region", "IT-75")
        page.fill("#rooms", "2")
        page.fill("#beds", "5")
        page.locator("#region").evaluate("select => select.form.requestSubmit()")
        page.wait_for_url("**done=saved**")
        assert page.locator("#region").input_value() == "IT-75"
        assert "Chosen by you" in page.locator("#region-hint").inner_text()
        page.locator("#region-field").scroll_into_view_if_needed()
        page.screenshot(path=str(ARTIFACTS / "property-region.png"), full_page=False)
        page.fill("#closed-first_day", first.isoformat())
        page.fill("#closed-last_day", (first + dt.timedelta(days=3)).isoformat())
        page.get_by_role("button", name="Close these days").click()
        page.wait_for_url("**#closed-days")
        listed = page.locator("#closed-day-list")
        visible(listed)
        assert "4 days" in listed.inner_text()
        page.locator("#closed-days-section").scroll_into_view_if_needed()
        page.screenshot(path=str(ARTIFACTS / "property-closed-days.png"), full_page=False)
        assert violations(page) == []
        saved = properties.get_property(account_a, prop.id)
        assert (saved.region, saved.region_source, saved.rooms, saved.beds) \
            == ("IT-75", "host", 2, 5)
        page.goto(server.base_url + "/dashboard/today")
        assert page.locator("#region-missing").count() == 0
        assert page.locator("#capacity-missing").count() == 0
    finally:
        context.close()
