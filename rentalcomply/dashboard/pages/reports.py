"""The Reports page, by country: AADE's tax reports where the account has Greek properties (the
list, making one, a report's page, its files, its submission); for Italian, Spanish and
Portuguese properties, the police filings of a month per property (filed, held, refused) with a
link to those stays in the Bookings list, which shows each one's filing."""

from __future__ import annotations

import datetime as dt
import re
import urllib.parse

from rentalcomply.checkin.guests import POLICE_COUNTRIES
from rentalcomply.core.errors import NotFound, ValidationError
from rentalcomply.dashboard import service as dashboard
from rentalcomply.dashboard.web import Pages, Redirect, form_errors
from rentalcomply.filings import registry
from rentalcomply.filings.views import period_counts
from rentalcomply.properties import service as properties
from rentalcomply.properties.countries import country_name


def police_view(page, props: list, month_text: str) -> dict:
    """The police filings of the month (`YYYY-MM`, else the account's current month) per
    property of a police country."""
    today = dashboard.account_day(page.account_id)
    if re.fullmatch(r"\d{4}-(0[1-9]|1[0-2])", month_text or ""):
        first = dt.date(int(month_text[:4]), int(month_text[5:]), 1)
    else:
        first = today.replace(day=1)
    last = (first + dt.timedelta(days=32)).replace(day=1) - dt.timedelta(days=1)
    counts = period_counts(page.account_id, first, last, (first.strftime("%Y-%m"),))
    rows = []
    for prop in props:
        authority = registry.for_country(prop.country)
        rows.append({
            "prop": prop, "authority": authority.title if authority else "",
            "country": country_name(prop.country, page.lang),
            "off": prop.police_connector == "none",
            "counts": counts.get(prop.id, {"filed": 0, "held": 0, "refused": 0,
                                           "not_filed": 0}),
            "stays_url": page.url("/bookings", property=prop.id, **{"from": first.isoformat(),
                                                                  "to": last.isoformat()}),
        })
    return {"month": first.strftime("%Y-%m"), "first": first, "rows": rows}


def register(pages: Pages) -> None:
    from rentalcomply.reports import files, generation, periods, queries, submission, views
    from rentalcomply.reports import tasks as report_tasks

    def _list(page, status=200, errors=None, period=""):
        props = properties.list_properties(page.account_id)
        year_text = page.arg("year")
        year = int(year_text) if year_text.isdigit() and len(year_text) == 4 else None
        rows, _ = queries.list_reports(page.account_id, year=year, page=1, limit=100)
        # AADE's reports are Greece's: shown where the account has a Greek property, or reports
        # made already (a property since sold keeps its reports reachable), or a refused form.
        aade = (any(p.country == "GR" for p in props) or bool(rows) or year is not None
                or bool(errors))
        police_props = [p for p in props if p.country in POLICE_COUNTRIES]
        elsewhere = sorted({p.country for p in props
                            if p.country != "GR" and p.country not in POLICE_COUNTRIES})
        today_ = periods.local_today()
        last_month = (today_.replace(day=1) - dt.timedelta(days=1)).strftime("%Y-%m")
        return page.render("reports", status=status, title=page._("Reports"), aade=aade,
                           rows=[views.report_view(r) for r in rows], year=year,
                           years=range(today_.year, today_.year - 6, -1),
                           errors=errors or {}, period=period or last_month,
                           police=police_view(page, police_props, page.arg("month"))
                           if police_props else None,
                           elsewhere=[country_name(c, page.lang) for c in elsewhere],
                           no_property=not props)

    @pages.get("/reports")
    def report_list(page):
        return _list(page)

    @pages.post("/reports")
    def report_generate(page):
        period = page.form("period").strip()
        try:
            year, month = periods.parse_period(period)
            report = generation.request_generation(page.account_id, year, month)
        except ValidationError as error:
            return _list(page, status=400, errors=form_errors(error), period=period)
        page.record("report.generate", report.code)
        page.after_commit.append(lambda: report_tasks.queue_generation(page.account_id, year, month))
        raise Redirect(page.url(f"/reports/{report.code}", done="generating"))

    def _attention(page, report) -> list:
        """The bookings of the period that need attention as they are now (not as when the
        report was made), each with what to fix in the page's language."""
        from rentalcomply.bookings.fees import FeeRates
        from rentalcomply.authorities.aade.building import build_report
        data = build_report(page.account_id, report.year, report.month,
                            FeeRates.from_settings(page.settings))
        return [(a, a.texts(page.lang)) for a in data.attention]

    def _report(page, report, status=200, errors=None, message=None):
        return page.render("report", status=status, title=report.code, report=report,
                           view=views.report_view(report), formats=files.FORMATS,
                           attention=_attention(page, report), errors=errors or {},
                           message=message)

    @pages.get("/reports/<code>")
    def report_page(page, code):
        report = queries.get_report(page.account_id, code)
        if page.arg("done") == "generating" and report.status not in ("pending", "generating"):
            # Made since: the page says what is true now, and the address forgets the message.
            raise Redirect(page.url(f"/reports/{code}"))
        return _report(page, report)

    @pages.get("/reports/<code>/download/<fmt>")
    def report_download(page, code, fmt):
        if fmt not in files.FORMATS:
            raise NotFound()
        link = files.download_link(page.settings, page.account_id, code, fmt)
        # The signed link, as a path on this server: the browser is already talking to it,
        # whatever server.public_url says.
        parts = urllib.parse.urlsplit(link["download_url"])
        raise Redirect(parts.path + "?" + parts.query)

    @pages.post("/reports/<code>/submission")
    def report_submit(page, code):
        report = queries.get_report(page.account_id, code)
        attention = _attention(page, report)
        if attention and page.form("anyway") != "yes":
            return _report(page, report, status=409, message=page.fmt.count(
                "attention_before_filing", len(attention)))
        try:
            submission.record_submission(page.account_id, code, page.form("reference"))
        except ValidationError as error:
            return _report(page, report, status=400, errors=form_errors(error))
        page.record("report.submitted", code)
        raise Redirect(page.url(f"/reports/{code}", done="submitted"))
