"""Tax reports: the domain functions, which know nothing of Bottle.

A report is one row per account and period (`rep_YYYY_MM`, `rep_YYYY`) and three files (PDF, XML,
CSV) in the data directory under `reports/<account>/<code>-<token>/`. Generation builds all three
in a hidden folder, renames the folder into place, and only then points the row at it: a reader
sees the old files or the new ones, never a mix or a half-written file. Regenerating replaces the
files and records when.

Status: pending -> generating -> completed | failed; `submitted` once the host records the filing.
"""

from __future__ import annotations

import datetime as dt
import logging
import os
import re
import secrets as _random
import shutil
from pathlib import Path
from typing import Callable

import peewee

from rentalcomply.bookings.fees import FeeRates
from rentalcomply.bookings.service import cents_to_euros
from rentalcomply.core import clock, events, signed_links
from rentalcomply.core.db import atomic
from rentalcomply.core.errors import ApiError, NotFound, ReportNotReady, ValidationError
from rentalcomply.core.models import Account, Booking, Property
from rentalcomply.reports.building import (ATHENS, build_report, fee_due_date,
                                           period_bounds, report_code, stays_due_date)
from rentalcomply.reports.csvfile import render_csv
from rentalcomply.reports.models import Report
from rentalcomply.reports.pdffile import render_pdf
from rentalcomply.reports.xmlfile import render_xml

log = logging.getLogger(__name__)

FORMATS = ("pdf", "xml", "csv")
# The CSV is UTF-8 with a byte-order mark, which is what tells Excel its encoding.
MEDIA_TYPES = {"pdf": "application/pdf", "xml": "application/xml", "csv": "text/csv"}
STATUSES = ("pending", "generating", "completed", "failed", "submitted")
LINK_PURPOSE = "report-file"
PERIOD_PATTERN = r"^\d{4}(-\d{2})?$"
EARLIEST_YEAR = 2000
DUE_SOON_DAYS = 5
REFERENCE_MAX = 100
STEPS = ("reading the bookings", "writing the PDF", "writing the XML", "writing the CSV",
         "storing the files")


# --- periods ------------------------------------------------------------------------------------

def parse_period(text: str, field: str = "period") -> tuple[int, int | None]:
    """`2026-03` -> (2026, 3); `2026` -> (2026, None). A period not yet begun is refused."""
    match = re.fullmatch(r"(\d{4})(?:-(\d{2}))?", text or "")
    if not match:
        raise ValidationError(field, "must be a month YYYY-MM or a year YYYY")
    year, month = int(match.group(1)), int(match.group(2)) if match.group(2) else None
    if month is not None and not 1 <= month <= 12:
        raise ValidationError(field, "month must be 01 to 12")
    if year < EARLIEST_YEAR:
        raise ValidationError(field, f"must be {EARLIEST_YEAR} or later")
    start, _ = period_bounds(year, month)
    if start > local_today():
        raise ValidationError(field, "has not begun yet")
    return year, month


def parse_code(code: str) -> tuple[int, int | None] | None:
    match = re.fullmatch(r"rep_(\d{4})(?:_(\d{2}))?", code or "")
    if not match:
        return None
    return int(match.group(1)), int(match.group(2)) if match.group(2) else None


def local_now() -> dt.datetime:
    return clock.utcnow().replace(tzinfo=dt.timezone.utc).astimezone(ATHENS)


def local_today() -> dt.date:
    return local_now().date()


# --- reading ------------------------------------------------------------------------------------

def get_report(account_id: str, code: str) -> Report:
    report = Report.get_or_none((Report.account == account_id) & (Report.code == code))
    if report is None:
        raise NotFound("No such report.")
    return report


def list_reports(account_id: str, *, year: int | None = None, month: int | None = None,
                 page: int = 1, limit: int = 20) -> tuple[list[Report], int]:
    """Newest period first (a year's report before its December). With `month`, `year` too."""
    if month is not None and year is None:
        raise ValidationError("year", "is required with month")
    condition = Report.account == account_id
    if year is not None:
        condition &= Report.year == year
    if month is not None:
        condition &= Report.month == month
    query = Report.select().where(condition)
    total = query.count()
    rows = list(query.order_by(Report.year.desc(), Report.month.is_null(False),
                               Report.month.desc()).paginate(page, limit))
    return rows, total


