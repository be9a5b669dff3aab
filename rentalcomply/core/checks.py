"""Small value checks the domain functions share (the API's Fields check types first; these are
what the command line and other callers of the services meet too)."""

from __future__ import annotations

import re
from typing import Any

from rentalcomply.core.errors import ValidationError


def nullable_text(value: Any, max_length: int) -> tuple[str | None, bool]:
    """`None` stays `None`; anything else must be a string of 1 to `max_length` characters once
    trimmed. Returns (cleaned value, whether it is acceptable)."""
    if value is None:
        return None, True
    text = value.strip() if isinstance(value, str) else ""
    return text, 0 < len(text) <= max_length


# --- control characters ---------------------------------------------------------------------------
# C0 control characters (U+0000 to U+001F) in stored text break what is made from it later: an
# XML 1.0 document cannot hold them at all (the AADE report, the police files), and in CSV rows,
# e-mail headers and log lines they hide or forge content. So text refuses them on the way in,
# everywhere (API Fields, the guest page and guests API, the dashboard's forms, the services the
# command line calls), by this one rule. A multi-line field (a free-text note) may also hold the
# line breaks and the tab (U+0009, U+000A, U+000D). Each rule is also stated as a JSON Schema
# `pattern`, written so that ECMA-262 and Python's `re` read it alike: Python's `$` also matches
# before a final newline, which the `(?!\n)` closes.
# An e-mail address as the API takes it (the mail server has the last word).
EMAIL_RE = re.compile(r"^[^@\s\x00-\x1f]+@[^@\s\x00-\x1f]+\.[^@\s\x00-\x1f]+$")
SINGLE_LINE_PATTERN = r"^[^\x00-\x1f]*(?!\n)$"
MULTI_LINE_PATTERN = r"^[^\x00-\x08\x0b\x0c\x0e-\x1f]*$"
_SINGLE_LINE_REFUSED = re.compile(r"[\x00-\x1f]")
_MULTI_LINE_REFUSED = re.compile(r"[\x00-\x08\x0b\x0c\x0e-\x1f]")


def control_character_problem(value: str, *, multiline: bool = False) -> str | None:
    """None when `value` holds no refused control character, else the message for the client
    (naming the first such character, which is invisible)."""
    found = (_MULTI_LINE_REFUSED if multiline else _SINGLE_LINE_REFUSED).search(value)
    if found is None:
        return None
    allowed = " other than line breaks and tabs" if multiline else ""
    return (f"must not contain control characters{allowed} "
            f"(U+{ord(found.group()):04X} at position {found.start() + 1})")


def refuse_control_characters(values: dict[str, Any], multiline: tuple[str, ...] = ()) -> None:
    """Raise ValidationError naming every text value of `values` that holds a control character
    (for services called with keyword values, where the API's Fields did not run)."""
    details = []
    for name, value in values.items():
        if isinstance(value, str):
            problem = control_character_problem(value, multiline=name in multiline)
            if problem:
                details.append({"field": name, "message": problem})
    if details:
        raise ValidationError(details)
