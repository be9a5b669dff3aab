"""A refused or failed police filing e-mails the account's owners at once, through the loopback
SMTP server: once, and not again within the hour; what waited goes after the hour."""

from __future__ import annotations

import datetime as dt

import pytest

from rentalcomply.bookings import service as bookings
from rentalcomply.bookings.fees import FeeRates
from rentalcomply.core import clock
from rentalcomply.core.db import atomic
from rentalcomply.dashboard import police_alerts, users
from rentalcomply.filings.models import PoliceAlert
from rentalcomply.properties import service as properties
from tests.checkin.conftest import smtp_server  # noqa: F401 - the fixture
from tests.conftest import bootstrapped_settings
from tests.dashboard.conftest import DASHBOARD_ENV, make_user
from tests.police.conftest import family
from tests.police.soap_double import AlloggiatiDouble


@pytest.fixture
def alloggiati():
    from rentalcomply.authorities.alloggiati.connector import CONNECTOR
    service = AlloggiatiDouble()
    CONNECTOR.forget_tokens()
    yield service
    service.down()
    CONNECTOR.forget_tokens()


@pytest.fixture
def settings(tmp_path, smtp_server, alloggiati):  # noqa: F811
    with bootstrapped_settings(tmp_path, **DASHBOARD_ENV, RENTALCOMPLY_SMTP_HOST="127.0.0.1",
                               RENTALCOMPLY_SMTP_PORT=smtp_server.port,
                               RENTALCOMPLY_SERVER_PUBLIC_URL="https://rentals.example.org",
                               RENTALCOMPLY_POLICE_ALLOGGIATI_URL=alloggiati.url,
                               RENTALCOMPLY_POLICE_TIMEOUT_SECONDS=3) as settings:
        users.configure(settings)
        yield settings


@pytest.fixture
def refused_property(settings, owner, account_a):
    prop = properties.create_property(account_a, name="Casa Limone", address="Via Roma 1",
                                      country="IT")
    owner.patch_json(f"/api/v1/properties/{prop.id}", {
        "police_connector": "alloggiati",
        "police_credentials": {"user": "RM012345", "password": "sbagliata", "wskey": "WSKEY1"}})
    return prop


def checked_in(settings, owner, account_a, prop, guest, days_ahead=0):
    arrival = clock.today() + dt.timedelta(days=days_ahead)
    with atomic():
        booking = bookings.create_booking(
            account_a, rates=FeeRates.from_settings(settings), property_id=prop.id,
            guest_name=guest, guest_email="guest@example.com", arrival_date=arrival,
            departure_date=arrival + dt.timedelta(days=2), guest_count=2)
    owner.put_json(f"/api/v1/bookings/{booking.id}/guests", {"guests": family()})
    return booking


def test_a_failed_filing_mails_the_owners_at_once_and_not_again_within_the_hour(
        settings, owner, account_a, refused_property, smtp_server, frozen_clock):  # noqa: F811
    make_user(account_a, "owner@agency-a.example")
    first = checked_in(settings, owner, account_a, refused_property, "Giulia Bianchi")
    message = smtp_server.wait(1)[0]
    assert message["To"] == "owner@agency-a.example"
    assert message["Subject"].endswith(": a police filing needs you now")
    text = message.get_body(("plain",)).get_content()
    assert "Giulia Bianchi · Casa Limone" in text and "Not filed" in text
    assert "The authority refused the user, password or key." in text
    assert f"https://rentals.example.org/dashboard/bookings/{first.id}" in text
    assert "sbagliata" not in text and "credentials refused" not in text

    clock.travel(dt.timedelta(minutes=20))
    checked_in(settings, owner, account_a, refused_property, "Marco Rossi", days_ahead=5)
    assert len(smtp_server.messages) == 1  # within the hour: none
    assert PoliceAlert.get_by_id(account_a).pending_since is not None

    clock.travel(dt.timedelta(minutes=41))
    assert police_alerts.look_at_police_alerts.call_local() == 1  # the hour passed: what waited goes
    assert "Marco Rossi" in smtp_server.wait(2)[1].get_body(("plain",)).get_content()


def test_the_alert_speaks_the_owners_language(settings, owner, account_a, refused_property,
                                              smtp_server):  # noqa: F811
    user = make_user(account_a, "owner@agency-a.example")
    users.remember_language(user.id, "el")
    checked_in(settings, owner, account_a, refused_property, "Giulia Bianchi")
    message = smtp_server.wait(1)[0]
    assert "μια δήλωση στην αστυνομία σας χρειάζεται τώρα" in message["Subject"]
    assert "Η αρχή απέρριψε τον χρήστη" in message.get_body(("plain",)).get_content()
