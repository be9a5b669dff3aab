"""A filing that cannot be sent for lack of set-up is held, nothing sent, and goes out once the
property's set-up is completed; the codes of the set-up are checked as typed."""

from rentalcomply.core.models import Booking
from rentalcomply.filings.models import Filing
from rentalcomply.properties import service as properties
from tests.police.conftest import CREDENTIALS, family, put_guests


def property_without_credentials(owner):
    prop = properties.create_property(owner.account_id, name="Casa Ulivo", address="Via Po 2",
                                      country="IT")
    owner.patch_json(f"/api/v1/properties/{prop.id}", {"police_connector": "alloggiati"})
    return prop


def test_a_filing_without_credentials_is_held_for_set_up_and_nothing_is_sent(
        owner, double, make_booking):
    prop = property_without_credentials(owner)
    booking = make_booking(prop=prop)
    put_guests(owner, booking.id, family())
    assert double.calls == []
    shown = owner.get(f"/api/v1/bookings/{booking.id}").json["data"]
    assert shown["report_status"] == "QUEUED"
    filing = owner.get(f"/api/v1/bookings/{booking.id}/police").json["data"]["filings"][0]
    assert filing["status"] == "held"
    assert filing["error"] == "set-up needed: user, password, wskey"


def test_completing_the_set_up_sends_the_held_filing(owner, double, make_booking):
    prop = property_without_credentials(owner)
    booking = make_booking(prop=prop)
    put_guests(owner, booking.id, family())
    owner.patch_json(f"/api/v1/properties/{prop.id}",
                     {"police_credentials": {"user": "RM012345", "password": "segreto"}})
    assert Filing.get(Filing.booking == booking.id).status == "held"  # the WSKEY still lacks
    assert double.calls == []
    owner.patch_json(f"/api/v1/properties/{prop.id}", {"police_credentials": {"wskey": "WSKEY1"}})
    assert Booking.get_by_id(booking.id).report_status == "SUBMITTED"
    assert double.calls == ["GenerateToken", "Test", "Send", "Ricevuta"]


def test_file_again_on_a_held_filing_holds_it_again_until_the_set_up_is_there(
        owner, double, make_booking):
    prop = property_without_credentials(owner)
    booking = make_booking(prop=prop)
    put_guests(owner, booking.id, family())
    owner.post(f"/api/v1/bookings/{booking.id}/police/refile")
    assert Filing.get(Filing.booking == booking.id).status == "held"
    assert double.calls == []


def test_the_set_up_codes_are_checked_with_the_authoritys_rules(owner, settings):
    prop = properties.create_property(owner.account_id, name="Casa Sol", address="Calle Mayor 1",
                                      country="ES", timezone="Europe/Madrid")
    answer = owner.patch_json(f"/api/v1/properties/{prop.id}", {
        "police_connector": "ses_hospedajes",
        "police_settings": {"codigo_arrendador": "12AB", "codigo_establecimiento": "toolong12345"},
        "police_credentials": {"user": "ses user"}}, status=400).json["error"]
    fields = {d["field"]: d["message"] for d in answer["details"]}
    assert fields["police_settings.codigo_arrendador"].startswith("The landlord code is 10 digits")
    assert "police_settings.codigo_establecimiento" in fields
    assert "police_credentials.user" in fields
    accepted = owner.patch_json(f"/api/v1/properties/{prop.id}", {
        "police_connector": "ses_hospedajes",
        "police_settings": {"codigo_arrendador": "0000000042",
                            "codigo_establecimiento": "0000012345"}}).json["data"]
    assert accepted["police_settings"]["codigo_arrendador"] == "0000000042"


def test_a_portuguese_tax_number_must_have_nine_digits(owner, settings):
    prop = properties.create_property(owner.account_id, name="Casa Azul", address="Rua 1",
                                      country="PT", timezone="Europe/Lisbon")
    answer = owner.patch_json(f"/api/v1/properties/{prop.id}", {
        "police_connector": "siba", "police_settings": {"unidade_hoteleira": "12345"}},
        status=400).json["error"]
    assert answer["details"][0]["field"] == "police_settings.unidade_hoteleira"


def test_new_credentials_file_again_what_the_authority_refused_for_its_credentials(
        owner, double, make_booking, italian_property):
    owner.patch_json(f"/api/v1/properties/{italian_property.id}",
                     {"police_credentials": {"password": "wrong"}})
    booking = make_booking()
    put_guests(owner, booking.id, family())
    assert Booking.get_by_id(booking.id).report_status == "FAILED"
    owner.patch_json(f"/api/v1/properties/{italian_property.id}",
                     {"police_settings": {"apartment_id": "000123"}})
    assert Booking.get_by_id(booking.id).report_status == "FAILED"  # no new credentials: stays
    owner.patch_json(f"/api/v1/properties/{italian_property.id}",
                     {"police_credentials": {"password": CREDENTIALS["password"]}})
    assert Booking.get_by_id(booking.id).report_status == "SUBMITTED"
