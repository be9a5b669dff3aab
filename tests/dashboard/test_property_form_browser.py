"""The property form in headless Chromium, in each dashboard language: the country chosen first,
its time zones, fields and police authority following at once (an Italian property on Alloggiati
Web, a Spanish one on the Canary Islands on Atlantic/Canary), the same in one step more without
scripts, and the property page's word that an Italian property's guests are not being filed.
axe-core finds nothing on the pages. Screenshots at 390 and 1280 px go to
tests/artifacts/dashboard/ (git-ignored)."""

from __future__ import annotations

import pytest

from rentalcomply.core.models import Property
from rentalcomply.properties import service as properties
from tests.axe import violations
from tests.dashboard.test_browser import (ARTIFACTS, VIEWPORTS, _sign_in, chromium,  # noqa: F401
                                          server, settings, smtp_server, visible)

playwright_api = pytest.importorskip("playwright.sync_api")
expect = playwright_api.expect

pytestmark = [pytest.mark.server]

# The dashboard's languages; "it" joins when the dashboard's catalogues do.
LANGUAGES = ("en", "el", "it")


def _owner(account_id: str) -> str:
    from tests.dashboard.conftest import make_user
    make_user(account_id, "owner@agency.example")
    return "owner@agency.example"


def _new_form(context, server, lang: str):
    page = context.new_page()
    _sign_in(page, server.base_url, "owner@agency.example")
    page.goto(f"{server.base_url}/dashboard/properties/new?lang={lang}")
    return page


@pytest.mark.parametrize("lang", LANGUAGES)
def test_an_italian_property_is_made_with_its_zone_and_alloggiati_offered_at_once(
        settings, account_a, server, chromium, lang):
    _owner(account_a)
    context = chromium.new_context(viewport=VIEWPORTS["desktop"])
    try:
        page = _new_form(context, server, lang)
        assert page.locator("#country").input_value() == ""  # no country until one is picked
        expect(page.locator("#country-fields")).to_be_hidden()
        expect(page.locator("[data-country-step]")).to_be_hidden()  # the script shows at once
        assert violations(page) == []
        page.select_option("#country", "IT")
        visible(page.locator("#timezone"))
        assert page.locator("#timezone").input_value() == "Europe/Rome"
        assert page.locator("#police_connector").input_value() == "alloggiati"
        visible(page.locator("#police_connector-hint"))
        visible(page.locator("#cin"))
        expect(page.locator("#aade_property_id")).to_be_hidden()
        page.fill("#name", "Casa Navigli")
        page.fill("#address", "Via Vigevano 3, 20144 Milano (MI)")
        ARTIFACTS.mkdir(parents=True, exist_ok=True)
        page.screenshot(path=str(ARTIFACTS / f"property-new-italy-{lang}-desktop.png"),
                        full_page=True)
        assert violations(page) == []
        page.locator("#property-form button.primary").click()
        page.wait_for_url("**done=created**")
        prop = Property.get(Property.name == "Casa Navigli")
        assert (prop.country, prop.timezone, prop.region, prop.police_connector) \
            == ("IT", "Europe/Rome", "IT-25", "alloggiati")
        visible(page.locator("#police-setup-warning"))  # its set-up to complete
        visible(page.locator("#police-setup"))
        page.screenshot(path=str(ARTIFACTS / f"property-new-italy-made-{lang}-desktop.png"),
                        full_page=False)
    finally:
        context.close()


@pytest.mark.parametrize("lang", LANGUAGES)
def test_a_spanish_property_on_the_canary_islands_is_offered_atlantic_canary(
        settings, account_a, server, chromium, lang):
    _owner(account_a)
    context = chromium.new_context(viewport=VIEWPORTS["phone"])
    try:
        page = _new_form(context, server, lang)
        ARTIFACTS.mkdir(parents=True, exist_ok=True)
        page.screenshot(path=str(ARTIFACTS / f"property-new-start-{lang}-phone.png"),
                        full_page=True)
        page.select_option("#country", "ES")
        zone = page.locator("#timezone")
        offered = zone.locator("option").evaluate_all("options => options.map(o => o.value)")
        assert offered == ["", "Europe/Madrid", "Africa/Ceuta", "Atlantic/Canary"]
        assert zone.input_value() == ""  # several zones: never guessed
        assert page.locator("#police_connector").input_value() == "ses_hospedajes"
        visible(page.locator("#licence_number"))
        page.select_option("#region", "ES-CT")
        assert zone.input_value() == "Europe/Madrid"
        assert page.locator("#police_connector").input_value() == "mossos"
        page.select_option("#region", "ES-CN")
        assert zone.input_value() == "Atlantic/Canary"
        assert page.locator("#police_connector").input_value() == "ses_hospedajes"
        page.fill("#name", "Casa Teide")
        page.fill("#address", "Calle La Marina 5, Santa Cruz de Tenerife")
        page.fill("#licence_number", "VV-38-4-0001234")
        ARTIFACTS.mkdir(parents=True, exist_ok=True)
        page.screenshot(path=str(ARTIFACTS / f"property-new-canarias-{lang}-phone.png"),
                        full_page=True)
        assert violations(page) == []
        page.locator("#property-form button.primary").click()
        page.wait_for_url("**done=created**")
        prop = Property.get(Property.name == "Casa Teide")
        assert (prop.country, prop.timezone, prop.region, prop.police_connector) \
            == ("ES", "Atlantic/Canary", "ES-CN", "ses_hospedajes")
    finally:
        context.close()


