"""Declarative request validation that is also the OpenAPI description of the same fields.

A route declares `query={...}` and `body={...}` as dicts of `Field`; the web layer validates every
request against them (all problems at once, one `details` entry per field; unknown fields refused)
and the OpenAPI generator turns the same declarations into parameters and request schemas, so the
document cannot drift from what the code accepts.
"""

from __future__ import annotations

import datetime as dt
import math
import re
from typing import Any

from rentalcomply.core.checks import (EMAIL_RE, MULTI_LINE_PATTERN, SINGLE_LINE_PATTERN,
                                      control_character_problem)
from rentalcomply.core.errors import ValidationError

MISSING = object()
# Bounds applied when a declaration sets none, so no value can overflow a database column:
# integers within what JSON numbers carry exactly, strings within what any column holds.
DEFAULT_INTEGER_LIMIT = 2**53
DEFAULT_MAX_LENGTH = 10_000
DATE_RE = re.compile(r"^\d{4}-\d{2}-\d{2}$")
# What every text field refuses, stated in the document as a pattern: control characters (the
# rule and its reasons live in core/checks.py; a `multiline` field may hold line breaks and tabs).
TEXT_PATTERN = SINGLE_LINE_PATTERN


def component_ref(name: str) -> dict:
    return {"$ref": f"#/components/schemas/{name}"}