def is_outdated(report: Report) -> bool:
    """Whether a booking or property the report depends on changed after it was generated."""
    if report.generated_at is None:
        return False
    start, end = period_bounds(report.year, report.month)
    since = report.generated_at
    around_start = dt.datetime.combine(start - dt.timedelta(days=1), dt.time())
    around_end = dt.datetime.combine(end + dt.timedelta(days=1), dt.time())
    touched = (Booking.select(Booking.id).join(Property, on=(Booking.property == Property.id))
               .where((Booking.account == report.account_id) & (Booking.is_block == False)  # noqa: E712
                      & (Property.country == "GR") & (Booking.updated_at > since)
                      & (((Booking.arrival_date < end) & (Booking.departure_date >= start))
                         | ((Booking.cancelled_at >= around_start)
                            & (Booking.cancelled_at < around_end)))))
    if touched.exists():
        return True
    return Property.select(Property.id).where(
        (Property.account == report.account_id) & (Property.updated_at > since)).exists()


def is_overdue(report: Report, today: dt.date | None = None) -> bool:
    due = stays_due_date(report.year, report.month)
    return due is not None and report.status != "submitted" and (today or local_today()) > due


def report_view(report: Report) -> dict:
    files = report.files or {}
    pdf = files.get("pdf")
    due = stays_due_date(report.year, report.month)
    fee_due = fee_due_date(report.year, report.month)
    return {
        "id": report.code,
        "period": {"year": report.year, "month": report.month},
        "format": "PDF",
        "formats": ["PDF", "XML", "CSV"],
        "status": report.status,
        "version": report.version,
        "property_id": None,
        "booking_count": report.booking_count,
        "nights": report.nights,
        "total_revenue": cents_to_euros(report.total_revenue_cents),
        "net_revenue": cents_to_euros(report.net_revenue_cents),
        "climate_fee_total": cents_to_euros(report.climate_fee_total_cents),
        "cancellation_count": report.cancellation_count,
        "amount_kept": cents_to_euros(report.amount_kept_cents),
        "needs_attention_count": report.needs_attention_count,
        "currency": "EUR",
        "file_size": pdf["size"] if pdf else None,
        "files": {fmt: {"filename": files[fmt]["name"], "size": files[fmt]["size"]}
                  for fmt in FORMATS if fmt in files},
        "due_date": clock.iso_date(due),
        "fee_due_date": clock.iso_date(fee_due),
        "overdue": is_overdue(report),
        "outdated": is_outdated(report),
        "generated_at": clock.iso(report.generated_at),
        "generation_count": report.generation_count,
        "submitted_at": clock.iso(report.submitted_at),
        "submission_reference": report.submission_reference,
        "error": report.error,
        "created_at": clock.iso(report.created_at),
        "updated_at": clock.iso(report.updated_at),
    }


def period_view(report: Report, settings) -> dict:
    """The list's shape B (`GET /reports?period=YYYY-MM`): with a fresh link to the PDF."""
    url = download_link(settings, report.account_id, report.code, "pdf")["download_url"] \
        if report.files else None
    return {"id": report.code, "period": f"{report.year:04d}-{report.month:02d}",
            "status": report.status, "property_id": None, "download_url": url,
            "submitted_at": clock.iso(report.submitted_at)}


# --- generation ---------------------------------------------------------------------------------

def request_generation(account_id: str, year: int, month: int | None) -> Report:
    """Create the report row (or mark it for regeneration) as `pending`; the caller queues
    `tasks.generate_report`. Call inside a transaction."""
    code = report_code(year, month)
    now = clock.utcnow()
    with atomic():
        report = Report.get_or_none((Report.account == account_id) & (Report.code == code))
        if report is None:
            try:
                with atomic():  # a savepoint: another request may create the row first
                    return Report.create(account=account_id, code=code, year=year, month=month,
                                         status="pending", requested_at=now, created_at=now,
                                         updated_at=now)
            except peewee.IntegrityError:
                report = get_report(account_id, code)
        # A submitted report stays submitted: regenerating refreshes its files only.
        if report.status != "submitted":
            report.status = "pending"
        report.requested_at = now
        report.updated_at = now
        report.save()
    return report


