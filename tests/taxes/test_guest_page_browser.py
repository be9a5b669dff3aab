"""The guest page's tourist tax section in headless Chromium against the real server, in Italian,
Portuguese and German at phone size (and English at desktop size): the amount and why, and a
guest's exemption claimed with the page's own form, the amount worked out again; axe-core finds
nothing. Screenshots go to tests/artifacts/checkin/ (git-ignored)."""

from __future__ import annotations

import pytest

from rentalcomply.core.db import atomic
from rentalcomply.taxes import service as taxes
from rentalcomply.taxes.models import BookingTax
from tests.axe import violations
from tests.checkin.conftest import make_booking, make_property, token_of  # noqa: F401 - fixtures
from tests.checkin.test_review_browser import ARTIFACTS, SIZES
from tests.dashboard.test_browser import chromium, server, visible  # noqa: F401 - fixtures
from tests.taxes.conftest import own_rule_set

pytest.importorskip("playwright.sync_api")

pytestmark = [pytest.mark.server]

# (language, browser locale, what the page says is due for 2 guests × 4 nights × €2, the saved
# notice after guest 2 claims the driver's exemption, the amount then).
CASES = {
    "it": ("it-IT", "Da pagare a chi La ospita: 16,00\xa0€", "Salvato", "8,00\xa0€"),
    "pt": ("pt-PT", "A pagar ao seu anfitrião: 16,00\xa0€", "Guardado", "8,00\xa0€"),
    "de": ("de-DE", "An Ihren Gastgeber zu zahlen: 16,00\xa0€", "Gespeichert", "8,00\xa0€"),
    "en": ("en-GB", "To pay your host: €16.00", "Saved", "€8.00"),
}


def _shot(locator, name: str) -> None:
    """The section alone (the form under it is the check-in's own, shot by its tests)."""
    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    locator.screenshot(path=str(ARTIFACTS / f"{name}.png"))


@pytest.fixture
def taxed_booking(account_a, make_property, make_booking):
    prop = make_property("IT")
    with atomic():
        rule = taxes.create_rule_set(account_a, own_rule_set())
        taxes.set_property_rules(account_a, prop, [rule["id"]])
    return make_booking(prop=prop, guest_count=2, nights=4, guest_name="Giulia Bianchi")


@pytest.mark.parametrize("lang,size", [("it", "phone"), ("pt", "phone"), ("de", "phone"),
                                       ("en", "desktop")])
def test_the_guest_reads_the_tax_and_claims_an_exemption(taxed_booking, server, chromium, lang,
                                                         size):
    locale, due, saved, after = CASES[lang]
    context = chromium.new_context(viewport=SIZES[size], locale=locale)
    try:
        page = context.new_page()
        page.goto(f"{server.base_url}/checkin/{token_of(taxed_booking)}?lang={lang}")
        section = page.locator("#tourist-tax")
        visible(section)
        assert due in section.locator(".tax-amount").inner_text()
        assert "× 2,00\xa0€" in section.inner_text() or "× €2.00" in section.inner_text()
        _shot(page.locator("#tourist-tax"), f"tourist-tax-{lang}-{size}")
        assert violations(page) == []
        page.select_option("#tax-reason-2", "driver")
        page.locator("#tourist-tax button[type=submit]").click()
        page.wait_for_url("**tax=saved**")
        section = page.locator("#tourist-tax")
        assert saved in section.locator(".tax-notice").inner_text()
        assert after in section.locator(".tax-amount").inner_text()
        assert page.locator("#tax-reason-2").input_value() == "driver"
        _shot(page.locator("#tourist-tax"), f"tourist-tax-{lang}-{size}-claimed")
        assert BookingTax.get(BookingTax.booking == taxed_booking.id).exemptions == {
            "2": "driver"}
    finally:
        context.close()
