"""Catalonia: the Mossos d'Esquadra's traveller file, built by the engine for the host to upload,
checked field by field against the manual's layout (v8, May 2025, §4), which this test writes out
on its own (never read from the builder); its numbering; Catalonia owes Mossos, not SES."""
import datetime as dt

import pytest

from rentalcomply.bookings import service as bookings
from rentalcomply.bookings.fees import FeeRates
from rentalcomply.core import clock
from rentalcomply.core.models import Booking, Property
from rentalcomply.filings import sweep
from rentalcomply.filings.models import Filing
from rentalcomply.properties import service as properties
from tests.conftest import bootstrapped_settings
from tests.helpers import assert_error
from tests.police.test_file_connector import path_of
from tests.police.test_ses_siba_filing import SIGNATURE

# The manual's traveller record: (number, name, maximum length, upper case).
LAYOUT = [
    (1, "record type", 1, False), (2, "Spanish document number", 11, True),
    (3, "foreign document number", 14, True), (4, "document type", 1, True),
    (5, "issue date", 8, False), (6, "first surname", 30, True), (7, "second surname", 30, True),
    (8, "first name", 30, True), (9, "sex", 1, True), (10, "birth date", 8, False),
    (11, "nationality", 21, True), (12, "check-in date", 8, False), (13, "check-in time", 4, False),
    (14, "check-out date", 8, False), (15, "check-out time", 4, False),
    (16, "contract date", 8, False), (17, "contract type", 1, True),
    (18, "contract number", 20, False), (19, "number of travellers", 3, False),
    (20, "number of rooms", 3, False), (21, "internet", 1, True), (22, "payment type", 5, True),
    (23, "phone", 20, False), (24, "kinship", 2, True), (25, "e-mail", 100, False),
    (26, "document support number", 9, True), (27, "address", 100, True), (28, "province", 2, False),
    (29, "municipality", 6, False), (30, "locality", 100, True), (31, "postal country", 3, True),
    (32, "postcode", 20, False),
]
KINSHIP_CODES = {"AB", "BA", "BN", "CD", "CY", "HJ", "HR", "NI", "OT", "PM", "SB", "SG", "TI",
                 "TU", "YN"}

PARTY = [
    {"first_name": "Jordi", "last_name": "Puig", "second_last_name": "Ferrer", "sex": "M",
     "birth_date": "1981-05-20", "nationality": "ES", "document_type": "id_card",
     "document_number": "12345678Z", "document_country": "ES",
     "document_support_number": "BAA000589", "address_street": "Carrer de Mallorca 401",
     "address_city": "Barcelona", "address_postcode": "08013", "address_country": "ES",
     "phone": "+34 612 345 678", "email": "jordi@example.cat", "signature": SIGNATURE},
    {"first_name": "Amélie", "last_name": "Durand", "sex": "F", "birth_date": "1984-11-02",
     "nationality": "FR", "document_type": "passport", "document_number": "18AV12345",
     "document_country": "FR", "address_street": "12 rue de la Paix", "address_city": "Lyon",
     "address_postcode": "69002", "address_country": "FR", "email": "amelie@example.fr",
     "signature": SIGNATURE},
    {"first_name": "Pau", "last_name": "Puig", "second_last_name": "Durand", "sex": "M",
     "birth_date": "2016-03-09", "nationality": "ES", "minor_relationship": "parent"},
]


@pytest.fixture
def settings(tmp_path):
    with bootstrapped_settings(tmp_path, RENTALCOMPLY_SERVER_PUBLIC_URL="https://stay.example.org") \
            as settings:
        yield settings


def spanish_property(owner, region):
    prop = properties.create_property(owner.account_id, name="Pis Gràcia", address="Carrer 1",
                                      country="ES", timezone="Europe/Madrid", max_guests=4)
    Property.update(region=region).where(Property.id == prop.id).execute()
    return Property.get_by_id(prop.id)


@pytest.fixture
def catalan(owner, settings):
    prop = spanish_property(owner, "ES-CT")
    owner.patch_json(f"/api/v1/properties/{prop.id}", {
        "police_connector": "mossos",
        "police_settings": {"codi_establiment": "08043AAR02", "num_habitacions": "2",
                            "internet": "true", "tipus_pagament": "PLATF"}})
    return prop


