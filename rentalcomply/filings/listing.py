"""An account's filings as one list, booking and period alike (`GET /filings`, the dashboard's
Filings page, `rentalcomply police filings`), and what the host does with one of them by its id:
file again, mark a hand-uploaded file filed. Knows nothing of the web: the routes (the end of
filings/api.py) only pass the filters, the page or the cursor through.

A booking filing's subject is its booking (and the booking's property); a period filing's is a
property and a period ("2026-03", "2026-Q1", "2026"): the list shows either with the same fields,
`booking_id` or `period` null for the other kind."""

from __future__ import annotations

import base64
import binascii
import datetime as dt
import json
import re
from dataclasses import dataclass

from rentalcomply.core import clock, events
from rentalcomply.core.db import atomic
from rentalcomply.core.errors import NotFound, PoliceNotReady, ValidationError
from rentalcomply.core.models import Booking
from rentalcomply.filings import host, periods, registry, setup
from rentalcomply.filings import receipts as day_receipts
from rentalcomply.filings.engine import (FILING_STATUSES, KINDS, REFERENCE_MAX, emit, locked,
                                         save_booking, save_filing)
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


# Months ("2026-11"), quarters ("2026-Q1") and years ("2026"): the periods filings are owed for.
PERIOD_PATTERN = r"^[0-9]{4}(-(0[1-9]|1[0-2]|Q[1-4]|H[12]))?$"
# The kinds of the booking filings, and of the period filings (a period authority's
# `period_kind`: "month" for ISTAT's statistics through ROSS 1000).
def listed_kinds() -> tuple[str, ...]:
    return tuple(dict.fromkeys((*KINDS, *registry.period_kinds())))

# The connectors that are not an authority of the registry.
SPECIAL_TITLES = {"file": "A file uploaded by hand", "none": "Nothing filed"}


def status_words(status: str) -> str:
    return STATUS_WORDS.get(status, status)


# Done with, one way or the other: never at risk any more (as views.at_risk_bookings).
SETTLED = ("submitted", "failed", "rejected")


def is_at_risk(row: Filing) -> bool:
    """Announced at risk (`police.at_risk`: its deadline near with nothing filed) and still
    not filed."""
    return row.at_risk_at is not None and row.status not in SETTLED


def authority_title(name: str) -> str:
    """What a person calls the authority a filing goes to; its name when none is registered."""
    try:
        return registry.get(name).title or name
    except KeyError:
        return SPECIAL_TITLES.get(name, name)


def reason_words(row: Filing) -> str | None:
    """Why a filing is held, refused or not sent, in a sentence (the API's `reason_text`); the
    raw reason stays in `error`. None when nothing stops it."""
    if row.status == "held":
        if setup.is_setup_hold(row.held_reason):
            return ("Nothing was sent: the set-up is not complete (missing: "
                    + ", ".join(setup.missing_names(row.held_reason)) + ").")
        return "Nothing was sent: " + (row.held_reason or row.error or "a value cannot be coded.")
    if not row.error:
        return None
    if row.status == "rejected":
        return "The authority refused it: " + row.error
    if row.status == "failed":
        return "It could not be sent: " + row.error
    if row.status in ("queued", "sending", "polling"):
        return "The last attempt did not go through; it is tried again by itself: " + row.error
    return None


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
            "authority_title": authority_title(row.authority),
            "booking_id": row.booking_id,
            "property_id": row.property_id or properties.get(row.booking_id),
            "period": row.period,
            "status_text": status_words(row.status),
            "at_risk": is_at_risk(row),
            "reason_text": reason_words(row),
            "file": host.signed_file_link(settings, account_id, row) if row.file_sealed else None,
            "receipt": receipt_link,
        })
    return views


@dataclass
class FilingPage:
    """One page of the list: its filings as shown, how many match the filters in all, and the
    cursor of the page after it (None at the end)."""

    views: list[dict]
    total: int
    has_more: bool
    next_cursor: str | None


def _as_datetime(value) -> dt.datetime:
    # A model's DateTimeField is a datetime; SQLite may hand back its text when read raw.
    return value if isinstance(value, dt.datetime) else dt.datetime.fromisoformat(str(value))


def encode_cursor(row: Filing, newest_first: bool) -> str:
    """An opaque cursor: the last row's place in the order (its deadline to the microsecond, its
    id) and the order it belongs to. Not a credential: it only says where to go on from."""
    place = [_as_datetime(row.deadline).isoformat(), row.id, "d" if newest_first else "a"]
    return base64.urlsafe_b64encode(json.dumps(place).encode()).decode().rstrip("=")


def decode_cursor(text: str, newest_first: bool) -> tuple[dt.datetime, str]:
    """A cursor's place, or 400 naming `cursor` for anything this list did not give."""
    try:
        raw = base64.urlsafe_b64decode(text + "=" * (-len(text) % 4))
        deadline, filing_id, order = json.loads(raw)
        place = dt.datetime.fromisoformat(deadline), str(filing_id)
    except (ValueError, TypeError, UnicodeDecodeError, binascii.Error):
        raise ValidationError("cursor", "is not a cursor this list gave (use its next_cursor "
                                        "as it is)") from None
    if order != ("d" if newest_first else "a"):
        raise ValidationError("cursor", "belongs to a list in another order")
    return place


