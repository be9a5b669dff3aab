"""What the API, the events and the dashboard show of a report."""

from __future__ import annotations

from rentalcomply.authorities.aade.building import fee_due_date, stays_due_date
from rentalcomply.bookings.service import cents_to_euros
from rentalcomply.core import clock
from rentalcomply.reports.files import FORMATS, download_link
from rentalcomply.reports.models import Report
from rentalcomply.reports.queries import is_outdated, is_overdue


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
