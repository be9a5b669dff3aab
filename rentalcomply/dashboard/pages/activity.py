"""The activity log's page: who changed what in the account, and when."""

from __future__ import annotations

from rentalcomply.dashboard.pages.shared import date_filters, page_number
from rentalcomply.dashboard.web import Pages


def register(pages: Pages) -> None:
    @pages.get("/activity")
    def activity_log(page):
        from rentalcomply.dashboard import activitylog, activitynames
        number = page_number(page)
        filters = {name: page.arg(name) for name in ("who", "kind", "from", "to")}
        dates, errors = date_filters(filters)
        if filters["kind"] and filters["kind"] not in activitylog.KINDS:
            filters["kind"] = ""
        rows, more = [], False
        if not errors:
            rows, more = activitylog.find(
                page.account_id, actor=filters["who"] or None, kind=filters["kind"] or None,
                date_from=dates.get("from"), date_to=dates.get("to"), timezone=page.timezone,
                page=number)
        query = {k: v for k, v in filters.items() if v}
        return page.render("activity", title=page._("Activity"), rows=rows, number=number,
                           more=more, filters=filters, errors=errors, log=activitylog,
                           actors=activitylog.actors(page.account_id),
                           names=activitynames.names(rows, page.fmt),
                           page_url=lambda n: page.url("/activity", page=n, **query))
