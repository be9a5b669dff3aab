"""Stray bytes in a request: control characters in text, a key twice in a JSON body, a query
parameter twice. Each is refused with 400 VALIDATION_ERROR naming the field, by one rule that
the OpenAPI document states too (core/checks.py)."""

import json
import re
import socket

import pytest

from rentalcomply.core.models import Booking, Property
from rentalcomply.properties import service as properties
from rentalcomply.web.openapi import build_document
from tests.conftest import days_ahead
from tests.helpers import assert_error
from tests.serverutil import running_server

UNIT_SEPARATOR = "\u001f"


def fields_of(response) -> set[str]:
    return {detail["field"] for detail in assert_error(response, 400, "VALIDATION_ERROR")["details"]}


@pytest.fixture
def villa(owner):
    return properties.create_property(owner.account_id, name="Villa", address="Oia")


def booking_body(villa, **change):
    return {"property_id": villa.id, "guest_name": "Maria", "arrival_date": days_ahead(200),
            "departure_date": days_ahead(204), "guest_count": 2, **change}


# --- control characters -------------------------------------------------------------------------

@pytest.mark.parametrize("field", ["name", "address", "aade_property_id"])
def test_a_property_text_with_a_control_character_is_refused_naming_the_field(owner, field):
    body = {"name": "Villa", "address": "Oia", field: f"Vil{UNIT_SEPARATOR}la"}
    response = owner.post_json("/api/v1/properties", body, status=400)
    assert fields_of(response) == {field}
    assert "U+001F" in response.json["error"]["details"][0]["message"]
    assert Property.select().count() == 0


def test_a_property_name_is_one_line(owner, villa):
    response = owner.patch_json(f"/api/v1/properties/{villa.id}", {"name": "Villa\nOia"}, status=400)
    assert fields_of(response) == {"name"}
    assert properties.get_property(owner.account_id, villa.id).name == "Villa"


@pytest.mark.parametrize("value", [f"Ma{UNIT_SEPARATOR}ria", "Maria\u0001", "Maria\n",
                                   "\tMaria", "Ma\rria"])
def test_a_guest_name_with_a_control_character_is_refused(owner, villa, value):
    response = owner.post_json("/api/v1/bookings", booking_body(villa, guest_name=value), status=400)
    assert fields_of(response) == {"guest_name"}
    assert Booking.select().count() == 0


def test_a_booking_update_is_refused_the_same_way(owner, villa):
    booking = owner.post_json("/api/v1/bookings", booking_body(villa)).json["data"]
    response = owner.patch_json(f"/api/v1/bookings/{booking['id']}",
                                {"guest_phone": f"+30 690{UNIT_SEPARATOR}000"}, status=400)
    assert fields_of(response) == {"guest_phone"}


def test_a_note_may_hold_line_breaks_and_tabs_but_no_other_control_character(hooker):
    note = "Feeds the cleaning rota.\r\nOwner: Anna\tback office"
    created = hooker.post_json("/api/v1/webhooks", {"url": "https://hooks.example.org/in",
                                                    "events": ["*"], "description": note},
                               status=201).json["data"]
    shown = hooker.get(f"/api/v1/webhooks/{created['id']}").json["data"]
    assert shown["description"] == note
    response = hooker.patch_json(f"/api/v1/webhooks/{created['id']}",
                                 {"description": f"rota{UNIT_SEPARATOR}"}, status=400)
    assert fields_of(response) == {"description"}


def test_a_query_value_with_a_control_character_is_refused(owner):
    response = owner.get("/api/v1/bookings?property_id=prop_x%1f", status=400)
    assert fields_of(response) == {"property_id"}


def test_the_service_refuses_what_the_api_refuses(owner):
    from rentalcomply.core.errors import ValidationError
    with pytest.raises(ValidationError) as refused:
        properties.create_property(owner.account_id, name=f"Villa{UNIT_SEPARATOR}", address="Oia")
    assert refused.value.details[0]["field"] == "name"


