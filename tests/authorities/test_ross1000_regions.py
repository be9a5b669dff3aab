"""Italy's regions and their statistics systems (authorities/ross1000/regions.py): every region
present, ROSS 1000's endpoints equal to the settings' published defaults and overridable,
Tuscany's disputed addresses kept without a default, deadlines, and words for the unknown."""

from __future__ import annotations

import datetime as dt

import pytest

from rentalcomply.authorities.ross1000 import regions
from rentalcomply.config import SETTINGS_BY_NAME, load_settings

ALL = ("IT-21", "IT-23", "IT-25", "IT-TN", "IT-BZ", "IT-34", "IT-36", "IT-42", "IT-45", "IT-52",
       "IT-55", "IT-57", "IT-62", "IT-65", "IT-67", "IT-72", "IT-75", "IT-77", "IT-78", "IT-82",
       "IT-88")
# Issue 37 and the notes: the regions on ROSS 1000.
ON_ROSS = {"IT-21", "IT-25", "IT-34", "IT-42", "IT-45", "IT-52", "IT-57", "IT-62", "IT-65",
           "IT-67", "IT-77", "IT-78", "IT-88"}


def test_every_region_is_there_once():
    assert sorted(regions.REGIONS) == sorted(ALL)
    assert {code for code, r in regions.REGIONS.items() if r.on_ross1000} == ON_ROSS
    assert (regions.get("it-tn").system, regions.get("IT-75").system) == ("ispat", "spot")
    assert regions.get("IT-99") is None and regions.get(None) is None


@pytest.mark.parametrize("code", sorted(ON_ROSS))
def test_each_ross1000_endpoint_is_a_setting_with_the_published_default(code):
    region = regions.get(code)
    setting = SETTINGS_BY_NAME[f"ross1000.{region.setting}"]
    assert setting.default == region.endpoint
    if region.endpoint:
        assert region.endpoint.startswith("https://") and "?" not in region.endpoint
        assert region.endpoint.rsplit("/", 2)[-2:] in (["ws", "checkinV2"], ["ws", "checkinV1"])


def test_the_emilia_romagna_address_is_the_wsdls():
    assert regions.get("IT-45").endpoint == "https://datiturismo.regione.emilia-romagna.it/ws/checkinV2"
    assert regions.get("IT-62").endpoint == "https://lazioturismo.ross1000.it/ws/checkinV2"


def test_tuscanys_disputed_addresses_are_kept_and_none_is_chosen(tmp_path):
    tuscany = regions.get("IT-52")
    assert tuscany.on_ross1000 and tuscany.endpoint == ""
    assert "https://toscanaturismo.ross1000.it/turismo5-web/ws/checkinV2" in tuscany.other_endpoints
    assert "https://turismo5firenze.regione.toscana.it/ws/checkinV2" in tuscany.other_endpoints
    settings = load_settings(data_dir=tmp_path, env={})
    assert regions.endpoint(tuscany, settings) == ""
    assert "disagree" in regions.advice(tuscany)
    chosen = load_settings(data_dir=tmp_path, env={
        "RENTALCOMPLY_ROSS1000_IT_52_URL": "https://turismo5prato.regione.toscana.it/ws/checkinV2"})
    assert regions.endpoint(tuscany, chosen) == "https://turismo5prato.regione.toscana.it/ws/checkinV2"


def test_an_endpoint_setting_overrides_the_published_one(tmp_path):
    lombardy = regions.get("IT-25")
    assert regions.endpoint(lombardy, load_settings(data_dir=tmp_path, env={})) == lombardy.endpoint
    moved = load_settings(data_dir=tmp_path, env={
        "RENTALCOMPLY_ROSS1000_IT_25_URL": "https://example.org/ws/checkinV2"})
    assert regions.endpoint(lombardy, moved) == "https://example.org/ws/checkinV2"
    assert regions.endpoint(regions.get("IT-75"), moved) == ""  # not ROSS 1000


def test_deadlines():
    assert regions.deadline(regions.get("IT-25"), 2026, 6) == dt.date(2026, 7, 5)
    assert regions.deadline(regions.get("IT-45"), 2026, 12) == dt.date(2027, 1, 5)
    assert regions.deadline(regions.get("IT-75"), 2026, 1) == dt.date(2026, 2, 10)  # SPOT
    assert regions.deadline(None, 2026, 1) == dt.date(2026, 2, 5)
    trento = regions.get("IT-TN")
    assert regions.deadline(trento, 2026, 6) is None and trento.deadline_hours == 48


def test_the_property_is_told_in_words_never_guessed():
    assert "not known" in regions.advice(regions.get("IT-72"))
    assert "Campania" in regions.advice(regions.get("IT-72"))
    assert "SPOT" in regions.advice(regions.get("IT-75"))
    assert "not ROSS 1000" in regions.advice(regions.get("IT-TN"))
    assert "region is not set" in regions.advice(None)
    assert "ROSS 1000" in regions.advice(regions.get("IT-62"))