@pytest.mark.parametrize("lang", LANGUAGES)
def test_without_scripts_the_country_shows_its_fields_in_one_step_and_nothing_is_saved(
        settings, account_a, server, chromium, lang):
    _owner(account_a)
    context = chromium.new_context(java_script_enabled=False, viewport=VIEWPORTS["phone"])
    try:
        page = _new_form(context, server, lang)
        expect(page.locator("#country-fields")).to_be_hidden()
        page.fill("#name", "Casa Limone")
        page.select_option("#country", "IT")
        page.locator("[data-country-step]").click()
        visible(page.locator("#timezone"))
        assert Property.select().count() == 0  # the step saves nothing
        assert page.locator("#name").input_value() == "Casa Limone"  # what was typed stays
        assert page.locator("#timezone").input_value() == "Europe/Rome"
        assert page.locator("#police_connector").input_value() == "alloggiati"
        visible(page.locator("#cin"))
        ARTIFACTS.mkdir(parents=True, exist_ok=True)
        page.screenshot(path=str(ARTIFACTS / f"property-new-noscript-{lang}-phone.png"),
                        full_page=True)
        page.fill("#address", "Via Roma 1, 22100 Como (CO)")
        page.locator("#property-form button.primary").click()
        page.wait_for_url("**done=created**")
        prop = Property.get(Property.name == "Casa Limone")
        assert (prop.country, prop.timezone, prop.police_connector) \
            == ("IT", "Europe/Rome", "alloggiati")
    finally:
        context.close()


@pytest.mark.parametrize("lang", LANGUAGES)
def test_the_property_page_says_an_italian_propertys_guests_are_not_filed(
        settings, account_a, server, chromium, lang):
    _owner(account_a)
    prop = properties.create_property(account_a, name="Casa Brera", country="IT",
                                      address="Via Solferino 7, 20121 Milano (MI)")
    for size, viewport in VIEWPORTS.items():
        context = chromium.new_context(viewport=viewport)
        try:
            page = context.new_page()
            _sign_in(page, server.base_url, "owner@agency.example")
            page.goto(f"{server.base_url}/dashboard/today?lang={lang}")
            item = page.locator("#no-registration")
            visible(item)
            assert "Casa Brera" in item.inner_text()
            page.goto(f"{server.base_url}/dashboard/properties/{prop.id}?lang={lang}")
            notice = page.locator("#not-filed")
            visible(notice)
            assert "Casa Brera" in notice.inner_text()
            ARTIFACTS.mkdir(parents=True, exist_ok=True)
            page.screenshot(path=str(ARTIFACTS / f"property-not-filed-{lang}-{size}.png"),
                            full_page=False)
            assert violations(page) == []
        finally:
            context.close()
    context = chromium.new_context(viewport=VIEWPORTS["desktop"])
    try:
        page = context.new_page()
        _sign_in(page, server.base_url, "owner@agency.example")
        page.goto(f"{server.base_url}/dashboard/properties/{prop.id}?lang={lang}")
        page.locator("#not-filed button").click()
        page.wait_for_url("**#police-setup")
        visible(page.locator("#police-setup-warning"))
        assert page.locator("#not-filed").count() == 0
        assert properties.get_property(account_a, prop.id).police_connector == "alloggiati"
    finally:
        context.close()


def test_on_the_property_page_another_country_brings_its_own_zones_fields_and_authorities(
        settings, account_a, server, chromium):
    _owner(account_a)
    prop = properties.create_property(account_a, name="Casa Limone", country="IT",
                                      address="Via Roma 1, 22100 Como (CO)",
                                      police_connector="alloggiati")
    context = chromium.new_context(viewport=VIEWPORTS["desktop"])
    try:
        page = context.new_page()
        _sign_in(page, server.base_url, "owner@agency.example")
        page.goto(f"{server.base_url}/dashboard/properties/{prop.id}?lang=en")
        expect(page.locator("#property-form [data-country-step]")).to_be_hidden()
        page.select_option("#country", "PT")
        zone = page.locator("#timezone")
        assert zone.input_value() == ""  # Lisbon, Madeira or the Azores: asked, never guessed
        assert zone.locator("option").evaluate_all("options => options.map(o => o.value)") \
            == ["", "Europe/Lisbon", "Atlantic/Madeira", "Atlantic/Azores"]
        assert page.locator("#police_connector").input_value() == "siba"
        expect(page.locator("#cin")).to_be_hidden()
        expect(page.locator("#region")).to_be_hidden()
        page.select_option("#timezone", "Atlantic/Madeira")
        page.locator("#property-form button.primary").click()
        page.wait_for_url("**done=saved**")
        saved = properties.get_property(account_a, prop.id)
        assert (saved.country, saved.timezone, saved.police_connector) \
            == ("PT", "Atlantic/Madeira", "siba")
    finally:
        context.close()
