"""A police connector is refused where the property's country has no format for it (a Greek
property once took `file`, and every filing then failed: "no police file format for country GR"):
the same error, in the shared shape, on the API and the command line (the dashboard's form:
tests/dashboard/test_connector_countries.py)."""

import pytest

from tests.cli.conftest import cli  # noqa: F401 - the fixture
from tests.helpers import assert_error

GREEK = {"name": "Villa Anemoi", "address": "Oia, 84702 Santorini", "country": "GR"}
REFUSED_FILE = ("has no police format for country GR (file files for IT, ES, PT); a property in "
                "GR takes: none")


@pytest.mark.parametrize("country, connector", [
    ("GR", "file"), ("GR", "alloggiati"), ("FR", "file"), ("ES", "alloggiati"), ("IT", "siba")])
def test_a_connector_without_a_format_for_the_country_is_refused(owner, country, connector):
    body = dict(GREEK, country=country, police_connector=connector,
                timezone={"ES": "Europe/Madrid"}.get(country, "Europe/Athens"))
    response = owner.post_json("/api/v1/properties", body, status=400)
    detail = assert_error(response, 400, "VALIDATION_ERROR")["details"]
    assert [d["field"] for d in detail] == ["police_connector"]
    assert detail[0]["message"].startswith(f"has no police format for country {country} ")


@pytest.mark.parametrize("country, connector", [
    ("IT", "file"), ("ES", "file"), ("PT", "file"), ("IT", "alloggiati"), ("GR", "none"),
    ("FR", "none")])
def test_a_connector_with_a_format_for_the_country_is_taken(owner, country, connector):
    zone = {"ES": "Europe/Madrid", "PT": "Europe/Lisbon", "IT": "Europe/Rome",
            "FR": "Europe/Paris"}.get(country, "Europe/Athens")
    data = owner.post_json("/api/v1/properties", dict(GREEK, country=country, timezone=zone,
                                                      police_connector=connector),
                           status=201).json["data"]
    assert data["police_connector"] == connector



@pytest.mark.parametrize("address, region, connector", [
    ("Carrer de Mallorca 401, 08013 Barcelona", None, "mossos"),
    ("Carrer Major 1", "ES-CT", "mossos"),
    ("Kale Nagusia 1, 48005 Bilbao", None, "ertzaintza")])
def test_a_regions_own_police_is_taken_when_the_property_is_created_in_that_region(
        owner, address, region, connector):
    """The region, given or read from the address, counts when the property is made, not only
    when it is changed: a Catalan flat can be created on the Mossos' registration at once."""
    body = {"name": "Pis", "address": address, "country": "ES", "timezone": "Europe/Madrid",
            "police_connector": connector, **({"region": region} if region else {})}
    data = owner.post_json("/api/v1/properties", body, status=201).json["data"]
    assert (data["police_connector"], data["region"]) == (
        connector, {"mossos": "ES-CT", "ertzaintza": "ES-PV"}[connector])


def test_a_regions_own_police_is_refused_for_a_property_created_elsewhere(owner):
    body = {"name": "Piso", "address": "Calle Mayor 1, 28005 Madrid", "country": "ES",
            "timezone": "Europe/Madrid", "police_connector": "ertzaintza"}
    detail = assert_error(owner.post_json("/api/v1/properties", body, status=400), 400,
                          "VALIDATION_ERROR")["details"]
    assert detail[0]["field"] == "police_connector"
    assert "this property is in region ES-MD: it takes ses_hospedajes" in detail[0]["message"]

def test_a_patch_of_the_connector_or_of_the_country_is_checked_against_the_other(owner):
    greek = owner.post_json("/api/v1/properties", GREEK, status=201).json["data"]
    response = owner.patch_json(f"/api/v1/properties/{greek['id']}", {"police_connector": "file"},
                                status=400)
    assert assert_error(response, 400, "VALIDATION_ERROR")["details"] == [
        {"field": "police_connector", "message": REFUSED_FILE}]
    italian = owner.post_json("/api/v1/properties", dict(
        GREEK, country="IT", timezone="Europe/Rome", police_connector="file"),
        status=201).json["data"]
    response = owner.patch_json(f"/api/v1/properties/{italian['id']}",
                                {"country": "GR", "timezone": "Europe/Athens"}, status=400)
    assert assert_error(response, 400, "VALIDATION_ERROR")["details"] == [
        {"field": "police_connector", "message": REFUSED_FILE}]
    # Both at once is one coherent change.
    moved = owner.patch_json(f"/api/v1/properties/{italian['id']}", {
        "country": "GR", "timezone": "Europe/Athens", "police_connector": "none"}).json["data"]
    assert (moved["country"], moved["police_connector"]) == ("GR", "none")


def test_the_command_line_refuses_it_too(cli):  # noqa: F811
    cli("init")
    account = cli.json("accounts", "create", "Agency")["id"]
    prop = cli.json("properties", "create", "--account", account, "--name", "Villa",
                    "--address", "Oia", "--country", "GR", "--json")["id"]
    result = cli("police", "configure", "--account", account, "--property", prop,
                 "--connector", "file", expect=1)
    assert f"police_connector: {REFUSED_FILE}" in result.output
    result = cli("properties", "update", "--account", account, prop, "--police-connector",
                 "file", expect=1)
    assert f"police_connector: {REFUSED_FILE}" in result.output
    listed = cli.json("properties", "list", "--account", account)["data"]
    assert [p["police_connector"] for p in listed] == ["none"]