def test_the_rule_is_stated_in_the_document_as_patterns(wsgi_app):
    schemas = build_document(wsgi_app.api)["components"]["schemas"]
    one_line = re.compile(schemas["CreateBookingRequest"]["properties"]["guest_name"]["pattern"])
    assert one_line.search("Νίκος Παπαδόπουλος")
    for refused in ("Ni\x00kos", f"Ni{UNIT_SEPARATOR}kos", "Nikos\n", "Ni\tkos"):
        assert not one_line.search(refused), repr(refused)
    assert schemas["CreatePropertyRequest"]["properties"]["address"]["pattern"] == one_line.pattern
    note = re.compile(schemas["CreateWebhookRequest"]["properties"]["description"]["pattern"])
    assert note.search("line one\r\nline two\tend") and not note.search(f"x{UNIT_SEPARATOR}")
    guest = re.compile(schemas["GuestInput"]["properties"]["first_name"]["pattern"])
    assert not guest.search(f"Ma{UNIT_SEPARATOR}ria")


# --- duplicate keys and repeated parameters -------------------------------------------------------

def test_a_key_twice_in_a_json_body_is_refused_naming_it(owner, villa):
    body = (b'{"property_id": "%s", "guest_name": "Maria", "guest_name": "Eve", '
            b'"arrival_date": "%s", "departure_date": "%s", "guest_count": 2}'
            % (villa.id.encode(), days_ahead(200).encode(), days_ahead(204).encode()))
    response = owner.post("/api/v1/bookings", body, content_type="application/json", status=400)
    assert fields_of(response) == {"guest_name"}
    assert "more than once" in response.json["error"]["details"][0]["message"]
    assert Booking.select().count() == 0


def test_a_key_twice_in_a_nested_object_is_refused_too(owner, villa):
    body = b'{"police_settings": {"apartment_id": "1", "apartment_id": "2"}}'
    response = owner.patch(f"/api/v1/properties/{villa.id}", body,
                           content_type="application/json", status=400)
    assert fields_of(response) == {"apartment_id"}


def test_a_query_parameter_twice_is_refused_naming_it(owner):
    response = owner.get("/api/v1/bookings?limit=1&limit=2", status=400)
    assert fields_of(response) == {"limit"}
    assert owner.get("/api/v1/bookings?limit=1&page=1").json["pagination"]["limit"] == 1


# --- whatever the bytes, an answer in the shared shape ---------------------------------------------

def raw_exchange(port: int, request: bytes) -> tuple[int, bytes, bytes]:
    with socket.create_connection(("127.0.0.1", port), timeout=10) as sock:
        sock.sendall(request)
        received = b""
        while chunk := sock.recv(65536):
            received += chunk
    head, _, body = received.partition(b"\r\n\r\n")
    return int(head.split(b" ", 2)[1]), head, body


@pytest.mark.parametrize("request_line, body, status", [
    (b"GET /api/v1/bookings/%ff%fe", b"", 404),
    (b"GET /api/v1/bookings/book_%0d%0aX-Injected:%201", b"", 404),
    (b"GET /api/v1/bookings?limit=%ff", b"", 400),
    (b"GET /api/v1/bookings?guest%00=1", b"", 400),
    (b"GET /api/v1/bookings?property_id=%0d%0aX-Injected:%201", b"", 400),
    (b"GET /api/v1/bookings?limit=1&limit=2", b"", 400),
    (b"POST /api/v1/properties", b'{"name": "a", "name": "b", "address": "Oia"}', 400),
    (b"POST /api/v1/properties", b'{"name": "a\\u001fb", "address": "Oia"}', 400),
    (b"POST /api/v1/properties", b'{"name": "\xff\xfe", "address": "Oia"}', 400),
])
def test_every_request_whatever_its_bytes_gets_the_shared_error_shape(wsgi_app, owner, request_line,
                                                                      body, status):
    with running_server(wsgi_app) as server:
        sent = (request_line + b" HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n"
                b"Authorization: Bearer " + owner.key.encode() + b"\r\n"
                b"Content-Type: application/json\r\nIdempotency-Key: \xff\xfe\r\n"
                b"Content-Length: " + str(len(body)).encode() + b"\r\n\r\n" + body)
        got, head, answer = raw_exchange(server.port, sent)
    assert got == status, answer
    assert b"X-Injected" not in head
    error = json.loads(answer)["error"]
    assert error["code"] and error["request_id"] and "Traceback" not in error["message"]


def test_a_dashboard_path_with_a_line_break_is_answered_without_one(wsgi_app):
    with running_server(wsgi_app) as server:
        got, head, _ = raw_exchange(server.port, b"GET /dashboard/x%0d%0aSet-Cookie:%20a=1 "
                                                 b"HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n")
    assert got == 404  # no route's pattern spans a line break
    assert not any(line.lower().startswith(b"set-cookie: a=1") for line in head.split(b"\r\n"))
