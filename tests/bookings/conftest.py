"""Fixtures of the booking tests: account A's villa, the configured fee rates, a booking body."""

import pytest

from rentalcomply.bookings.fees import FeeRates
from rentalcomply.properties import service as properties


@pytest.fixture
def villa(owner):
    """Account A's villa: up to 4 guests, no police connector (Greece)."""
    return properties.create_property(owner.account_id, name="Villa Anemoi", address="Oia",
                                      aade_property_id="00012345678", max_guests=4)


@pytest.fixture
def rates(settings):
    return FeeRates.from_settings(settings)


def booking_body(property_id: str, **overrides) -> dict:
    body = {"property_id": property_id, "guest_name": "Maria Papadopoulou",
            "arrival_date": "2026-07-10", "departure_date": "2026-07-14", "guest_count": 2}
    body.update(overrides)
    return body
