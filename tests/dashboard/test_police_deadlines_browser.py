"""Police deadlines in Chromium, in English and Greek, at phone and desktop width: Today and the
booking page of a Florence stay whose guests never checked in (its deadline passed), of a Madrid
reservation waiting for its holder and of a filing held for a town without a code read as
sentences with their actions, pass axe and show no internal id. Screenshots go to
tests/artifacts/dashboard/deadlines-*.png."""

from __future__ import annotations

import datetime as dt
import re

import pytest

from rentalcomply.bookings import service as bookings
from rentalcomply.bookings.fees import FeeRates
from rentalcomply.checkin import booking_links
from rentalcomply.checkin import service as checkin_service
from rentalcomply.checkin.models import Checkin
from rentalcomply.core import clock
from rentalcomply.core.db import atomic
from rentalcomply.core.models import Booking
from rentalcomply.filings import engine, settings as police_settings
from rentalcomply.filings.models import Filing
from rentalcomply.properties import service as properties
from tests.axe import violations
from tests.checkin.conftest import smtp_server  # noqa: F401 - the fixture
from tests.dashboard.conftest import make_user
from tests.dashboard.test_browser import (ARTIFACTS, VIEWPORTS, _sign_in,  # noqa: F401
                                          chromium, server, settings, visible)

pytestmark = [pytest.mark.server, pytest.mark.long, pytest.mark.browser]

ID_SHAPE = re.compile(r"\b(?:book|prop|usr|acc)_[A-Za-z0-9]{3,}")


def _booking(settings, account_id, prop, guest, arrival, **more):
    with atomic():
        return bookings.create_booking(
            account_id, rates=FeeRates.from_settings(settings), property_id=prop.id,
            guest_name=guest, arrival_date=arrival, departure_date=arrival + dt.timedelta(days=4),
            guest_count=2, **more)


@pytest.fixture
def agency(settings, account_a):
    make_user(account_a, "owner@agency.example")
    florence = properties.create_property(account_a, name="Oltrarno Loft",
                                          address="Via dei Serragli 1", country="IT",
                                          timezone="Europe/Rome")
    police_settings.configure_property(account_a, florence.id, connector="alloggiati",
                                       credentials={"user": "FI012345", "password": "segreta",
                                                    "wskey": "WSKEY1"})
    madrid = properties.create_property(account_a, name="Lavapiés Studio",
                                        address="Calle Argumosa 3", country="ES",
                                        timezone="Europe/Madrid")
    police_settings.configure_property(
        account_a, madrid.id, connector="ses_hospedajes",
        settings={"codigo_arrendador": "0000000001", "codigo_establecimiento": "EST01"},
        credentials={"user": "ses-user", "password": "ses-pass"})
    today = clock.today()
    # Arrived two days ago, never checked in: the deadline (the next day, 14:00) has passed.
    late = _booking(settings, account_a, florence, "Hannah Müller", today - dt.timedelta(days=2),
                    guest_email="hannah@example.com")
    checkin_service.mark_link_shared(account_a, late.id)  # invited; she never checked in
    # Booked now with the guest's name as Booking.com's "Guest name(s)": no holder to file.
    waiting = _booking(settings, account_a, madrid, "Anna Schmidt", today + dt.timedelta(days=20),
                       guest_email="anna@example.com")
    row = Filing.get((Filing.booking == waiting.id) & (Filing.kind == "reservation"))
    assert engine.attempt(row.id) == "waiting"
    # Held: the guest's town of birth has no code in the starter tables.
    held = _booking(settings, account_a, florence, "Javier Ruiz", today + dt.timedelta(days=5))
    booking_links.ensure_links([held.id])
    party = {"guests": [{"first_name": "Javier", "last_name": "Ruiz",
                         "birth_municipality": "Dos Hermanas"}]}
    Checkin.update(guests_sealed=checkin_service._seal(held.id, party)).where(
        Checkin.booking == held.id).execute()
    reason = ("held: guest 1 birth_municipality has no code in the starter code tables; load "
              "the authority's tables: `rentalcomply police refresh-codes`")
    Filing.create(id="pf_heldbrowser", account=account_a, booking=held.id, kind="arrival",
                  authority="alloggiati", status="held", held_reason=reason,
                  deadline=clock.utcnow() + dt.timedelta(days=6))
    Booking.update(report_status="QUEUED", report_error=reason,
                   checkin_status="COMPLETED").where(Booking.id == held.id).execute()
    return {"late": late, "waiting": waiting, "held": held}


def _main_text(page) -> str:
    return " ".join(page.locator("main").inner_text().split())


@pytest.mark.parametrize("size", ["phone", "desktop"])
def test_today_and_the_booking_page_say_each_deadline_with_what_to_do(agency, server, chromium,
                                                                      size):
    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    context = chromium.new_context(viewport=VIEWPORTS[size])
    page = context.new_page()
    _sign_in(page, server.base_url, "owner@agency.example")
    said = {
        "en": {"today": ["Police deadlines: guests not registered",
                         "Hannah Müller arrived on", "and is not registered: the deadline was",
                         ("The reservation booked by Anna Schmidt is not communicated to "
                          "SES.Hospedajes"),
                         "Javier Ruiz’s town of birth “Dos Hermanas” has no code.",
                         "Send the link again", "Enter the party by hand"],
               "late": ["and is not registered: the deadline was", "Send the link again",
                        "Enter the party by hand", "Deadline passed",
                        "Alloggiati Web is not told of cancellations"],
               "waiting": ["Waiting for its holder", "Edit the booking",
                           "E-mail the link to the guest",
                           "is cancelled there within 24 hours"],
               "held": ["Javier Ruiz’s town of birth “Dos Hermanas” has no code.",
                        "Open the police set-up"]},
        "el": {"today": ["Προθεσμίες αστυνομίας: επισκέπτες χωρίς δήλωση", "Έληξε η προθεσμία"],
               "late": ["δεν έχει δηλωθεί: η προθεσμία ήταν"],
               "waiting": ["Αναμένει τον κάτοχό της"],
               "held": ["δεν έχει κωδικό"]},
    }
    paths = {"today": "/dashboard/today",
             **{name: f"/dashboard/bookings/{agency[name].id}" for name in ("late", "waiting",
                                                                            "held")}}
    for lang in ("en", "el"):
        for name, path in paths.items():
            page.goto(f"{server.base_url}{path}?lang={lang}")
            visible(page.locator("h1").first)
            page.screenshot(path=str(ARTIFACTS / f"deadlines-{name}-{lang}-{size}.png"),
                            full_page=True)
            assert violations(page) == [], (name, lang, size)  # axe-core
            text = _main_text(page)
            for words in said[lang][name]:
                assert words in text, (name, lang, words)
            assert "AADE" not in text and "File with the police again" not in text, (name, lang)
            assert not ID_SHAPE.search(text), (name, lang, ID_SHAPE.search(text))
    context.close()
