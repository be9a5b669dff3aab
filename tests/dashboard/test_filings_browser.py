"""The Filings page in headless Chromium against the real server on loopback, at 390×844 and
1366×800, in English and Greek, axe-core on each: booking and period filings in one list, the
filters used through the form, a file marked filed with its reference, a refused one filed
again. Screenshots go to tests/artifacts/dashboard/ (git-ignored)."""

from __future__ import annotations

import os

import pytest

from rentalcomply.filings.models import Filing
from tests.dashboard.conftest import make_user
from tests.dashboard.test_browser import _shows, _sign_in, chromium, server, visible  # noqa: F401
from tests.dashboard.test_filings_pages import filed  # noqa: F401
from tests.dashboard.test_property_setup_browser import VIEWPORTS, _shot

pytest.importorskip("playwright.sync_api")

pytestmark = [pytest.mark.server, pytest.mark.browser]

if not os.path.exists("/usr/bin/chromium"):
    pytest.skip("Chromium is not installed (apt-get install chromium)", allow_module_level=True)


def _no_sideways_scroll(page) -> None:
    assert page.evaluate("document.documentElement.scrollWidth - window.innerWidth") <= 0


def test_the_filings_page_in_a_real_browser(settings, account_a, filed, server,  # noqa: F811
                                            chromium):  # noqa: F811
    base = server.base_url
    make_user(account_a, "owner@agency.example")
    for size, viewport in VIEWPORTS.items():
        context = chromium.new_context(viewport=viewport)
        page = context.new_page()
        _sign_in(page, base, "owner@agency.example")
        for lang in ("en", "el"):
            page.goto(f"{base}/dashboard/filings?lang={lang}")
            visible(page.locator("h1").first)
            _no_sideways_scroll(page)
            _shot(page, f"filings-{lang}-{size}")
        page.goto(f"{base}/dashboard/filings?lang=en")
        if size == "phone":  # the filters fold under one line on a phone
            page.get_by_text("Filter the list").click()
        page.get_by_label("Status").select_option("ready")
        page.get_by_role("button", name="Find").click()
        visible(page.get_by_text("March 2026", exact=True))
        assert not _shows(page, "Giulia Bianchi")
        _shot(page, f"filings-filtered-{size}")
        context.close()

    context = chromium.new_context(viewport=VIEWPORTS["desktop"])
    page = context.new_page()
    _sign_in(page, base, "owner@agency.example")
    page.goto(f"{base}/dashboard/filings")
    row = page.locator(f"tr#{filed['march'].id}")
    row.get_by_label("Reference of the upload (optional)").fill("ROSS 2026-03")
    row.get_by_role("button", name="Mark as filed").click()
    visible(page.get_by_text("The filing is recorded as filed."))
    assert Filing.get_by_id(filed["march"].id).reference == "ROSS 2026-03"
    page.locator(f"tr#{filed['quarter'].id}").get_by_role("button", name="Refile").click()
    visible(page.get_by_text("The filing is queued again"))
    _shot(page, "filings-after-actions-desktop")
    assert Filing.get_by_id(filed["quarter"].id).status in ("queued", "sending", "failed",
                                                            "rejected", "submitted", "ready")
    context.close()
