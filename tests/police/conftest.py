"""Fixtures of the police tests: the Alloggiati Web double on loopback, settings pointing at it,
an Italian property with the alloggiati connector, bookings and Italian parties."""

from __future__ import annotations

import datetime as dt

import pytest

from rentalcomply.bookings import service as bookings
from rentalcomply.bookings.fees import FeeRates
from rentalcomply.core import clock
from rentalcomply.authorities.alloggiati.connector import CONNECTOR
from rentalcomply.properties import service as properties
from tests.conftest import bootstrapped_settings
from tests.police.soap_double import AlloggiatiDouble

CREDENTIALS = {"user": "RM012345", "password": "segreto", "wskey": "WSKEY1"}


@pytest.fixture(autouse=True)
def no_database_left_behind():
    """The code tables live in the database: a test without one (a format's unit test) must read
    the tables shipped with the package, not those a previous test loaded into its own database."""
    yield
    from rentalcomply.core.db import db
    db.initialize(None)


@pytest.fixture
def double():
    service = AlloggiatiDouble()
    CONNECTOR.forget_tokens()
    yield service
    service.down()
    CONNECTOR.forget_tokens()


@pytest.fixture
def police_env():
    """Extra settings of a test (set before `settings` is built)."""
    return {}


@pytest.fixture
def settings(tmp_path, double, police_env):
    with bootstrapped_settings(tmp_path, RENTALCOMPLY_POLICE_ALLOGGIATI_URL=double.url,
                               RENTALCOMPLY_POLICE_TIMEOUT_SECONDS=2,
                               RENTALCOMPLY_SERVER_PUBLIC_URL="https://stay.example.org",
                               **police_env) as settings:
        yield settings


@pytest.fixture
def italian_property(settings, owner):
    prop = properties.create_property(owner.account_id, name="Casa Limone", address="Via Roma 1",
                                      country="IT", max_guests=6)
    owner.patch_json(f"/api/v1/properties/{prop.id}",
                     {"police_connector": "alloggiati", "police_credentials": CREDENTIALS})
    return prop


@pytest.fixture
def make_booking(settings, account_a, italian_property):
    def make(arrival: dt.date | None = None, nights: int = 3, guest_count: int = 2, prop=None):
        arrival = arrival or clock.today()
        return bookings.create_booking(
            account_a, rates=FeeRates.from_settings(settings),
            property_id=(prop or italian_property).id, guest_name="Giulia Bianchi",
            guest_email="giulia@example.com", arrival_date=arrival,
            departure_date=arrival + dt.timedelta(days=nights), guest_count=guest_count)
    return make


def family(document_number: str = "YA1234567") -> list[dict]:
    return [
        {"first_name": "Giulia", "last_name": "Bianchi", "sex": "F", "birth_date": "1979-03-12",
         "birth_country": "IT", "birth_municipality": "Roma", "birth_province": "RM",
         "nationality": "IT", "relationship": "head_of_family",
         "residence_country": "DE", "residence_place": "Berlin", "document_type": "passport",
         "document_number": document_number, "document_country": "IT",
         "document_issue_place": "Roma", "phone": "+39 333 123 4567"},
        {"first_name": "Marco", "last_name": "Bianchi", "sex": "M", "birth_date": "1978-07-30",
         "birth_country": "DE", "nationality": "IT", "relationship": "family_member",
         "residence_country": "DE", "residence_place": "Berlin",
         "document_type": "id_card", "document_number": "CA12345AB", "document_country": "IT",
         "document_issue_place": "Milano"},
    ]


def group(leader_document: str = "18AB12345") -> list[dict]:
    return [
        {"first_name": "Luca", "last_name": "Verdi", "sex": "M", "birth_date": "1985-01-01",
         "birth_country": "FR", "nationality": "FR", "relationship": "head_of_group",
         "residence_country": "DE", "residence_place": "Berlin",
         "document_type": "passport", "document_number": leader_document, "document_country": "FR",
         "document_issue_place": "Paris", "email": "luca@example.com"},
        {"first_name": "Sara", "last_name": "Neri", "sex": "F", "birth_date": "1987-02-02",
         "birth_country": "IT", "birth_municipality": "Napoli", "birth_province": "NA",
         "nationality": "IT", "relationship": "group_member",
         "residence_country": "DE", "residence_place": "Berlin", "document_type": "id_card",
         "document_number": "YB7654321", "document_country": "IT",
         "document_issue_place": "Napoli"},
    ]


def put_guests(actor, booking_id, guests, status=200):
    return actor.put_json(f"/api/v1/bookings/{booking_id}/guests", {"guests": guests},
                          status=status)


def travel_to(moment: dt.datetime) -> None:
    """Step core/clock so that utcnow() is `moment` (naive UTC)."""
    clock.travel(moment - clock.utcnow())
