"""The countries and zones the property form offers: each country's own zones (Spain's Canary
Islands, Portugal's Madeira and Azores), the zone a region keeps, the served countries first."""

from __future__ import annotations

from rentalcomply.properties import countries


def test_each_served_country_offers_its_own_zones_its_main_one_first():
    assert countries.zones_for("ES") == ["Europe/Madrid", "Africa/Ceuta", "Atlantic/Canary"]
    assert countries.zones_for("PT") == ["Europe/Lisbon", "Atlantic/Madeira", "Atlantic/Azores"]
    assert countries.zones_for("IT") == ["Europe/Rome"]
    assert countries.zones_for("GR") == ["Europe/Athens"]


def test_a_region_keeps_its_own_zone_or_its_countrys_main_one():
    assert countries.zone_of_region("ES-CN") == "Atlantic/Canary"
    assert countries.zone_of_region("ES-CE") == "Africa/Ceuta"
    assert countries.zone_of_region("ES-CT") == "Europe/Madrid"
    assert countries.zone_of_region("IT-25") == "Europe/Rome"
    assert countries.zone_of_region(None) is None


def test_the_served_countries_are_named_and_ordered_in_the_language_asked():
    assert countries.served_choices("en") == (("GR", "Greece"), ("IT", "Italy"),
                                              ("PT", "Portugal"), ("ES", "Spain"))
    assert [code for code, _ in countries.served_choices("el")] == ["GR", "ES", "IT", "PT"]