def generate(settings, account_id: str, year: int, month: int | None,
             progress: Callable[[str], None] | None = None) -> Report:
    """Build the report's files now and record them; `report.ready`, or `report.failed` with the
    reason. Never raises for a failed generation: the row says what went wrong."""
    step = progress or (lambda name: None)
    code = report_code(year, month)
    with atomic():
        report = request_generation(account_id, year, month) if not _exists(account_id, code) \
            else get_report(account_id, code)
        submitted = report.status == "submitted"
        started = clock.utcnow()
        if not submitted:
            report.status = "generating"
        report.updated_at = started
        report.save()
    folder = None
    try:
        step(STEPS[0])
        data = build_report(account_id, year, month, FeeRates.from_settings(settings))
        step(STEPS[1])
        contents = {"pdf": render_pdf(data, started, settings.reports.language)}
        step(STEPS[2])
        contents["xml"] = render_xml(data, started)
        step(STEPS[3])
        contents["csv"] = render_csv(data)
        step(STEPS[4])
        folder = _store(settings, account_id, code, contents)
        files = {"dir": folder.name, **{fmt: {"name": f"{code}.{fmt}", "size": len(content)}
                                        for fmt, content in contents.items()}}
    except Exception as exc:  # a bug or a full disk: the host must hear of it, not a traceback
        log.exception("report %s of account %s failed", code, account_id)
        if folder is not None:
            shutil.rmtree(folder, ignore_errors=True)
        return _fail(account_id, code, exc)
    with atomic():
        report = get_report(account_id, code)
        previous = (report.files or {}).get("dir")
        report.status = "submitted" if report.status == "submitted" else "completed"
        report.booking_count = data.booking_count
        report.nights = data.nights
        report.total_revenue_cents = data.total_revenue_cents
        report.net_revenue_cents = data.net_revenue_cents
        report.climate_fee_total_cents = data.climate_fee_total_cents
        report.cancellation_count = data.cancellation_count
        report.amount_kept_cents = data.amount_kept_cents
        report.needs_attention_count = len(data.attention)
        report.files = files
        report.error = None
        report.generated_at = started
        report.generation_count += 1
        report.updated_at = clock.utcnow()
        report.save()
        events.emit(account_id, "report.ready", report_view(report))
    if previous and previous != folder.name:
        shutil.rmtree(_account_dir(settings, account_id) / previous, ignore_errors=True)
    return report


def _exists(account_id: str, code: str) -> bool:
    return Report.select().where((Report.account == account_id) & (Report.code == code)).exists()


def _fail(account_id: str, code: str, exc: Exception) -> Report:
    with atomic():
        report = get_report(account_id, code)
        if report.status != "submitted":
            report.status = "failed"
        report.error = ("The report could not be generated: "
                        + (exc.message if isinstance(exc, ApiError) else type(exc).__name__)
                        + ". The previous files, if any, are kept; the server log has details.")
        report.updated_at = clock.utcnow()
        report.save()
        events.emit(account_id, "report.failed", report_view(report))
    return report


def _account_dir(settings, account_id: str) -> Path:
    return Path(settings.data_dir) / "reports" / account_id


def _store(settings, account_id: str, code: str, contents: dict[str, bytes]) -> Path:
    """Write every file into a hidden folder, then rename the folder into place: all or none."""
    base = _account_dir(settings, account_id)
    base.mkdir(parents=True, exist_ok=True)
    token = _random.token_hex(6)
    hidden = base / f".{code}-{token}.tmp"
    hidden.mkdir()
    try:
        for fmt, content in contents.items():
            with open(hidden / f"{code}.{fmt}", "wb") as handle:
                handle.write(content)
                handle.flush()
                os.fsync(handle.fileno())
        final = base / f"{code}-{token}"
        os.rename(hidden, final)
    except BaseException:
        shutil.rmtree(hidden, ignore_errors=True)
        raise
    return final


# --- links and files ----------------------------------------------------------------------------

def _link_fields(account_id: str, code: str, fmt: str) -> dict[str, str]:
    return {"account": account_id, "report": code, "format": fmt}


