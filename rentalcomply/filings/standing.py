"""Where a booking stands with the police, as a person reads it, and what keeps its deadline from
being met: one answer for Today, the morning e-mail, the booking's page and the Bookings list.

A booking's stored `report_status` follows its guests' registration alone (engine.py): a held
filing leaves it QUEUED, and a stay whose guests never checked in is PENDING however late it is.
The pages used to read it each their own way ("Queued" in one place, "Held" in another, "Pending"
past the deadline). `shown_status` folds the filings in, once:

    REJECTED, FAILED  as stored: a person must act on the authority's answer
    HELD              a filing waits for a code table or the set-up (nothing is sent)
    OVERDUE, AT_RISK  a reservation waiting for its holder (by its deadline: it cannot go
                      without a person)
    OVERDUE           a filing not made (or a party not checked in) whose deadline has passed
    AT_RISK           the same, its deadline within NEAR (24 hours)
    otherwise         the stored status

`unfiled` lists what a person must do before (or since) a deadline: a party that has not checked
in within NEAR of its deadline or after it (`not_checked_in`), a Spanish reservation whose holder is not known (`holder_unknown`,
`holder_unreachable`). Nothing here is stored; nothing here knows of pages.
"""

from __future__ import annotations

import dataclasses
import datetime as dt
import re

from rentalcomply.core import clock, sealing
from rentalcomply.core.models import Booking, Property
from rentalcomply.filings import registry, setup
from rentalcomply.filings.deadlines import as_date, deadline
from rentalcomply.filings.models import Filing
from rentalcomply.filings.party import guests_of

# How near a deadline is listed for a person and shown At risk. Wider than the worker's
# police.at_risk (sweep.AT_RISK_BEFORE, 6 hours, for programs that act at once): the morning
# e-mail goes once a day, so a deadline at 14:00 must be in that morning's e-mail, not first in
# the next one, after it has passed.
NEAR = dt.timedelta(hours=24)
# A stay whose deadline passed stays on Today this long after its arrival: the police take a late
# registration, and a month is past any host's doubt that it was seen.
LOOKBACK_DAYS = 30
# Filings not done: each still has a deadline to meet.
OPEN = ("waiting", "queued", "sending", "polling", "ready")
# The reasons a Spanish reservation waits (authorities/ses/reservations.py words them for the
# API): told apart by their beginning, which that module keeps.
HOLDER_REASONS = (("the reservation waits for its holder", "holder_unknown"),
                  ("the reservation waits for the holder's phone", "holder_unreachable"))


@dataclasses.dataclass
class Unfiled:
    """A filing a person must see to: whose booking, which filing, why, and by when."""
    booking: Booking
    kind: str            # the filing's kind: "arrival", "reservation"
    why: str             # "not_checked_in", "holder_unknown", "holder_unreachable"
    deadline: dt.datetime  # naive UTC
    passed: bool
    timezone: str = "UTC"  # the property's: where the deadline is a local time


def holder_problem(kind: str, status: str, error: str | None) -> str | None:
    """Why a waiting reservation cannot be sent, as a code, or None (a filing's kind, status and
    reason: a row's or its view's)."""
    if kind != "reservation" or status != "waiting" or not error:
        return None
    for start, why in HOLDER_REASONS:
        if error.startswith(start):
            return why
    return "holder_unknown"


def _arrival_deadline(booking: Booking, prop: Property, rows: list[Filing]) -> dt.datetime | None:
    """The registration's deadline while nobody checked in: its row's (the worker makes one when
    it announces the risk), else the authority's rule."""
    if prop.police_connector == "none" or booking.checkin_status == "COMPLETED" \
            or booking.report_status != "PENDING":
        return None
    for row in rows:
        if row.kind == "arrival":
            return row.deadline if row.status == "waiting" else None
    return deadline(prop, booking)


def _unfiled_of(booking: Booking, prop: Property, rows: list[Filing], now: dt.datetime,
                near_only: bool) -> list[Unfiled]:
    found = []
    if booking.status != "confirmed" or booking.is_block:
        return found
    due = _arrival_deadline(booking, prop, rows)
    if due is not None and (not near_only or due - NEAR <= now):
        found.append(Unfiled(booking, "arrival", "not_checked_in", due, due <= now,
                             prop.timezone or "UTC"))
    for row in rows:
        why = holder_problem(row.kind, row.status, row.error)
        if why:
            found.append(Unfiled(booking, row.kind, why, row.deadline, row.deadline <= now,
                                 prop.timezone or "UTC"))
    return found


