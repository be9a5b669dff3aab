"""Routes of tax reports: parse, call the service, shape."""

from __future__ import annotations

from rentalcomply.core.errors import (InvalidSignature, LinkExpired, NotFound, ReportNotReady,
                                      ValidationError)
from rentalcomply.reports import files, generation, periods, queries, submission, tasks, views
from rentalcomply.reports.files import FORMATS, MEDIA_TYPES
from rentalcomply.reports.queries import STATUSES
from rentalcomply.reports.submission import REFERENCE_MAX
from rentalcomply.web import openapi
from rentalcomply.web.openapi import DATE, NULLABLE_TIMESTAMP, TIMESTAMP
from rentalcomply.web.routing import PAGINATION_QUERY, Reply, page_reply
from rentalcomply.web.validation import Field

TAGS = ["reports"]
MONEY = {"type": "number", "description": "Euros, two decimals."}
CODE = {"type": "string", "pattern": r"^rep_\d{4}(_\d{2})?$",
        "examples": ["rep_2026_03", "rep_2026"],
        "description": "rep_YYYY_MM for a month, rep_YYYY for a year; unique within the account."}
PROVISIONAL = {"type": "boolean",
               "description": "The files were made while the period was still running: they "
                              "hold only the stays that had ended (and the nights that had "
                              "passed) by `as_of`. Such a report cannot be marked as filed; the "
                              "schedule generates it again once the period has closed "
                              "(`report.ready` follows, `provisional: false`). `status` stays "
                              "the generation's state."}
FILE_INFO = {"type": "object", "required": ["filename", "size"], "additionalProperties": False,
             "properties": {"filename": {"type": "string"}, "size": {"type": "integer"}}}

openapi.schema("Report", {
    "type": "object",
    "required": ["id", "period", "format", "formats", "status", "provisional", "as_of",
                 "version", "property_id",
                 "booking_count", "nights", "total_revenue", "net_revenue", "climate_fee_total",
                 "cancellation_count", "amount_kept", "needs_attention_count", "currency",
                 "file_size", "files", "due_date", "fee_due_date", "overdue", "outdated",
                 "generated_at", "generation_count", "submitted_at", "submission_reference",
                 "error", "created_at", "updated_at"],
    "additionalProperties": False,
    "properties": {
        "id": CODE,
        "period": {"type": "object", "required": ["year", "month"], "additionalProperties": False,
                   "properties": {"year": {"type": "integer"},
                                  "month": {"type": ["integer", "null"], "minimum": 1,
                                            "maximum": 12,
                                            "description": "null for a yearly report."}}},
        "format": {"type": "string", "enum": ["PDF"],
                   "description": "The human-readable format; XML and CSV are there too."},
        "formats": {"type": "array", "items": {"type": "string", "enum": ["PDF", "XML", "CSV"]}},
        "status": {"type": "string", "enum": list(STATUSES),
                   "description": "pending -> generating -> completed | failed; submitted once "
                                  "marked as filed with AADE."},
        "provisional": PROVISIONAL,
        "as_of": {**DATE, "type": ["string", "null"],
                  "description": "For a provisional report, the last day it holds (the stays "
                                 "that had ended by then); null for a final one."},
        "version": {"type": "integer", "minimum": 1},
        "property_id": {"type": "null", "description": "Reports cover the whole account."},
        "booking_count": {"type": "integer", "minimum": 0,
                          "description": "Validated stays that departed in the period."},
        "nights": {"type": "integer", "minimum": 0},
        "total_revenue": {**MONEY, "description": "Gross agreed rent of the validated stays "
                                                  "(what the guests paid, fee included)."},
        "net_revenue": {**MONEY, "description": "total_revenue less the climate fee of those "
                                                "stays (the rent AADE is told)."},
        "climate_fee_total": {**MONEY, "description": "Fee of every night in the period, at "
                                                      "that night's rate, whatever month its "
                                                      "stay departs in."},
        "cancellation_count": {"type": "integer", "minimum": 0,
                               "description": "Cancellations in the period that still pay."},
        "amount_kept": MONEY,
        "needs_attention_count": {"type": "integer", "minimum": 0,
                                  "description": "Bookings of the period that fail validation "
                                                 "and are in no total; listed in the files."},
        "currency": {"type": "string", "enum": ["EUR"]},
        "file_size": {"type": ["integer", "null"], "description": "Bytes of the PDF."},
        "files": {"type": "object", "additionalProperties": False,
                  "properties": {fmt: FILE_INFO for fmt in FORMATS}},
        "due_date": {**DATE, "type": ["string", "null"],
                     "description": "The 20th of the next month (stays); null for a year."},
        "fee_due_date": {**DATE, "type": ["string", "null"],
                         "description": "The end of the next month (climate fee)."},
        "overdue": {"type": "boolean"},
        "outdated": {"type": "boolean",
                     "description": "A booking or property of the period changed after the "
                                    "files were generated: regenerate before filing."},
        "generated_at": NULLABLE_TIMESTAMP,
        "generation_count": {"type": "integer", "minimum": 0},
        "submitted_at": NULLABLE_TIMESTAMP,
        "submission_reference": {"type": ["string", "null"]},
        "error": {"type": ["string", "null"]},
        "created_at": TIMESTAMP,
        "updated_at": TIMESTAMP,
    },
})
openapi.schema("ReportByPeriod", {
    "type": "object",
    "required": ["id", "period", "status", "provisional", "property_id", "download_url",
                 "submitted_at"],
    "additionalProperties": False,
    "properties": {
        "id": CODE,
        "period": {"type": "string", "pattern": r"^\d{4}-\d{2}$", "examples": ["2026-03"]},
        "status": {"type": "string", "enum": list(STATUSES)},
        "provisional": PROVISIONAL,
        "property_id": {"type": "null"},
        "download_url": {"type": ["string", "null"], "format": "uri",
                         "description": "A fresh signed link to the PDF, valid one hour; null "
                                        "until the report has files."},
        "submitted_at": NULLABLE_TIMESTAMP,
    },
})
openapi.schema("ReportDownload", {
    "type": "object",
    "required": ["download_url", "expires_at", "filename", "format"],
    "additionalProperties": False,
    "properties": {
        "download_url": {"type": "string", "format": "uri",
                         "description": "Signed link, no API key needed, valid one hour; a new "
                                        "one on every request."},
        "expires_at": TIMESTAMP,
        "filename": {"type": "string", "examples": ["rep_2026_03.pdf"]},
        "format": {"type": "string", "enum": ["PDF", "XML", "CSV"]},
    },
})

