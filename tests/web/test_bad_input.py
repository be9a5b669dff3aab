"""Bad input is a 4xx, never a 5xx: lone surrogates in JSON bodies."""

import json

import pytest

from rentalcomply.properties import service as properties
from rentalcomply.web.json import dumps
from tests.helpers import assert_error


@pytest.fixture
def villa(owner):
    return properties.create_property(owner.account_id, name="Villa", address="Oia")


# JSON's grammar accepts "\ud800" on its own, but it is no Unicode character.
@pytest.mark.parametrize("body, field", [(r'{"\ud800": 1}', r"\ud800"),
                                         (r'{"x\uDFFFy": true}', r"x\udfffy")])
@pytest.mark.parametrize("method, path", [
    ("POST", "/api/v1/properties"), ("PATCH", "/api/v1/properties/{villa}"),
    ("POST", "/api/v1/bookings"), ("PATCH", "/api/v1/bookings/book_nothing"),
    ("POST", "/api/v1/properties/{villa}/channels"), ("POST", "/api/v1/webhooks"),
    ("PATCH", "/api/v1/webhooks/wh_nothing"), ("POST", "/api/v1/bookings/book_nothing/cancel"),
])
def test_a_lone_surrogate_key_is_named_in_a_400_on_every_route(owner, villa, method, path,
                                                               body, field):
    content_type = "application/merge-patch+json" if method == "PATCH" else "application/json"
    send = owner.patch if method == "PATCH" else owner.post
    response = send(path.format(villa=villa.id), body.encode("ascii"), content_type=content_type,
                    status=400)
    error = assert_error(response, 400, "VALIDATION_ERROR")
    assert {"field": field, "message": "is not a known field"} in error["details"]
    json.loads(response.body.decode("utf-8"))  # strict UTF-8: no surrogate in the answer


def test_a_lone_surrogate_value_is_named_in_a_400(owner):
    response = owner.post("/api/v1/properties", rb'{"name": "\ud800", "address": "Oia"}',
                          content_type="application/json", status=400)
    error = assert_error(response, 400, "VALIDATION_ERROR")
    assert error["details"] == [{"field": "name", "message": "must be valid Unicode text"}]


def test_a_surrogate_pair_is_a_character_and_welcome(owner):
    response = owner.post("/api/v1/properties",
                          r'{"name": "Villa \ud83c\udf0a", "address": "Oia"}'.encode("ascii"),
                          content_type="application/json", status=201)
    assert response.json["data"]["name"] == "Villa \U0001F30A"


def test_an_error_naming_a_lone_surrogate_still_renders():
    assert dumps({"field": "\ud800", "ok": "é"}) == b'{"field":"\\ud800","ok":"\xc3\xa9"}'