def booked(account_a, settings, prop, party, ref="HMABCD1234", days_ago=0):
    arrival = clock.today() - dt.timedelta(days=days_ago)
    booking = bookings.create_booking(
        account_a, rates=FeeRates.from_settings(settings), property_id=prop.id,
        guest_name="Puig, Jordi", guest_email="jordi@example.cat", arrival_date=arrival,
        departure_date=arrival + dt.timedelta(days=4), guest_count=len(party), external_ref=ref)
    return booking


def file_of(owner, anonymous, booking_id):
    link = owner.get(f"/api/v1/bookings/{booking_id}/police/file").json["data"]
    return link["filename"], anonymous.get(path_of(link["download_url"])).body


def test_a_party_of_three_makes_the_manuals_file_field_by_field(frozen_clock, owner, anonymous,
                                                                account_a, settings, catalan):
    booking = booked(account_a, settings, catalan, PARTY)
    owner.put_json(f"/api/v1/bookings/{booking.id}/guests", {"guests": PARTY})
    sweep.run_due()
    police = owner.get(f"/api/v1/bookings/{booking.id}/police").json["data"]
    arrival = police["filings"][0]
    assert (arrival["kind"], arrival["connector"], arrival["status"]) == ("arrival", "mossos", "ready")
    assert arrival["deadline"] == clock.iso(Filing.get_by_id(arrival["id"]).deadline)
    name, body = file_of(owner, anonymous, booking.id)
    assert name == "08043AAR02.001.txt"
    text = body.decode("iso-8859-1")  # the default encoding keeps accents
    assert not text.endswith("\r\n")
    lines = text.split("\r\n")
    assert len(lines) == 4
    local = clock.utcnow().replace(tzinfo=dt.timezone.utc).astimezone(
        __import__("zoneinfo").ZoneInfo("Europe/Madrid"))
    assert lines[0].split("|") == ["1", "08043AAR02", "PIS GRÀCIA", local.strftime("%Y%m%d"),
                                   local.strftime("%H%M"), "3", "V24"]
    records = []
    for line in lines[1:]:
        assert line.endswith("|")  # the trailing separator of the implementations (a setting)
        fields = line[:-1].split("|")
        assert len(fields) == len(LAYOUT) == 32
        for (number, label, limit, upper), value in zip(LAYOUT, fields):
            assert len(value) <= limit, (number, label, value)
            if upper:
                assert value == value.upper(), (number, label, value)
        records.append({label: value for (_, label, _, _), value in zip(LAYOUT, fields)})
    today, leave = clock.today(), clock.today() + dt.timedelta(days=4)
    stay = {"record type": "2", "check-in date": today.strftime("%Y%m%d"),
            "check-in time": "1400", "check-out date": leave.strftime("%Y%m%d"),
            "check-out time": "1100", "contract date": today.strftime("%Y%m%d"),
            "contract type": "C", "contract number": "HMABCD1234", "number of travellers": "3",
            "number of rooms": "2", "internet": "S", "payment type": "PLATF"}
    dni, passport, minor = records
    assert dni == {**stay, "Spanish document number": "12345678Z", "foreign document number": "",
                   "document type": "D", "issue date": "", "first surname": "PUIG",
                   "second surname": "FERRER", "first name": "JORDI", "sex": "M",
                   "birth date": "19810520", "nationality": "ESP", "phone": "0034612345678",
                   "kinship": "", "e-mail": "jordi@example.cat",
                   "document support number": "BAA000589", "address": "CARRER DE MALLORCA 401",
                   "province": "08", "municipality": "080193", "locality": "",
                   "postal country": "ESP", "postcode": "08013"}
    assert passport == {**stay, "Spanish document number": "", "foreign document number": "18AV12345",
                        "document type": "P", "issue date": "", "first surname": "DURAND",
                        "second surname": "", "first name": "AMÉLIE", "sex": "F",
                        "birth date": "19841102", "nationality": "FRA", "phone": "",
                        "kinship": "", "e-mail": "amelie@example.fr",
                        "document support number": "", "address": "12 RUE DE LA PAIX",
                        "province": "", "municipality": "", "locality": "LYON",
                        "postal country": "FRA", "postcode": "69002"}
    # The minor: no document (10 years old), the kinship, the lead guest's address and contact.
    assert minor["kinship"] == "PM" and minor["kinship"] in KINSHIP_CODES
    assert minor == {**stay, "Spanish document number": "", "foreign document number": "",
                     "document type": "", "issue date": "", "first surname": "PUIG",
                     "second surname": "DURAND", "first name": "PAU", "sex": "M",
                     "birth date": "20160309", "nationality": "ESP", "phone": "0034612345678",
                     "kinship": "PM", "e-mail": "jordi@example.cat", "document support number": "",
                     "address": "CARRER DE MALLORCA 401", "province": "08",
                     "municipality": "080193", "locality": "", "postal country": "ESP",
                     "postcode": "08013"}
    # The host uploads it and marks it filed.
    done = owner.post_json(f"/api/v1/bookings/{booking.id}/police/filed",
                           {"reference": "comprovant 1"}).json["data"]
    assert done["report_status"] == "SUBMITTED"


