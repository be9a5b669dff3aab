"""The published OpenAPI document covers every route the server answers."""

import json

from rentalcomply.web.openapi import build_document


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
