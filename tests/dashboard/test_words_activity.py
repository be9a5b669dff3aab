"""Activity names what each row is about as a person knows it (the guest and the stay, a
colleague's address), never an id; and it lists what the system did on its own, read from the
outbox's events, in English and Greek."""

from __future__ import annotations

import datetime as dt
import re

from rentalcomply.bookings import service as bookings
from rentalcomply.bookings.fees import FeeRates
from rentalcomply.core import activity, clock, events
from rentalcomply.core.db import atomic
from rentalcomply.dashboard import users

import pytest

ID_SHAPE = re.compile(r"\b(book|prop|usr|acc)_[A-Za-z0-9]+")


@pytest.fixture
def anna(browser_for, account_a):
    return browser_for(account_a, "anna@villa-anemoi.example")


def _visible(page) -> str:
    return re.sub(r"\s+", " ", page.html.find("main").get_text(" "))


def _casa_rosa_booking(owner, account_a, settings):
    prop = owner.post_json("/api/v1/properties", {"name": "Casa Rosa", "address": "Via Roma 1"},
                           status=201).json["data"]
    arrival = clock.today() + dt.timedelta(days=30)
    with atomic():
        booking = bookings.create_booking(
            account_a, rates=FeeRates.from_settings(settings), property_id=prop["id"],
            arrival_date=arrival, departure_date=arrival + dt.timedelta(days=3), guest_count=2,
            guest_name="Luca Ferrari", guest_email="luca@example.com")
        activity.record(account_a, "user", "usr_someone", "anna@example.com", "booking.create",
                        booking.id)
    return prop, booking


def test_a_booking_is_named_by_its_guest_its_dates_and_its_property(anna, owner, account_a,
                                                                    settings):
    prop, booking = _casa_rosa_booking(owner, account_a, settings)
    page = anna.get("/dashboard/activity")
    text = _visible(page)
    assert "made a booking · Luca Ferrari, " in text and "Casa Rosa" in text
    arrival = booking.arrival_date
    assert f"{arrival.day}" in text.split("Luca Ferrari, ")[1][:12]
    assert f'href="/dashboard/bookings/{booking.id}"' in page.text  # the link still goes there
    assert not ID_SHAPE.search(text), ID_SHAPE.search(text)
    assert "καταχώρισε κράτηση · Luca Ferrari" in _visible(anna.get("/dashboard/activity?lang=el"))


def test_an_invited_colleague_is_named_by_their_address(anna, account_a):
    colleague, _ = users.invite(account_a, "maria@example.com", "member")
    with atomic():
        activity.record(account_a, "user", anna.user.id, anna.email, "user.invite", colleague.id)
    text = _visible(anna.get("/dashboard/activity"))
    assert "invited a colleague · maria@example.com" in text
    assert not ID_SHAPE.search(text)


def test_what_the_system_did_is_listed_beside_what_people_did(anna, owner, account_a, settings):
    prop, booking = _casa_rosa_booking(owner, account_a, settings)
    view = bookings.booking_view(booking)
    with atomic():
        events.emit(account_a, "checkin.invited", view)
        events.emit(account_a, "checkin.completed", view)
        events.emit(account_a, "police.rejected", {**view, "police": {"status": "rejected"}})
        events.emit(account_a, "sync.completed", {
            "id": "ch_1", "property_id": prop["id"], "provider": "airbnb",
            "changes": {"created": 4, "blocks": 1, "updated": 0, "cancelled": 0,
                        "not_modified": False}})
        # a poll that found nothing new is not news
        events.emit(account_a, "sync.completed", {
            "id": "ch_1", "property_id": prop["id"], "provider": "airbnb",
            "changes": {"created": 0, "blocks": 0, "updated": 0, "cancelled": 0,
                        "not_modified": True}})
        events.emit(account_a, "report.ready", {"id": "rep_2027_03",
                                                "period": {"year": 2027, "month": 3}})
    page = anna.get("/dashboard/activity")
    text = _visible(page)
    assert "the guest received the check-in link" in text
    assert "Luca Ferrari Guest completed check-in" in text
    assert "the police refused a filing: see the booking" in text
    assert "imported 3 new bookings from a channel calendar · Casa Rosa" in text
    assert text.count("from a channel calendar") == 1
    assert "made a tax report · March 2027" in text
    assert "RentalComply automatic" in text
    assert not ID_SHAPE.search(text)
    greek = _visible(anna.get("/dashboard/activity?lang=el"))
    assert "ολοκλήρωσε το check-in" in greek and "εισήγαγε 3 νέες κρατήσεις" in greek
    assert "Μάρτιος 2027" in greek
    # filtered: only the system's, and by kind
    only_system = _visible(anna.get("/dashboard/activity?lang=en&who=system"))
    assert "made a booking" not in only_system and "made a tax report" in only_system
    reports = _visible(anna.get("/dashboard/activity?kind=report"))
    assert "made a tax report" in reports and "completed check-in" not in reports


def test_one_new_booking_is_said_in_the_singular(anna, owner, account_a):
    prop = owner.post_json("/api/v1/properties", {"name": "Loft", "address": "Ermou 3"},
                           status=201).json["data"]
    with atomic():
        events.emit(account_a, "sync.completed", {
            "id": "ch_1", "property_id": prop["id"], "provider": "booking",
            "changes": {"created": 1, "blocks": 0, "updated": 0, "cancelled": 0,
                        "not_modified": False}})
    assert "imported 1 new booking from a channel calendar" in anna.get("/dashboard/activity")
    assert "εισήγαγε 1 νέα κράτηση" in anna.get("/dashboard/activity?lang=el")


def test_a_channel_calendar_is_named_by_its_channel_and_property(anna, owner, account_a):
    from rentalcomply.properties import service as properties
    prop = owner.post_json("/api/v1/properties", {"name": "Casa Rosa", "address": "Via Roma 1"},
                           status=201).json["data"]
    connection = properties.add_channel(
        account_a, prop["id"], provider="airbnb",
        ical_url="https://www.airbnb.com/calendar/ical/1234567.ics?s=0123456789abcdef0123")
    with atomic():
        activity.record(account_a, "user", anna.user.id, anna.email, "channel.add", connection.id)
    text = _visible(anna.get("/dashboard/activity?lang=en"))
    assert "connected a channel calendar · Airbnb · Casa Rosa" in text
