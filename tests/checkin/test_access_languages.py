"""Access instructions per guest language: set through the API one language at a time (merged,
sealed, only the languages named back), read by each guest in their own language, else the
property's, else any; the e-mail in the booking's guest language; texts sealed before languages
existed still read."""

import json
import logging

import pytest

from rentalcomply.checkin import tasks
from rentalcomply.core import sealing
from rentalcomply.core.models import Event, Property
from rentalcomply.properties import access as property_access
from tests.checkin.conftest import token_of
from tests.checkin.test_access import complete, invited, set_access
from tests.conftest import documented_app

ENGLISH = "Key box left of the door, code 481273."
ITALIANO = "Cassetta delle chiavi a sinistra della porta, codice 481273."
DEUTSCH = "Schlüsselkasten links neben der Tür, Code 481273."
ELLINIKA = "Κλειδοθήκη αριστερά της πόρτας, κωδικός 481273."


@pytest.fixture
def guest(wsgi_app):
    return documented_app(wsgi_app)


def texts(prop):
    return property_access.texts_of(Property.get_by_id(prop.id))


def test_the_api_merges_texts_by_language_and_shows_only_the_languages_set(owner, make_property):
    prop = make_property("IT")
    shown = set_access(owner, prop.id, access_instructions_by_language={
        "it": ITALIANO, "en": ENGLISH}).json["data"]
    assert shown["access_instructions_set"] is True
    assert shown["access_instructions_languages"] == ["en", "it"]
    shown = set_access(owner, prop.id, access_instructions_by_language={
        "de": DEUTSCH, "en": None}).json["data"]
    assert shown["access_instructions_languages"] == ["it", "de"]
    assert texts(prop) == {"it": ITALIANO, "de": DEUTSCH}
    for answer in (owner.get(f"/api/v1/properties/{prop.id}"), owner.get("/api/v1/properties")):
        assert "481273" not in answer.text and "Schl" not in answer.text
    stored = Property.get_by_id(prop.id)
    assert stored.access_instructions_sealed.startswith("v1:")
    assert "481273" not in stored.access_instructions_sealed
    assert stored.access_instructions_languages == "it,de"
    # One text for every guest replaces them all, as the property's language's.
    shown = set_access(owner, prop.id, access_instructions=ENGLISH).json["data"]
    assert shown["access_instructions_languages"] == ["it"] and texts(prop) == {"it": ENGLISH}
    shown = set_access(owner, prop.id, access_instructions_by_language={"it": ""}).json["data"]
    assert shown["access_instructions_set"] is False
    assert shown["access_instructions_languages"] == []


def test_a_language_the_guest_page_does_not_speak_or_both_fields_at_once_is_400(owner,
                                                                                make_property):
    prop = make_property("GR")
    refused = set_access(owner, prop.id, status=400,
                         access_instructions_by_language={"nl": "Sleutel"}).json["error"]
    assert refused["code"] == "VALIDATION_ERROR"
    assert refused["details"][0]["field"] == "access_instructions_by_language"
    assert "nl is not one of: en, el, it, es, de, fr, pt" in refused["details"][0]["message"]
    refused = set_access(owner, prop.id, status=400, access_instructions=ENGLISH,
                         access_instructions_by_language={"en": ENGLISH}).json["error"]
    assert refused["details"][0]["field"] == "access_instructions_by_language"
    refused = set_access(owner, prop.id, status=400, access_instructions_by_language={
        "en": "x" * 2001}).json["error"]
    assert refused["details"][0]["field"] == "access_instructions_by_language"
    assert Property.get_by_id(prop.id).access_instructions_sealed is None


def test_line_breaks_are_kept_in_each_language(owner, make_property):
    prop = make_property("GR")
    set_access(owner, prop.id, access_instructions_by_language={"el": "Κωδικός 481273\nWi-Fi: A"})
    assert texts(prop) == {"el": "Κωδικός 481273\nWi-Fi: A"}


