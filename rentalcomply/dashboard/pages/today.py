"""Today's page and the calendar: one property's month, or every property's stays on a timeline."""

from __future__ import annotations

import datetime as dt

from rentalcomply.core.errors import ValidationError
from rentalcomply.dashboard import mailviews, problems, service
from rentalcomply.dashboard.web import Pages, form_errors
from rentalcomply.properties import service as properties


def register(pages: Pages) -> None:
    @pages.get("/today")
    def today(page):
        return page.render("today", title=page._("Today"), day=service.today(page.account_id),
                           mail_warning=mailviews.mail_warning(page.settings, page.account_id),
                           advice=mailviews.ADVICE, document_problem=problems.document,
                           cin_todo=problems.CIN_MISSING,
                           region_todo=problems.REGION_MISSING,
                           capacity_todo=problems.CAPACITY_MISSING,
                           licence_todo=problems.LICENCE_MISSING,
                           wrong_authority_todo=problems.WRONG_AUTHORITY)

    @pages.get("/calendar")
    def calendar(page):
        props = properties.list_properties(page.account_id)
        if not page.arg("property"):
            return _timeline(page, props)
        chosen = page.arg("property")
        errors = {}
        try:
            year, month = service.month_of(page.arg("month"), today=page.fmt.today())
        except ValidationError as error:
            errors = form_errors(error)
            year, month = service.month_of(None, today=page.fmt.today())
        grid = service.month_grid(page.account_id, chosen, year, month) if chosen else []
        first = dt.date(year, month, 1)
        previous = (first - dt.timedelta(days=1)).strftime("%Y-%m")
        following = (first + dt.timedelta(days=32)).strftime("%Y-%m")
        return page.render("calendar", title=page._("Calendar"), properties=props,
                           chosen=chosen, grid=grid, first=first, previous=previous,
                           following=following, errors=errors)


def _timeline(page, props):
    """Every property at once: a lane of stays per property over two weeks or a month."""
    span = page.arg("span") if page.arg("span") in service.TIMELINE_SPANS else "2w"
    errors = {}
    today_ = page.fmt.today()  # the account's day, not UTC's
    try:
        start = dt.date.fromisoformat(page.arg("start")) if page.arg("start") else None
    except ValueError:
        errors["start"] = "must be a date like 2027-06-01"
        start = None
    if start is not None and not dt.date(2000, 1, 1) <= start <= dt.date(2100, 1, 1):
        errors["start"], start = "must be a date like 2027-06-01", None
    if span == "month":
        start = (start or today_).replace(day=1)
        next_month = (start.replace(day=28) + dt.timedelta(days=4)).replace(day=1)
        days = (next_month - start).days
        previous = (start - dt.timedelta(days=1)).replace(day=1)
        following = start + dt.timedelta(days=days)
    else:
        start = start or today_ - dt.timedelta(days=today_.weekday())  # this week's Monday
        days = 14
        previous, following = start - dt.timedelta(days=14), start + dt.timedelta(days=14)
    dates = [start + dt.timedelta(days=n) for n in range(days)]
    return page.render("timeline", title=page._("Calendar"), properties=props,
                       rows=service.timeline(page.account_id, start, days), dates=dates,
                       start=start, span=span, today=today_, errors=errors,
                       previous=previous, following=following)
