"""The guest page's details of issue 36 in headless Chromium (the HTML of each:
tests/checkin/test_page_details.py): a Spanish lead's booking name fills both surnames, shown at
once; no NIF beside a Spanish DNI, one beside a passport; the minor's relationship worded one
way; a reload at the signature step stays there; an Italian member's step has no document
heading. Screenshots go to tests/artifacts/checkin/ (git-ignored)."""

from __future__ import annotations

import pytest

from rentalcomply.checkin import i18n
from tests.axe import violations
from tests.checkin.test_journey import fill_guest, spanish_browser_party
from tests.checkin.test_review_browser import _open, _progress, _shot
from tests.dashboard.test_browser import chromium, server  # noqa: F401 - fixtures

pytest.importorskip("playwright.sync_api")

pytestmark = [pytest.mark.server]


def test_a_spanish_lead_with_a_dni_signs_and_a_reload_stays_at_the_signatures(
        make_booking, server, chromium):
    booking = make_booking("ES", guest_name="Javier Fernández Ruiz", guest_language="es")
    context, page = _open(chromium, server, booking, "es", "phone")
    assert [page.input_value(f"#g0-{name}") for name in
            ("first_name", "last_name", "second_last_name")] == ["Javier", "Fernández", "Ruiz"]
    assert page.locator("#g0-second_last_name").is_visible()  # before any nationality
    lead, member = spanish_browser_party()
    lead = {k: v for k, v in lead.items()
            if k not in ("first_name", "last_name", "second_last_name", "signature")}
    fill_guest(page, 0, lead)  # a DNI: id_card, issued in Spain
    assert page.locator("#g0-tax_id").is_hidden()
    page.select_option("#g0-document_type", "passport")
    assert page.locator("#g0-tax_id").is_visible()  # NIF (opcional) beside a passport
    page.select_option("#g0-document_type", "id_card")
    assert page.locator("#g0-tax_id").is_hidden()
    _shot(page, "details-spanish-dni-phone")
    page.click("button.step-next")
    _progress(page, "es", "page.step_guest", n=2, total=2)
    label = page.locator("label[for='g1-minor_relationship']")
    fill_guest(page, 1, {k: v for k, v in member.items() if k != "signature"})
    assert label.is_visible()
    assert label.inner_text() == "Para este huésped, el huésped principal es su"
    _shot(page, "details-spanish-minor-phone")
    page.click("button.step-next")
    _progress(page, "es", "page.step_sign")

    page.reload()
    _progress(page, "es", "page.step_sign")  # not back at the first guest
    assert page.locator(".signature[data-target='g0-signature'] canvas").is_visible()
    assert page.input_value("#g0-second_last_name") == "Ruiz"  # kept by the draft
    assert violations(page) == []
    _shot(page, "details-reload-signatures-phone")
    context.close()


def test_an_italian_family_members_step_has_no_document_heading(make_booking, server, chromium):
    booking = make_booking("IT", guest_name="Giulia Bianchi", guest_language="en")
    context, page = _open(chromium, server, booking, "en", "desktop")
    heading = i18n.text("en", "page.document")
    assert page.locator("#guest-0 h2.section-title", has_text=heading).count() == 1
    assert page.locator("#guest-1 h2.section-title", has_text=heading).count() == 0
    context.close()
