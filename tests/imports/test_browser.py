"""The Import reservations page in headless Chromium against the real server: upload Booking.com's
.xls, read the preview, apply it, and find the filled booking. Screenshots at phone and desktop
widths go to tests/artifacts/imports/ (git-ignored)."""

from __future__ import annotations

import os
import re
from pathlib import Path

import pytest

from rentalcomply.core.models import Booking
from rentalcomply.dashboard import users
from tests.dashboard.conftest import make_user
from tests.imports.conftest import FILES

playwright_api = pytest.importorskip("playwright.sync_api")
pytestmark = [pytest.mark.server]

CHROMIUM = "/usr/bin/chromium"
ARTIFACTS = Path(__file__).resolve().parents[1] / "artifacts" / "imports"
if not os.path.exists(CHROMIUM):
    pytest.skip("Chromium is not installed (apt-get install chromium)", allow_module_level=True)

from tests.dashboard.test_browser import (LAUNCH_ARGS, VIEWPORTS, _shows, _sign_in,  # noqa: E402
                                          chromium, server, settings, visible)
from tests.checkin.conftest import smtp_server  # noqa: E402,F401  (fixture of `settings`)

__all__ = ["chromium", "server", "settings"]  # fixtures


@pytest.mark.parametrize("size", ["phone", "desktop"])
def test_upload_preview_and_apply_in_the_browser(settings, account_a, places, feed_bookings,
                                                 server, chromium, size):
    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    users.configure(settings)
    make_user(account_a, "host@example.com")
    context = chromium.new_context(viewport=VIEWPORTS[size])
    page = context.new_page()
    _sign_in(page, server.base_url, "host@example.com")

    page.goto(server.base_url + "/dashboard/bookings")
    page.get_by_role("link", name="Import reservations").click()
    visible(page.get_by_role("heading", name="Import reservations"))
    page.set_input_files("#file", str(FILES / "booking_en.xls"))
    page.get_by_role("button", name="Preview").click()
    assert _shows(page, "Preview: 1 new, 1 filled in, 1 unchanged, 0 conflicts.")
    rows = page.locator("#import-rows tbody tr")
    assert rows.count() == 3
    assert "Müller, Hans" in rows.nth(0).inner_text()
    page.screenshot(path=str(ARTIFACTS / f"preview-{size}.png"), full_page=True)
    assert Booking.get_by_id(feed_bookings["hans"]).external_ref is None

    page.get_by_role("button", name="Apply these changes").click()
    assert _shows(page, "Imported: 1 new, 1 filled in, 1 unchanged, 0 conflicts.")
    page.screenshot(path=str(ARTIFACTS / f"applied-{size}.png"), full_page=True)
    hans = Booking.get_by_id(feed_bookings["hans"])
    assert (hans.guest_name, hans.external_ref, hans.total_price_cents) == (
        "Müller, Hans", "6547074679", 37863)

    page.get_by_role("link", name="Müller, Hans").click()
    page.wait_for_url(re.compile(rf".*/dashboard/bookings/{hans.id}$"))
    assert _shows(page, "Müller, Hans")
    context.close()


def test_the_page_in_greek_with_a_conflict_kept_for_the_host(settings, account_a, places,
                                                             feed_bookings, rates, server,
                                                             chromium):
    from rentalcomply.bookings import service as bookings
    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    users.configure(settings)
    make_user(account_a, "host@example.com")
    bookings.update_booking(account_a, feed_bookings["hans"], rates=rates, guest_name="H. Müller")
    context = chromium.new_context(viewport=VIEWPORTS["phone"])
    page = context.new_page()
    _sign_in(page, server.base_url, "host@example.com")
    page.goto(server.base_url + "/dashboard/bookings/import?lang=el")
    visible(page.get_by_role("heading", name="Εισαγωγή κρατήσεων"))
    page.set_input_files("#file", str(FILES / "booking_it.xls"))
    page.get_by_role("button", name="Προεπισκόπηση").click()
    assert _shows(page, "το πεδίο «όνομα επισκέπτη» ορίστηκε από εσάς")
    page.screenshot(path=str(ARTIFACTS / "preview-el-phone.png"), full_page=True)
    context.close()