FORMAT_FIELD = Field("string", choices=FORMATS, default="pdf", description="Which file.")

LIST_QUERY = {
    "year": Field("integer", minimum=2000, maximum=2099, description="Shape A: that year's reports."),
    "month": Field("integer", minimum=1, maximum=12,
                   description="Shape A: with `year`, that month's report."),
    "period": Field("string", pattern=r"^\d{4}-\d{2}$", max_length=7,
                    description="Shape B: the month YYYY-MM, with a fresh `download_url` of "
                                "the PDF. Not together with `year`/`month`."),
    **PAGINATION_QUERY,
}


def register(api) -> None:
    @api.get("/reports", scope="read", tags=TAGS, summary="List reports",
             description="Two shapes. Shape A (`year`, `month`, `page`, `limit`): Report "
                         "objects, newest period first (a year's report before its December). "
                         "Shape B (`period=YYYY-MM`): `{id, period, status, property_id, "
                         "download_url, submitted_at}` with a fresh signed link to the PDF. "
                         "`period` together with `year` or `month` is 400; so is `month` "
                         "without `year`. `limit` 1 to 100 (default 20).",
             query=LIST_QUERY, paginated=True,
             response={"anyOf": [openapi.ref("Report"), openapi.ref("ReportByPeriod")]})
    def list_reports(ctx):
        query = ctx.query
        page, limit = query["page"], query["limit"]
        period = query.get("period")
        if period is not None:
            if "year" in query or "month" in query:
                raise ValidationError([{"field": "period", "message": "cannot be combined with "
                                        "year or month: use one or the other"}])
            year, month = _list_period(period)
            rows, total = queries.list_reports(ctx.account_id, year=year, month=month,
                                               page=page, limit=limit)
            return page_reply([views.period_view(r, ctx.settings) for r in rows], page, limit,
                              total)
        rows, total = queries.list_reports(ctx.account_id, year=query.get("year"),
                                           month=query.get("month"), page=page, limit=limit)
        return page_reply([views.report_view(r) for r in rows], page, limit, total)

    @api.get("/reports/download", scope="read", tags=TAGS, summary="Download link of a report",
             description="The same as `GET /reports/{id}/download`, with the id in the query.",
             query={"report_id": Field("string", required=True, max_length=16),
                    "format": FORMAT_FIELD},
             response="ReportDownload", errors=[NotFound, ReportNotReady])
    def download_by_query(ctx):
        return files.download_link(ctx.settings, ctx.account_id, ctx.query["report_id"],
                                     ctx.query["format"])

    @api.get("/reports/<report_id>", scope="read", tags=TAGS, summary="Get a report",
             response="Report", errors=[NotFound])
    def get_report(ctx, report_id):
        return views.report_view(queries.get_report(ctx.account_id, report_id))

    @api.get("/reports/<report_id>/download", scope="read", tags=TAGS,
             summary="Download link of a report",
             description="A signed URL of the PDF, XML or CSV file, valid one hour, served "
                         "without an API key; every request mints a new one. 409 "
                         "REPORT_NOT_READY while the report has no files.",
             query={"format": FORMAT_FIELD}, response="ReportDownload",
             errors=[NotFound, ReportNotReady])
    def download(ctx, report_id):
        return files.download_link(ctx.settings, ctx.account_id, report_id,
                                     ctx.query["format"])

    @api.post("/reports", scope="write", tags=TAGS, summary="Generate a report",
              description="Queues the (re)generation of the month `YYYY-MM` or the year `YYYY` "
                          "and answers 202 with the report. Regenerating replaces the files "
                          "(a submitted report stays submitted). `report.ready` or "
                          "`report.failed` follows. A period that has not begun is 400; one "
                          "still running gives a `provisional` report.",
              body={"period": Field("string", required=True, max_length=7,
                                    pattern=r"^\d{4}(-\d{2})?$", example="2026-03")},
              response="Report", status=202)
    def request_report(ctx):
        year, month = periods.parse_period(ctx.body["period"])
        report = generation.request_generation(ctx.account_id, year, month)
        tasks.queue_generation(ctx.account_id, year, month)  # once the request commits
        return Reply(views.report_view(queries.get_report(ctx.account_id, report.code)),
                     status=202)

    @api.post("/reports/<report_id>/submission", scope="write", tags=TAGS,
              summary="Record the filing of a report",
              description="Marks a completed report as filed with AADE: status `submitted`, "
                          "`submitted_at` and the `reference` myAADE gave. 409 REPORT_NOT_READY "
                          "unless the report is completed (or submitted: the reference is "
                          "corrected), and for a provisional report.",
              body={"reference": Field("string", required=True, max_length=REFERENCE_MAX,
                                       example="ΑΑΔΕ-2026-000123")},
              response="Report", errors=[NotFound, ReportNotReady])
    def submit(ctx, report_id):
        return views.report_view(submission.record_submission(ctx.account_id, report_id,
                                                             ctx.body["reference"]))

    for fmt in FORMATS:
        _register_file_route(api, fmt)


