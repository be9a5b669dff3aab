"""The climate resilience fee: each night at the rate of the month it falls in."""

import datetime as dt
from types import SimpleNamespace

import pytest

from rentalcomply.bookings.fees import (FeeRates, climate_fee_by_month, climate_fee_cents,
                                        euros_to_cents)

RATES = FeeRates(standard_summer=800, standard_winter=200, detached_summer=1500,
                 detached_winter=400, summer_months=frozenset(range(4, 11)))
D = dt.date


def test_a_stay_across_march_and_april_splits_nights_by_month_and_rate():
    # 30 and 31 March are winter nights, 1 April a summer night; 2 April is the departure.
    assert climate_fee_by_month(D(2026, 3, 30), D(2026, 4, 2), "standard", RATES) == {
        (2026, 3): 400, (2026, 4): 800}
    assert climate_fee_cents(D(2026, 3, 30), D(2026, 4, 2), "standard", RATES) == 1200


def test_a_detached_house_over_80m2_pays_its_own_rates():
    assert climate_fee_cents(D(2026, 3, 30), D(2026, 4, 2), "detached_over_80m2", RATES) == 2300


def test_a_stay_across_the_new_year_counts_in_both_years():
    assert climate_fee_by_month(D(2026, 12, 30), D(2027, 1, 2), "standard", RATES) == {
        (2026, 12): 400, (2027, 1): 200}


def test_a_free_stay_pays_no_fee_and_an_unknown_price_is_assumed_paid():
    assert climate_fee_cents(D(2026, 7, 1), D(2026, 7, 3), "standard", RATES, total_price_cents=0) == 0
    assert climate_fee_cents(D(2026, 7, 1), D(2026, 7, 3), "standard", RATES, None) == 1600


def test_rates_come_from_the_settings_in_cents():
    section = SimpleNamespace(standard_summer=8.0, standard_winter=2.0, detached_summer=15.0,
                              detached_winter=4.1, summer_months=[5, 6])
    rates = FeeRates.from_settings(SimpleNamespace(climate_fee=section))
    assert rates.detached_winter == 410 and rates.summer_months == frozenset({5, 6})
    assert rates.per_night("standard", 4) == 200  # April is winter under these settings
    assert FeeRates.from_settings(section) == rates


@pytest.mark.parametrize("euros, cents", [(19.99, 1999), (0.1, 10), (8, 800), (0.005, 1)])
def test_euros_become_whole_cents(euros, cents):
    assert euros_to_cents(euros) == cents


def test_only_a_property_in_greece_carries_the_fee():
    from rentalcomply.bookings.fees import property_fee_cents
    assert property_fee_cents("GR", D(2026, 7, 1), D(2026, 7, 3), "standard", RATES) == 1600
    assert property_fee_cents("IT", D(2026, 7, 1), D(2026, 7, 3), "standard", RATES) == 0


def test_an_italian_booking_has_no_climate_fee_over_the_api(owner):
    from rentalcomply.properties import service as properties
    rome = properties.create_property(owner.account_id, name="Casa Roma", address="Roma",
                                      country="IT", max_guests=4)
    body = {"property_id": rome.id, "guest_name": "Giulia Rossi", "arrival_date": "2026-07-10",
            "departure_date": "2026-07-14", "guest_count": 2}
    created = owner.post_json("/api/v1/bookings", body, status=201).json["data"]
    assert created["climate_fee"] == 0
    moved = owner.patch_json(f"/api/v1/bookings/{created['id']}",
                             {"departure_date": "2026-07-20"}).json["data"]
    assert moved["climate_fee"] == 0
    athens = properties.create_property(owner.account_id, name="Spiti", address="Athina")
    greek = owner.post_json("/api/v1/bookings", dict(body, property_id=athens.id),
                            status=201).json["data"]
    assert greek["climate_fee"] == 32.0
