"""The CIN of Italian properties over the API: set, trimmed, cleared, and refused where the
domain note gives a reason (not text, too long, control characters, not an Italian property).
Its format is unconfirmed, so any one line of text is taken."""

from rentalcomply.core.models import Property
from tests.helpers import assert_error

ROMA = {"name": "Casa Trastevere", "address": "Via della Lungara 10, 00165 Roma",
        "country": "IT"}
CIN = "IT058091C2ABCDEFGH"


def _make(owner, **fields):
    return owner.post_json("/api/v1/properties", dict(ROMA, **fields), status=201).json["data"]


def test_an_italian_property_is_created_with_its_cin_and_shows_it(owner):
    made = _make(owner, cin=CIN)
    assert made["cin"] == CIN
    assert owner.get(f"/api/v1/properties/{made['id']}").json["data"]["cin"] == CIN
    assert Property.get_by_id(made["id"]).cin == CIN


def test_a_cin_is_set_trimmed_and_cleared_by_null_or_an_empty_text(owner):
    made = _make(owner)
    assert made["cin"] is None
    url = f"/api/v1/properties/{made['id']}"
    assert owner.patch_json(url, {"cin": f"  {CIN} "}).json["data"]["cin"] == CIN
    assert owner.patch_json(url, {"cin": None}).json["data"]["cin"] is None
    owner.patch_json(url, {"cin": CIN})
    assert owner.patch_json(url, {"cin": "   "}).json["data"]["cin"] is None


def test_a_cin_of_any_format_is_kept_as_text_because_the_format_is_unconfirmed(owner):
    for typed in ("058091-CNI-00042", "IT-123 abc", "0"):
        assert _make(owner, cin=typed)["cin"] == typed


def test_a_cin_too_long_or_with_a_control_character_or_not_text_is_refused(owner):
    made = _make(owner)
    url = f"/api/v1/properties/{made['id']}"
    for bad in ("X" * 41, "IT05\n8091", 12345):
        error = assert_error(owner.patch_json(url, {"cin": bad}, status=400), 400,
                             "VALIDATION_ERROR")
        assert [detail["field"] for detail in error["details"]] == ["cin"], error
    assert owner.patch_json(url, {"cin": "X" * 40}).json["data"]["cin"] == "X" * 40


def test_a_cin_on_a_property_outside_italy_is_refused(owner):
    response = owner.post_json("/api/v1/properties", dict(ROMA, country="GR", cin=CIN), status=400)
    error = assert_error(response, 400, "VALIDATION_ERROR")
    assert error["details"] == [{"field": "cin", "message": (
        "is for Italian properties only (country IT); clear it (null) to move the property to "
        "another country")}]
    greek = owner.post_json("/api/v1/properties", dict(ROMA, country="GR"), status=201).json["data"]
    owner.patch_json(f"/api/v1/properties/{greek['id']}", {"cin": CIN}, status=400)
    assert owner.patch_json(f"/api/v1/properties/{greek['id']}",
                            {"cin": None}).json["data"]["cin"] is None


def test_an_italian_property_with_a_cin_moves_country_only_with_its_cin_cleared(owner):
    made = _make(owner, cin=CIN)
    url = f"/api/v1/properties/{made['id']}"
    error = assert_error(owner.patch_json(url, {"country": "GR", "timezone": "Europe/Athens"},
                                          status=400), 400, "VALIDATION_ERROR")
    assert error["details"][0]["field"] == "cin"
    moved = owner.patch_json(url, {"country": "GR", "timezone": "Europe/Athens",
                                   "cin": None}).json["data"]
    assert (moved["country"], moved["cin"]) == ("GR", None)


def test_the_openapi_document_declares_the_cin(owner):
    document = owner.get("/api/v1/openapi.json").json
    schema = document["components"]["schemas"]["Property"]
    assert schema["properties"]["cin"]["type"] == ["string", "null"]
    assert "cin" in schema["required"]