class Field:
    """One request field. `kind`: string, integer, number, boolean, date, email, url, array,
    string_map (an object of names and string-or-null values, at most `max_items` names)."""

    def __init__(self, kind: str, *, required: bool = False, nullable: bool = False,
                 choices: tuple | list | None = None, minimum: float | None = None,
                 maximum: float | None = None, max_length: int | None = None,
                 min_length: int | None = None, items: "Field | None" = None,
                 max_items: int | None = None, min_items: int | None = None, pattern: str | None = None,
                 default: Any = MISSING, description: str = "", example: Any = MISSING,
                 enum_name: str | None = None, multiple_of: float | None = None,
                 schema_pattern: str | None = None, multiline: bool = False,
                 names: tuple | None = None):
        """`enum_name`: the component schema that names the choices (a nullable enum is then
        `anyOf: [{$ref}, {type: null}]`, one class in generated clients). `multiple_of` and
        `schema_pattern` only state in the document a rule the service checks (cents, the date
        window); `pattern` is checked here too. `multiline`: a free-text note, which may hold
        line breaks and tabs; every other text refuses all control characters. `names`: the only
        names a string_map may hold (stated in the document as `propertyNames`)."""
        self.kind = kind
        self.required = required
        self.nullable = nullable
        self.choices = tuple(choices) if choices else None
        self.minimum = minimum
        self.maximum = maximum
        self.max_length = max_length
        self.min_length = min_length if min_length is not None else (1 if kind in ("string", "email", "url") and required else None)
        self.items = items
        self.max_items = max_items
        self.min_items = min_items
        self.pattern = re.compile(pattern) if pattern else None
        self.default = default
        self.description = description
        self.example = example
        self.enum_name = enum_name
        self.multiple_of = multiple_of
        self.schema_pattern = schema_pattern
        self.multiline = multiline
        self.names = tuple(names) if names else None

    # -- parsing ---------------------------------------------------------------------------------

    def parse(self, value: Any, from_query: bool = False) -> Any:
        """Return the cleaned value or raise ValueError with a message for the client."""
        if value is None:
            if self.nullable:
                return None
            raise ValueError("must not be null")
        kind = self.kind
        if kind in ("string", "email", "url"):
            if not isinstance(value, str):
                raise ValueError("must be a string")
            # Judged before trimming, as the document's pattern judges the value sent.
            problem = control_character_problem(value, multiline=self.multiline)
            if problem:
                raise ValueError(problem)
            value = value.strip()
            try:
                value.encode("utf-8")
            except UnicodeEncodeError:  # lone surrogates ("\ud800") are valid JSON, not text
                raise ValueError("must be valid Unicode text") from None
            if self.max_length is None and len(value) > DEFAULT_MAX_LENGTH:
                raise ValueError(f"must be at most {DEFAULT_MAX_LENGTH} characters")
            if self.min_length is not None and len(value) < self.min_length:
                raise ValueError("must not be empty" if self.min_length == 1 else
                                 f"must be at least {self.min_length} characters")
            if self.max_length is not None and len(value) > self.max_length:
                raise ValueError(f"must be at most {self.max_length} characters")
            if kind == "email" and not EMAIL_RE.match(value):
                raise ValueError("must be an e-mail address like name@example.com")
            if self.pattern and not self.pattern.match(value):
                raise ValueError("has the wrong format")
        elif kind == "integer":
            if from_query and isinstance(value, str):
                if not re.fullmatch(r"-?\d{1,18}", value.strip()):
                    raise ValueError("must be a whole number")
                value = int(value)
            if isinstance(value, bool) or not isinstance(value, int):
                if isinstance(value, float) and value.is_integer() and not from_query:
                    value = int(value)
                else:
                    raise ValueError("must be a whole number")
            if abs(value) > DEFAULT_INTEGER_LIMIT:
                raise ValueError("is too large")
        elif kind == "number":
            if from_query and isinstance(value, str):
                try:
                    value = float(value)
                except ValueError:
                    raise ValueError("must be a number") from None
            if isinstance(value, bool) or not isinstance(value, (int, float)) or not math.isfinite(value):
                raise ValueError("must be a number")
            if abs(value) > DEFAULT_INTEGER_LIMIT:
                raise ValueError("is too large")
        elif kind == "boolean":
            if from_query and isinstance(value, str) and value in ("true", "false"):
                value = value == "true"
            if not isinstance(value, bool):
                raise ValueError("must be true or false")
        elif kind == "date":
            if not isinstance(value, str) or not DATE_RE.match(value):
                raise ValueError("must be a date in the form YYYY-MM-DD")
            try:
                value = dt.date.fromisoformat(value)
            except ValueError:
                raise ValueError("is not a real calendar date") from None
        elif kind == "array":
            if not isinstance(value, list):
                raise ValueError("must be an array")
            if self.max_items is not None and len(value) > self.max_items:
                raise ValueError(f"must have at most {self.max_items} items")
            if self.min_items is not None and len(value) < self.min_items:
                raise ValueError("must have at least one item" if self.min_items == 1
                                 else f"must have at least {self.min_items} items")
            if self.items is not None:
                cleaned = []
                for index, item in enumerate(value):
                    try:
                        cleaned.append(self.items.parse(item))
                    except ValueError as exc:
                        raise ValueError(f"item {index} {exc}") from None
                value = cleaned
        elif kind == "string_map":
            if not isinstance(value, dict):
                raise ValueError("must be an object of names and string values")
            if self.max_items is not None and len(value) > self.max_items:
                raise ValueError(f"must have at most {self.max_items} names")
            limit = self.max_length or DEFAULT_MAX_LENGTH
            unknown = [name for name in value if self.names and name not in self.names]
            if unknown:
                raise ValueError(f"{printable_name(unknown[0])[:64]} is not one of: "
                                 + ", ".join(self.names))
            for name, item in value.items():
                if item is not None and (not isinstance(item, str) or len(item) > limit):
                    raise ValueError(f"{printable_name(name)[:64]} must be a string of at most "
                                     f"{limit} characters, or null")
                problem = item is not None and control_character_problem(
                    item, multiline=self.multiline)
                if problem:
                    raise ValueError(f"{printable_name(name)[:64]} {problem}")
        else:  # pragma: no cover - a programming error in a route declaration
            raise AssertionError(f"unknown field kind {kind}")
        if self.choices is not None and value not in self.choices:
            raise ValueError("must be one of: " + ", ".join(str(c) for c in self.choices))
        if self.minimum is not None and value < self.minimum:
            raise ValueError(f"must be at least {self.minimum}")
        if self.maximum is not None and value > self.maximum:
            raise ValueError(f"must be at most {self.maximum}")
        return value

    # -- OpenAPI ---------------------------------------------------------------------------------

    def json_schema(self) -> dict:
        kind_map = {
            "string": {"type": "string"},
            "email": {"type": "string", "format": "email"},
            "url": {"type": "string", "format": "uri"},
            "integer": {"type": "integer"},
            "number": {"type": "number"},
            "boolean": {"type": "boolean"},
            "date": {"type": "string", "format": "date"},
            "array": {"type": "array"},
            "string_map": {"type": "object"},
        }
        schema = dict(kind_map[self.kind])
        if self.choices is not None:
            choices = component_ref(self.enum_name) if self.enum_name else \
                {**schema, "enum": list(self.choices)}
            schema = {"anyOf": [choices, {"type": "null"}]} if self.nullable else choices
        elif self.nullable:
            schema["type"] = [schema["type"], "null"]
        if self.multiple_of is not None:
            schema["multipleOf"] = self.multiple_of
        if self.minimum is not None:
            schema["minimum"] = self.minimum
        if self.maximum is not None:
            schema["maximum"] = self.maximum
        if self.kind == "string_map":
            schema["additionalProperties"] = {"type": ["string", "null"],
                                              "maxLength": self.max_length or DEFAULT_MAX_LENGTH,
                                              "pattern": MULTI_LINE_PATTERN if self.multiline
                                              else TEXT_PATTERN}
            if self.names:
                schema["propertyNames"] = {"enum": list(self.names)}
            if self.max_items is not None:
                schema["maxProperties"] = self.max_items
        elif self.max_length is not None:
            schema["maxLength"] = self.max_length
        if self.min_length is not None:
            schema["minLength"] = self.min_length
        if self.pattern is not None:
            schema["pattern"] = self.pattern.pattern
        elif self.schema_pattern is not None:
            schema["pattern"] = self.schema_pattern
        elif self.kind in ("string", "url", "email") and self.choices is None:
            schema["pattern"] = MULTI_LINE_PATTERN if self.multiline else TEXT_PATTERN
        if self.items is not None:
            schema["items"] = self.items.json_schema()
        if self.max_items is not None and self.kind != "string_map":
            schema["maxItems"] = self.max_items
        if self.min_items is not None:
            schema["minItems"] = self.min_items
        if self.default is not MISSING:
            schema["default"] = self.default
        if self.description:
            schema["description"] = self.description
        if self.example is not MISSING:
            schema["examples"] = [self.example]
        return schema

    def component_schemas(self) -> dict[str, dict]:
        """The named schemas this field refers to (its enum, its items' enum)."""
        found = self.items.component_schemas() if self.items is not None else {}
        if self.enum_name and self.choices is not None:
            found[self.enum_name] = {"type": "string" if self.kind != "integer" else "integer",
                                     "enum": list(self.choices)}
        return found


def printable_name(name: str) -> str:
    """A field name as it can be shown: a lone surrogate ("\\ud800" in the JSON sent, valid JSON
    but no Unicode character) is written as that escape, so the error stays valid UTF-8."""
    return name.encode("utf-8", "backslashreplace").decode("utf-8")


def validate(values: dict, fields: dict[str, Field], from_query: bool = False,
             partial: bool = False) -> dict:
    """Check `values` against `fields`; return the cleaned values (defaults filled unless partial).

    Raises ValidationError with one detail per bad, missing or unknown field.
    """
    details = []
    cleaned: dict[str, Any] = {}
    for name in values:
        if name not in fields:
            details.append({"field": printable_name(name),
                            "message": "is not a known field" if not from_query
                            else "is not a known query parameter"})
    for name, field in fields.items():
        if name not in values:
            if field.required and not partial:
                details.append({"field": name, "message": "is required"})
            elif field.default is not MISSING and not partial:
                cleaned[name] = field.default
            continue
        try:
            cleaned[name] = field.parse(values[name], from_query=from_query)
        except ValueError as exc:
            details.append({"field": name, "message": str(exc)})
    if details:
        raise ValidationError(details)
    return cleaned