def test_each_guest_reads_their_language_else_the_propertys_else_any(owner, make_property):
    prop = make_property("IT")
    set_access(owner, prop.id, access_instructions_by_language={"it": ITALIANO, "de": DEUTSCH})
    stored = Property.get_by_id(prop.id)
    assert property_access.text_for(stored, "de") == DEUTSCH
    assert property_access.text_for(stored, "it") == ITALIANO
    assert property_access.text_for(stored, "fr") == ITALIANO  # the property's language
    set_access(owner, prop.id, access_instructions_by_language={"it": None})
    stored = Property.get_by_id(prop.id)
    assert property_access.text_for(stored, "fr") == DEUTSCH  # any there is


def test_the_guest_page_shows_the_text_of_its_language(guest, owner, make_property,
                                                      make_booking, frozen_clock):
    prop = make_property("GR")
    set_access(owner, prop.id, access_instructions_by_language={"el": ELLINIKA, "en": ENGLISH},
               access_instructions_hours_before=168)
    booking = invited(owner, make_booking(prop=prop, arrival_in=2, guest_language="de"))
    complete(owner, booking)
    page = guest.get(f"/checkin/{token_of(booking)}?lang=en").text
    assert ENGLISH in page and ELLINIKA not in page
    page = guest.get(f"/checkin/{token_of(booking)}?lang=el").text
    assert ELLINIKA in page and ENGLISH not in page
    page = guest.get(f"/checkin/{token_of(booking)}?lang=de").text  # none in German: Greek
    assert ELLINIKA in page


def test_the_e_mail_carries_the_text_of_the_guests_language(owner, make_property, make_booking,
                                                           smtp_server, frozen_clock, caplog):
    caplog.set_level(logging.DEBUG, logger="rentalcomply")
    prop = make_property("GR")
    set_access(owner, prop.id, access_instructions_by_language={"el": ELLINIKA, "de": DEUTSCH},
               access_instructions_hours_before=168)
    booking = invited(owner, make_booking(prop=prop, arrival_in=2, guest_language="de"))
    complete(owner, booking)
    tasks.send_due_access_instructions.call_local()
    sent = [m for m in smtp_server.wait(2) if "481273" in m.get_body(("plain",)).get_content()]
    assert len(sent) == 1
    plain = sent[0].get_body(("plain",)).get_content()
    assert DEUTSCH in plain and ELLINIKA not in plain
    assert not [r for r in caplog.records if "481273" in r.getMessage()]
    assert not [e for e in Event.select() if "481273" in str(e.data)]


def test_a_text_sealed_before_languages_reads_as_the_recorded_language(owner, make_property):
    prop = make_property("ES")
    sealed = sealing.seal(property_access.SEAL_PURPOSE + prop.id, ENGLISH.encode("utf-8"))
    Property.update(access_instructions_sealed=sealed,
                    access_instructions_languages="es").where(Property.id == prop.id).execute()
    stored = Property.get_by_id(prop.id)
    assert property_access.texts_of(stored) == {"es": ENGLISH}
    assert property_access.text_for(stored, "fr") == ENGLISH
    assert owner.get(f"/api/v1/properties/{prop.id}").json["data"][
        "access_instructions_languages"] == ["es"]
    set_access(owner, prop.id, access_instructions_by_language={"en": ENGLISH})
    stored = Property.get_by_id(prop.id)
    opened = json.loads(sealing.unseal(property_access.SEAL_PURPOSE + prop.id,
                                       stored.access_instructions_sealed))
    assert opened["texts"] == {"es": ENGLISH, "en": ENGLISH}


def test_the_property_access_languages_are_the_guest_pages():
    from rentalcomply.checkin import i18n
    assert property_access.LANGUAGES == i18n.LANGUAGES
    assert set(property_access.COUNTRY_LANGUAGES.values()) <= set(i18n.LANGUAGES)


def test_the_upgrade_records_a_sealed_text_in_its_countrys_language():
    import importlib
    migration = importlib.import_module("rentalcomply.migrations.0040_access_languages")
    assert migration.COUNTRY_LANGUAGES == property_access.COUNTRY_LANGUAGES
