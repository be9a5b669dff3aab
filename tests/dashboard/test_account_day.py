"""Days counted where the account lives: at 23:30 UTC it is already tomorrow in Auckland, so
Today, the calendar's default month and the morning e-mail's list take Auckland's date."""

from __future__ import annotations

import datetime as dt

import pytest

from rentalcomply.bookings import service as bookings
from rentalcomply.bookings.fees import FeeRates
from rentalcomply.core import clock
from rentalcomply.core.db import atomic
from rentalcomply.dashboard import i18n, service
from rentalcomply.properties import service as properties


@pytest.fixture
def last_evening_of_a_month():
    """23:30 UTC on a month's last day, a few weeks from today: the 1st of the next in Auckland."""
    ahead = clock.today() + dt.timedelta(days=40)
    first_of_next = (ahead.replace(day=28) + dt.timedelta(days=4)).replace(day=1)
    evening = dt.datetime.combine(first_of_next - dt.timedelta(days=1), dt.time(23, 30))
    clock.freeze(evening)
    yield evening
    clock.reset()


def _booking(settings, account_id, prop, guest, arrival):
    with atomic():
        return bookings.create_booking(account_id, rates=FeeRates.from_settings(settings),
                                       property_id=prop.id, guest_name=guest, arrival_date=arrival,
                                       departure_date=arrival + dt.timedelta(days=1),
                                       guest_count=2)


def test_today_and_the_morning_list_take_the_accounts_date(
        settings, account_a, last_evening_of_a_month, anna):
    service.set_account_timezone(account_a, "Pacific/Auckland")
    prop = properties.create_property(account_a, name="Harbour Loft", address="Quay St 1")
    utc_day = last_evening_of_a_month.date()
    auckland_day = utc_day + dt.timedelta(days=1)
    assert service.account_day(account_a) == auckland_day
    yesterday_there = _booking(settings, account_a, prop, "Aroha Ngata", utc_day)
    today_there = _booking(settings, account_a, prop, "Wiremu Tane", auckland_day)
    day = service.today(account_a)  # what the page and the morning e-mail both list
    assert [b.id for b in day.arrivals] == [today_there.id]
    assert yesterday_there.id not in [b.id for b in day.checkins_due]
    page = anna.get("/dashboard/today")
    fmt = i18n.Formatter("en", "Pacific/Auckland")
    assert fmt.date(auckland_day) in page.text and "Wiremu Tane" in page.text


def test_the_calendars_default_month_is_the_accounts(settings, account_a, last_evening_of_a_month,
                                                      anna):
    service.set_account_timezone(account_a, "Pacific/Auckland")
    prop = properties.create_property(account_a, name="Harbour Loft", address="Quay St 1")
    next_month = last_evening_of_a_month.date() + dt.timedelta(days=1)
    page = anna.get(f"/dashboard/calendar?property={prop.id}")
    assert i18n.Formatter("en").month(next_month) in page.text


def test_los_angeles_is_still_on_the_day_before_in_the_small_hours_of_utc(account_a):
    service.set_account_timezone(account_a, "America/Los_Angeles")
    early = dt.datetime.combine(clock.today() + dt.timedelta(days=3), dt.time(3, 30))
    assert service.account_day(account_a, early) == early.date() - dt.timedelta(days=1)
