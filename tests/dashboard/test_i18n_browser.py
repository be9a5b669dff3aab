"""Today, a booking, an Italian property with its police set-up, Reports and Account in Chromium in
Italian, Spanish and Portuguese, at phone (390 px) and desktop (1280 px) width: each page in its
language, with the person's dates and money written the language's way, nothing wider than the
screen, axe-clean. Screenshots go to the test's folder (and a few to tests/artifacts/dashboard/,
i18n-*.png)."""

from __future__ import annotations

import shutil

import pytest

from rentalcomply.properties import service as properties
from tests.axe import violations
from tests.checkin.conftest import smtp_server  # noqa: F401 - the fixture
from tests.dashboard.conftest import make_user
from tests.dashboard.test_browser import (ARTIFACTS, VIEWPORTS, WIDER_THAN_SCREEN, _seed,  # noqa: F401
                                          _sign_in, chromium, server, settings, visible)

pytestmark = [pytest.mark.server, pytest.mark.long, pytest.mark.browser]

# The page's own heading in each language: the page speaks it.
HEADINGS = {"today": {"it": "Oggi", "es": "Hoy", "pt": "Hoje"}}
KEPT = {("today", "desktop"), ("booking", "phone"), ("property", "desktop"), ("reports", "phone"),
        ("account", "desktop")}


@pytest.fixture
def agency(settings, account_a):
    seeded = _seed(settings, account_a)
    seeded["italian"] = properties.create_property(
        account_a, name="Casa Limone", address="Via Roma 1, Firenze", country="IT",
        timezone="Europe/Rome")
    make_user(account_a, "owner@agency.example")
    return seeded


@pytest.mark.parametrize("lang", ["it", "es", "pt"])
def test_the_main_pages_in_the_hosts_languages_at_phone_and_desktop_width(
        agency, server, chromium, lang, tmp_path):
    base = server.base_url
    pages = {"today": "/dashboard/today",
             "booking": f"/dashboard/bookings/{agency['bookings'][4].id}",
             "property": f"/dashboard/properties/{agency['italian'].id}",
             "reports": "/dashboard/reports",
             "account": "/dashboard/settings/account"}
    for size, viewport in VIEWPORTS.items():
        context = chromium.new_context(viewport=viewport)
        page = context.new_page()
        _sign_in(page, base, "owner@agency.example")
        for name, path in pages.items():
            page.goto(f"{base}{path}?lang={lang}")
            visible(page.locator("h1").first)
            assert page.locator("html").get_attribute("lang") == lang
            if name in HEADINGS:
                assert page.locator("h1").first.inner_text() == HEADINGS[name][lang]
            overflow = page.evaluate("document.documentElement.scrollWidth - window.innerWidth")
            shot = tmp_path / f"i18n-{name}-{lang}-{size}.png"
            page.screenshot(path=str(shot), full_page=True)
            assert overflow <= 0, (name, size, overflow, page.evaluate(WIDER_THAN_SCREEN))
            assert violations(page) == [], (name, lang, size)  # axe-core, every rule
            if (name, size) in KEPT:
                ARTIFACTS.mkdir(parents=True, exist_ok=True)
                shutil.copy(shot, ARTIFACTS / shot.name)
        context.close()


def test_the_language_chosen_is_remembered_for_the_person(agency, server, chromium):
    base = server.base_url
    context = chromium.new_context(viewport=VIEWPORTS["desktop"])
    page = context.new_page()
    _sign_in(page, base, "owner@agency.example")
    page.goto(f"{base}/dashboard/today?lang=es")
    visible(page.get_by_role("heading", name="Hoy"))
    context.close()
    # Another browser, in English: the person's own choice wins over the browser's language.
    context = chromium.new_context(viewport=VIEWPORTS["desktop"], locale="en-GB")
    page = context.new_page()
    _sign_in(page, base, "owner@agency.example")
    page.goto(f"{base}/dashboard/today")
    visible(page.get_by_role("heading", name="Hoy"))
    context.close()


def test_a_new_person_gets_the_browsers_language(agency, server, chromium):
    context = chromium.new_context(viewport=VIEWPORTS["phone"], locale="pt-PT")
    page = context.new_page()
    page.goto(server.base_url + "/dashboard/sign-in")
    visible(page.get_by_role("button", name="Iniciar sessão"))
    context.close()
