"""Spain on the dashboard in headless Chromium: a Catalan property on SES.Hospedajes shown on the
wrong authority and moved by its button; a Spanish property's missing licence number entered
from Today's link. axe-core finds nothing on the pages. Screenshots go to
tests/artifacts/dashboard/ (git-ignored)."""

from __future__ import annotations

import pytest

from rentalcomply.core.models import Property
from rentalcomply.properties import service as properties
from tests.axe import violations
from tests.dashboard.test_browser import (ARTIFACTS, _sign_in, chromium, server,  # noqa: F401
                                          settings, smtp_server, visible)

pytest.importorskip("playwright.sync_api")

pytestmark = [pytest.mark.server]


def test_a_catalan_property_is_moved_to_mossos_and_its_licence_entered(settings, account_a,
                                                                        server, chromium):
    from tests.dashboard.conftest import make_user
    prop = properties.create_property(account_a, name="Pis Gràcia", address="Carrer 1",
                                      country="ES", timezone="Europe/Madrid",
                                      police_connector="ses_hospedajes")
    Property.update(region="ES-CT").where(Property.id == prop.id).execute()
    make_user(account_a, "owner@agency.example")
    context = chromium.new_context(viewport={"width": 1280, "height": 800})
    try:
        page = context.new_page()
        _sign_in(page, server.base_url, "owner@agency.example")
        visible(page.locator("#wrong-authority"))
        visible(page.locator("#licence-missing"))
        ARTIFACTS.mkdir(parents=True, exist_ok=True)
        page.screenshot(path=str(ARTIFACTS / "today-spain.png"), full_page=True)
        assert violations(page) == []
        page.locator("#licence-missing").get_by_role("link", name="Enter the licence number").click()
        page.wait_for_url(f"**/dashboard/properties/{prop.id}#licence_number")
        visible(page.locator("#wrong-authority"))
        page.screenshot(path=str(ARTIFACTS / "property-wrong-authority.png"), full_page=False)
        assert violations(page) == []
        page.fill("#licence_number", "HUTB-012345")
        page.locator("#licence_number").evaluate("input => input.form.requestSubmit()")
        visible(page.locator("#licence-shown"))
        page.locator("#wrong-authority").get_by_role("button").click()
        page.wait_for_url(f"**/dashboard/properties/{prop.id}*")
        assert page.locator("#wrong-authority").count() == 0
        page.screenshot(path=str(ARTIFACTS / "property-moved-to-mossos.png"), full_page=True)
        assert Property.get_by_id(prop.id).police_connector == "mossos"
        assert Property.get_by_id(prop.id).licence_number == "HUTB-012345"
    finally:
        context.close()
