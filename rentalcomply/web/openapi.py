"""The OpenAPI 3.1 document, generated from the route declarations themselves.

Every route registered through `Api` appears here with its scope, query parameters, body schema
(the same `Field` declarations that validate requests), success schema and the errors it can give;
capabilities add their response schemas with `schema(name, json_schema)`.
"""

from __future__ import annotations

import json
import re

from rentalcomply import __version__
from rentalcomply.core import errors as E

SCHEMAS: dict[str, dict] = {}


def schema(name: str, definition: dict) -> dict:
    """Register a named response schema (components/schemas/<name>)."""
    SCHEMAS[name] = definition
    return definition


def ref(name: str) -> dict:
    return {"$ref": f"#/components/schemas/{name}"}


def nullable(kind: str | list, **extra) -> dict:
    return {"type": [kind, "null"], **extra}


TIMESTAMP = {"type": "string", "format": "date-time", "examples": ["2026-11-22T09:15:00Z"]}
DATE = {"type": "string", "format": "date", "examples": ["2026-11-22"]}
NULLABLE_TIMESTAMP = {"type": ["string", "null"], "format": "date-time"}
VERSION = {"type": "integer", "minimum": 1, "examples": [3],
           "description": "Grows by one with every change of the resource: of two states (or two "
                          "events) of the same resource, the one with the higher version is the "
                          "newer."}

schema("Error", {
    "type": "object",
    "required": ["error"],
    "properties": {"error": {
        "type": "object",
        "required": ["code", "message", "request_id"],
        "properties": {
            "code": {"type": "string", "enum": sorted({cls.code for cls in E.ALL_ERRORS})},
            "message": {"type": "string"},
            "details": {"type": "array", "items": {
                "type": "object", "required": ["field", "message"],
                "properties": {"field": {"type": "string"}, "message": {"type": "string"}}}},
            "request_id": {"type": ["string", "null"]},
        },
    }},
})
schema("Pagination", {
    "type": "object",
    "required": ["page", "limit", "total", "has_more"],
    "properties": {"page": {"type": "integer", "minimum": 1}, "limit": {"type": "integer"},
                   "total": {"type": "integer", "minimum": 0}, "has_more": {"type": "boolean"}},
})
schema("Health", {
    "type": "object", "required": ["status", "version", "https"],
    "properties": {"status": {"type": "string", "enum": ["ok"]}, "version": {"type": "string"},
                   "https": {"type": "boolean",
                             "description": "Whether this request reached the server as HTTPS: "
                                            "TLS of its own, or X-Forwarded-Proto: https from a "
                                            "trusted proxy (what `doctor` checks through the "
                                            "public URL)."}},
})

RATE_HEADERS = {
    "RateLimit-Limit": {"description": "Requests allowed per rolling minute.", "schema": {"type": "integer"}},
    "RateLimit-Remaining": {"description": "Requests left in the current window.", "schema": {"type": "integer"}},
    "RateLimit-Reset": {"description": "Seconds until the oldest counted request leaves the window.", "schema": {"type": "integer"}},
    "X-Request-Id": {"description": "This request's id; quote it when reporting a problem.", "schema": {"type": "string"}},
}


def _openapi_path(bottle_path: str) -> tuple[str, list[str]]:
    names = re.findall(r"<([a-zA-Z_][a-zA-Z0-9_]*)(?::[^>]*)?>", bottle_path)
    return re.sub(r"<([a-zA-Z_][a-zA-Z0-9_]*)(?::[^>]*)?>", r"{\1}", bottle_path), names


def _error_responses(route) -> dict[str, dict]:
    possible: list[type[E.ApiError]] = []
    if not route.public:
        possible += [E.Unauthenticated, E.InvalidApiKey, E.RateLimited]
        if route.scope:
            possible.append(E.InsufficientScope)
    if route.path != "/healthz":
        possible.append(E.HttpsRequired)
    # Every route refuses unknown query parameters, so every route can answer 400.
    possible.append(E.ValidationError)
    if route.method in ("POST", "PATCH"):
        possible += [E.InvalidJson, E.PayloadTooLarge, E.UnsupportedMediaType]
    if "<" in route.path or getattr(route, "shown_once", None):  # a replay of a resource gone
        possible.append(E.NotFound)
    if route.method == "POST":
        possible.append(E.IdempotencyConflict)
    possible += list(route.errors)
    possible.append(E.ServiceUnavailable)
    by_status: dict[int, list[str]] = {}
    for cls in possible:
        codes = by_status.setdefault(cls.status, [])
        if cls.code not in codes:
            codes.append(cls.code)
    responses = {}
    for status, codes in sorted(by_status.items()):
        responses[str(status)] = {
            "description": "Error: " + ", ".join(codes),
            "content": {"application/json": {"schema": ref("Error")}},
        }
        if status in ERROR_HEADERS:
            responses[str(status)]["headers"] = ERROR_HEADERS[status]
    return responses


