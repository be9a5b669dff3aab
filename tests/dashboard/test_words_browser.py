"""Today, a booking and Activity in Chromium, in English and Greek, at phone and desktop width,
after the account's mail server stopped answering: each problem is a sentence saying what to do
(never the mail server's address or an exception's name), the guests' countries and documents
by name, Activity naming guests and listing what the system did. Screenshots go to
tests/artifacts/dashboard/words-*.png."""

from __future__ import annotations

import re

import pytest

from rentalcomply.accounts import mail_settings
from rentalcomply.checkin import service as checkin
from rentalcomply.core import activity
from rentalcomply.core.db import atomic
from rentalcomply.core.errors import ApiError
from tests.axe import violations
from tests.checkin.conftest import free_port, smtp_server  # noqa: F401 - the fixture
from tests.dashboard.conftest import make_user
from tests.dashboard.test_browser import (ARTIFACTS, VIEWPORTS, _seed, _sign_in,  # noqa: F401
                                          chromium, server, settings, visible)

pytestmark = [pytest.mark.server, pytest.mark.long, pytest.mark.browser]

ID_SHAPE = re.compile(r"\b(?:book|prop|usr|acc)_[A-Za-z0-9]{3,}")


@pytest.fixture
def agency(settings, account_a):
    seeded = _seed(settings, account_a)
    made = seeded["bookings"]
    owner = make_user(account_a, "owner@agency.example")
    with atomic():
        for booking in made[:4]:
            activity.record(account_a, "user", owner.id, "owner@agency.example",
                            "booking.create", booking.id)
    # The invitation that went (the loopback SMTP server), then the mail server goes away.
    checkin.resend(account_a, made[5].id, "https://stay.example.org")
    mail_settings.save_smtp(account_a, host="127.0.0.1", port=free_port(), security="none",
                            username="", password="", from_address="stay@agency.example",
                            allow_private=settings.smtp.allow_private_addresses)
    timeout, settings.smtp.timeout_seconds = settings.smtp.timeout_seconds, 1
    try:  # a server that never greets answers at the timeout (core/mailer.py): 1 s here
        checkin.resend(account_a, made[0].id, "https://stay.example.org")
    except ApiError:
        pass  # said on the booking and on Today
    finally:
        settings.smtp.timeout_seconds = timeout
    return seeded


def _main_text(page) -> str:
    return " ".join(page.locator("main").inner_text().split())


@pytest.mark.parametrize("size", ["phone", "desktop"])
def test_today_a_booking_and_activity_speak_in_words(agency, server, chromium, size):
    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    context = chromium.new_context(viewport=VIEWPORTS[size])
    page = context.new_page()
    _sign_in(page, server.base_url, "owner@agency.example")
    failed, party = agency["bookings"][0], agency["bookings"][2]
    said = {
        "en": {"today": ["E-mail cannot be sent since", "The mail server did not answer."],
               "booking": ["The mail server did not answer. Check its address and port"],
               "guests": ["Identity card", "Greece"],
               "activity": ["made a booking · Maria Rossi,", "RentalComply automatic",
                            "the guest received the check-in link",
                            "could not e-mail the check-in link: see the booking · Maria Rossi"]},
        "el": {"today": ["Δεν στέλνονται e-mail από", "Ο διακομιστής e-mail δεν απάντησε."],
               "booking": ["Ο διακομιστής e-mail δεν απάντησε."],
               "guests": ["Δελτίο ταυτότητας", "Ελλάδα"],
               "activity": ["καταχώρισε κράτηση · Maria Rossi,", "αυτόματα"]},
    }
    paths = {"today": "/dashboard/today", "booking": f"/dashboard/bookings/{failed.id}",
             "guests": f"/dashboard/bookings/{party.id}", "activity": "/dashboard/activity"}
    for lang in ("en", "el"):
        for name, path in paths.items():
            page.goto(f"{server.base_url}{path}?lang={lang}")
            visible(page.locator("h1").first)
            page.screenshot(path=str(ARTIFACTS / f"words-{name}-{lang}-{size}.png"),
                            full_page=True)
            assert violations(page) == [], (name, lang, size)  # axe-core
            text = _main_text(page)
            for words in said[lang][name]:
                assert words in text, (name, lang, words)
            assert "ConnectionRefusedError" not in text and "127.0.0.1" not in text, (name, lang)
            assert not ID_SHAPE.search(text), (name, lang, ID_SHAPE.search(text))
    context.close()
