"""Applying a fetched and parsed feed to the connection's property: the plan read first (upsert
by (connection, UID) — new stays become bookings or blocks, changed dates are applied — and the
future stays whose event vanished cancelled), then carried out in short transactions of
APPLY_BATCH stays, so the API's writes never wait long; the conflicts, the status and HTTP
validators and `sync.completed` are recorded last.

What the feed owns and what the host owns: a sync sets the dates (and cancels); the guest's name,
e-mail, phone, count, price and payment method are written once, when the booking is created,
and never again, so a host's edit of them survives every later sync. A booking the host
cancelled stays cancelled even if its event is still in the feed.

The removal guard: a feed that had future stays and lists none, or loses more than half of them
at once (when it had at least 4), applies nothing at all: the connection turns `error` with the
reason until the host accepts the removals (`rentalcomply sync run --accept-removals` or
`POST /properties/{id}/channels/{ch_id}/accept-removals`). Only stays arriving today or later
are ever cancelled.
"""

from __future__ import annotations

import dataclasses
import datetime as dt
import time
from typing import Iterable

from rentalcomply.bookings import service as bookings
from rentalcomply.bookings.fees import FeeRates, climate_fee_cents
from rentalcomply.core import clock, events, signals
from rentalcomply.core.db import db, insert_rows
from rentalcomply.core.ids import new_id
from rentalcomply.core.models import Booking, ChannelConnection, Property
from rentalcomply.properties import service as properties
from rentalcomply.sync.lease import lease_given_back
from rentalcomply.sync.models import SyncConflict, connection_by_id
from rentalcomply.sync.options import SyncOptions
from rentalcomply.sync.parse import Feed, Stay
from rentalcomply.sync.results import SyncResult, sync_event_view
from rentalcomply.sync.writing import wake_dispatcher, write_turn
from rentalcomply.taxes import service as taxes

# The removal guard: with at least this many future stays, losing more than half is suspicious.
GUARD_MIN_STAYS = 4


class RemovalsHeld(Exception):
    """The feed would remove too much at once: nothing is applied."""


# Stays applied per transaction. A large feed is applied in several short transactions, so that
# the API's writes never wait on the database for longer than one of them (measured here: 250 new
# stays with their events in 0.06 to 0.15 s; 5,000 in one transaction had held SQLite's write lock
# for seconds, and the API answered 503).
APPLY_BATCH = 250
# The pause between two batches. SQLite's lock is not fair: a writer waiting on the busy timeout
# sleeps up to 100 ms between tries, so a sync taking the lock again at once starved the API's
# writes (one waited 6.6 s). A gap longer than that sleep lets every waiting write in.
BATCH_PAUSE_SECONDS = 0.12


