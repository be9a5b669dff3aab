"""Small value checks the domain functions share (the API's Fields check types first; these are
what the command line and other callers of the services meet too)."""

from __future__ import annotations

from typing import Any


def nullable_text(value: Any, max_length: int) -> tuple[str | None, bool]:
    """`None` stays `None`; anything else must be a string of 1 to `max_length` characters once
    trimmed. Returns (cleaned value, whether it is acceptable)."""
    if value is None:
        return None, True
    text = value.strip() if isinstance(value, str) else ""
    return text, 0 < len(text) <= max_length
