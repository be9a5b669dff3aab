"""Spanish properties' registration numbers: the regional licence (text, trimmed, no format
guessed) and an optional legacy NRUA (opaque, no length check), Spanish properties only."""

from rentalcomply.properties import service as properties
from tests.cli.conftest import cli  # noqa: F401 - the fixture
from tests.helpers import assert_error

NRUA = "ESFCTU00000801900012345678901234567890HUTB-012345"  # 50 characters, as seen


def _spanish(owner, **extra):
    return owner.post_json("/api/v1/properties", {
        "name": "Pis", "address": "Barcelona", "country": "ES", "timezone": "Europe/Madrid",
        **extra}, status=201).json["data"]


def test_a_licence_and_an_nrua_are_kept_as_typed_and_cleared(owner):
    made = _spanish(owner, licence_number=" VUT/MA/12345 ", nrua=NRUA)
    assert (made["licence_number"], made["nrua"]) == ("VUT/MA/12345", NRUA)
    for nrua in (NRUA + "X" * 6, "ESFCTU1"):  # 56 and 7 characters: no length is checked
        assert owner.patch_json(f"/api/v1/properties/{made['id']}",
                                {"nrua": nrua}).json["data"]["nrua"] == nrua
    cleared = owner.patch_json(f"/api/v1/properties/{made['id']}",
                               {"licence_number": "", "nrua": None}).json["data"]
    assert (cleared["licence_number"], cleared["nrua"]) == (None, None)


def test_a_licence_outside_spain_is_refused(owner):
    reply = owner.post_json("/api/v1/properties", {"name": "Villa", "address": "Oia",
                                                   "licence_number": "HUTB-1"}, status=400)
    assert_error(reply, 400, "VALIDATION_ERROR")
    assert reply.json["error"]["details"][0]["field"] == "licence_number"
    made = _spanish(owner, licence_number="HUTB-1")
    owner.patch_json(f"/api/v1/properties/{made['id']}",
                     {"country": "PT", "timezone": "Europe/Lisbon"}, status=400)


def test_the_openapi_document_declares_them(owner):
    schema = owner.get("/api/v1/openapi.json").json["components"]["schemas"]["Property"]
    assert {"licence_number", "nrua"} <= set(schema["required"])


def test_a_spanish_property_without_a_licence_needs_a_person(account_a, owner):
    _spanish(owner, licence_number="HUTB-1")
    without = _spanish(owner)
    assert [p.id for p in properties.spanish_without_licence(account_a)] == [without["id"]]


def test_the_command_line_sets_and_clears_them(cli):  # noqa: F811
    cli("init")
    account = cli.json("accounts", "create", "Agencia Barcelona")
    prop = cli.json("properties", "create", "--account", account["id"], "--name", "Pis",
                    "--address", "Barcelona", "--country", "ES", "--timezone", "Europe/Madrid",
                    "--json")
    view = cli.json("properties", "update", prop["id"], "--account", account["id"],
                    "--licence-number", " HUTB-012345 ", "--nrua", "ESFCTU1", "--json")
    assert (view["licence_number"], view["nrua"]) == ("HUTB-012345", "ESFCTU1")
    view = cli.json("properties", "update", prop["id"], "--account", account["id"],
                    "--licence-number", "", "--json")
    assert view["licence_number"] is None
    configured = cli.json("police", "configure", "--account", account["id"], "--property",
                          prop["id"], "--connector", "ses_hospedajes", "--json")
    assert configured["police_connector"] == "ses_hospedajes"
