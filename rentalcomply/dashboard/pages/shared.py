"""What several groups of the dashboard's pages share: a list page's page number and date filters,
an address with a query added, and the confirmation step of a destructive form."""

from __future__ import annotations

import datetime as dt
import urllib.parse


def date_filters(filters: dict[str, str]) -> tuple[dict[str, dt.date], dict[str, str]]:
    """The `from` and `to` filters of a list page as dates, and an error for each that is not."""
    dates, errors = {}, {}
    for name in ("from", "to"):
        if filters[name]:
            try:
                dates[name] = dt.date.fromisoformat(filters[name])
            except ValueError:
                errors[name] = "must be a date like 2027-06-01"
    return dates, errors


def page_number(page) -> int:
    value = page.arg("page", "1")
    return int(value) if value.isdigit() and 0 < int(value) < 100_000 else 1


def with_query(target: str, **query) -> str:
    parts = urllib.parse.urlsplit(target)
    kept = [(k, v) for k, v in urllib.parse.parse_qsl(parts.query) if k not in query]
    return parts.path + "?" + urllib.parse.urlencode(kept + list(query.items()))


def confirmed(page) -> bool:
    """Whether a destructive form comes from its confirmation page (the second step)."""
    return page.form("confirm") == "yes"


def confirm(page, *, title: str, subject: str, consequences: list[str], button: str,
            back: str, hidden: dict | None = None):
    """The second step of a destructive action, rendered by the server so that it works without
    JavaScript: it names what stops working and posts the same form again with confirm=yes.
    Nothing has changed yet when it shows."""
    return page.render("confirm", title=title, subject=subject, consequences=consequences,
                       button=button, back=back, action=page.path, hidden=hidden or {})
