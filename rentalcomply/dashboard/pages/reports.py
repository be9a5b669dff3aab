"""The tax reports' pages: the list, making one, a report's page, its files, its submission."""

from __future__ import annotations

import datetime as dt
import urllib.parse

from rentalcomply.core.errors import NotFound, ValidationError
from rentalcomply.dashboard.web import Pages, Redirect, form_errors


def register(pages: Pages) -> None:
    from rentalcomply.reports import files, generation, periods, queries, submission, views
    from rentalcomply.reports import tasks as report_tasks

    def _list(page, status=200, errors=None, period=""):
        year_text = page.arg("year")
        year = int(year_text) if year_text.isdigit() and len(year_text) == 4 else None
        rows, _ = queries.list_reports(page.account_id, year=year, page=1, limit=100)
        today_ = periods.local_today()
        last_month = (today_.replace(day=1) - dt.timedelta(days=1)).strftime("%Y-%m")
        return page.render("reports", status=status, title=page._("Tax reports"),
                           rows=[views.report_view(r) for r in rows], year=year,
                           years=range(today_.year, today_.year - 6, -1),
                           errors=errors or {}, period=period or last_month)

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