def apply_feed(connection_id: str, owner: str, feed: Feed, etag, last_modified,
               options: SyncOptions, accepting: bool, result: SyncResult) -> SyncResult:
    """Apply a parsed feed: the plan is read first, without holding the write lock, then carried
    out APPLY_BATCH stays at a time, each batch its own transaction re-reading the rows it
    changes (a host's edit between two batches is never overwritten); the connection's status,
    validators and `sync.completed` are recorded last. A sync stopped between batches leaves what
    it applied, and the next one finishes the job (stays are matched by UID)."""
    connection = connection_by_id(connection_id, must_exist=True)
    account_id = connection.account_id
    prop = properties.get_property(account_id, connection.property_id)
    known = {uid: (booking_id, status, arrival) for uid, booking_id, status, arrival in
             Booking.select(Booking.external_uid, Booking.id, Booking.status, Booking.arrival_date)
             .where((Booking.connection == connection.id) & Booking.external_uid.is_null(False))
             .tuples()}
    today = clock.today()
    present = {stay.uid for stay in feed.stays} | feed.unreadable_uids
    future = [uid for uid, (_, status, arrival) in known.items()
              if status == "confirmed" and _as_date(arrival) >= today]
    removals = [known[uid][0] for uid in future if uid not in present]
    if removals and not accepting:
        problem = _removal_problem(len(future), len(removals), bool(present))
        if problem:
            raise RemovalsHeld(problem)
    new_stays = [stay for stay in feed.stays if stay.uid not in known]
    seen_stays = [stay for stay in feed.stays if stay.uid in known]
    for batch in _batches_of(new_stays):
        # The rows and the events' views are made before the write turn: only the statements
        # are inside it, where every other writer waits (they were a fifth of its time).
        new = _new_bookings(prop, connection, batch, options.rates)
        with write_turn():
            prop = properties.get_property(account_id, prop.id, for_update=True)
            result.created += _import_stays(prop, connection, batch, options.rates, new)
            result.blocks += sum(1 for stay in batch if stay.is_block)
    for batch in _batches_of(seen_stays):
        with write_turn():
            result.updated += _update_stays(prop, connection, batch, options.rates)
    for batch in _batches_of(removals):
        with write_turn():
            for booking in Booking.select().where(Booking.id.in_(batch)
                                                  & (Booking.status == "confirmed")):
                _cancel(booking)
                result.cancelled += 1
    # Cancellations never make a double booking. The pairs are found before the write lock is
    # taken (reading thousands of stays took half a second); only the new ones are written.
    pairs = _conflict_pairs(prop, connection) if result.created or result.updated else []
    with write_turn():
        if pairs:
            _report_conflicts(prop, pairs)
        connection = connection_by_id(connection_id, must_exist=True)
        now = clock.utcnow()
        connection.status = "ok"
        connection.last_error = None
        connection.last_sync_attempt = now
        connection.last_sync_success = now
        connection.etag = (etag or "")[:200] or None
        connection.last_modified = (last_modified or "")[:100] or None
        connection.accept_removals = False
        connection.save(only=[ChannelConnection.status, ChannelConnection.last_error,
                              ChannelConnection.last_sync_attempt,
                              ChannelConnection.last_sync_success, ChannelConnection.etag,
                              ChannelConnection.last_modified, ChannelConnection.accept_removals,
                              *lease_given_back(connection, owner)])
        events.emit(account_id, "sync.completed", sync_event_view(connection, result))
    wake_dispatcher()
    return result


def _batches_of(items: list) -> Iterable[list]:
    for start in range(0, len(items), APPLY_BATCH):
        if start and not db.in_transaction():
            time.sleep(BATCH_PAUSE_SECONDS)
        yield items[start:start + APPLY_BATCH]


def _update_stays(prop: Property, connection: ChannelConnection, stays: list[Stay],
                  rates: FeeRates | None) -> int:
    """New dates (or a reinstatement, or a reservation code) of stays already imported, read
    afresh inside this batch's transaction. Returns how many changed dates or came back."""
    bookings_by_uid = {booking.external_uid: booking for booking in Booking.select().where(
        (Booking.connection == connection.id)
        & Booking.external_uid.in_([stay.uid for stay in stays]))}
    updated = 0
    for stay in stays:
        booking = bookings_by_uid.get(stay.uid)
        if booking is None:  # deleted meanwhile
            continue
        if booking.status == "cancelled" and booking.cancelled_by_sync:
            _move(prop, booking, stay, rates, reinstate=True)
            updated += 1
        elif booking.status == "confirmed" and (
                booking.arrival_date, booking.departure_date) != (stay.arrival, stay.departure):
            _move(prop, booking, stay, rates)
            updated += 1
        elif booking.status == "confirmed" and (
                (stay.external_ref and not booking.external_ref)
                or (stay.phone_last4 and stay.phone_last4 != booking.guest_phone_last4)):
            booking.external_ref = booking.external_ref or stay.external_ref
            booking.guest_phone_last4 = stay.phone_last4 or booking.guest_phone_last4
            _touch(booking)
            booking.save(only=[Booking.external_ref, Booking.guest_phone_last4,
                               Booking.updated_at])
            if not booking.is_block:
                events.emit(prop.account_id, "booking.updated", bookings.event_view(booking))
    return updated

def _removal_problem(future: int, removals: int, listed_any: bool) -> str | None:
    hint = ("nothing was cancelled; if the channel really cancelled them, accept the removals "
            "(rentalcomply sync run --accept-removals, or POST .../accept-removals)")
    if not listed_any:
        return f"the feed came back without any event, but {future} future stays were in it: {hint}"
    if future >= GUARD_MIN_STAYS and removals * 2 > future:
        return (f"the feed lost {removals} of its {future} future stays at once: {hint}")
    return None

# --- bookings made and changed by a sync --------------------------------------------------------

@dataclasses.dataclass
class _NewBookings:
    """A batch's booking rows and the views their `booking.created` events carry (without the
    tourist tax, read inside the transaction), made for the property as it then was."""
    made_for: tuple
    rows: list[dict]
    views: list[dict]


