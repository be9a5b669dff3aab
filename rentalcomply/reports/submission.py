"""Filing a report with AADE: the host records it (`submitted`), and is told 5 days before a
monthly report's deadline that it is not filed yet (`report.due_soon`)."""

from __future__ import annotations

import datetime as dt

from rentalcomply.authorities.aade.building import stays_due_date
from rentalcomply.core import clock, events
from rentalcomply.core.db import atomic
from rentalcomply.core.errors import ReportNotReady, ValidationError
from rentalcomply.reports.models import Report
from rentalcomply.reports.periods import local_today
from rentalcomply.reports.queries import get_report
from rentalcomply.reports.views import report_view

DUE_SOON_DAYS = 5
REFERENCE_MAX = 100


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
