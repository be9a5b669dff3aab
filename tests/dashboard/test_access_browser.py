"""Access instructions per guest language on the property page, in headless Chromium against the
real server on loopback, at 390×844 and 1366×800: an owner writes them in Italian and English,
reads them back, edits one in place; axe-core on each page looked at. Screenshots go to
tests/artifacts/dashboard/ (git-ignored)."""

from __future__ import annotations

import os

import pytest

from rentalcomply.core.activity import Activity
from rentalcomply.core.models import Property
from rentalcomply.properties import access
from rentalcomply.properties import service as properties
from tests.dashboard.conftest import make_user
from tests.dashboard.test_browser import _shows, _sign_in, chromium, server, visible  # noqa: F401
from tests.dashboard.test_property_setup_browser import VIEWPORTS, _shot

pytest.importorskip("playwright.sync_api")

pytestmark = [pytest.mark.server, pytest.mark.browser]

if not os.path.exists("/usr/bin/chromium"):
    pytest.skip("Chromium is not installed (apt-get install chromium)", allow_module_level=True)

ITALIANO = "Cassetta delle chiavi a sinistra della porta, codice 481273.\nWi-Fi: Limone / giallo27"
ENGLISH = "Key box left of the door, code 481273.\nWi-Fi: Limone / giallo27"


def test_an_owner_writes_reads_and_edits_them_per_language_in_a_real_browser(
        settings, account_a, server, chromium):  # noqa: F811
    base = server.base_url
    make_user(account_a, "owner@agency.example")
    casa = properties.create_property(account_a, name="Casa Limone", address="Via Roma 1, Sorrento",
                                      country="IT", timezone="Europe/Rome")
    for size, viewport in VIEWPORTS.items():
        context = chromium.new_context(viewport=viewport)
        page = context.new_page()
        _sign_in(page, base, "owner@agency.example")
        page.goto(f"{base}/dashboard/properties/{casa.id}?lang=en#access")
        visible(page.locator("#access"))
        if size == "phone":
            # The property's language is offered first: Italian guests, and the fallback.
            assert page.locator("#access-language").input_value() == "it"
            page.get_by_role("textbox", name="Access instructions").fill(ITALIANO)
            page.get_by_role("button", name="Save access instructions").click()
            assert _shows(page, "The access instructions are saved.")
            page.get_by_label("Add a language").select_option("en")
            page.get_by_label("Text in the language chosen").fill(ENGLISH)
            page.get_by_role("button", name="Save access instructions").click()
            assert _shows(page, "In: English, Italian (Italiano)")
            assert "481273" not in page.content()
        _shot(page, f"property-access-set-en-{size}")
        page.get_by_role("button", name="Read them").click()
        assert page.locator("#access-it").input_value() == ITALIANO
        assert page.locator("#access-en").input_value() == ENGLISH
        _shot(page, f"property-access-read-en-{size}")
        page.goto(f"{base}/dashboard/properties/{casa.id}?lang=el#access")
        page.get_by_role("button", name="Ανάγνωση").click()
        assert page.locator("#access-it").input_value() == ITALIANO
        _shot(page, f"property-access-read-el-{size}")
        context.close()
    # Read, then edited in place: the English emptied, the Italian changed.
    context = chromium.new_context(viewport=VIEWPORTS["desktop"])
    page = context.new_page()
    _sign_in(page, base, "owner@agency.example")
    page.goto(f"{base}/dashboard/properties/{casa.id}?lang=en#access")
    page.get_by_role("button", name="Read them").click()
    page.locator("#access-en").fill("")
    page.locator("#access-it").fill("Codice 9999")
    page.get_by_role("button", name="Save access instructions").click()
    assert _shows(page, "In: Italian (Italiano)")
    context.close()
    assert access.texts_of(Property.get_by_id(casa.id)) == {"it": "Codice 9999"}
    assert [a.action for a in Activity.select()].count("property.access_instructions_read") == 5