def check_filters(*, authority=None, kind=None, period=None, status=None, **_ids) -> None:
    """The API's checks of the filters, for the command line (the API's query fields say the
    same): an unknown authority, kind or status, a malformed period."""
    problems = [(name, f"must be one of: {', '.join(choices)}")
                for name, value, choices in (("authority", authority, registry.all_names()),
                                             ("kind", kind, listed_kinds()),
                                             ("status", status, FILING_STATUSES))
                if value is not None and value not in choices]
    if period is not None and not re.fullmatch(PERIOD_PATTERN, period):
        problems.append(("period", "must be a month (2026-03), a quarter (2026-Q1), a half-year (2026-H1) or a year"))
    if problems:
        raise ValidationError([{"field": name, "message": message} for name, message in problems])


def authorities_of(account_id: str) -> list[tuple[str, str]]:
    """The authorities the account's filings go to, each with its title (a list's filter)."""
    names = [name for (name,) in Filing.select(Filing.authority).distinct()
             .where(Filing.account == account_id).tuples()]
    return [(name, authority_title(name)) for name in names]


def filtered(account_id: str, *, property_id=None, booking_id=None, authority=None, kind=None,
             period=None, status=None):
    """The account's filings that pass the filters (each optional). A property's filings are
    its period filings and its bookings' filings; another account's property or booking simply
    matches nothing (its ids are never looked up outside the account)."""
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
    return query


def filing_page(settings, account_id: str, *, limit: int, page: int | None = None,
                cursor: str | None = None, newest_first: bool = False,
                **filters) -> FilingPage:
    """A page of the account's filings: the nearest deadline first (`newest_first`: the latest
    first, the Filings page's order), then by id, so that two filings due at once keep one
    order. Either `page` (a number, for clients that count pages) or `cursor` (where the last
    page ended: stable while filings are added, none shown twice or missed), not both."""
    if page is not None and cursor is not None:
        raise ValidationError("cursor", "cannot be sent with page: walk by one or the other")
    query = filtered(account_id, **filters)
    total = query.count()
    if newest_first:
        ordered = query.order_by(Filing.deadline.desc(), Filing.id.desc())
    else:
        ordered = query.order_by(Filing.deadline, Filing.id)
    if cursor is not None:
        deadline, last_id = decode_cursor(cursor, newest_first)
        if newest_first:
            ordered = ordered.where((Filing.deadline < deadline)
                                    | ((Filing.deadline == deadline) & (Filing.id < last_id)))
        else:
            ordered = ordered.where((Filing.deadline > deadline)
                                    | ((Filing.deadline == deadline) & (Filing.id > last_id)))
        rows = list(ordered.limit(limit + 1))
    else:
        rows = list(ordered.offset(((page or 1) - 1) * limit).limit(limit + 1))
    has_more = len(rows) > limit
    rows = rows[:limit]
    next_cursor = encode_cursor(rows[-1], newest_first) if has_more else None
    return FilingPage(_views(settings, account_id, rows), total, has_more, next_cursor)


def filing(settings, account_id: str, filing_id: str) -> dict:
    return _views(settings, account_id, [_get(account_id, filing_id)])[0]


def refile(settings, account_id: str, filing_id: str) -> dict:
    """File again. A booking filing goes through the booking's `police/refile` (it takes the
    booking's other refused or failed filings with it: the same guest data fixes them); a
    period filing is queued again by itself, as the engine takes a due filing: attempts from
    0, the last error cleared, due now."""
    row = _get(account_id, filing_id)
    if row.booking_id is None:  # a period filing: its own state machine (periods.py)
        with atomic():
            periods.refile(locked(row.id))
        return filing(settings, account_id, filing_id)
    if row.status not in REFILABLE:
        raise PoliceNotReady(f"Nothing to file again: the filing is {row.status}.")
    host.refile(account_id, row.booking_id)
    return filing(settings, account_id, filing_id)


def mark_filed(settings, account_id: str, filing_id: str, reference: str | None) -> dict:
    """The host uploaded this filing's file by hand: SUBMITTED, with the authority's reference.
    409 when already submitted or when no file awaits (decisions.md: a business rule on the
    resource's state)."""
    reference = (reference or "").strip() or None
    if reference and len(reference) > REFERENCE_MAX:
        raise ValidationError("reference", f"must be at most {REFERENCE_MAX} characters")
    with atomic():
        row = _get(account_id, filing_id)
        if row.booking_id is None:  # a period filing: the host uploaded or typed it in
            periods.mark_filed(locked(row.id), reference)
            return filing(settings, account_id, filing_id)
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


def preview(account_id: str, filing_id: str) -> tuple[str, str, bytes]:
    """A period filing's file built now, with the figures so far."""
    row = _get(account_id, filing_id)
    if row.booking_id is not None:
        raise PoliceNotReady("A booking's filing has no preview: its file is built when it is "
                             "filed (`GET /bookings/{id}/police/file`).")
    return periods.preview(row)


def _mark_booking_filed(row: Filing, reference: str | None) -> None:
    booking = Booking.get_by_id(row.booking_id)
    save_filing(row, status="submitted", submitted_at=clock.utcnow(), reference=reference,
                guests=[{"index": i, "accepted": True, "code": None, "message": None}
                        for i in range(booking.guest_count)])
    # The booking is submitted once none of its filings awaits a hand upload any more.
    if not Filing.select().where((Filing.booking == booking.id)
                                 & (Filing.status == "ready")).exists():
        save_booking(booking, report_status="SUBMITTED", report_error=None)
    emit(booking, "police.submitted", row)
