"""Spain and Portugal through the filing state machine (rentalcomply.police.service), against the
loopback doubles: skipped until the police framework is in the tree."""
import datetime as dt

import pytest

pytest.importorskip("rentalcomply.police.service")

from rentalcomply.bookings import service as bookings  # noqa: E402
from rentalcomply.bookings.fees import FeeRates  # noqa: E402
from rentalcomply.core import clock  # noqa: E402
from rentalcomply.police import service  # noqa: E402
from rentalcomply.properties import service as properties  # noqa: E402
from tests.conftest import bootstrapped_settings  # noqa: E402
from tests.police.soap_doubles_es_pt import SesDouble, SibaDouble  # noqa: E402

SIGNATURE = ("data:image/png;base64,iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk"
             "+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==")
SPANISH_FAMILY = [
    {"first_name": "José", "last_name": "Núñez", "second_last_name": "Peña", "sex": "M",
     "birth_date": "1980-03-14", "nationality": "ES", "document_type": "id_card",
     "document_number": "12345678Z", "document_country": "ES", "document_support_number": "BAA000589",
     "address_street": "Calle Mayor 5", "address_city": "Madrid", "address_postcode": "28013",
     "address_country": "ES", "email": "jose@example.es", "signature": SIGNATURE},
    {"first_name": "Lucía", "last_name": "Núñez", "second_last_name": "Gil", "sex": "F",
     "birth_date": "2016-09-02", "nationality": "ES", "minor_relationship": "parent"},
]
GERMAN = [{"first_name": "Jürgen", "last_name": "Müller", "sex": "M", "birth_date": "1975-02-03",
           "nationality": "DE", "document_type": "passport", "document_number": "C01X00T47",
           "document_country": "DE", "residence_country": "DE", "residence_place": "München",
           "email": "j@example.de"}]


@pytest.fixture
def ses():
    with SesDouble() as double:
        yield double


@pytest.fixture
def siba():
    with SibaDouble() as double:
        yield double


@pytest.fixture
def settings(tmp_path, ses, siba):
    with bootstrapped_settings(tmp_path, RENTALCOMPLY_POLICE_SES_URL=ses.url,
                               RENTALCOMPLY_POLICE_SIBA_URL=siba.url,
                               RENTALCOMPLY_POLICE_TIMEOUT_SECONDS=2,
                               RENTALCOMPLY_SERVER_PUBLIC_URL="https://stay.example.org") as settings:
        yield settings


def booking_in(owner, account_a, settings, country, connector, police_settings, credentials, guests):
    prop = properties.create_property(owner.account_id, name="Casa", address="Calle 1", country=country,
                                      timezone={"ES": "Europe/Madrid", "PT": "Europe/Lisbon"}[country],
                                      max_guests=4)
    owner.patch_json(f"/api/v1/properties/{prop.id}", {
        "police_connector": connector, "police_settings": police_settings, "police_credentials": credentials})
    booking = bookings.create_booking(
        account_a, rates=FeeRates.from_settings(settings), property_id=prop.id, guest_name="Lead Guest",
        guest_email="lead@example.org", arrival_date=clock.today(),
        departure_date=clock.today() + dt.timedelta(days=3), guest_count=len(guests))
    owner.put_json(f"/api/v1/bookings/{booking.id}/guests", {"guests": guests})
    return booking


def spanish_booking(owner, account_a, settings):
    return booking_in(owner, account_a, settings, "ES", "ses_hospedajes",
                      {"codigo_arrendador": "0000000042", "codigo_establecimiento": "0000012345"},
                      {"user": "ses-user", "password": "ses-pass"}, SPANISH_FAMILY)


def poll_later():
    clock.travel(dt.timedelta(minutes=5))
    service.run_due()


def test_a_spanish_check_in_is_queued_with_ses_then_submitted_once_its_batch_is_processed(
        owner, account_a, settings, ses):
    booking = spanish_booking(owner, account_a, settings)
    police = owner.get(f"/api/v1/bookings/{booking.id}/police").json["data"]
    assert police["filings"][0]["status"] == "polling" and len(ses.received) == 1
    poll_later()
    police = owner.get(f"/api/v1/bookings/{booking.id}/police").json["data"]
    assert police["report_status"] == "SUBMITTED"
    assert [g["accepted"] for g in police["filings"][0]["guests"]] == [True, True]
    assert len(ses.received) == 1


def test_a_person_refused_by_ses_shows_the_reason_on_the_booking(owner, account_a, settings, ses):
    ses.refuse_person = 2
    booking = spanish_booking(owner, account_a, settings)
    poll_later()
    shown = owner.get(f"/api/v1/bookings/{booking.id}").json["data"]
    assert shown["report_status"] == "REJECTED"
    assert "guest 2: DATOS Error en la persona 2" in shown["report_error"]


def test_a_portuguese_stay_files_the_foreign_guest_and_queues_the_departure(owner, account_a, settings, siba):
    booking = booking_in(owner, account_a, settings, "PT", "siba",
                         {"unidade_hoteleira": "121212121", "estabelecimento": "0"},
                         {"chave_acesso": "999999999"}, GERMAN)
    police = owner.get(f"/api/v1/bookings/{booking.id}/police").json["data"]
    assert police["report_status"] == "SUBMITTED" and len(siba.received) == 1
    assert [(f["kind"], f["status"]) for f in police["filings"]] == [("arrival", "submitted"),
                                                                      ("departure", "queued")]
