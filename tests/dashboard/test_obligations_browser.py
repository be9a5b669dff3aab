"""A property's obligations in headless Chromium: Today lists an Italian property whose guests
are not filed; its page shows the ISTAT statistics set-up, which is completed there; axe-core
finds nothing on either page. Screenshots go to tests/artifacts/dashboard/ (git-ignored)."""

from __future__ import annotations

import pytest

from rentalcomply.core.models import Property
from rentalcomply.properties import service as properties
from tests.axe import violations
from tests.dashboard.test_browser import (ARTIFACTS, _sign_in, chromium, server,  # noqa: F401
                                          settings, smtp_server, visible)

pytest.importorskip("playwright.sync_api")

pytestmark = [pytest.mark.server]


def test_today_names_the_property_not_filed_and_its_page_sets_up_the_statistics(
        settings, account_a, server, chromium):
    from tests.dashboard.conftest import make_user
    prop = properties.create_property(account_a, name="Casa Navigli", address="Via Tortona 1",
                                      country="IT", cin="IT015146C2ABCDEFGH")
    Property.update(region="IT-25", rooms=2, beds=4).where(Property.id == prop.id).execute()
    make_user(account_a, "owner@agency.example")
    context = chromium.new_context(viewport={"width": 1280, "height": 900})
    try:
        page = context.new_page()
        _sign_in(page, server.base_url, "owner@agency.example")
        item = page.locator("#no-registration")
        visible(item)
        ARTIFACTS.mkdir(parents=True, exist_ok=True)
        page.screenshot(path=str(ARTIFACTS / "today-no-registration.png"), full_page=True)
        assert violations(page) == []
        item.get_by_role("link", name="Casa Navigli").click()
        page.wait_for_url(f"**/dashboard/properties/{prop.id}")
        section = page.locator("#obligation-ross1000")
        visible(section)
        page.fill("#obligation-ross1000-structure_code", "LOM0001")
        page.fill("#obligation-ross1000-username", "ross-user")
        page.fill("#obligation-ross1000-password", "segreto")
        page.locator("#obligation-ross1000-structure_code").evaluate(
            "input => input.form.requestSubmit()")
        page.wait_for_url("**#obligation-ross1000")
        form = page.locator("section[aria-labelledby='obligation-ross1000']")
        visible(form)
        assert form.locator("#obligation-ross1000-structure_code").input_value() == "LOM0001"
        assert form.locator("#obligation-ross1000-password").input_value() == ""
        form.screenshot(path=str(ARTIFACTS / "property-obligation-ross1000.png"))
        assert violations(page) == []
    finally:
        context.close()
