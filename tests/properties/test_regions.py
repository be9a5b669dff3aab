"""A property's region: the data of each country's regions, the region read from the address only
where that is certain (Italy: the province's abbreviation, or a town no other region has a
municipality of that name; Spain: the postcode's province), and the API's validation."""

import csv
import io
from importlib import resources

import pytest

from rentalcomply.properties import regions
from tests.helpers import assert_error


@pytest.mark.parametrize("address, region", [
    ("Via dei Neri 5, 50122 Firenze FI", "IT-52"),
    ("Via Montenapoleone 8, 20121 Milano (MI)", "IT-25"),
    ("Piazza Walther 1, 39100 Bolzano (BZ)", "IT-BZ"),
    ("Via Belenzani 3, 38122 Trento TN", "IT-TN"),
    ("Via della Lungara 10, 00165 Roma", "IT-62"),        # one Roma in force: Lazio
    ("Via Milano 3, 00184 Roma", "IT-62"),                 # the street's name is not a town
    ("Corso Garibaldi 2, 47121 Forlì", "IT-45"),           # accents as the table folds them
    ("Via Roma 1 (ss), 07100 Sassari", "IT-88"),           # the abbreviation in brackets
])
def test_an_italian_address_that_names_its_province_or_a_town_of_one_region_gives_the_region(
        address, region):
    assert regions.derive("IT", address) == region


@pytest.mark.parametrize("address", [
    "Via Vittorio Emanuele 1, Firenze",          # no postcode, no province: the town alone
    "Via Litoranea 4, 73030 Castro",             # Castro (BG, Lombardia) and Castro (LE, Puglia)
    "Via Roma 1, 20121 Milano (MI), 00184 Roma (RM)",  # two provinces, two regions
    "Via del Corso 1, 00186 Roma (XX)",          # an abbreviation that is no province
    "Strada Statale 16, 47899 Serravalle",       # a postcode alone (San Marino's) decides nothing
    "",
])
def test_an_italian_address_that_is_not_certain_gives_no_region(address):
    assert regions.derive("IT", address) is None


@pytest.mark.parametrize("address, region", [
    ("Carrer de Mallorca 401, 08013 Barcelona", "ES-CT"),
    ("Calle Mayor 1, 28013 Madrid", "ES-MD"),
    ("Kale Nagusia 3, 20003 Donostia", "ES-PV"),
    ("Paseo Marítimo 5, 51001 Ceuta", "ES-CE"),
    ("Calle O'Donnell 2, 52001 Melilla", "ES-ML"),
    ("Avenida 3, 35001 Las Palmas de Gran Canaria", "ES-CN"),
])
def test_a_spanish_postcode_gives_its_autonomous_community(address, region):
    assert regions.derive("ES", address) == region


@pytest.mark.parametrize("address", ["Calle Mayor 1, Madrid", "Calle 1, 08001 o 28013",
                                     "Calle 1, 00001 Nowhere", "Calle 1, 53001 Nowhere"])
def test_a_spanish_address_without_one_certain_postcode_gives_no_region(address):
    assert regions.derive("ES", address) is None


def test_an_ine_municipality_code_gives_its_community():
    assert regions.spanish_municipality_region("08019") == "ES-CT"     # Barcelona
    assert regions.spanish_municipality_region("080193") == "ES-CT"    # with its check digit
    assert regions.spanish_municipality_region("20069") == "ES-PV"     # Donostia
    assert regions.spanish_municipality_region("99999") is None


def test_portugal_and_greece_have_no_regions():
    assert regions.derive("PT", "Rua Augusta 1, 1100-048 Lisboa") is None
    assert regions.derive("GR", "Oia, 84702 Santorini") is None
    assert regions.choices("GR") == []


def test_the_regions_are_italys_twenty_with_trento_and_bolzano_and_spains_nineteen():
    italy, spain = regions.regions_of("IT"), regions.regions_of("ES")
    assert len(italy) == 21 and "IT-32" not in italy and {"IT-TN", "IT-BZ"} <= set(italy)
    assert len(spain) == 19 and {"ES-AN", "ES-CT", "ES-PV", "ES-CE", "ES-ML"} <= set(spain)
    assert regions.region_name("IT-25", "en") == "Lombardia (Lombardy)"
    assert regions.region_name("ES-CT", "el") == "Catalunya (Καταλονία)"
    assert regions.region_name("IT-62", "en") == "Lazio"


def test_every_province_in_force_in_the_polizia_table_has_a_region():
    text = resources.files("rentalcomply.codes").joinpath("it/comuni.csv").read_text("utf-8")
    provinces = {row["Provincia"] for row in csv.DictReader(io.StringIO(text))
                 if not row["DataFineVal"]}
    assert provinces - set(regions.IT_PROVINCE_REGION) == set()
    assert set(regions.IT_PROVINCE_REGION.values()) == set(regions.regions_of("IT"))