def _list_period(text: str) -> tuple[int, int]:
    year, month = int(text[:4]), int(text[5:7])
    if not 1 <= month <= 12:
        raise ValidationError("period", "month must be 01 to 12")
    return year, month


SIGNED_QUERY = {name: Field("string", max_length=200) for name in ("nonce", "expires", "signature")}


def _register_file_route(api, fmt: str) -> None:
    def serve_file(ctx, account_id, report_id):
        content, filename = files.open_signed_file(ctx.settings, account_id, report_id, fmt,
                                                     ctx.query)
        return Reply(content, headers={
            "Content-Disposition": f'attachment; filename="{filename}"',
            "Cache-Control": "private, no-store"})

    serve_file.__name__ = f"report_file_{fmt}"
    api.get(f"/files/reports/<account_id>/<report_id>.{fmt}", scope=None, public=True,
            prefix="", tags=TAGS, summary=f"A report's {fmt.upper()} file (signed link)",
            description="What a `download_url` points at: no API key, the signature is the "
                        "credential. Altered → 403 INVALID_SIGNATURE; past its hour → 410 "
                        "LINK_EXPIRED. `Content-Disposition` names the file.",
            query=SIGNED_QUERY, response=None, content_type=MEDIA_TYPES[fmt],
            errors=[InvalidSignature, LinkExpired, NotFound])(serve_file)
