"""The rule set editor and the booking page's tax in headless Chromium against the real server,
at phone (390 px) and desktop (1280 px) width: the list, a set created through the form and
edited, a stay's tax marked collected; no sideways scroll, axe-core finds nothing. Screenshots go
to tests/artifacts/dashboard/ (git-ignored)."""

from __future__ import annotations

import os

import pytest

from rentalcomply.taxes.models import BookingTax, TaxRuleSet
from tests.axe import violations
from tests.checkin.conftest import smtp_server  # noqa: F401 - the fixture
from tests.dashboard.conftest import make_user
from tests.dashboard.test_browser import (ARTIFACTS, _sign_in, chromium, open_menu,  # noqa: F401
                                          server, settings, visible)
from tests.taxes.test_dashboard_pages import taxed_arrival_today

pytest.importorskip("playwright.sync_api")

pytestmark = [pytest.mark.server, pytest.mark.browser]

if not os.path.exists("/usr/bin/chromium"):
    pytest.skip("Chromium is not installed (apt-get install chromium)", allow_module_level=True)

VIEWPORTS = {"phone": {"width": 390, "height": 844}, "desktop": {"width": 1280, "height": 800}}


def _shot(page, name: str) -> None:
    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(ARTIFACTS / f"{name}.png"), full_page=True)


def _no_sideways_scroll(page) -> None:
    assert page.evaluate("document.documentElement.scrollWidth - window.innerWidth") <= 0


@pytest.mark.parametrize("size", VIEWPORTS)
def test_the_rule_set_editor_and_the_bookings_tax_in_a_real_browser(settings, account_a,
                                                                    server, chromium, size):
    base = server.base_url
    make_user(account_a, "owner@agency.example")
    booking = taxed_arrival_today(account_a)
    context = chromium.new_context(viewport=VIEWPORTS[size])
    try:
        page = context.new_page()
        _sign_in(page, base, "owner@agency.example")
        open_menu(page)
        page.get_by_role("link", name="Tourist taxes").click()
        visible(page.locator("#rule-sets"))
        _no_sideways_scroll(page)
        assert violations(page) == []
        _shot(page, f"taxes-list-{size}")

        form = page.locator("form.tax-rule-form")
        form.get_by_label("Name").fill("Imposta di soggiorno, Lucca")
        form.get_by_label("Authority").fill("Comune di Lucca")
        form.get_by_label("Country").fill("IT")
        form.locator("#source").fill("https://www.comune.lucca.it/imposta")
        form.locator("input[name=rate_from]").first.fill("2026-01-01")
        form.locator("input[name=rate_amount]").first.fill("2.50")
        form.get_by_label("Most nights charged").fill("5")
        form.get_by_label("Reasons a guest may declare").fill("driver: Coach or bus driver")
        form.get_by_label("Every").select_option("quarter")
        form.get_by_label("Due on day").fill("16")
        form.get_by_role("button", name="Create the rule set").click()
        visible(page.get_by_text("The tax rule set is saved"))
        row = TaxRuleSet.get(TaxRuleSet.account == account_a)
        assert row.body["returns"]["every"] == "quarter"
        _no_sideways_scroll(page)
        assert violations(page) == []
        _shot(page, f"tax-rule-edit-{size}")

        page.goto(f"{base}/dashboard/bookings/{booking.id}")
        section = page.locator("#tourist-tax")
        visible(section)
        section.scroll_into_view_if_needed()
        _no_sideways_scroll(page)
        _shot(page, f"booking-tax-{size}")
        section.get_by_role("button", name="Cash").click()
        visible(page.get_by_text("The tourist tax is marked collected"))
        assert BookingTax.get(BookingTax.booking == booking.id).collected_method == "cash"
        assert violations(page) == []
    finally:
        context.close()
