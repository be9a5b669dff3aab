"""The guest page in headless Chromium against the real server on a loopback port, at phone
(390×844) and desktop (1366×800) size: the review of every guest before confirming, with an Edit
that goes back to a guest; a reload that resumes where the saved answers stop; country lists
searched by typing ("spa", "ital"); the page in Portuguese; a French page, where nothing is
filed, asking the lead guest alone; and the same page without JavaScript.
Screenshots go to tests/artifacts/checkin/ (git-ignored)."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from rentalcomply.accounts import mail_settings
from rentalcomply.checkin import i18n
from tests.axe import violations
from tests.checkin.conftest import italian_party, token_of
from tests.checkin.test_journey import fill_guest
from tests.dashboard.test_browser import chromium, server, visible  # noqa: F401 - fixtures

pytest.importorskip("playwright.sync_api")

pytestmark = [pytest.mark.server]

CHROMIUM = "/usr/bin/chromium"
SIZES = {"phone": {"width": 390, "height": 844}, "desktop": {"width": 1366, "height": 800}}
ARTIFACTS = Path(__file__).resolve().parents[1] / "artifacts" / "checkin"

if not os.path.exists(CHROMIUM):
    pytest.skip("Chromium is not installed (apt-get install chromium)", allow_module_level=True)


def _shot(page, name: str) -> None:
    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(ARTIFACTS / f"{name}.png"), full_page=True)


def _progress(page, lang: str, key: str, **values) -> None:
    page.wait_for_function("t => document.getElementById('progress-text').textContent === t",
                           arg=i18n.text(lang, key, **values))


def _confirm(page) -> None:
    """Tick the consent on the review step and send: the completion page opens."""
    page.check("#consent")
    page.click("button[type=submit]")
    visible(page.locator("#done-title"))


def _open(chromium, server, booking, lang: str, size: str, javascript: bool = True):
    context = chromium.new_context(viewport=SIZES[size], java_script_enabled=javascript,
                                   locale={"it": "it-IT", "pt": "pt-PT", "fr": "fr-FR"}.get(lang, "en-GB"))
    page = context.new_page()
    page.goto(f"{server.base_url}/checkin/{token_of(booking)}?lang={lang}")
    return context, page


@pytest.mark.parametrize("size", SIZES)
def test_the_review_lists_every_guest_and_edit_goes_back_to_one(make_booking, server, chromium,
                                                                 size):
    booking = make_booking("IT", guest_name="Giulia Bianchi", guest_language="it")
    mail_settings.save_contact(booking.account_id, name="Eleni Markou", phone="+39 333 765 4321",
                               email="eleni@example.com")
    context, page = _open(chromium, server, booking, "it", size)
    # The lead guest's name is the booking's, split into first and last name.
    assert page.input_value("#g0-first_name") == "Giulia"
    assert page.input_value("#g0-last_name") == "Bianchi"
    party = italian_party()
    fill_guest(page, 0, party[0])
    page.click("button.step-next")
    _progress(page, "it", "page.step_guest", n=2, total=2)
    fill_guest(page, 1, party[1])
    page.click("button.step-next")
    _progress(page, "it", "page.step_confirm")

    review = page.locator("#review")
    visible(review)
    words = review.inner_text()
    for shown in ("Giulia Bianchi", "Marco Bianchi", "12 marzo 1979", "Passaporto", "YA1234567",
                  "Italia", "Germania", "Capofamiglia", "Familiare",
                  i18n.text("it", "page.review_title")):
        assert shown in words, shown
    _shot(page, f"review-it-{size}")
    assert violations(page) == []  # axe-core: the review step, its Edit buttons, the consent

    # Edit on the second guest opens their step; a change shows in the review.
    page.locator(".review-guest").nth(1).get_by_role("button", name="Modifica").click()
    _progress(page, "it", "page.step_guest", n=2, total=2)
    page.fill("#g1-first_name", "Marcello")
    page.click("button.step-next")
    _progress(page, "it", "page.step_confirm")
    assert "Marcello Bianchi" in page.locator("#review").inner_text()

    _confirm(page)
    done = page.locator("main").inner_text()
    for shown in ("Somewhere 1", "14:00", i18n.text("it", "page.next_police.IT"), "Eleni Markou",
                  "+39 333 765 4321", i18n.text("it", "page.next_change")):
        assert shown in done, shown
    _shot(page, f"done-it-{size}")
    assert violations(page) == []
    context.close()


@pytest.mark.parametrize("size", SIZES)
def test_a_reload_resumes_at_the_first_unfinished_guest_then_at_the_review(make_booking, server,
                                                                          chromium, size):
    booking = make_booking("IT", guest_language="en")
    context, page = _open(chromium, server, booking, "en", size)
    party = italian_party()
    fill_guest(page, 0, party[0])
    page.click("button.step-next")  # checked and saved by the server
    _progress(page, "en", "page.step_guest", n=2, total=2)

    page.reload()
    _progress(page, "en", "page.step_guest", n=2, total=2)
    assert page.input_value("#g0-document_number") == "YA1234567"  # kept on the server
    assert page.input_value("#g0-nationality-search") == "Italy"

    fill_guest(page, 1, party[1])
    page.click("button.step-next")
    _progress(page, "en", "page.step_confirm")
    page.reload()
    _progress(page, "en", "page.step_confirm")
    visible(page.locator("#review"))
    assert "Marco Bianchi" in page.locator("#review").inner_text()
    _shot(page, f"reload-review-{size}")
    context.close()


@pytest.mark.parametrize("size", SIZES)
def test_a_country_list_is_searched_by_typing_without_accents(make_booking, server, chromium,
                                                              size):
    booking = make_booking("ES", guest_count=1, guest_language="es")
    context, page = _open(chromium, server, booking, "es", size)
    box = page.locator("#g0-nationality-search")
    assert box.get_attribute("role") == "combobox"
    page.get_by_role("combobox", name="Nacionalidad").press_sequentially("spa")  # labelled
    options = page.locator("#g0-nationality-options [role=option]")
    visible(options.first)
    assert options.all_inner_texts() == ["España"]
    assert box.get_attribute("aria-expanded") == "true"
    _shot(page, f"country-search-es-{size}")
    assert violations(page) == []  # axe-core: the combobox open on its list
    box.press("Enter")
    assert page.input_value("#g0-nationality") == "ES" and box.input_value() == "España"

    issuing = page.locator("#g0-document_country-search")
    issuing.press_sequentially("ital")
    visible(page.locator("#g0-document_country-options [role=option]").first)
    assert page.locator("#g0-document_country-options [role=option]").all_inner_texts() == ["Italia"]
    issuing.press("ArrowDown")
    issuing.press("Enter")
    assert page.input_value("#g0-document_country") == "IT"
    # Escape leaves the choice as it was.
    issuing.press_sequentially("fra")
    issuing.press("Escape")
    assert issuing.input_value() == "Italia" and page.input_value("#g0-document_country") == "IT"
    # Accents and case do not matter: "cote" finds "Côte d’Ivoire".
    residence = page.locator("#g0-address_country-search")
    residence.press_sequentially("cote")
    assert page.locator("#g0-address_country-options [role=option]").all_inner_texts() == \
        ["Côte d’Ivoire"]
    context.close()


@pytest.mark.parametrize("size", SIZES)
def test_the_page_speaks_portuguese(make_booking, server, chromium, size):
    booking = make_booking("PT", guest_name="João Silva", guest_language="pt")
    context, page = _open(chromium, server, booking, "pt", size)
    visible(page.get_by_role("heading", name="Check-in online"))
    assert page.locator("html").get_attribute("lang") == "pt"
    for shown in ("Hóspede principal", "Nome próprio", "Apelido", "Nacionalidade",
                  "Hóspede 1 de 2", "Seguinte"):
        assert shown in page.locator("main").inner_text(), shown
    assert page.input_value("#g0-first_name") == "João"
    box = page.locator("#g0-nationality-search")
    box.press_sequentially("espa")
    assert page.locator("#g0-nationality-options [role=option]").all_inner_texts() == ["Espanha"]
    box.press("Escape")
    _shot(page, f"portuguese-{size}")
    context.close()


def test_without_javascript_the_whole_party_is_one_form_with_plain_country_lists(
        make_booking, server, chromium):
    booking = make_booking("IT", guest_language="it")
    context, page = _open(chromium, server, booking, "it", "phone", javascript=False)
    assert page.locator("#g0-nationality").is_visible()  # the plain select, no search box
    assert page.locator("#g0-nationality-search").count() == 0
    party = italian_party()
    for index, guest in enumerate(party):
        for name in [n for n in ("birth_country", "nationality", "document_country") if n in guest] \
                + [n for n in guest if n not in ("birth_country", "nationality", "document_country")]:
            element = page.locator(f"#g{index}-{name}")
            if element.evaluate("e => e.tagName") == "SELECT":
                element.select_option(guest[name])
            else:
                element.fill(guest[name])
    _confirm(page)
    _shot(page, "done-it-without-javascript")
    context.close()



@pytest.mark.parametrize("size", SIZES)
def test_a_greek_page_asks_the_lead_guest_alone_and_completes(make_booking, server, chromium,
                                                              size):
    booking = make_booking("GR", guest_count=3, guest_name="Μαρία Παπαδοπούλου",
                           guest_language="el")
    context, page = _open(chromium, server, booking, "el", size)
    _progress(page, "el", "page.step_guest", n=1, total=1)
    assert page.input_value("#g0-last_name") == "Παπαδοπούλου"
    assert page.locator("#g0-birth_date").count() == 0 and page.locator("#g1-first_name").count() == 0
    assert "ΑΑΔΕ" in page.locator(".lead").inner_text()
    _shot(page, f"greek-{size}")
    box = page.locator("#g0-nationality-search")
    box.press_sequentially("ελλ")
    box.press("Enter")
    page.fill("#g0-tax_id", "094259216")
    page.click("button.step-next")
    _progress(page, "el", "page.step_confirm")
    assert "094259216" in page.locator("#review").inner_text()
    _confirm(page)
    assert i18n.text("el", "page.next_police.GR") in page.locator("main").inner_text()
    _shot(page, f"done-el-{size}")
    context.close()


@pytest.mark.parametrize("size", SIZES)
def test_a_page_where_nothing_is_filed_asks_the_lead_guests_name_and_contact_and_completes(
        make_booking, server, chromium, size):
    booking = make_booking("FR", guest_count=3, guest_name="Anna Weber", guest_language="fr")
    context, page = _open(chromium, server, booking, "fr", size)
    _progress(page, "fr", "page.step_guest", n=1, total=1)
    assert page.input_value("#g0-first_name") == "Anna"
    assert page.locator("#g0-document_number").count() == 0
    assert page.locator("#g1-first_name").count() == 0 and page.locator(".scan").count() == 0
    _shot(page, f"nothing-filed-fr-{size}")
    assert violations(page) == []
    page.click("button.step-next")
    _progress(page, "fr", "page.step_confirm")
    assert "Anna Weber" in page.locator("#review").inner_text()
    _confirm(page)
    _shot(page, f"done-fr-{size}")
    context.close()
