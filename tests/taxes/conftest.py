"""Fixtures of the tourist tax tests: account A's flat in Lisbon, naming Lisbon's shipped rule set,
and a way to book it through the API."""

import pytest

from rentalcomply.properties import service as properties


@pytest.fixture
def lisbon(owner):
    """Account A's flat in Lisbon (Portugal), charged Lisbon's tax (pt-lisboa: €4 a night from
    1 Sep 2024 for guests from 13, at most 7 nights)."""
    prop = properties.create_property(owner.account_id, name="Casa Alfama", address="Lisboa",
                                      country="PT", timezone="Europe/Lisbon", max_guests=6)
    owner.patch_json(f"/api/v1/properties/{prop.id}", {"tax_rules": ["pt-lisboa"]})
    return prop


@pytest.fixture
def book(owner):
    def book(prop, arrival, departure, guests=2, actor=None, **extra):
        body = {"property_id": prop.id, "guest_name": "Ana Silva", "arrival_date": arrival,
                "departure_date": departure, "guest_count": guests, **extra}
        return (actor or owner).post_json("/api/v1/bookings", body, status=201).json["data"]
    return book


def own_rule_set(**overrides) -> dict:
    """A town's tax the host types in: €2 a person-night, under 14 free, 5 nights at most."""
    body = {"name": "Imposta di soggiorno, Paese", "authority": "Comune di Paese", "country": "IT",
            "basis": "person_night", "max_nights": 5, "age_rates": [{"below": 14, "percent": 0}],
            "exemption_reasons": [{"code": "driver", "label": "Coach or bus driver"},
                                  {"code": "patient_companion",
                                   "label": "Companion of a patient in a local hospital"}],
            "rates": [{"from": "2020-01-01", "amount": 2.0,
                       "source": "https://www.comune.example.it/delibera-1"}],
            "source": "https://www.comune.example.it/imposta-di-soggiorno"}
    body.update(overrides)
    return body
