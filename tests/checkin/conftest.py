"""Fixtures of the check-in tests: properties in Greece, Italy and Spain, a booking factory, a
real SMTP server on loopback (aiosmtpd) and valid parties per country."""

from __future__ import annotations

import datetime as dt
import email
import email.policy
import re
import socket
import threading

import pytest
from aiosmtpd.controller import Controller

from rentalcomply.bookings import service as bookings
from rentalcomply.bookings.fees import FeeRates
from rentalcomply.checkin import service
from rentalcomply.core import clock
from rentalcomply.properties import service as properties
from tests.conftest import bootstrapped_settings

LINK_RE = re.compile(r"https?://\S+/checkin/[0-9a-f]{32}")
# A PNG of one transparent pixel: a signature as the page sends it.
PNG_DATA_URL = ("data:image/png;base64,iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42"
                "mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg==")


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


class Inbox:
    """What the loopback SMTP server received."""

    def __init__(self):
        self.messages: list[email.message.EmailMessage] = []
        self.envelopes = []
        self.refuse_with: str | None = None  # e.g. "451 try later" to simulate a failing server
        # e.g. "550 5.1.1 <maria@example.com>: no such user": the address refused at RCPT TO
        self.refuse_recipient_with: str | None = None
        self.arrived = threading.Condition()
        self.controller = None

    async def handle_RCPT(self, server, session, envelope, address, rcpt_options):
        if self.refuse_recipient_with:
            return self.refuse_recipient_with
        envelope.rcpt_tos.append(address)
        return "250 OK"

    async def handle_DATA(self, server, session, envelope):
        if self.refuse_with:
            return self.refuse_with
        with self.arrived:
            self.envelopes.append(envelope)
            self.messages.append(email.message_from_bytes(envelope.content, policy=email.policy.default))
            self.arrived.notify_all()
        return "250 OK"

    def wait(self, count: int = 1, timeout: float = 15) -> list:
        with self.arrived:
            self.arrived.wait_for(lambda: len(self.messages) >= count, timeout=timeout)
        assert len(self.messages) >= count, f"{len(self.messages)} e-mails arrived, wanted {count}"
        return self.messages

    def close(self) -> None:
        """Stop listening: the port is closed, as for a mail server that is down."""
        if self.controller is not None:
            self.controller.stop()
            self.controller = None

    def link(self, index: int = -1) -> str:
        text = self.messages[index].get_body(("plain",)).get_content()
        return LINK_RE.search(text).group(0)


@pytest.fixture
def smtp_server():
    inbox = Inbox()
    controller = Controller(inbox, hostname="127.0.0.1", port=free_port())
    controller.start()
    inbox.port = controller.port
    inbox.controller = controller
    yield inbox
    inbox.close()


@pytest.fixture
def settings(tmp_path, smtp_server):
    """Settings on a fresh database whose e-mails go to the loopback SMTP server."""
    with bootstrapped_settings(tmp_path, RENTALCOMPLY_SMTP_HOST="127.0.0.1",
                               RENTALCOMPLY_SMTP_PORT=smtp_server.port,
                               RENTALCOMPLY_SERVER_PUBLIC_URL="https://stay.example.org") as settings:
        yield settings


def upcoming(days: int) -> dt.date:
    return clock.today() + dt.timedelta(days=days)


@pytest.fixture
def make_property(account_a):
    def make(country: str = "GR", connector: str = "none", **extra):
        names = {"GR": "Villa Anemoi", "IT": "Casa Limone", "ES": "Casa del Mar",
                 "PT": "Casa Azul", "FR": "Mas des Oliviers"}
        zones = {"ES": "Europe/Madrid", "PT": "Europe/Lisbon"}  # countries of several zones
        fields = dict(name=names.get(country, "Home"), address="Somewhere 1", country=country,
                      max_guests=6, police_connector=connector)
        if country in zones:
            fields["timezone"] = zones[country]
        fields.update(extra)
        return properties.create_property(account_a, **fields)
    return make


@pytest.fixture
def make_booking(settings, account_a, make_property):
    def make(country: str = "GR", guest_count: int = 2, arrival_in: int = 10, nights: int = 4,
             account_id: str | None = None, prop=None, **extra):
        prop = prop or make_property(country)
        fields = dict(guest_name="Maria Papadopoulou", guest_email="maria@example.com",
                      guest_language="en")
        fields.update(extra)
        return bookings.create_booking(
            account_id or account_a, rates=FeeRates.from_settings(settings), property_id=prop.id,
            arrival_date=upcoming(arrival_in), departure_date=upcoming(arrival_in + nights),
            guest_count=guest_count, **fields)
    return make


def greek_party() -> list[dict]:
    return [
        {"first_name": "Μαρία", "last_name": "Παπαδοπούλου", "birth_date": "1985-04-23",
         "nationality": "GR", "document_type": "id_card", "document_number": "ΑΒ123456",
         "document_country": "GR", "email": "maria@example.com", "tax_id": "094259216"},
        {"first_name": "Γιώργος", "last_name": "Παπαδόπουλος", "birth_date": "2012-09-01",
         "nationality": "GR", "minor_relationship": "parent"},
    ]


def italian_party() -> list[dict]:
    return [
        {"first_name": "Giulia", "last_name": "Bianchi", "sex": "F", "birth_date": "1979-03-12",
         "birth_country": "IT", "birth_municipality": "Roma", "birth_province": "RM",
         "nationality": "IT", "relationship": "head_of_family",
         "residence_country": "DE", "residence_place": "Berlin", "document_type": "passport",
         "document_number": "YA1234567", "document_country": "IT",
         "document_issue_place": "Roma", "tax_id": "RCCMNL83S18D969H",
         "phone": "+39 333 123 4567"},
        {"first_name": "Marco", "last_name": "Bianchi", "sex": "M", "birth_date": "1978-07-30",
         "birth_country": "DE", "nationality": "IT", "relationship": "family_member",
         "residence_country": "DE", "residence_place": "Berlin"},
    ]  # a family member gives no document (Alloggiati files members without one)


def spanish_party() -> list[dict]:
    return [
        {"first_name": "Lucía", "last_name": "García", "second_last_name": "López", "sex": "F",
         "birth_date": "1990-01-15", "nationality": "ES", "document_type": "id_card",
         "document_number": "12345678Z", "document_country": "ES",
         "document_support_number": "CAA123456", "address_street": "Calle Mayor 1",
         "address_city": "Madrid", "address_postcode": "28013", "address_country": "ES",
         "email": "lucia@example.com", "signature": PNG_DATA_URL},
        {"first_name": "Pablo", "last_name": "García", "second_last_name": "Ruiz", "sex": "M",
         "birth_date": "2015-05-05", "nationality": "ES", "minor_relationship": "parent"},
    ]


PARTIES = {"GR": greek_party, "IT": italian_party, "ES": spanish_party}


def link_token(url: str) -> str:
    return url.rsplit("/", 1)[-1]


def token_of(booking) -> str:
    return service.token_for(booking.id)


@pytest.fixture
def guest_page(wsgi_app):
    """A visitor without an API key (the guest's pages)."""
    from tests.conftest import documented_app
    return documented_app(wsgi_app)
