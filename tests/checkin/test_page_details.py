"""The guest page's details from a real agency's first week (issue 36): a Spanish lead's two
surnames from the booking's name, no NIF beside a DNI, no document heading over no document, the
minor's relationship worded one way only, and a reload at the signatures staying there. In the
browser: tests/checkin/test_details_browser.py."""

import re

import pytest

from rentalcomply.checkin import i18n
from rentalcomply.checkin.names import split_name
from tests.checkin.conftest import italian_party, spanish_party
from tests.checkin.test_page import guest, invited  # noqa: F401 - fixtures


def field_div(html: str, field_id: str) -> str:
    """The opening tag of the field's block and what is in it up to its input."""
    found = re.search(r'<div class="field[^"]*"[^>]*>(?:(?!<div class="field).)*?id="'
                      + field_id + r'"[^>]*>', html, re.S)
    assert found, field_id
    return found.group(0)


def value_of(html: str, field_id: str) -> str:
    return re.search(r'id="' + field_id + r'"[^>]*value="([^"]*)"', html).group(1)


def test_a_spanish_leads_booking_name_fills_the_first_name_and_both_surnames(guest, invited):
    _, path = invited("ES", guest_name="Javier Fernández Ruiz", guest_language="es")
    page = guest.get(path).text
    assert [value_of(page, f"g0-{name}") for name in
            ("first_name", "last_name", "second_last_name")] == ["Javier", "Fernández", "Ruiz"]
    # Shown at once (not only once the nationality is chosen), so that the draft keeps it.
    assert "data-when" not in field_div(page, "g0-second_last_name")
    # A lead whose booking name gives no second surname sees the field as before.
    _, path = invited("ES", guest_name="Anna Schmidt", guest_language="de")
    assert 'data-when="nationality"' in field_div(guest.get(path).text, "g0-second_last_name")


def test_a_spanish_guest_elsewhere_keeps_both_surnames_as_the_surname():
    assert split_name("Javier Fernández Ruiz", "ES") == {
        "first_name": "Javier", "last_name": "Fernández", "second_last_name": "Ruiz"}
    assert split_name("Javier Fernández Ruiz", "IT", "es") == {
        "first_name": "Javier", "last_name": "Fernández Ruiz"}
    assert split_name("Javier Fernández Ruiz", "IT", "it") == {
        "first_name": "Javier Fernández", "last_name": "Ruiz"}


def test_no_nif_is_asked_beside_a_spanish_dni(guest, invited):
    _, path = invited("ES")
    page = guest.get(path).text
    assert 'data-unless="document_type=id_card document_country=ES"' in field_div(page, "g0-tax_id")
    assert "data-unless" not in field_div(guest.get(invited("IT")[1]).text, "g0-tax_id")


def test_an_italian_family_member_has_no_document_heading_over_no_document(guest, invited):
    _, path = invited("IT", guest_count=2)
    page = guest.get(path + "?lang=en").text
    lead, member = page.split('data-guest="1"')
    heading = '<h2 class="section-title">' + i18n.text("en", "page.document") + "</h2>"
    assert heading in lead and heading not in member
    assert 'id="g1-document_number"' not in member


@pytest.mark.parametrize("lang", i18n.LANGUAGES)
def test_the_minors_relationship_says_which_way_it_reads(guest, invited, lang):
    _, path = invited("ES", guest_count=2)
    page = guest.get(path + f"?lang={lang}").text
    label = re.search(r'<label for="g1-minor_relationship">([^<]*)</label>', page).group(1)
    expected = {"en": "For this guest, the lead guest is their",
                "el": "Για αυτόν τον επισκέπτη, ο κύριος επισκέπτης είναι",
                "it": "Per questo ospite, l&#039;ospite principale è",
                "es": "Para este huésped, el huésped principal es su",
                "de": "Für diesen Gast ist der Hauptgast",
                "fr": "Pour ce voyageur, le voyageur principal est",
                "pt": "Para este hóspede, o hóspede principal é"}[lang]
    assert label == expected


def test_a_party_lacking_only_its_signatures_resumes_at_the_signature_step(guest, invited):
    booking, path = invited("ES", guest_count=2)
    party = [{k: v for k, v in g.items() if k != "signature"} for g in spanish_party()]
    guest.post_json(path + "/progress", {"lang": "en", "guests": party}, status=200)
    page = guest.get(path).text
    assert 'data-resume="2"' in page  # the last step, after the two guests
    party[1].pop("birth_date")  # something else missing: back to that guest
    guest.post_json(path + "/progress", {"lang": "en", "guests": party}, status=200)
    assert 'data-resume="1"' in guest.get(path).text

