"""Tax reports: the domain functions, which know nothing of Bottle.

A report is one row per account and period (`rep_YYYY_MM`, `rep_YYYY`) and three files (PDF, XML,
CSV) kept in the database (ReportFile), so that every server process serves them and a backup of
the database holds them. Generation builds all three in memory and stores them with the row that
names them in one transaction: a reader sees the old files or the new ones, never a mix or a
half-written file. Regenerating replaces the files and records when. (Reports made by earlier
versions keep their files on disk, under `reports/<account>/<code>-<token>/`, and are served from
there until they are regenerated.)

Status: pending -> generating -> completed | failed; `submitted` once the host records the filing.
`provisional`: the files were made while the period was running (only what had happened by
then); the schedule regenerates the report once the period has closed.

The files are sealed at rest (core/sealing.py, one key per account, report and format): they hold
the renters' tax and passport numbers. A download opens them.

Every generation holds a lease on its row (`job`, `lease_owner`, `lease_expires_at`), renewed by a
heartbeat while it works. Only the lease's owner records the result and emits `report.ready` (or
`report.failed`), so a report queued twice is generated and announced once. A process that dies
mid-generation leaves an expired lease (or an owner that is no longer running on this machine);
`requeue_stalled` (the worker's sweep, and its start-up) queues such a report again.
"""

from __future__ import annotations

import datetime as dt
import logging
import re
import shutil
from pathlib import Path
from typing import Callable

import peewee

from rentalcomply.authorities.aade.building import (ATHENS, build_report, fee_due_date,
                                                   period_bounds, report_code, stays_due_date)
from rentalcomply.authorities.aade.csvfile import render_csv
from rentalcomply.authorities.aade.pdffile import render_pdf
from rentalcomply.authorities.aade.xmlfile import render_xml
from rentalcomply.bookings.fees import FeeRates
from rentalcomply.bookings.service import cents_to_euros
from rentalcomply.core import clock, events, sealing, signed_links
from rentalcomply.core.db import atomic
from rentalcomply.core.errors import ApiError, NotFound, ReportNotReady, ValidationError
from rentalcomply.core.models import Account, Booking, Property
from rentalcomply.filings import leases
from rentalcomply.reports.models import Report, ReportFile

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
FILE_SEAL_PURPOSE = "report-file:"
DEFAULT_LEASE_SECONDS = 30
# A queued generation whose task has not started within this many leases is queued again (its
# task may have been lost with a crashed process); a duplicate task finds nothing to do.
QUEUED_GRACE_LEASES = 4

_lease_seconds = DEFAULT_LEASE_SECONDS


def configure(settings) -> None:
    global _lease_seconds
    _lease_seconds = settings.reports.lease_seconds


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
        "provisional": report.provisional,
        "as_of": clock.iso_date(report.as_of) if report.provisional else None,
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
            "status": report.status, "provisional": report.provisional,
            "property_id": None, "download_url": url,
            "submitted_at": clock.iso(report.submitted_at)}


# --- generation ---------------------------------------------------------------------------------

def request_generation(account_id: str, year: int, month: int | None) -> Report:
    """Create the report row (or mark it for regeneration) as `pending` with its job `queued`;
    the caller queues `tasks.generate_report`. A newer request supersedes a generation under way:
    that one loses its lease and records nothing."""
    code = report_code(year, month)
    now = clock.utcnow()
    queued_until = now + dt.timedelta(seconds=_lease_seconds * QUEUED_GRACE_LEASES)
    with atomic():
        report = Report.get_or_none((Report.account == account_id) & (Report.code == code))
        if report is None:
            try:
                with atomic():  # a savepoint: another request may create the row first
                    return Report.create(account=account_id, code=code, year=year, month=month,
                                         status="pending", requested_at=now, created_at=now,
                                         updated_at=now, job="queued",
                                         lease_expires_at=queued_until)
            except peewee.IntegrityError:
                report = get_report(account_id, code)
        # A submitted report stays submitted: regenerating refreshes its files only.
        if report.status != "submitted":
            report.status = "pending"
        report.job = "queued"
        report.lease_owner = None
        report.lease_expires_at = queued_until
        report.requested_at = now
        report.updated_at = now
        report.save()
    return report


