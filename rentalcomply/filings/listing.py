"""An account's filings as one list, booking and period alike (`GET /filings`), and what the host
does with one of them by its id: file again, mark a hand-uploaded file filed. Knows nothing of
the web: the routes (filings/list_api.py) only pass the filters and the page through."""

from __future__ import annotations

from rentalcomply.core import clock
from rentalcomply.core.db import atomic
from rentalcomply.core.errors import NotFound, PoliceNotReady, ValidationError
from rentalcomply.core.models import Booking
from rentalcomply.filings import host, registry
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


def _kept_receipts(rows: list[Filing]) -> dict[str, PoliceReceipt]:
    """Per filing, the newest kept day receipt acknowledging it: one query for a whole page."""
    found = (PoliceReceipt.select(PoliceReceipt, PoliceReceiptFiling.filing.alias("filing_id"))
             .join(PoliceReceiptFiling, on=(PoliceReceiptFiling.receipt == PoliceReceipt.id))
             .where(PoliceReceiptFiling.filing.in_([row.id for row in rows])
                    & (PoliceReceipt.status == "kept") & PoliceReceipt.pdf_sealed.is_null(False))
             .order_by(PoliceReceipt.day).objects())
    return {receipt.filing_id: receipt for receipt in found} if rows else {}


def _views(settings, account_id: str, rows: list[Filing]) -> list[dict]:
    """Filings of the list: each one's view (as under the booking's police), what it is about,
    its status in words and its links. A booking filing's property is its booking's."""
    booking_ids = {row.booking_id for row in rows if row.booking_id is not None}
    properties = dict(Booking.select(Booking.id, Booking.property)
                      .where(Booking.id.in_(list(booking_ids))).tuples()) if booking_ids else {}
    receipts = _kept_receipts(rows)
    views = []
    for row in rows:
        receipt = receipts.get(row.id)
        receipt_link = None
        if receipt is not None:
            url, expires_at = day_receipts.mint(settings, account_id, receipt.id)
            receipt_link = {"download_url": url, "expires_at": clock.iso(expires_at),
                            "filename": day_receipts.filename(receipt)}
        views.append({
            **filing_view(row),
            "authority": row.authority,
            "booking_id": row.booking_id,
            "property_id": row.property_id or properties.get(row.booking_id),
            "period": row.period,
            "status_text": status_words(row.status),
            "file": host.signed_file_link(settings, account_id, row) if row.file_sealed else None,
            "receipt": receipt_link,
        })
    return views


def filing_page(settings, account_id: str, *, page: int, limit: int, property_id=None,
                booking_id=None, authority=None, kind=None, period=None,
                status=None) -> tuple[list[dict], int]:
    """The account's filings, the nearest deadline first (then id, so pages never overlap), and
    their number."""
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
    return _views(settings, account_id, rows), total


def filing(settings, account_id: str, filing_id: str) -> dict:
    return _views(settings, account_id, [_get(account_id, filing_id)])[0]


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
        if not Filing.select().where((Filing.id == row.id) & host.awaits_the_host()).exists():
            raise PoliceNotReady(f"No file awaits upload: the filing is {row.status}.")
        booking = Booking.get_by_id(row.booking_id)
        save_filing(row, status="submitted", submitted_at=clock.utcnow(), reference=reference,
                    guests=[{"index": i, "accepted": True, "code": None, "message": None}
                            for i in range(booking.guest_count)])
        # The booking is submitted once none of its filings awaits a hand upload any more; a
        # side filing (Spain's reservation) tells its authority, as an accepted one does.
        if row.kind in registry.side_kinds():
            registry.of_country(row.property.country).accepted(booking, row.property, row)
        elif not Filing.select().where((Filing.booking == booking.id)
                                       & host.awaits_the_host()).exists():
            save_booking(booking, report_status="SUBMITTED", report_error=None)
        emit(booking, "police.submitted", row)
    return filing(settings, account_id, filing_id)