def download_link(settings, account_id: str, code: str, fmt: str) -> dict:
    """A fresh signed URL of one of the report's files (each call mints a new one)."""
    report = get_report(account_id, code)
    if fmt not in FORMATS:
        raise ValidationError("format", "must be one of: " + ", ".join(FORMATS))
    if not report.files:
        raise ReportNotReady(f"Report {code} has no files yet (status {report.status}); "
                             "try again when it is completed.")
    query, expires_at = signed_links.mint(LINK_PURPOSE, _link_fields(account_id, code, fmt),
                                          settings.reports.link_lifetime_seconds)
    url = (f"{settings.server.public_url}/files/reports/{account_id}/{code}.{fmt}?"
           + "&".join(f"{name}={value}" for name, value in query.items()))
    return {"download_url": url, "expires_at": clock.iso(expires_at),
            "filename": report.files[fmt]["name"], "format": fmt.upper()}


def open_signed_file(settings, account_id: str, code: str, fmt: str,
                     query: dict[str, str]) -> tuple[Path, str]:
    """The file a signed link stands for, and its suggested name. InvalidSignature (403) for an
    altered link, LinkExpired (410) for a late one, NotFound when the report is gone."""
    signed_links.check(LINK_PURPOSE, _link_fields(account_id, code, fmt), query)
    report = Report.get_or_none((Report.account == account_id) & (Report.code == code))
    if report is None or not report.files:
        raise NotFound("The report no longer exists.")
    path = _account_dir(settings, account_id) / report.files["dir"] / report.files[fmt]["name"]
    if not path.is_file():
        raise NotFound("The report's file is missing; regenerate the report.")
    return path, report.files[fmt]["name"]


# --- filing ---------------------------------------------------------------------------------------

def record_submission(account_id: str, code: str, reference: str) -> Report:
    """Record that the report was filed with AADE under `reference`; status `submitted`."""
    reference = (reference or "").strip()
    if not reference or len(reference) > REFERENCE_MAX:
        raise ValidationError("reference", f"must be 1 to {REFERENCE_MAX} characters")
    with atomic():
        report = get_report(account_id, code)
        if report.status not in ("completed", "submitted"):
            raise ReportNotReady(f"Report {code} is {report.status}: only a completed report "
                                 "can be marked as filed.")
        if report.status == "submitted" and report.submission_reference == reference:
            return report
        now = clock.utcnow()
        report.status = "submitted"
        report.submitted_at = now
        report.submission_reference = reference
        report.updated_at = now
        report.save()
    return report


# --- what the worker does on its own --------------------------------------------------------------

def periods_due_for_generation(generate_hour: int) -> list[tuple[str, int, int | None]]:
    """(account, year, month) of the reports the schedule should generate now: the month just
    closed from the 1st at `generate_hour` (Athens), and in January the year just closed, for
    accounts that existed in that period and have no such report yet. A server that was off at
    that hour catches up on its next run."""
    now = local_now()
    if now.day == 1 and now.hour < generate_hour:
        return []
    last_month_start = (now.date().replace(day=1) - dt.timedelta(days=1)).replace(day=1)
    periods = [(last_month_start.year, last_month_start.month)]
    if now.month == 1:
        periods.append((now.year - 1, None))
    due = []
    for account in Account.select(Account.id, Account.created_at):
        existing = {row.code for row in Report.select(Report.code).where(
            Report.account == account.id)}
        for year, month in periods:
            _, end = period_bounds(year, month)
            if report_code(year, month) in existing:
                continue
            if account.created_at is not None and account.created_at.date() >= end:
                continue  # the account did not exist in that period
            due.append((account.id, year, month))
    return due


def announce_due_soon() -> int:
    """`report.due_soon` once per monthly report, 5 days before its deadline, unless filed."""
    today = local_today()
    sent = 0
    candidates = Report.select().where(Report.month.is_null(False)
                                       & (Report.status != "submitted")
                                       & Report.due_soon_sent_at.is_null())
    for report in candidates:
        due = stays_due_date(report.year, report.month)
        if not due - dt.timedelta(days=DUE_SOON_DAYS) <= today <= due:
            continue
        with atomic():
            fresh = Report.get_by_id(report.id)
            if fresh.due_soon_sent_at is not None or fresh.status == "submitted":
                continue
            fresh.due_soon_sent_at = clock.utcnow()
            fresh.save()
            events.emit(fresh.account_id, "report.due_soon", report_view(fresh))
        sent += 1
    return sent