def generate(settings, account_id: str, year: int, month: int | None,
             progress: Callable[[str], None] | None = None) -> Report:
    """Generate the report now, in this thread (the CLI, tests): request it, then run it."""
    request_generation(account_id, year, month)
    return run_queued(settings, account_id, year, month, progress=progress)


def run_queued(settings, account_id: str, year: int, month: int | None,
               progress: Callable[[str], None] | None = None) -> Report | None:
    """Build the report's files and record them, if its generation is waiting (queued, or its
    lease ran out); `report.ready`, or `report.failed` with the reason. A generation another
    process holds, or none waiting, is left alone: a duplicate task does nothing. Never raises
    for a failed generation: the row says what went wrong."""
    code = report_code(year, month)
    owner = leases.new_owner()
    report = _claim(account_id, code, owner)
    if report is None:
        return Report.get_or_none((Report.account == account_id) & (Report.code == code))
    with leases.Heartbeat(report, owner, _lease_seconds,
                          still_ours=Report.job == "running") as heartbeat:
        return _run(settings, report, owner, heartbeat, progress or (lambda name: None))


def _run(settings, report: Report, owner: str, heartbeat: leases.Heartbeat,
         step: Callable[[str], None]) -> Report:
    account_id, code, year, month = report.account_id, report.code, report.year, report.month
    started = clock.utcnow()
    _remove_strays(settings, account_id, code, keep=(report.files or {}).get("dir"))

    try:
        step(STEPS[0])
        data = build_report(account_id, year, month, FeeRates.from_settings(settings))
        heartbeat.check()
        step(STEPS[1])
        contents = {"pdf": render_pdf(data, started, settings.reports.language)}
        heartbeat.check()
        step(STEPS[2])
        contents["xml"] = render_xml(data, started)
        step(STEPS[3])
        contents["csv"] = render_csv(data)
        heartbeat.check()
        step(STEPS[4])
        sealed = {fmt: sealing.seal(_file_purpose(account_id, code, fmt), content)
                  for fmt, content in contents.items()}
        files = {"store": "database", "sealed": True,
                 **{fmt: {"name": f"{code}.{fmt}", "size": len(content)}
                    for fmt, content in contents.items()}}
    except leases.LeaseLost:
        log.warning("report %s of account %s: lease lost, its result is not recorded", code,
                    account_id)
        return get_report(account_id, code)
    except Exception as exc:  # a bug or a full disk: the host must hear of it, not a traceback
        log.exception("report %s of account %s failed", code, account_id)
        return _fail(account_id, code, owner, exc)
    with atomic():
        report = get_report(account_id, code)
        if report.lease_owner != owner or report.job != "running":
            # Another process took the generation over (our lease ran out), or a newer request
            # came: that one records and announces; our files are not kept.
            return report
        previous = (report.files or {}).get("dir")
        # The files and the row that names them change in one transaction: all or none, and
        # every process serves the new ones from the next request.
        ReportFile.delete().where(ReportFile.report == report.id).execute()
        ReportFile.insert_many([
            {"report": report.id, "format": fmt, "content": sealed[fmt], "size": len(contents[fmt])}
            for fmt in contents]).execute()
        report.status = "submitted" if report.status == "submitted" else "completed"
        report.booking_count = data.booking_count
        report.nights = data.nights
        report.total_revenue_cents = data.total_revenue_cents
        report.net_revenue_cents = data.net_revenue_cents
        report.climate_fee_total_cents = data.climate_fee_total_cents
        report.cancellation_count = data.cancellation_count
        report.amount_kept_cents = data.amount_kept_cents
        report.needs_attention_count = len(data.attention)
        report.provisional = data.provisional
        report.as_of = data.as_of
        report.files = files
        report.error = None
        report.generated_at = started
        report.generation_count += 1
        report.job = report.lease_owner = report.lease_expires_at = None
        report.updated_at = clock.utcnow()
        report.save()
        events.emit(account_id, "report.ready", report_view(report))
    if previous:  # the folder of files an earlier version kept on disk
        shutil.rmtree(_account_dir(settings, account_id) / previous, ignore_errors=True)
    return report