def _what_rows_depend_on(prop: Property) -> tuple:
    return prop.police_connector, prop.climate_fee_category


def _new_bookings(prop: Property, connection: ChannelConnection, stays: list[Stay],
                  rates: FeeRates | None) -> _NewBookings:
    """The rows of the new stays, a booking or a block each, and their events' views."""
    now = clock.utcnow()
    police = "NOT_REQUIRED" if prop.police_connector == "none" else "PENDING"
    fees: dict[tuple, int] = {}

    def fee(stay: Stay) -> int:
        """The stay's climate fee, worked out once per batch for stays with as many nights in
        the same months: a night's rate depends on its month alone (bookings/fees.py), and the
        tax engine pricing every night of every stay was a fifth of a first import."""
        if stay.is_block or rates is None:
            return 0
        key = _nights_by_month(stay.arrival, stay.departure)
        if key not in fees:
            fees[key] = climate_fee_cents(stay.arrival, stay.departure,
                                          prop.climate_fee_category, rates)
        return fees[key]

    rows = [{
        "id": new_id("book"), "account": prop.account_id, "property": prop.id,
        "connection": connection.id, "guest_name": stay.guest_name or "Blocked",
        "guest_email": None, "guest_phone": None, "guest_language": "en",
        "arrival_date": stay.arrival, "departure_date": stay.departure, "guest_count": 1,
        "channel": connection.provider, "source": None, "status": "confirmed",
        "checkin_status": "NOT_STARTED", "report_status": "NOT_REQUIRED" if stay.is_block else police,
        "report_error": None, "total_price_cents": None, "payment_method": None,
        "climate_fee_cents": fee(stay),
        "external_ref": stay.external_ref, "external_uid": stay.uid, "is_block": stay.is_block,
        "guest_phone_last4": stay.phone_last4,
        "created_at": now, "updated_at": now, "cancelled_at": None, "cancelled_by_sync": False,
        "version": 1,
    } for stay in stays]
    views = [bookings.booking_view(row) for row in rows if not row["is_block"]]
    return _NewBookings(_what_rows_depend_on(prop), rows, views)


def _import_stays(prop: Property, connection: ChannelConnection, stays: list[Stay],
                  rates: FeeRates | None, new: _NewBookings) -> int:
    """Insert the new stays and their `booking.created` events, a few statements for all of
    them: building a model and its SQL per row took three quarters of a first import. `new`:
    their rows, made before the transaction (made again here if the property has changed)."""
    if not stays:
        return 0
    if new.made_for != _what_rows_depend_on(prop):
        new = _new_bookings(prop, connection, stays, rates)
    insert_rows(Booking, new.rows)
    # Their check-in links work from now on (checkin/booking_links.py makes the rows).
    signals.send(signals.BOOKINGS_IMPORTED, account_id=prop.account_id,
                 booking_ids=[row["id"] for row in new.rows if not row["is_block"]])
    events.emit_many(prop.account_id, [("booking.created", view)
                                       for view in bookings.with_tourist_tax(new.views)])
    return len(new.rows)


