"""Every response the tests provoke is checked against the published OpenAPI document.

The actors of conftest.py use `DocumentedTestApp`, so the whole suite doubles as a check that the
document tells the truth: each status an operation returns must be documented for it, and each
JSON body must match the documented schema.
"""

from __future__ import annotations

import json
import re

import jsonschema
import webtest

from rentalcomply.web import openapi


class DocumentChecker:
    def __init__(self, api):
        self.document = json.loads(openapi.document_bytes(api))
        self.operations = []
        for template, item in self.document["paths"].items():
            pattern = re.compile("^" + re.sub(r"\\\{[^}]+\\\}", "[^/]+", re.escape(template)) + "$")
            self.operations.append((pattern, item))

    def operation(self, method: str, path: str) -> dict | None:
        for pattern, item in self.operations:
            if pattern.match(path):
                return item.get(method.lower())
        return None

    def check(self, method: str, path: str, status: int, content_type: str, body: bytes) -> None:
        operation = self.operation(method, path)
        if operation is None:  # an unknown path (404) or method (405): nothing is documented
            return
        if status == 500:  # never documented: always a bug, and the tests that provoke it say so
            return
        responses = operation["responses"]
        documented = responses.get(str(status)) or responses.get("default")
        assert documented is not None, (
            f"{method} {path} answered {status}, which its OpenAPI operation does not document "
            f"(documented: {sorted(responses)}); body: {body[:300]!r}")
        media = (content_type or "").split(";")[0].strip()
        content = documented.get("content")
        if not content:
            assert not body, f"{method} {path} {status}: undocumented body {body[:200]!r}"
            return
        assert media in content, f"{method} {path} {status}: content type {media!r} not documented"
        schema = content[media].get("schema")
        if schema and media == "application/json":
            root = dict(schema)
            root["components"] = self.document["components"]
            try:
                jsonschema.validate(json.loads(body), root, cls=jsonschema.Draft202012Validator)
            except jsonschema.ValidationError as exc:
                raise AssertionError(f"{method} {path} {status}: body does not match the document: "
                                     f"{exc.message} at {list(exc.absolute_path)}") from None


class DocumentedTestApp(webtest.TestApp):
    checker: DocumentChecker | None = None

    def do_request(self, req, status=None, expect_errors=None):
        response = super().do_request(req, status=status, expect_errors=expect_errors)
        if self.checker is not None:
            self.checker.check(req.method, req.path_info, response.status_int,
                               response.headers.get("Content-Type", ""), response.body)
        return response
