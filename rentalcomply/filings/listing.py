"""An account's filings as one list, booking and period alike (`GET /filings`), and what the host
does with one of them by its id: file again, mark a hand-uploaded file filed. Knows nothing of
the web: the routes (filings/list_api.py) only pass the filters and the page through."""

from __future__ import annotations

from rentalcomply.core import clock
from rentalcomply.core.db import atomic
from rentalcomply.core.errors import NotFound, PoliceNotReady, ValidationError
from rentalcomply.core.models import Booking
from rentalcomply.filings import host
from rentalcomply.filings import receipts as day_receipts
from rentalcomply.filings.engine import REFERENCE_MAX, emit, save_booking, save_filing
from rentalcomply.filings.models import Filing, PoliceReceipt, PoliceReceiptFiling
from rentalcomply.filings.views import filing_view

# A sentence per status, for a person reading the list (the API's `status_text`, later the
# Filings page): standing.py words a booking's standing, not one filing's state, so the words
# of a filing live here, with no page behind them.
STATUS_WORDS = {
    "waiting": "Waiting for what it files (the guests' check-in, or the period to end).",
    "queued": "Queued: it will be sent shortly.",
    "sending": "Being sent to the authority.",
    "polling": "Sent: waiting for the authority's answer.",
    "ready": "The file is ready: upload it to the authority by hand, then mark it filed.",
    "submitted": "Filed: the authority took it.",
    "rejected": "Refused by the authority: correct the data and file it again.",
    "failed": "Could not be sent after several attempts: file it again.",
    "held": "Held: nothing was sent; it is filed by itself once what it waits for is there.",
}
# What `refile` takes again: the booking endpoint's states (host.refile).
REFILABLE = ("rejected", "failed", "ready", "held")


def status_words(status: str) -> str:
    return STATUS_WORDS.get(status, status)


def _get(account_id: str, filing_id: str) -> Filing:
    # Another account's filing is a filing that does not exist (no enumeration).
    row = Filing.get_or_none((Filing.id == filing_id) & (Filing.account == account_id))
    if row is None:
        raise NotFound("No such filing.")
    return row


def _receipt_link(settings, account_id: str, row: Filing) -> dict | None:
    """The kept day receipt acknowledging the filing (the newest), with a fresh one-hour link."""
    kept = (PoliceReceipt.select().join(PoliceReceiptFiling,
                                        on=(PoliceReceiptFiling.receipt == PoliceReceipt.id))
            .where((PoliceReceiptFiling.filing == row.id) & (PoliceReceipt.status == "kept")
                   & PoliceReceipt.pdf_sealed.is_null(False))
            .order_by(PoliceReceipt.day.desc()).first())
    if kept is None:
        return None
    url, expires_at = day_receipts._mint(settings, account_id, kept.id)
    return {"download_url": url, "expires_at": clock.iso(expires_at),
            "filename": day_receipts.filename(kept)}


def listed_view(settings, account_id: str, row: Filing) -> dict:
    """A filing of the list: its view (as under the booking's police), what it is about, its
    status in words and its links."""
    booking_property = None
    if row.booking_id is not None:
        booking_property = (Booking.select(Booking.property).where(Booking.id == row.booking_id)
                            .scalar())
    return {
        **filing_view(row),
        "authority": row.authority,
        "booking_id": row.booking_id,
        "property_id": row.property_id or booking_property,
        "period": row.period,
        "status_text": status_words(row.status),
        "file": host.signed_file_link(settings, account_id, row) if row.file_sealed else None,
        "receipt": _receipt_link(settings, account_id, row),
    }


def filing_page(settings, account_id: str, *, page: int, limit: int, property_id=None,
                booking_id=None, authority=None, kind=None, period=None,
                status=None) -> tuple[list[dict], int]:
    """The account's filings, the nearest deadline first (then id, so pages never overlap), and
    their number. A booking filing's property is its booking's."""
    query = Filing.select().where(Filing.account == account_id)
    if property_id is not None:
        query = query.where((Filing.property == property_id) | Filing.booking.in_(
            Booking.select(Booking.id).where((Booking.property == property_id)
                                             & (Booking.account == account_id))))
    if booking_id is not None:
        query = query.where(Filing.booking == booking_id)
    if authority is not None:
        query = query.where(Filing.authority == authority)
    if kind is not None:
        query = query.where(Filing.kind == kind)
    if period is not None:
        query = query.where(Filing.period == period)
    if status is not None:
        query = query.where(Filing.status == status)
    total = query.count()
    rows = list(query.order_by(Filing.deadline, Filing.id).paginate(page, limit))
    return [listed_view(settings, account_id, row) for row in rows], total


def filing(settings, account_id: str, filing_id: str) -> dict:
    return listed_view(settings, account_id, _get(account_id, filing_id))


def _booking_only(row: Filing) -> None:
    # Period filings have no hand actions yet: they come with their state machine (issue 37).
    if row.booking_id is None:
        raise PoliceNotReady("This filing is not a booking's: it cannot be acted on here yet.")


def refile(settings, account_id: str, filing_id: str) -> dict:
    """File again, as the booking's `police/refile` does (it takes the booking's other refused
    or failed filings with it: they are fixed by the same guest data)."""
    row = _get(account_id, filing_id)
    _booking_only(row)
    if row.status not in REFILABLE:
        raise PoliceNotReady(f"Nothing to file again: the filing is {row.status}.")
    host.refile(account_id, row.booking_id)
    return filing(settings, account_id, filing_id)


def mark_filed(settings, account_id: str, filing_id: str, reference: str | None) -> dict:
    """The host uploaded this filing's file by hand: SUBMITTED. 409 when already submitted or
    when no file awaits (decisions.md: a business rule on the resource's state)."""
    reference = (reference or "").strip() or None
    if reference and len(reference) > REFERENCE_MAX:
        raise ValidationError("reference", f"must be at most {REFERENCE_MAX} characters")
    with atomic():
        row = _get(account_id, filing_id)
        _booking_only(row)
        if row.status == "submitted":
            raise PoliceNotReady("The filing is already submitted.")
        if row.status != "ready":
            raise PoliceNotReady(f"No file awaits upload: the filing is {row.status}.")
        booking = Booking.get_by_id(row.booking_id)
        save_filing(row, status="submitted", submitted_at=clock.utcnow(), reference=reference,
                    guests=[{"index": i, "accepted": True, "code": None, "message": None}
                            for i in range(booking.guest_count)])
        # The booking is submitted once none of its filings awaits a hand upload any more.
        if not Filing.select().where((Filing.booking == booking.id)
                                     & (Filing.status == "ready")).exists():
            save_booking(booking, report_status="SUBMITTED", report_error=None)
        emit(booking, "police.submitted", row)
    return filing(settings, account_id, filing_id)
