"""Italy's missing CIN on the dashboard in headless Chromium: Today's item and its link to the
property page's field, which is entered there; axe-core finds nothing on either page.
Screenshots go to tests/artifacts/dashboard/ (git-ignored)."""

from __future__ import annotations

import pytest

from rentalcomply.properties import service as properties
from tests.axe import violations
from tests.dashboard.test_browser import (ARTIFACTS, _sign_in, chromium, server,  # noqa: F401
                                          settings, smtp_server, visible)

pytest.importorskip("playwright.sync_api")

pytestmark = [pytest.mark.server]

CIN = "IT058091C2ABCDEFGH"


def test_today_leads_to_the_cin_field_and_entering_it_clears_the_item(settings, account_a,
                                                                      server, chromium):
    from tests.dashboard.conftest import make_user
    prop = properties.create_property(account_a, name="Casa Limone", address="Via Roma 1",
                                      country="IT")
    make_user(account_a, "owner@agency.example")
    context = chromium.new_context(viewport={"width": 1280, "height": 800})
    try:
        page = context.new_page()
        _sign_in(page, server.base_url, "owner@agency.example")
        item = page.locator("#cin-missing")
        visible(item)
        ARTIFACTS.mkdir(parents=True, exist_ok=True)
        page.screenshot(path=str(ARTIFACTS / "today-cin-missing.png"), full_page=True)
        assert violations(page) == []
        item.get_by_role("link", name="Enter the CIN").click()
        page.wait_for_url(f"**/dashboard/properties/{prop.id}#cin")
        visible(page.locator("#cin-warning"))
        assert violations(page) == []
        page.fill("#cin", CIN)
        page.locator("#cin").evaluate("input => input.form.requestSubmit()")
        visible(page.locator("#cin-shown"))
        page.screenshot(path=str(ARTIFACTS / "property-cin.png"), full_page=False)
        assert page.locator("#cin-warning").count() == 0
        page.goto(server.base_url + "/dashboard/today")
        assert page.locator("#cin-missing").count() == 0
    finally:
        context.close()
