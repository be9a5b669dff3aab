"""The property form's fields a person sees and sends: the form holds every country's fields, and
those of another country are hidden and disabled (property-form.js shows them when that country
is chosen; without a script they come back from the server)."""

from __future__ import annotations


def shown_fields(response) -> set[str]:
    """The names of the property form's fields that are shown and sent."""
    form = response.html.select_one("#property-form")
    shown = set()
    for field in form.select("input[name], select[name], textarea[name]"):
        if field.has_attr("disabled") or field.get("type") == "hidden":
            continue
        if any(parent.has_attr("hidden") for parent in field.parents if parent is not form
               and parent.name != "[document]"):
            continue
        shown.add(field["name"])
    return shown
