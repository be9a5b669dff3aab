"""Generating a report: requested, run under a lease, recorded once; the sweep that takes a
stopped generation over, and the periods the schedule generates.

Generation builds all three files in memory and stores them with the row that names them in one
transaction: a reader sees the old files or the new ones, never a mix or a half-written file.
Regenerating replaces the files and records when.

Every generation holds a lease on its row (`job`, `lease_owner`, `lease_expires_at`;
filings/leases.py), renewed by a heartbeat while it works. Only the lease's owner records the
result and emits `report.ready` (or `report.failed`), so a report queued twice is generated and
announced once. A process that dies mid-generation leaves an expired lease (or an owner that is no
longer running on this machine); `requeue_stalled` (the worker's sweep, and its start-up) queues
such a report again.
"""

from __future__ import annotations

import datetime as dt
import logging
import re
import shutil
from typing import Callable

import peewee

from rentalcomply.authorities.aade.building import build_report, period_bounds, report_code
from rentalcomply.authorities.aade.csvfile import render_csv
from rentalcomply.authorities.aade.pdffile import render_pdf
from rentalcomply.authorities.aade.xmlfile import render_xml
from rentalcomply.bookings.fees import FeeRates
from rentalcomply.core import clock, events, sealing
from rentalcomply.core.db import atomic
from rentalcomply.core.errors import ApiError
from rentalcomply.core.models import Account
from rentalcomply.filings import leases
from rentalcomply.reports.files import account_dir, file_purpose
from rentalcomply.reports.models import Report, ReportFile
from rentalcomply.reports.periods import local_now
from rentalcomply.reports.queries import get_report
from rentalcomply.reports.views import report_view

log = logging.getLogger(__name__)

STEPS = ("reading the bookings", "writing the PDF", "writing the XML", "writing the CSV",
         "storing the files")
DEFAULT_LEASE_SECONDS = 30
# A queued generation whose task has not started within this many leases is queued again (its
# task may have been lost with a crashed process); a duplicate task finds nothing to do.
QUEUED_GRACE_LEASES = 4

_lease_seconds = DEFAULT_LEASE_SECONDS


def configure(settings) -> None:
    global _lease_seconds
    _lease_seconds = settings.reports.lease_seconds


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
        sealed = {fmt: sealing.seal(file_purpose(account_id, code, fmt), content)
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
        shutil.rmtree(account_dir(settings, account_id) / previous, ignore_errors=True)
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


def _remove_strays(settings, account_id: str, code: str, keep: str | None) -> None:
    """Folders of this report a crashed generation left behind (hidden or never recorded)."""
    base = account_dir(settings, account_id)
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


# --- what the schedule generates ------------------------------------------------------------------

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