def _fail(account_id: str, code: str, owner: str, exc: Exception) -> Report:
    with atomic():
        report = get_report(account_id, code)
        if report.lease_owner != owner or report.job != "running":
            return report  # no longer ours to record
        if report.status != "submitted":
            report.status = "failed"
        report.error = ("The report could not be generated: "
                        + (exc.message if isinstance(exc, ApiError) else type(exc).__name__)
                        + ". The previous files, if any, are kept; the server log has details.")
        report.job = report.lease_owner = report.lease_expires_at = None
        report.updated_at = clock.utcnow()
        report.save()
        events.emit(account_id, "report.failed", report_view(report))
    return report


def _account_dir(settings, account_id: str) -> Path:
    return Path(settings.data_dir) / "reports" / account_id


def _file_purpose(account_id: str, code: str, fmt: str) -> str:
    return f"{FILE_SEAL_PURPOSE}{account_id}/{code}.{fmt}"


def _remove_strays(settings, account_id: str, code: str, keep: str | None) -> None:
    """Folders of this report a crashed generation left behind (hidden or never recorded)."""
    base = _account_dir(settings, account_id)
    if not base.is_dir():
        return
    for path in base.iterdir():
        name = path.name
        if name != keep and (name.startswith(f"{code}-") or name.startswith(f".{code}-")) \
                and re.fullmatch(rf"\.?{code}-[0-9a-f]{{12}}(\.tmp)?", name):
            shutil.rmtree(path, ignore_errors=True)


# --- the generation's lease (filings/leases.py) ---------------------------------------------------

def _claimable(report: Report, now: dt.datetime) -> bool:
    if report.job == "queued":
        return True
    if report.job == "running":
        return leases.can_take_over(report, now)
    return False


def _why_stalled(report: Report, now: dt.datetime) -> str:
    """What the sweep found, in words: the log line that says a report was taken over."""
    if report.job == "queued":
        return "its task did not start"
    if report.lease_expires_at is None or report.lease_expires_at < now:
        return "its lease ran out"
    return f"its worker {report.lease_owner} is no longer running"


def _claim(account_id: str, code: str, owner: str) -> Report | None:
    """Take the report's generation if it waits; the row, or None when there is nothing to do."""
    query = Report.select().where((Report.account == account_id) & (Report.code == code))
    try:
        return leases.claim(query, lambda report, now: _take(report, owner, now))
    except leases.RowNotFound:
        log.warning("report %s of account %s: no such report to generate", code, account_id)
        return None


def _take(report: Report, owner: str, now: dt.datetime) -> Report | None:
    """Inside the claim's transaction: the generation is ours if it waits and nobody took it in
    between (a conditional UPDATE)."""
    if not _claimable(report, now):
        return None
    status = report.status if report.status == "submitted" else "generating"
    if not leases.take(report, owner, now, _lease_seconds, leases.same(Report.job, report.job),
                       job="running", status=status, updated_at=now):
        return None
    return Report.get_by_id(report.id)


