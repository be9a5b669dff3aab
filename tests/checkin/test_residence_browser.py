"""The comune of residence on an Italian property's guest page in headless Chromium, at phone
width: hidden until Italy is chosen as the country of residence, then asked with the searchable
list of comuni; hidden again for a guest resident abroad; axe-core finds nothing. Screenshots go
to tests/artifacts/checkin/ (git-ignored)."""

from __future__ import annotations

import pytest

from tests.axe import violations
from tests.checkin.test_review_browser import _open, _shot
from tests.dashboard.test_browser import chromium, server, visible  # noqa: F401 - fixtures

pytest.importorskip("playwright.sync_api")

pytestmark = [pytest.mark.server]


def test_a_guest_resident_in_italy_is_asked_the_comune_and_one_abroad_their_town(make_booking,
                                                                             server, chromium):
    booking = make_booking("IT", guest_count=1, guest_language="it")
    context, page = _open(chromium, server, booking, "it", "phone")
    try:
        comune, province = page.locator("#g0-residence_comune"), page.locator("#g0-residence_province")
        town = page.locator("#g0-residence_place")
        assert comune.is_hidden() and province.is_hidden() and town.is_hidden()
        residence = page.locator("#g0-residence_country-search")
        residence.press_sequentially("ital")
        visible(page.locator("#g0-residence_country-options [role=option]").first)
        residence.press("Enter")
        assert page.input_value("#g0-residence_country") == "IT"
        visible(comune)
        visible(province)
        assert town.is_hidden()  # a resident of Italy is placed by the comune
        assert comune.get_attribute("list") == "it-municipalities"
        assert "Comune di residenza" in page.locator("label[for=g0-residence_comune]").inner_text()
        comune.fill("Roma")
        province.fill("RM")
        comune.scroll_into_view_if_needed()
        _shot(page, "residence-comune-it-phone")
        assert violations(page) == []
        residence.fill("")
        residence.press_sequentially("fran")
        residence.press("Enter")
        assert page.input_value("#g0-residence_country") == "FR"
        assert comune.is_hidden() and province.is_hidden()
        visible(town)  # a resident abroad names their town instead
        town.fill("Lyon")
        town.scroll_into_view_if_needed()
        _shot(page, "residence-abroad-it-phone")
    finally:
        context.close()
