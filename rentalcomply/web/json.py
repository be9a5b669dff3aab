"""JSON in one place: compact, UTF-8, and the shared error shape."""

from __future__ import annotations

import json as _json

from rentalcomply.core.errors import ApiError


def dumps(value) -> bytes:
    # A lone surrogate (a string from "\\ud800" in a request, named back in an error) has no
    # UTF-8 form; "backslashreplace" writes it as the JSON escape \\ud800 it came as, so that
    # rendering an answer can never fail on such text.
    return _json.dumps(value, separators=(",", ":"), ensure_ascii=False).encode(
        "utf-8", "backslashreplace")


def error_document(error: ApiError, request_id: str | None) -> dict:
    body = {"code": error.code, "message": error.message}
    if error.details:
        body["details"] = error.details
    body["request_id"] = request_id
    return {"error": body}


def error_body(error: ApiError, request_id: str | None) -> bytes:
    return dumps(error_document(error, request_id))