def requeue_stalled() -> list[tuple[str, int, int | None]]:
    """Reports whose generation stopped without a word (its process died: lease run out, or an
    owner no longer running on this machine; or a queued task lost): queued again. Returns
    (account, year, month) of each, for the caller to queue its task. Each is taken back with a
    conditional UPDATE, so two sweeping processes never queue one report twice."""
    now = clock.utcnow()
    queued_until = now + dt.timedelta(seconds=_lease_seconds * QUEUED_GRACE_LEASES)
    found = []
    for report in Report.select().where(Report.job.in_(("queued", "running"))):
        if report.job == "queued":
            if report.lease_expires_at is not None and report.lease_expires_at >= now:
                continue
            changes = {"lease_expires_at": queued_until, "version": Report.version}
        elif _claimable(report, now):
            changes = {"job": "queued", "lease_owner": None, "lease_expires_at": queued_until,
                       "status": report.status if report.status == "submitted" else "pending",
                       "updated_at": now}
        else:
            continue
        with atomic():
            taken = (Report.update(**changes)
                     .where(leases.unchanged(report) & leases.same(Report.job, report.job))
                     .execute())
        if taken == 1:
            log.warning("report %s of account %s: its generation stopped (%s); queued again",
                        report.code, report.account_id, _why_stalled(report, now))
            found.append((report.account_id, report.year, report.month))
    return found


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
                     query: dict[str, str]) -> tuple[bytes, str]:
    """The file a signed link stands for (opened), and its suggested name. InvalidSignature
    (403) for an altered link, LinkExpired (410) for a late one, NotFound when the report is
    gone."""
    signed_links.check(LINK_PURPOSE, _link_fields(account_id, code, fmt), query)
    # The link was made for a report with files: one that is not there any more is gone.
    report = Report.get_or_none((Report.account == account_id) & (Report.code == code))
    if report is None or not report.files:
        raise NotFound("The report no longer exists.")
    return read_file(settings, account_id, code, fmt)


def read_file(settings, account_id: str, code: str, fmt: str) -> tuple[bytes, str]:
    """One of the report's files as a download gives it (unsealed), and its name."""
    report = Report.get_or_none((Report.account == account_id) & (Report.code == code))
    if report is None:
        raise NotFound(f"There is no report {code} (reports list shows them; reports generate "
                       "makes one).")
    if not report.files:
        raise ReportNotReady(f"Report {code} has no files yet (status {report.status}); "
                             "try again when it is completed.")
    if report.files.get("store") == "database":
        stored = (ReportFile.select(ReportFile.content)
                  .where((ReportFile.report == report.id) & (ReportFile.format == fmt)).first())
        if stored is None:
            raise NotFound("The report's file is missing; regenerate the report.")
        content = stored.content.encode("ascii")
    else:  # made by an earlier version, on disk
        path = _account_dir(settings, account_id) / report.files["dir"] / report.files[fmt]["name"]
        if not path.is_file():
            raise NotFound("The report's file is missing; regenerate the report.")
        content = path.read_bytes()
    if report.files.get("sealed"):  # files of earlier versions were stored in clear
        try:
            content = sealing.unseal(_file_purpose(account_id, code, fmt), content.decode("ascii"))
        except (sealing.Unsealable, UnicodeDecodeError):
            raise NotFound("The report's file cannot be opened (the server secret changed?); "
                           "regenerate the report.") from None
    return content, report.files[fmt]["name"]


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
        if report.provisional:
            raise ReportNotReady(f"Report {code} is provisional: it was made while its period "
                                 "was running. It is generated again once the period has "
                                 "closed; file that one.")
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
    accounts that existed in that period and have no final report of it yet: none, or one made
    while the period was running (provisional), unless a generation of it is waiting or under way
    (the sweep looks after a stalled one). A server that was off at that hour catches up on its
    next run."""
    now = local_now()
    if now.day == 1 and now.hour < generate_hour:
        return []
    last_month_start = (now.date().replace(day=1) - dt.timedelta(days=1)).replace(day=1)
    periods = [(last_month_start.year, last_month_start.month)]
    if now.month == 1:
        periods.append((now.year - 1, None))
    due = []
    for account in Account.select(Account.id, Account.created_at):
        # Final or being generated: nothing to do. A provisional report is due again.
        existing = {row.code for row in Report.select(Report.code).where(
            (Report.account == account.id)
            & ((Report.provisional == False) | Report.job.is_null(False)))}  # noqa: E712
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