def test_a_second_file_the_same_day_takes_the_next_number(frozen_clock, owner, anonymous,
                                                          account_a, settings, catalan):
    names = []
    for days_ago, ref in ((8, "HM0001"), (0, "HM0002")):
        booking = booked(account_a, settings, catalan, PARTY[:1], ref=ref, days_ago=days_ago)
        owner.put_json(f"/api/v1/bookings/{booking.id}/guests", {"guests": PARTY[:1]})
        sweep.run_due()
        names.append(file_of(owner, anonymous, booking.id)[0])
    assert names == ["08043AAR02.001.txt", "08043AAR02.002.txt"]


def test_a_catalan_property_is_offered_mossos_and_refused_ses(owner, settings):
    prop = spanish_property(owner, "ES-CT")
    # What it owes names the Mossos d'Esquadra while no registration is chosen.
    [owes] = owner.get(f"/api/v1/properties/{prop.id}").json["data"]["obligations"]
    assert owes["purpose"] == "registration" and "Mossos d'Esquadra" in owes["title"]
    assert "SES" not in owes["title"] and owes["problem"]
    refused = owner.patch_json(f"/api/v1/properties/{prop.id}",
                               {"police_connector": "ses_hospedajes"}, status=400)
    assert_error(refused, 400, "VALIDATION_ERROR")
    message = refused.json["error"]["details"][0]["message"]
    assert "Mossos d'Esquadra" in message and "mossos" in message
    owner.patch_json(f"/api/v1/properties/{prop.id}", {"police_connector": "mossos"})
    [owes] = owner.get(f"/api/v1/properties/{prop.id}").json["data"]["obligations"]
    assert (owes["authority"], owes["problem"]) == ("mossos", None)
    # A property elsewhere in Spain is refused mossos; one whose region is unknown keeps SES.
    madrid = spanish_property(owner, "ES-MD")
    owner.patch_json(f"/api/v1/properties/{madrid.id}", {"police_connector": "mossos"}, status=400)
    unknown = spanish_property(owner, None)
    owner.patch_json(f"/api/v1/properties/{unknown.id}", {"police_connector": "ses_hospedajes"})


def test_a_town_the_shipped_ine_list_lacks_holds_the_file_naming_it(frozen_clock, owner,
                                                                    account_a, settings, catalan):
    # Melilla is one of the municipalities of INE's list the shipped copy lacks: no 6-digit code.
    lead = dict(PARTY[0], address_city="Melilla", address_postcode="52001")
    booking = booked(account_a, settings, catalan, [lead])
    owner.put_json(f"/api/v1/bookings/{booking.id}/guests", {"guests": [lead]})
    sweep.run_due()
    row = Filing.get(Filing.booking == booking.id)
    assert row.status == "held" and row.file_sealed is None
    assert row.held_reason.startswith("held: guest 1 address_city: \u201cMelilla\u201d")
    assert Booking.get_by_id(booking.id).report_status == "QUEUED"
    # A file held takes no number: the next one built is still 001.
    from rentalcomply.authorities.mossos.sequence import MossosFileSequence
    assert MossosFileSequence.select().count() == 0


def test_a_booking_without_a_channel_reference_files_its_own_id_as_the_contract_number(
        frozen_clock, owner, anonymous, account_a, settings, catalan):
    booking = booked(account_a, settings, catalan, PARTY[:1], ref=None)
    owner.put_json(f"/api/v1/bookings/{booking.id}/guests", {"guests": PARTY[:1]})
    sweep.run_due()
    _, body = file_of(owner, anonymous, booking.id)
    fields = body.decode("iso-8859-1").split("\r\n")[1].split("|")
    assert fields[17] == booking.id.removeprefix("book_") and len(fields[17]) == 20
