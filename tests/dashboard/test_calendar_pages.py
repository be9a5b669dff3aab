"""The calendar of every property at once: a lane of stays per property over two weeks or a
month, each stay a link, conflicts marked; the month grid of one property stays a click away."""

from __future__ import annotations

import datetime as dt

import pytest

from rentalcomply.bookings import service as bookings
from rentalcomply.bookings.fees import FeeRates
from rentalcomply.core import clock
from rentalcomply.core.db import atomic
from rentalcomply.core.models import Booking
from rentalcomply.dashboard import service
from rentalcomply.properties import service as properties


@pytest.fixture(autouse=True)
def midday():
    """Noon UTC of today: the page's week starts on the account's day (Athens), which is UTC's
    next day from 21:00 or 22:00 UTC; the test's Monday is reckoned from UTC's."""
    clock.freeze(dt.datetime.combine(clock.today(), dt.time(12)))
    yield
    clock.reset()


def _stay(settings, account_id, prop, guest, arrival, nights):
    with atomic():
        return bookings.create_booking(account_id, rates=FeeRates.from_settings(settings),
                                       property_id=prop.id, guest_name=guest,
                                       arrival_date=arrival,
                                       departure_date=arrival + dt.timedelta(days=nights),
                                       guest_count=1)


def test_every_property_has_a_lane_with_its_stays_placed_by_day(anna, settings, account_a):
    loft = properties.create_property(account_a, name="Plaka Loft with a long name", address="A")
    house = properties.create_property(account_a, name="Hydra Stone House", address="B")
    monday = clock.today() - dt.timedelta(days=clock.today().weekday())
    first = _stay(settings, account_a, loft, "Maria Rossi", monday + dt.timedelta(days=2), 3)
    long = _stay(settings, account_a, house, "Jean Dupont", monday - dt.timedelta(days=3), 30)
    page = anna.get("/dashboard/calendar")
    assert "Plaka Loft with a long name" in page.text and "Hydra Stone House" in page.text
    assert 'class="timeline days-14"' in page.text
    assert f'href="/dashboard/bookings/{first.id}"' in page.text
    assert "tl-bar from-3 span-3 c-manual" in page.text
    assert "from-1 span-14 c-manual cut-left cut-right" in page.text  # runs past both ends
    month = anna.get(f"/dashboard/calendar?span=month&start={monday.isoformat()}").text
    assert f"days-{(monday.replace(day=28) + dt.timedelta(days=4)).replace(day=1).__sub__(monday.replace(day=1)).days}" in month
    assert f'href="/dashboard/calendar?property={loft.id}' in page.text
    assert long.id in page.text
    greek = anna.get("/dashboard/calendar?lang=el").text
    assert "Δύο εβδομάδες" in greek and "1 κράτηση" in greek


def test_a_bad_start_is_said_on_the_form(anna, account_a):
    properties.create_property(account_a, name="Loft", address="A")
    page = anna.get("/dashboard/calendar?start=soon")
    assert 'id="start-error"' in page.text


def test_conflicts_are_marked(anna, settings, account_a):
    loft = properties.create_property(account_a, name="Loft", address="A")
    monday = clock.today() - dt.timedelta(days=clock.today().weekday())
    one = _stay(settings, account_a, loft, "One", monday + dt.timedelta(days=1), 3)
    other = _stay(settings, account_a, loft, "Other", monday + dt.timedelta(days=6), 2)
    # a channel import can bring a double booking the API would refuse
    Booking.update(arrival_date=monday + dt.timedelta(days=2)).where(Booking.id == other.id).execute()
    [(_, bars)] = service.timeline(account_a, monday, 14)
    assert [b.conflict for b in bars] == [True, True] and bars[0].booking.id == one.id
    assert "conflict" in anna.get("/dashboard/calendar").text
