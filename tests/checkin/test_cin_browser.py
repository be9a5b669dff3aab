"""The CIN of an Italian property on the guest page in headless Chromium against the real server,
at phone and desktop size: shown under the property's name, read by a screen reader as the code
it is (axe-core finds nothing). Screenshots go to tests/artifacts/checkin/ (git-ignored)."""

from __future__ import annotations

import pytest

from tests.checkin.conftest import token_of
from tests.checkin.test_review_browser import SIZES, _shot
from tests.dashboard.test_browser import chromium, server, visible  # noqa: F401 - fixtures
from tests.axe import violations

pytest.importorskip("playwright.sync_api")

pytestmark = [pytest.mark.server]

CIN = "IT058091C2ABCDEFGH"


@pytest.mark.parametrize("size", SIZES)
def test_the_guest_page_shows_the_cin_under_the_propertys_name(make_property, make_booking,
                                                                server, chromium, size):
    booking = make_booking(prop=make_property("IT", cin=CIN), guest_language="it")
    context = chromium.new_context(viewport=SIZES[size], locale="it-IT")
    try:
        page = context.new_page()
        page.goto(f"{server.base_url}/checkin/{token_of(booking)}?lang=it")
        cin = page.locator(".topbar .cin")
        visible(cin)
        assert cin.inner_text() == f"CIN {CIN}"
        brand = page.locator(".topbar .brand").bounding_box()
        under = cin.bounding_box()
        assert under["y"] >= brand["y"] + brand["height"] - 1  # below the name, not beside it
        _shot(page, f"cin-it-{size}")
        assert violations(page) == []
    finally:
        context.close()