def _nights_by_month(arrival: dt.date, departure: dt.date) -> tuple:
    """((year, month, nights), ...) of a stay: all that its climate fee depends on."""
    counts = []
    night = arrival
    while night < departure:
        month_end = dt.date(night.year + night.month // 12, night.month % 12 + 1, 1)
        run_end = min(month_end, departure)
        counts.append((night.year, night.month, (run_end - night).days))
        night = run_end
    return tuple(counts)


def _move(prop: Property, booking: Booking, stay: Stay, rates: FeeRates | None, *,
          reinstate: bool = False) -> None:
    """New dates from the feed; `reinstate`: the stay a sync cancelled is back in the feed (the
    host accepted removals of a feed that was only broken for a while)."""
    booking.arrival_date, booking.departure_date = stay.arrival, stay.departure
    if reinstate:
        booking.status, booking.cancelled_at, booking.cancelled_by_sync = "confirmed", None, False
    if not booking.is_block and rates is not None:
        booking.climate_fee_cents = climate_fee_cents(stay.arrival, stay.departure,
                                                      prop.climate_fee_category, rates,
                                                      booking.total_price_cents)
    _touch(booking)
    booking.save()
    if not booking.is_block:
        taxes.refresh(booking, prop=prop)  # the tourist tax follows the dates, unless collected
        events.emit(prop.account_id, "booking.updated", bookings.event_view(booking))


def _cancel(booking: Booking) -> None:
    if booking.is_block:  # not a booking: no event, it only stops blocking
        booking.status = "cancelled"
        booking.cancelled_at = clock.utcnow()
        _touch(booking)
        booking.save()
    else:
        bookings.cancel_booking(booking.account_id, booking.id)
    # Bookkeeping of the same change, whose event already carries the version: no new one.
    (Booking.update(cancelled_by_sync=True, version=Booking.version)
     .where(Booking.id == booking.id).execute())


def _touch(booking: Booking) -> None:
    booking.updated_at = clock.utcnow()  # save() adds one to the version


# --- double bookings ----------------------------------------------------------------------------

def _conflict_pairs(prop: Property, connection: ChannelConnection) -> list[tuple[str, str]]:
    """Each pair of overlapping confirmed stays of the property that come from different
    sources (see `_report_conflicts`), as sorted id pairs."""
    upcoming = ((Booking.property == prop.id) & (Booking.status == "confirmed")
                & (Booking.departure_date > clock.today()))
    if not (Booking.select(Booking.id).where(upcoming & (
            Booking.connection.is_null(True) | (Booking.connection != connection.id)))
            .exists()):
        # Every upcoming stay is this feed's: no pair to find (a listing on one channel only,
        # the most common case, reads one row here instead of all its stays).
        return []
    # Plain tuples: most syncs find no pair at all.
    stays = [(stay_id, _as_date(arrival), _as_date(departure), source, is_block)
             for stay_id, arrival, departure, source, is_block in
             Booking.select(Booking.id, Booking.arrival_date, Booking.departure_date,
                            Booking.connection, Booking.is_block).where(upcoming)
             .order_by(Booking.arrival_date, Booking.id).tuples()]
    pairs = []
    for i, first in enumerate(stays):
        for second in stays[i + 1:]:
            if second[1] >= first[2]:
                break
            if first[3] == second[3]:
                continue  # one feed's own overlaps are the channel's business
            if first[4] and second[4]:
                continue
            if (first[4] or second[4]) and first[1:3] == second[1:3]:
                continue  # an echo of the booking
            pairs.append(tuple(sorted((first[0], second[0]))))
    return pairs


def _report_conflicts(prop: Property, pairs: list[tuple[str, str]]) -> int:
    """Announce each new pair of overlapping confirmed stays of the property that come from
    different sources (two channels, or a channel and a manual booking): a double booking, or a
    channel's block over nights another channel sold.

    Not counted: two blocks (two channels closing the same nights sell nothing), and a block with
    exactly the dates of the other source's booking — the echo of that booking, which a channel
    importing our exported feed makes on purpose (the calendars working, not a conflict).
    """
    if not pairs:
        return 0
    known = {(row.first_booking_id, row.second_booking_id) for row in SyncConflict.select().where(
        SyncConflict.first_booking.in_([a for a, _ in pairs]))}
    reported = 0
    for first_id, second_id in pairs:
        if (first_id, second_id) in known:
            continue
        pair = [Booking.get_by_id(first_id), Booking.get_by_id(second_id)]
        SyncConflict.create(account=prop.account_id, property=prop.id, first_booking=first_id,
                            second_booking=second_id, reported_at=clock.utcnow())
        events.emit(prop.account_id, "booking.conflict", conflict_view(prop, pair))
        reported += 1
    return reported


def conflict_view(prop: Property, pair: list[Booking]) -> dict:
    """`booking.conflict` data: the overlap, the bookings as the API shows them, and the block
    (a block is not a booking: no id, only its channel and dates)."""
    return {
        "property_id": prop.id,
        "from": clock.iso_date(max(b.arrival_date for b in pair)),
        "to": clock.iso_date(min(b.departure_date for b in pair)),
        "bookings": [bookings.booking_view(b) for b in pair if not b.is_block],
        "blocks": [{"channel": b.channel, "arrival_date": clock.iso_date(b.arrival_date),
                    "departure_date": clock.iso_date(b.departure_date)}
                   for b in pair if b.is_block],
    }

def _as_date(value) -> dt.date:
    return dt.date.fromisoformat(value) if isinstance(value, str) else value
