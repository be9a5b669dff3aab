"""Greece's climate resilience fee, now charged by the tourist tax engine, gives the figures the
hand-written rules gave, stay by stay and month by month (the AADE report tests in tests/reports
check the report lines themselves, unchanged)."""

import datetime as dt
import random

import pytest

from rentalcomply.bookings.fees import (DETACHED, FeeRates, climate_fee_by_month, climate_fee_cents,
                                        property_fee_cents)
from rentalcomply.taxes.rules import shipped_rule_set


def hand_written_by_month(arrival, departure, category, rates):
    """The computation as it was before the engine (bookings/fees.py until this change)."""
    by_month = {}
    night = arrival
    while night < departure:
        summer = night.month in rates.summer_months
        if category == DETACHED:
            cents = rates.detached_summer if summer else rates.detached_winter
        else:
            cents = rates.standard_summer if summer else rates.standard_winter
        key = (night.year, night.month)
        by_month[key] = by_month.get(key, 0) + cents
        night += dt.timedelta(days=1)
    return by_month


RATE_SETS = [
    FeeRates(800, 200, 1500, 400, frozenset(range(4, 11))),   # the law since 2025 (the defaults)
    FeeRates(150, 50, 1000, 400, frozenset(range(3, 11))),    # 2024: Mar-Oct
    FeeRates(0, 0, 0, 0, frozenset()),                        # no summer at all, nothing charged
    FeeRates(333, 1, 999, 7, frozenset(range(1, 13))),        # every month summer
]


@pytest.mark.parametrize("rates", RATE_SETS)
def test_a_thousand_stays_give_the_same_figures(rates):
    pick = random.Random(20261128)
    for _ in range(1000):
        arrival = dt.date(2024, 1, 1) + dt.timedelta(days=pick.randrange(0, 1100))
        departure = arrival + dt.timedelta(days=pick.choice([0, 1, 2, 3, 7, 14, 31, 45, 90, 365]))
        category = pick.choice(["standard", DETACHED])
        price = pick.choice([None, 0, 1, 48000])
        expected = hand_written_by_month(arrival, departure, category, rates)
        assert climate_fee_by_month(arrival, departure, category, rates) == expected
        whole = 0 if price == 0 else sum(expected.values())
        assert climate_fee_cents(arrival, departure, category, rates, price) == whole
        assert property_fee_cents("GR", arrival, departure, category, rates, price) == whole
        assert property_fee_cents("IT", arrival, departure, category, rates, price) == 0


def test_the_shipped_greek_set_holds_the_configured_defaults(settings):
    """The shipped rule set (the law's rates, dated) and the `[climate_fee]` defaults agree."""
    configured = FeeRates.from_settings(settings)
    shipped = shipped_rule_set("gr-climate-fee")
    for month in range(1, 13):
        night = dt.date(2026, month, 15)
        for category in ("standard", DETACHED):
            assert shipped.rate_on(night, category).cents == hand_written_by_month(
                night, night + dt.timedelta(days=1), category, configured)[(2026, month)]