def unfiled(account_id: str, now: dt.datetime | None = None) -> list[Unfiled]:
    """For Today and the morning e-mail: every party not checked in whose deadline is near or
    passed (stays arrived in the last LOOKBACK_DAYS), and every reservation waiting for its
    holder; the nearest deadline first."""
    now = now or clock.utcnow()
    today = now.date()
    live = ((Booking.account == account_id) & (Booking.status == "confirmed")
            & (Booking.is_block == False))  # noqa: E712 - SQL
    # Deadlines are at most a few days after the arrival (Portugal: three working days).
    pending = list(Booking.select().where(
        live & (Booking.report_status == "PENDING") & (Booking.checkin_status != "COMPLETED")
        & (Booking.arrival_date <= today + dt.timedelta(days=2))
        & (Booking.arrival_date >= today - dt.timedelta(days=LOOKBACK_DAYS)))
        .order_by(Booking.arrival_date, Booking.id).limit(200))
    waiting_ids = [booking_id for (booking_id,) in Filing.select(Filing.booking).join(
        Booking, on=(Filing.booking == Booking.id)).where(
        live & (Filing.kind == "reservation") & (Filing.status == "waiting")
        & Filing.error.is_null(False)
        & (Booking.arrival_date >= today - dt.timedelta(days=LOOKBACK_DAYS))).tuples()]
    known = {b.id for b in pending}
    pending += list(Booking.select().where(Booking.id.in_(
        [i for i in waiting_ids if i not in known])).limit(200)) if waiting_ids else []
    found = []
    for booking, prop, rows in _with_filings(pending):
        found += _unfiled_of(booking, prop, rows, now, near_only=True)
    return sorted(found, key=lambda u: (u.deadline, u.booking.id, u.kind))


def of_booking(booking: Booking, now: dt.datetime | None = None) -> list[Unfiled]:
    """For the booking's page: the same as `unfiled`, for one booking."""
    now = now or clock.utcnow()
    [(booking, prop, rows)] = _with_filings([booking])
    return _unfiled_of(booking, prop, rows, now, near_only=True)


def _with_filings(bookings: list[Booking]) -> list[tuple[Booking, Property, list[Filing]]]:
    """Each booking with its property and its filings, in two queries."""
    if not bookings:
        return []
    ids = [b.id for b in bookings]
    rows: dict[str, list[Filing]] = {}
    for row in Filing.select().where(Filing.booking.in_(ids)).order_by(Filing.created_at):
        rows.setdefault(row.booking_id, []).append(row)
    props = {p.id: p for p in Property.select().where(
        Property.id.in_({b.property_id for b in bookings}))}
    return [(b, props[b.property_id], rows.get(b.id, [])) for b in bookings]


def _shown(booking: Booking, prop: Property, rows: list[Filing], now: dt.datetime) -> str:
    status = booking.report_status
    if status in ("AT_RISK", "HELD"):  # as filings.views marks a row for display: not stored
        status = "QUEUED"
    if booking.status == "cancelled" or booking.is_block or status in ("REJECTED", "FAILED"):
        return status
    if any(row.status == "held" for row in rows):
        return "HELD"
    # A reservation that cannot go without a person (its holder) is at risk from the start: its
    # 24 hours are short, and it is on Today as long as it waits.
    holder_due = [row.deadline for row in rows
                  if holder_problem(row.kind, row.status, row.error)]
    if holder_due:
        return "OVERDUE" if min(holder_due) <= now else "AT_RISK"
    due = [row.deadline for row in rows if row.status in OPEN and row.deadline is not None]
    arrival_due = _arrival_deadline(booking, prop, rows)
    if arrival_due is not None:
        due.append(arrival_due)
    if due:
        first = min(due)
        if first <= now:
            return "OVERDUE"
        if first - NEAR <= now:
            return "AT_RISK"
    return status


def shown_status(booking: Booking, now: dt.datetime | None = None) -> str:
    """The booking's police status as every page says it (see the module's table)."""
    return shown_statuses([booking], now)[booking.id]


def shown_statuses(bookings: list[Booking], now: dt.datetime | None = None) -> dict[str, str]:
    """`shown_status` of each booking (a list page's rows), in two queries."""
    now = now or clock.utcnow()
    return {b.id: _shown(b, prop, rows, now) for b, prop, rows in _with_filings(list(bookings))}


# --- what holds a filing, named -----------------------------------------------------------------

# codes.held_reason's words: "guest 2 birth_municipality has no code in the starter code tables"
_UNCODED = re.compile(r"guest (\d+) (\w+) has no code")


@dataclasses.dataclass
class HeldValue:
    """A guest's value that holds a filing: who, which field, what was typed."""
    guest: str       # the guest's name, or "" when the party cannot be read
    number: int      # 1-based, as the pages number guests
    field: str       # the check-in field's name: "birth_municipality", "address_city", ...
    value: str


def held_values(booking: Booking, reason: str | None) -> list[HeldValue]:
    """The values a code hold names (engine.hold's reason), with the guest's name and what they
    typed, read from the sealed party; [] for a set-up hold or a reason of another shape."""
    if not reason or setup.is_setup_hold(reason):
        return []
    found = [(int(n) - 1, field) for n, field in _UNCODED.findall(reason)]
    if not found:
        return []
    try:
        prop = Property.get_by_id(booking.property_id)
        party = {g.index: g.data for g in guests_of(booking, prop.country)}
    except (sealing.Unsealable, Property.DoesNotExist):
        party = {}
    values = []
    for index, field in found:
        data = party.get(index, {})
        name = " ".join(str(data[k]) for k in ("first_name", "last_name") if data.get(k))
        value = data.get(field)
        if isinstance(value, dict):  # a place chosen from a list: its name
            value = value.get("name") or value.get("code")
        values.append(HeldValue(name, index + 1, field, str(value or "")))
    return values


def arrival_day(booking: Booking) -> dt.date:
    return as_date(booking.arrival_date)


def authority_title(prop_country: str) -> str:
    """The authority's name (SES.Hospedajes, Alloggiati Web...), for a sentence; "" where none
    is registered."""
    return getattr(registry.of_country(prop_country), "title", "") or ""