ERROR_HEADERS = {
    413: {"Connection": {"description": "`close` when the body was refused before it was read "
                                        "(its declared or received length passed the limit): "
                                        "the server reads and discards up to 8 MiB of it so the "
                                        "client can read this answer, then closes.",
                         "schema": {"type": "string", "enum": ["close"]}}},
    401: {"WWW-Authenticate": {"description": "`Bearer realm=\"rentalcomply\"`.",
                               "schema": {"type": "string"}}},
    429: {"Retry-After": {"description": "Seconds to wait before the next request is allowed.",
                          "schema": {"type": "integer", "minimum": 1}}},
    503: {"Retry-After": {"description": "Seconds to wait before retrying.",
                          "schema": {"type": "integer", "minimum": 1}}},
}


def _success_schema(route) -> dict | None:
    if route.response is None:
        return None
    data = ref(route.response) if isinstance(route.response, str) else route.response
    if route.paginated:
        data = {"type": "array", "items": data}
    document = {"type": "object", "required": ["data"], "properties": {"data": data}}
    if route.paginated:
        document["required"].append("pagination")
        # `paginated` may name the list's own pagination schema (the filings' cursor).
        document["properties"]["pagination"] = ref(
            route.paginated if isinstance(route.paginated, str) else "Pagination")
    return document


def _operation(route, path_params: list[str]) -> dict:
    operation: dict = {
        "operationId": route.handler.__name__,
        "summary": route.summary,
        "tags": list(route.tags) or ["service"],
    }
    description = route.description
    if route.scope:
        description = (description + "\n\n" if description else "") + f"Scope: `{route.scope}`."
        operation["x-scope"] = route.scope
    if description:
        operation["description"] = description
    operation["security"] = [] if route.public else [{"bearerAuth": []}]
    parameters = [{"name": name, "in": "path", "required": True, "schema": {"type": "string"}}
                  for name in path_params]
    for name, field in route.query.items():
        parameters.append({"name": name, "in": "query", "required": field.required,
                           "schema": field.json_schema(),
                           **({"description": field.description} if field.description else {})})
    if route.method == "POST":
        parameters.append({"name": "Idempotency-Key", "in": "header", "required": False,
                           "description": "Retry-safe key: the same key and body return the first response "
                                          "(24 h), marked with the header Idempotent-Replayed: true. "
                                          "The first response is kept sealed; a secret or link "
                                          "it showed is not kept at all, and its replay says so "
                                          "in Idempotent-Withheld.",
                           "schema": {"type": "string", "minLength": 1, "maxLength": 255,
                                      "pattern": "^[\\x21-\\x7e]+$"}})
    if parameters:
        operation["parameters"] = parameters
    if getattr(route, "file_types", ()):
        # A file as the body: one named binary schema, referenced from each media type.
        operation["requestBody"] = {"required": True, "content": {
            media: {"schema": ref(body_schema_name(route))} for media in route.file_types}}
    if route.body is not None:
        # One named schema per body, referenced from each media type: code generators make one
        # model of it (an inline schema under two media types became two models).
        media = ["application/json"] + (["application/merge-patch+json"] if route.method == "PATCH" else [])
        # An empty body is refused wherever a body is declared (`{}` is the empty change), unless
        # the route declares it optional (POST /bookings/{id}/cancel).
        operation["requestBody"] = {"required": not route.optional_body, "content": {
            m: {"schema": ref(body_schema_name(route))} for m in media}}
    success: dict = {"description": route.summary}
    success_schema = _success_schema(route)
    if success_schema is not None:
        success["content"] = {route.content_type: {"schema": success_schema}}
    elif route.content_type != "application/json" or route.path.endswith("openapi.json"):
        success["content"] = {route.content_type: {"schema": {}}}
        if not route.content_type.startswith(("text/", "application/json")):
            # A file (PDF, XML) is bytes to a client. It is served with its own type; listing
            # application/octet-stream beside it lets code generators that know only that one
            # (openapi-python-client) type the answer as bytes instead of dropping it.
            binary = {"schema": {"type": "string", "format": "binary"}}
            success["content"] = {route.content_type: binary, "application/octet-stream": binary}
    if not route.public:
        success["headers"] = dict(RATE_HEADERS)
    if route.status == 201:
        success.setdefault("headers", {})["Location"] = {
            "description": "Path of the created resource, where it has one of its own.",
            "schema": {"type": "string"}}
    if route.method == "POST":
        success.setdefault("headers", {})["Idempotent-Replayed"] = {
            "description": "true when this is the stored first response to the same Idempotency-Key.",
            "schema": {"type": "string", "enum": ["true"]}}
    if getattr(route, "shown_once", None):
        success["headers"]["Idempotent-Withheld"] = {
            "description": "In a replay to the same Idempotency-Key: the fields shown only in the "
                           "first response, null here (`" + ", ".join(route.shown_once.fields)
                           + "`). A replay once the resource is gone is 404.",
            "schema": {"type": "string"}}
    if getattr(route, "cached", False):
        success.setdefault("headers", {})["ETag"] = {
            "description": "The answer's entity tag: send it back in `If-None-Match` to get 304 "
                           "while the answer is unchanged.",
            "schema": {"type": "string"}}
    responses = {str(route.status): success}
    if route.conditional:
        responses["304"] = {"description": "Not Modified: the `If-None-Match` ETag is current."}
    responses.update(_error_responses(route))
    operation["responses"] = responses
    return operation