def test_every_municipality_of_ines_list_lies_in_its_provinces_community():
    text = (resources.files("rentalcomply.codes").joinpath("es/municipios.csv")
            .read_text("utf-8"))
    for row in csv.DictReader(io.StringIO(text)):
        assert regions.spanish_municipality_region(row["ine_code"]) \
            == regions.ES_COMMUNITY_REGION[row["community_code"]], row
    assert len(regions.ES_PROVINCE_REGION) == 52
    assert set(regions.ES_PROVINCE_REGION.values()) == set(regions.regions_of("ES"))


# --- the API ------------------------------------------------------------------------------------

FIRENZE = {"name": "Casa Santo Spirito", "address": "Via Maggio 12, 50125 Firenze FI",
           "country": "IT"}


def _make(owner, **fields):
    return owner.post_json("/api/v1/properties", dict(FIRENZE, **fields), status=201).json["data"]


def test_a_property_created_with_a_certain_address_has_its_region_read_from_it(owner):
    made = _make(owner)
    assert (made["region"], made["region_source"]) == ("IT-52", "address")
    shown = owner.get(f"/api/v1/properties/{made['id']}").json["data"]
    assert (shown["region"], shown["region_source"], shown["rooms"], shown["beds"]) \
        == ("IT-52", "address", None, None)


def test_an_uncertain_address_leaves_the_region_unknown_until_the_host_chooses(owner):
    made = _make(owner, address="Via Litoranea 4, 73030 Castro")
    assert (made["region"], made["region_source"]) == (None, None)
    chosen = owner.patch_json(f"/api/v1/properties/{made['id']}", {"region": "IT-75"}).json["data"]
    assert (chosen["region"], chosen["region_source"]) == ("IT-75", "host")


def test_a_changed_address_reads_a_derived_region_again_but_never_the_hosts(owner):
    made = _make(owner)
    url = f"/api/v1/properties/{made['id']}"
    moved = owner.patch_json(url, {"address": "Via Torino 3, 20123 Milano MI"}).json["data"]
    assert (moved["region"], moved["region_source"]) == ("IT-25", "address")
    owner.patch_json(url, {"region": "IT-21"})
    kept = owner.patch_json(url, {"address": "Via Maggio 12, 50125 Firenze FI"}).json["data"]
    assert (kept["region"], kept["region_source"]) == ("IT-21", "host")
    back = owner.patch_json(url, {"region": None}).json["data"]  # null: the address's again
    assert (back["region"], back["region_source"]) == ("IT-52", "address")


def test_a_region_of_another_country_or_for_a_country_without_regions_is_refused(owner):
    error = assert_error(owner.post_json("/api/v1/properties", dict(FIRENZE, region="ES-CT"),
                                         status=400), 400, "VALIDATION_ERROR")
    assert [d["field"] for d in error["details"]] == ["region"]
    assert "ES-CT is not a region of IT" in error["details"][0]["message"]
    made = _make(owner)
    error = assert_error(owner.patch_json(f"/api/v1/properties/{made['id']}",
                                          {"region": "IT-32"}, status=400), 400,
                         "VALIDATION_ERROR")
    assert [d["field"] for d in error["details"]] == ["region"]
    greek = owner.post_json("/api/v1/properties", {"name": "Villa", "address": "Oia"},
                            status=201).json["data"]
    assert greek["region"] is None
    error = assert_error(owner.patch_json(f"/api/v1/properties/{greek['id']}",
                                          {"region": "IT-52"}, status=400), 400,
                         "VALIDATION_ERROR")
    assert "only Italian and Spanish properties" in error["details"][0]["message"]


def test_moving_a_property_to_spain_reads_the_region_from_the_address_again(owner):
    made = _make(owner, region="IT-52")
    moved = owner.patch_json(f"/api/v1/properties/{made['id']}", {
        "country": "ES", "timezone": "Europe/Madrid", "cin": None,
        "address": "Carrer de Mallorca 401, 08013 Barcelona"}).json["data"]
    assert (moved["region"], moved["region_source"]) == ("ES-CT", "address")


def test_rooms_and_beds_are_whole_numbers_from_0_to_999_and_null_clears_them(owner):
    made = _make(owner, rooms=3, beds=6)
    assert (made["rooms"], made["beds"]) == (3, 6)
    url = f"/api/v1/properties/{made['id']}"
    for bad in (-1, 1000, 2.5, "3", True):
        error = assert_error(owner.patch_json(url, {"rooms": bad}, status=400), 400,
                             "VALIDATION_ERROR")
        assert [d["field"] for d in error["details"]] == ["rooms"], (bad, error)
    cleared = owner.patch_json(url, {"rooms": None, "beds": 0}).json["data"]
    assert (cleared["rooms"], cleared["beds"]) == (None, 0)
