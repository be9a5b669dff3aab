"""Reading reports: one by its code, a page of them, and whether one is outdated or overdue.

Status: pending -> generating -> completed | failed; `submitted` once the host records the filing.
`provisional`: the files were made while the period was running (only what had happened by
then); the schedule regenerates the report once the period has closed.
"""

from __future__ import annotations

import datetime as dt

from rentalcomply.authorities.aade.building import period_bounds, stays_due_date
from rentalcomply.core.errors import NotFound, ValidationError
from rentalcomply.core.models import Booking, Property
from rentalcomply.reports.models import Report
from rentalcomply.reports.periods import local_today

STATUSES = ("pending", "generating", "completed", "failed", "submitted")


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
