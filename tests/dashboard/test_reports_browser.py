"""The Reports page by country in headless Chromium against the real server on loopback, at
390×844 and 1366×800, in English and Greek: AADE's section for the Greek property, the police
filings of the month for the Italian and Spanish ones, axe-core on each. Screenshots go to
tests/artifacts/dashboard/ (git-ignored)."""

from __future__ import annotations

import os

import pytest

from rentalcomply.core import clock
from rentalcomply.properties import service as properties
from tests.dashboard.conftest import make_user
from tests.dashboard.test_browser import _shows, _sign_in, chromium, server, visible  # noqa: F401
from tests.dashboard.test_property_setup_browser import VIEWPORTS, _shot
from tests.dashboard.test_reports_by_country import _italian, _only, _spanish, _stay

pytest.importorskip("playwright.sync_api")

pytestmark = [pytest.mark.server, pytest.mark.browser]

if not os.path.exists("/usr/bin/chromium"):
    pytest.skip("Chromium is not installed (apt-get install chromium)", allow_module_level=True)


def test_the_reports_page_by_country_in_a_real_browser(settings, account_a, server,  # noqa: F811
                                                       chromium):  # noqa: F811
    base = server.base_url
    make_user(account_a, "owner@agency.example")
    properties.create_property(account_a, name="Villa Anemoi", address="Oia, Santorini")
    casa, mar = _italian(account_a), _spanish(account_a)
    first = clock.today().replace(day=1)
    _only(account_a, casa, _stay(settings, account_a, casa, first, "Anna Rossi"), "submitted")
    _only(account_a, casa, _stay(settings, account_a, casa, first.replace(day=5), "Luca Ferrari"),
          "held")
    _only(account_a, mar, _stay(settings, account_a, mar, first.replace(day=9), "Javier Ruiz"),
          "rejected")
    for size, viewport in VIEWPORTS.items():
        context = chromium.new_context(viewport=viewport)
        page = context.new_page()
        _sign_in(page, base, "owner@agency.example")
        for lang in ("en", "el"):
            page.goto(f"{base}/dashboard/reports?lang={lang}")
            visible(page.locator("h1").first)
            assert page.evaluate("document.documentElement.scrollWidth - window.innerWidth") <= 0
            _shot(page, f"reports-by-country-{lang}-{size}")
        page.goto(f"{base}/dashboard/reports?lang=en")
        page.get_by_role("row").filter(has_text="Casa Limone").get_by_role(
            "link", name="The month’s stays and their filings").click()
        assert _shows(page, "Anna Rossi") and _shows(page, "Luca Ferrari")
        assert "Javier Ruiz" not in page.content()
        context.close()
