"""A property's obligations beside the police (statistics, later tax), on its page: each with its
set-up form, as the police set-up is shown (`_property_obligations.tpl`), saved through the
domain function the API uses (filings/obligations.py). Secrets are write-only: an empty box keeps
what is set."""

from __future__ import annotations

from rentalcomply.core.errors import ValidationError
from rentalcomply.dashboard.web import Pages, Redirect
from rentalcomply.filings import obligations
from rentalcomply.properties import service as properties


def obligations_view(prop, errors: dict | None = None, typed: dict | None = None) -> dict:
    """The section's values for property.tpl: each obligation the property owes with its fields,
    what is set and what is missing; a note when none can be told (the region is unknown); the
    registration's state (none chosen in a filing country: its guests are not filed)."""
    listed = obligations.obligations_of(prop)
    owed = {a.name: a for a in obligations.owed(prop)}
    sections = []
    for item in listed:
        authority = owed.get(item["authority"] or "")
        if authority is None:
            continue
        values = dict(item["settings"])
        shown_names = [f.name for f in authority.setup_fields if f.secret and f.shown]
        if shown_names:
            stored = obligations.credentials_of(prop, authority.name)
            values.update({name: stored[name] for name in shown_names if stored.get(name)})
        if typed and typed.get("authority") == authority.name:
            values.update(typed.get("values", {}))
        sections.append({**item, "fields": authority.setup_fields, "values": values,
                         "credentials_set": set(item["credentials_set"]),
                         "errors": (errors or {}) if (typed or {}).get("authority") ==
                         authority.name else {}})
    # A registration on another region's authority has its own section on the page (the move
    # to confirm, pages/properties.py): not said twice.
    notes = [item["problem"] for item in listed if item["problem"]
             and (item["purpose"] != "registration" or item["authority"] == "none")]
    return {"obligations": sections, "obligation_notes": notes}


def register(pages: Pages, show_property) -> None:
    """`show_property`: the property page's renderer (pages/properties.py), for a refused form
    shown again with its errors."""

    @pages.post("/properties/<property_id>/obligations/<authority>")
    def obligation_save(page, property_id, authority):
        prop = properties.get_property(page.account_id, property_id)
        owed = {a.name: a for a in obligations.owed(prop)}
        if authority not in owed:
            raise Redirect(page.url(f"/properties/{property_id}"))
        settings, credentials, typed = {}, {}, {}
        stored = obligations.credentials_of(prop, authority)
        for field in owed[authority].setup_fields:
            value = page.form(field.name).strip()
            if field.secret and field.shown:
                typed[field.name] = value
                if value != stored.get(field.name, ""):
                    credentials[field.name] = value or None
            elif field.secret:
                if value:
                    credentials[field.name] = value
            else:
                settings[field.name] = value or None
                typed[field.name] = value
        try:
            obligations.configure(page.account_id, property_id, authority, settings=settings,
                                  credentials=credentials or None)
        except ValidationError as error:
            errors = {detail["field"].split(".", 1)[-1]: detail["message"]
                      for detail in error.details or []}
            return show_property(page, prop, status=400, obligation_errors=errors,
                                 obligation_typed={"authority": authority, "values": typed})
        page.record("property.update", property_id)  # which property, never the values
        raise Redirect(page.url(f"/properties/{property_id}", done="obligation_saved")
                       + f"#obligation-{authority}")
