"""The published OpenAPI document covers every route the server answers."""

import json

import pytest

from rentalcomply.web.openapi import build_document

from tests.conftest import days_ahead


def test_the_document_is_public_and_openapi_3_1(anonymous):
    document = anonymous.get("/api/v1/openapi.json").json
    assert document["openapi"].startswith("3.1")
    assert document["components"]["securitySchemes"]["bearerAuth"]["scheme"] == "bearer"


def test_every_route_of_the_app_is_in_the_document(wsgi_app):
    """Every route but the pages for people (declared with `page=True`: HTML and their assets)."""
    document = build_document(wsgi_app.api)
    documented = {(method.upper(), path) for path, item in document["paths"].items()
                  for method in item}
    for route in wsgi_app.bottle_app.routes:
        if route.config.get("page"):
            assert not route.rule.startswith("/api/"), f"{route.rule}: a page inside the API"
            continue
        path = route.rule.replace("<", "{").replace(">", "}")
        assert (route.method, path) in documented, f"{route.method} {route.rule} is not documented"


def test_every_operation_documents_its_errors_and_scope(wsgi_app):
    document = build_document(wsgi_app.api)
    for path, item in document["paths"].items():
        for method, operation in item.items():
            assert operation["summary"], f"{method} {path} has no summary"
            if operation["security"]:
                assert {"401", "429"} <= set(operation["responses"]), f"{method} {path}"
                assert "x-scope" in operation, f"{method} {path} names no scope"


def test_the_document_is_valid_json_schema_for_openapi(wsgi_app):
    from jsonschema import Draft202012Validator
    document = build_document(wsgi_app.api)
    for name, schema in document["components"]["schemas"].items():
        Draft202012Validator.check_schema(schema)
    json.dumps(document)


def test_request_bodies_are_named_schemas_referenced_by_every_media_type(wsgi_app):
    document = build_document(wsgi_app.api)
    patch = document["paths"]["/api/v1/bookings/{booking_id}"]["patch"]["requestBody"]["content"]
    assert set(patch) == {"application/json", "application/merge-patch+json"}
    assert {media["schema"]["$ref"] for media in patch.values()} == \
        {"#/components/schemas/UpdateBookingRequest"}
    for path, item in document["paths"].items():
        for method, operation in item.items():
            for media in operation.get("requestBody", {}).get("content", {}).values():
                assert set(media["schema"]) == {"$ref"}, f"{method} {path}"


def test_nullable_enums_are_a_named_enum_or_null(wsgi_app):
    schemas = build_document(wsgi_app.api)["components"]["schemas"]
    null_or_method = {"anyOf": [{"$ref": "#/components/schemas/PaymentMethod"}, {"type": "null"}]}
    assert schemas["Booking"]["properties"]["payment_method"] == null_or_method
    assert schemas["UpdateBookingRequest"]["properties"]["payment_method"] == null_or_method
    assert schemas["Booking"]["properties"]["source"]["anyOf"][0] == \
        {"$ref": "#/components/schemas/BookingSource"}
    assert schemas["PaymentMethod"] == {"type": "string",
                                        "enum": ["platform", "bank_transfer", "cash", "card"]}


def test_the_rules_the_validation_enforces_are_stated_in_the_schemas(wsgi_app):
    import re
    schemas = build_document(wsgi_app.api)["components"]["schemas"]
    booking = schemas["CreateBookingRequest"]["properties"]
    window = re.compile(booking["arrival_date"]["pattern"])
    assert window.match("2000-01-01") and window.match("2099-12-31")
    assert not window.match("1999-12-31") and not window.match("2100-01-01")
    assert booking["departure_date"]["pattern"] == booking["arrival_date"]["pattern"]
    assert booking["total_price"]["multipleOf"] == 0.01
    no_nul = re.compile(booking["guest_name"]["pattern"])
    assert no_nul.match("Νίκος Παπαδόπουλος") and not no_nul.match("Ni\x00kos")
    assert schemas["UpdatePropertyRequest"]["properties"]["name"]["pattern"] == booking["guest_name"]["pattern"]


@pytest.mark.parametrize("change, field", [
    ({"arrival_date": "1999-12-31"}, "arrival_date"),
    ({"total_price": 10.001}, "total_price"),
    ({"guest_name": "Ni\x00kos"}, "guest_name"),
])
def test_the_documented_rules_are_the_ones_refused(owner, change, field):
    from rentalcomply.properties import service as properties
    villa = properties.create_property(owner.account_id, name="Villa", address="Oia")
    body = {"property_id": villa.id, "guest_name": "Maria", "arrival_date": days_ahead(200),
            "departure_date": days_ahead(204), "guest_count": 2, **change}
    response = owner.post_json("/api/v1/bookings", body, status=400)
    assert field in {detail["field"] for detail in response.json["error"]["details"]}