def body_schema_name(route) -> str:
    """`update_booking` -> `UpdateBookingRequest`: the component schema of a route's body."""
    return "".join(part.capitalize() for part in route.handler.__name__.split("_")) + "Request"


def _body_schema(route) -> dict:
    body_schema = {
        "type": "object",
        "properties": {name: field.json_schema() for name, field in route.body.items()},
        "additionalProperties": False,
    }
    required = [name for name, field in route.body.items() if field.required]
    if required and route.method != "PATCH":
        body_schema["required"] = required
    if route.method == "PATCH":
        body_schema["description"] = ("A JSON merge patch: only the fields sent change; null "
                                      "clears a nullable field.")
    return body_schema


def request_schemas(api) -> dict[str, dict]:
    """The named schemas of request bodies, and the enums their fields and queries name."""
    found: dict[str, dict] = {}
    for route in api.routes:
        for field in [*route.query.values(), *(route.body or {}).values()]:
            found.update(field.component_schemas())
        if getattr(route, "file_types", ()):
            found[body_schema_name(route)] = {"type": "string", "format": "binary",
                                              "description": "The file itself, as the body."}
        if route.body is not None:
            name = body_schema_name(route)
            if name in found or name in SCHEMAS:
                raise ValueError(f"two request bodies would be named {name}")
            found[name] = _body_schema(route)
    return found


def build_document(api) -> dict:
    paths: dict[str, dict] = {}
    for route in api.routes:
        path, params = _openapi_path(route.path)
        paths.setdefault(path, {})[route.method.lower()] = _operation(route, params)
    return {
        "openapi": "3.1.0",
        "info": {
            "title": "RentalComply API",
            "version": __version__,
            "description": (
                "Check-in, police reporting and Greek tax (AADE) reports for short-term rentals. "
                "Every response is JSON; successes wrap their content in `data`, errors in "
                "`error` with `code`, `message`, optional `details` and `request_id`. "
                "Authenticate with `Authorization: Bearer rc_...`. 100 requests per rolling "
                "minute per key."),
        },
        "servers": [{"url": api.settings.server.public_url}],
        "paths": paths,
        "components": {
            "schemas": dict(sorted({**request_schemas(api), **SCHEMAS}.items())),
            "securitySchemes": {"bearerAuth": {"type": "http", "scheme": "bearer",
                                               "description": "API key: rc_ followed by 40 characters."}},
        },
    }


_cache: dict[int, bytes] = {}


def document_bytes(api) -> bytes:
    key = id(api)
    if key not in _cache:
        _cache[key] = json.dumps(build_document(api), indent=2, ensure_ascii=False).encode("utf-8")
    return _cache[key]
