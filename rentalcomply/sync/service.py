"""Channel sync: the domain functions, which know nothing of Bottle.

One connection's sync (`sync_connection`):
1. claim the connection's lease with a conditional UPDATE, so that one connection is never synced
   twice at once, whatever the number of workers or processes; a lease outlives a crashed worker
   by at most its length (the whole fetch budget plus two minutes);
2. fetch the feed outside any transaction (sync/fetch.py), holding one of its host's slots
   (core/peers.py), parse it (sync/parse.py), refuse it whole when it lists more than
   `sync.max_events` future events;
3. apply it: the plan read first (upsert by (connection, UID) — new stays become bookings or
   blocks, changed dates are applied — and the future stays whose event vanished cancelled), then
   carried out in short transactions of APPLY_BATCH stays, so the API's writes never wait long;
   the conflicts, the status and HTTP validators and `sync.completed` are recorded last.

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

import concurrent.futures
import concurrent.futures.process
import contextlib
import dataclasses
import datetime as dt
import logging
import multiprocessing
import os
import sys
import threading
import time
from typing import Callable, Iterable

from rentalcomply.bookings import service as bookings
from rentalcomply.bookings.fees import FeeRates, climate_fee_cents
from rentalcomply.core import clock, events, peers
from rentalcomply.core.db import atomic, db, insert_rows
from rentalcomply.core.errors import NotFound
from rentalcomply.core.ids import new_id, random_base62
from rentalcomply.core.models import Booking, ChannelConnection, Property
from rentalcomply.properties import service as properties
from rentalcomply.sync.fetch import FeedError, FetchOptions, fetch_feed
from rentalcomply.sync.models import SyncAccountState, SyncConflict
from rentalcomply.sync.parse import Feed, Stay, check_event_count, parse_feed

log = logging.getLogger(__name__)

# The removal guard: with at least this many future stays, losing more than half is suspicious.
GUARD_MIN_STAYS = 4
TRIGGER_COOLDOWN_SECONDS = 300
LEASE_MARGIN_SECONDS = 120


@dataclasses.dataclass(frozen=True)
class SyncOptions:
    fetch: FetchOptions = FetchOptions()
    rates: FeeRates | None = None
    parallel: int = 8
    interval_minutes: int = 60
    max_per_host: int = 1
    max_events: int = 5000

    @classmethod
    def from_settings(cls, settings) -> "SyncOptions":
        return cls(fetch=FetchOptions.from_settings(settings),
                   rates=FeeRates.from_settings(settings),
                   parallel=int(settings.sync.parallel_fetches),
                   interval_minutes=int(settings.sync.interval_minutes),
                   max_per_host=int(settings.sync.max_fetches_per_host),
                   max_events=int(settings.sync.max_events))

    @property
    def lease_seconds(self) -> int:
        return int(self.fetch.timeout * (self.fetch.max_redirects + 1)) + LEASE_MARGIN_SECONDS


_configured: SyncOptions | None = None
# SQLite writes one transaction at a time anyway; within a process, the sync's threads take turns
# here instead of spinning on the database's busy timeout (which starved some of them at 8
# threads in bench/sync.py). Across processes the lease and the busy timeout still hold.
_writing = threading.RLock()
# How many sync_many runs are under way in this process (they wake the dispatcher at their end).
_batches = 0
_batches_lock = threading.Lock()


def _write():
    """One write transaction of the sync, taking its turn among this process's threads."""
    return _WriteTurn()


class _WriteTurn:
    def __enter__(self):
        _writing.acquire()
        self._transaction = atomic()
        try:
            return self._transaction.__enter__()
        except BaseException:
            _writing.release()
            raise

    def __exit__(self, *exc_info):
        try:
            return self._transaction.__exit__(*exc_info)
        finally:
            _writing.release()


def configure(settings) -> None:
    global _configured
    _configured = SyncOptions.from_settings(settings)


def configured_options() -> SyncOptions:
    if _configured is None:
        raise RuntimeError("sync is not configured; call sync.service.configure(settings)")
    return _configured


@dataclasses.dataclass
class SyncResult:
    connection_id: str
    account_id: str | None = None
    property_id: str | None = None
    provider: str | None = None
    status: str = "ok"  # ok | error | skipped | deferred (its host busy: try again shortly)
    error: str | None = None
    not_modified: bool = False
    created: int = 0  # new stays: bookings and blocks
    blocks: int = 0  # of them, blocks (a channel closing nights; not a booking)
    updated: int = 0
    cancelled: int = 0

    @property
    def new_bookings(self) -> int:
        return self.created - self.blocks

    @property
    def failed(self) -> bool:
        return self.status == "error"


class _Held(Exception):
    """The feed would remove too much at once: nothing is applied."""


# --- one connection -----------------------------------------------------------------------------

def sync_connection(connection_id: str, options: SyncOptions | None = None, *,
                    accept_removals: bool = False, parser=None,
                    attempted_before: dt.datetime | None = None) -> SyncResult:
    """Fetch and apply one connection's feed. Never raises for a feed's fault: the result (and
    the connection's status) says what happened.

    `deferred`: the feed's host already has `sync.max_fetches_per_host` fetches under way in
    this process; nothing was done, and the caller tries again shortly (core/peers.py).
    `attempted_before`: sync only if no attempt was made since (see _claim)."""
    options = options or configured_options()
    url = (ChannelConnection.select(ChannelConnection.ical_url)
           .where(ChannelConnection.id == connection_id).scalar())
    if url is None:
        return SyncResult(connection_id, status="skipped", error="no such connection")
    slot = peers.try_slot(url, options.max_per_host)
    if not slot.taken:
        return SyncResult(connection_id, status="deferred",
                          error=f"another feed from {slot.peer} is being fetched")
    with slot:
        return _sync_connection(connection_id, options, accept_removals, parser, slot,
                                attempted_before)


def _sync_connection(connection_id: str, options: SyncOptions, accept_removals: bool, parser,
                     slot: peers.Slot, attempted_before: dt.datetime | None = None) -> SyncResult:
    owner = random_base62(16)
    if not _claim(connection_id, owner, options.lease_seconds, attempted_before):
        return SyncResult(connection_id, status="skipped",
                          error="already being synced, synced since, or no such connection")
    released = False
    try:
        connection = ChannelConnection.get_or_none(ChannelConnection.id == connection_id)
        if connection is None or connection.status == "disabled":
            return SyncResult(connection_id, status="skipped", error="disabled or removed")
        result = SyncResult(connection_id, connection.account_id, connection.property_id,
                            connection.provider)
        accepting = accept_removals or connection.accept_removals
        # The validators only when the last sync applied fully: after an error (held removals
        # among them) the feed is read whole again, even if the channel says it did not change.
        conditional = connection.status == "ok" and not accepting
        try:
            try:
                fetched = fetch_feed(connection.ical_url, options.fetch,
                                     etag=connection.etag if conditional else None,
                                     last_modified=connection.last_modified if conditional else None)
            finally:
                slot.release()  # the host is free for the next fetch while this one is applied
            if fetched.not_modified:
                result = _record_unchanged(connection_id, owner, result)
            else:
                timezone = Property.get_by_id(connection.property_id).timezone
                feed = _parse(parser, fetched.body, connection.provider, timezone,
                              options.max_events)
                _check_size(feed, options.max_events)
                result = _apply(connection_id, owner, feed, fetched.etag, fetched.last_modified,
                                options, accepting, result)
        except (FeedError, _Held) as exc:
            result = _record_failure(connection_id, owner, str(exc), result)
        released = True  # the recording transaction gave the lease back
        return result
    finally:
        if not released:
            _release(connection_id, owner)


def _check_size(feed: Feed, max_events: int) -> None:
    """A feed listing more future stays than any real listing has (a calendar run wild, or one
    built to flood the database) changes nothing: the connection shows why."""
    today = clock.today()
    future = sum(1 for stay in feed.stays if stay.departure > today)
    if future > max_events:
        raise FeedError(f"the feed lists {future} future events, more than sync.max_events "
                        f"({max_events}); nothing was changed")


def _claim(connection_id: str, owner: str, lease_seconds: int,
           attempted_before: dt.datetime | None = None) -> bool:
    """Take the connection's lease. `attempted_before`: only if its last attempt is older than
    that, checked in the same UPDATE. The list a run works through was read when it began; a
    connection another worker synced since then is no longer due, and is not fetched again."""
    now = clock.utcnow()
    condition = ((ChannelConnection.id == connection_id)
                 & (ChannelConnection.lease_until.is_null()
                    | (ChannelConnection.lease_until < now)))
    if attempted_before is not None:
        condition &= (ChannelConnection.last_sync_attempt.is_null()
                      | (ChannelConnection.last_sync_attempt < attempted_before))
    with _write():
        claimed = (ChannelConnection
                   # The lease is bookkeeping, not a change of the connection: no new version.
                   .update(lease_owner=owner, lease_until=now + dt.timedelta(seconds=lease_seconds),
                           version=ChannelConnection.version)
                   .where(condition)
                   .execute())
    return claimed == 1


def _release(connection_id: str, owner: str) -> None:
    try:
        with _write():
            (ChannelConnection.update(lease_owner=None, lease_until=None,
                                      version=ChannelConnection.version)
             .where((ChannelConnection.id == connection_id)
                    & (ChannelConnection.lease_owner == owner)).execute())
    except Exception:  # the lease expires by itself
        log.warning("could not release the sync lease of %s", connection_id, exc_info=True)


# Stays applied per transaction. A large feed is applied in several short transactions, so that
# the API's writes never wait on the database for longer than one of them (measured here: 250 new
# stays with their events in 0.06 to 0.15 s; 5,000 in one transaction had held SQLite's write lock
# for seconds, and the API answered 503).
APPLY_BATCH = 250
# The pause between two batches. SQLite's lock is not fair: a writer waiting on the busy timeout
# sleeps up to 100 ms between tries, so a sync taking the lock again at once starved the API's
# writes (one waited 6.6 s). A gap longer than that sleep lets every waiting write in.
BATCH_PAUSE_SECONDS = 0.12


def _apply(connection_id: str, owner: str, feed: Feed, etag, last_modified, options: SyncOptions,
           accepting: bool, result: SyncResult) -> SyncResult:
    """Apply a parsed feed: the plan is read first, without holding the write lock, then carried
    out APPLY_BATCH stays at a time, each batch its own transaction re-reading the rows it
    changes (a host's edit between two batches is never overwritten); the connection's status,
    validators and `sync.completed` are recorded last. A sync stopped between batches leaves what
    it applied, and the next one finishes the job (stays are matched by UID)."""
    connection = ChannelConnection.get_by_id(connection_id)
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
            raise _Held(problem)
    new_stays = [stay for stay in feed.stays if stay.uid not in known]
    seen_stays = [stay for stay in feed.stays if stay.uid in known]
    for batch in _batches_of(new_stays):
        with _write():
            prop = properties.get_property(account_id, prop.id, for_update=True)
            result.created += _import_stays(prop, connection, batch, options.rates)
            result.blocks += sum(1 for stay in batch if stay.is_block)
    for batch in _batches_of(seen_stays):
        with _write():
            result.updated += _update_stays(prop, connection, batch, options.rates)
    for batch in _batches_of(removals):
        with _write():
            for booking in Booking.select().where(Booking.id.in_(batch)
                                                  & (Booking.status == "confirmed")):
                _cancel(booking)
                result.cancelled += 1
    # Cancellations never make a double booking. The pairs are found before the write lock is
    # taken (reading thousands of stays took half a second); only the new ones are written.
    pairs = _conflict_pairs(prop) if result.created or result.updated else []
    with _write():
        if pairs:
            _report_conflicts(prop, pairs)
        connection = ChannelConnection.get_by_id(connection_id)
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
                              *_lease_given_back(connection, owner)])
        events.emit(account_id, "sync.completed", sync_event_view(connection, result))
    _notify()
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
        elif booking.status == "confirmed" and stay.external_ref and not booking.external_ref:
            booking.external_ref = stay.external_ref
            _touch(booking)
            booking.save(only=[Booking.external_ref, Booking.updated_at])
            if not booking.is_block:
                events.emit(prop.account_id, "booking.updated", bookings.booking_view(booking))
    return updated


def _notify() -> None:
    # Wake the webhook dispatcher once the change is committed; inside a caller's transaction the
    # caller commits, and the periodic sweep of the outbox delivers. During a run of many syncs
    # the run wakes it once at the end (one queue write instead of one per connection).
    if not db.in_transaction() and not _batches:
        events.notify_committed()


def _removal_problem(future: int, removals: int, listed_any: bool) -> str | None:
    hint = ("nothing was cancelled; if the channel really cancelled them, accept the removals "
            "(rentalcomply sync run --accept-removals, or POST .../accept-removals)")
    if not listed_any:
        return f"the feed came back without any event, but {future} future stays were in it: {hint}"
    if future >= GUARD_MIN_STAYS and removals * 2 > future:
        return (f"the feed lost {removals} of its {future} future stays at once: {hint}")
    return None


def _lease_given_back(connection: ChannelConnection, owner: str) -> list:
    """Clear our lease in the recording transaction itself (one write fewer per sync); the
    fields to save. Another's lease (ours expired) is left alone."""
    if connection.lease_owner != owner:
        return []
    connection.lease_owner = connection.lease_until = None
    return [ChannelConnection.lease_owner, ChannelConnection.lease_until]


def _record_unchanged(connection_id: str, owner: str, result: SyncResult) -> SyncResult:
    result.not_modified = True
    with _write():
        connection = ChannelConnection.get_by_id(connection_id)
        now = clock.utcnow()
        connection.status, connection.last_error = "ok", None
        connection.last_sync_attempt = connection.last_sync_success = now
        connection.save(only=[ChannelConnection.status, ChannelConnection.last_error,
                              ChannelConnection.last_sync_attempt,
                              ChannelConnection.last_sync_success,
                              *_lease_given_back(connection, owner)])
        events.emit(connection.account_id, "sync.completed", sync_event_view(connection, result))
    _notify()
    return result


def _record_failure(connection_id: str, owner: str, reason: str, result: SyncResult) -> SyncResult:
    result.status, result.error = "error", reason
    result.created = result.blocks = result.updated = result.cancelled = 0
    with _write():
        connection = ChannelConnection.get_or_none(ChannelConnection.id == connection_id)
        if connection is None:
            return result
        was_failing = connection.status == "error"
        connection.status = "error"
        connection.last_error = reason[:1000]
        connection.last_sync_attempt = clock.utcnow()
        connection.save(only=[ChannelConnection.status, ChannelConnection.last_error,
                              ChannelConnection.last_sync_attempt,
                              *_lease_given_back(connection, owner)])
        if not was_failing:  # once per new failure, not on every poll
            events.emit(connection.account_id, "sync.error", sync_event_view(connection, None))
    _notify()
    log.info("sync of %s failed: %s", connection_id, reason)
    return result


# --- bookings made and changed by a sync --------------------------------------------------------

def _import_stays(prop: Property, connection: ChannelConnection, stays: list[Stay],
                  rates: FeeRates | None) -> int:
    """Insert the new stays and their `booking.created` events, a few statements for all of
    them: building a model and its SQL per row took three quarters of a first import."""
    if not stays:
        return 0
    now = clock.utcnow()
    police = "NOT_REQUIRED" if prop.police_connector == "none" else "PENDING"
    rows = [{
        "id": new_id("book"), "account": prop.account_id, "property": prop.id,
        "connection": connection.id, "guest_name": stay.guest_name or "Blocked",
        "guest_email": None, "guest_phone": None, "guest_language": "en",
        "arrival_date": stay.arrival, "departure_date": stay.departure, "guest_count": 1,
        "channel": connection.provider, "source": None, "status": "confirmed",
        "checkin_status": "NOT_STARTED", "report_status": "NOT_REQUIRED" if stay.is_block else police,
        "report_error": None, "total_price_cents": None, "payment_method": None,
        "climate_fee_cents": 0 if stay.is_block or rates is None else climate_fee_cents(
            stay.arrival, stay.departure, prop.climate_fee_category, rates),
        "external_ref": stay.external_ref, "external_uid": stay.uid, "is_block": stay.is_block,
        "created_at": now, "updated_at": now, "cancelled_at": None, "cancelled_by_sync": False,
        "version": 1,
    } for stay in stays]
    insert_rows(Booking, rows)
    events.emit_many(prop.account_id, [("booking.created", bookings.booking_view(row))
                                       for row in rows if not row["is_block"]])
    return len(rows)


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
        events.emit(prop.account_id, "booking.updated", bookings.booking_view(booking))


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

def _conflict_pairs(prop: Property) -> list[tuple[str, str]]:
    """Each pair of overlapping confirmed stays of the property that come from different
    sources (see `_report_conflicts`), as sorted id pairs."""
    # Plain tuples: most syncs find no pair at all.
    stays = [(stay_id, _as_date(arrival), _as_date(departure), source, is_block)
             for stay_id, arrival, departure, source, is_block in
             Booking.select(Booking.id, Booking.arrival_date, Booking.departure_date,
                            Booking.connection, Booking.is_block).where(
                 (Booking.property == prop.id) & (Booking.status == "confirmed")
                 & (Booking.departure_date > clock.today()))
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


# Parsing is pure Python (icalendar) and was two thirds of a large first sync: with many feeds to
# read, it runs in worker processes, so it uses the other cores while this process writes.
PARSER_POOL_MIN_FEEDS = 16


# A feed this large is parsed in a process of its own even alone: seconds of pure-Python parsing
# in the server's process would hold the interpreter lock against the API's requests (a 5,000-event
# feed parsed in-process slowed the API's writes beside it to 0.3 to 0.6 s, sometimes over 1 s).
LARGE_FEED_BYTES = 256_000


@contextlib.contextmanager
def _parser_pool(feeds: int, workers: int = 2):
    """Up to `workers` (2) parser processes for a run of at least PARSER_POOL_MIN_FEEDS feeds, or
    None.

    Started with "spawn" (a fork of a process with threads can inherit a held lock); not in a
    frozen binary, whose executable is the whole application rather than Python."""
    cores = os.cpu_count() or 1
    if feeds < PARSER_POOL_MIN_FEEDS or cores < 2 or getattr(sys, "frozen", False):
        yield None
        return
    pool = concurrent.futures.ProcessPoolExecutor(
        max_workers=min(workers, cores), mp_context=multiprocessing.get_context("spawn"),
        initializer=_follow_parent, initargs=(os.getpid(),))
    try:
        yield pool
    finally:
        pool.shutdown(wait=True, cancel_futures=True)


# How often a parser process looks whether the process that started it is still there.
PARENT_CHECK_SECONDS = 0.5


def _follow_parent(parent_pid: int) -> None:
    """In each parser process: end when the process that started it is gone.

    A pool's processes wait on a queue whose writing end they hold themselves, so they never see
    the server die: after a kill -9 (or an OOM kill) of the server they lingered for minutes,
    each holding a feed's worth of memory. A daemon thread watches the parent (once it dies, the
    process is re-parented and os.getppid() changes) and exits at once."""
    def watch() -> None:
        while os.getppid() == parent_pid:
            time.sleep(PARENT_CHECK_SECONDS)
        os._exit(0)

    threading.Thread(target=watch, name="follow-parent", daemon=True).start()


def _parse(parser, body: bytes, provider: str, timezone: str, max_events: int) -> Feed:
    check_event_count(body, max_events)  # a flood is refused before any process is started
    if parser is None and len(body) >= LARGE_FEED_BYTES:
        with _parser_pool(PARSER_POOL_MIN_FEEDS, workers=1) as own:
            if own is not None:
                return _parse(own, body, provider, timezone, max_events)
    if parser is not None:
        try:
            return parser.submit(parse_feed, body, provider, timezone, max_events).result()
        except concurrent.futures.process.BrokenProcessPool:
            log.warning("the parser processes stopped; parsing in this one")
    return parse_feed(body, provider, timezone, max_events)


def _as_date(value) -> dt.date:
    return dt.date.fromisoformat(value) if isinstance(value, str) else value


# --- many connections ---------------------------------------------------------------------------

def sync_many(connection_ids: Iterable[str], options: SyncOptions | None = None, *,
              accept_removals: bool = False,
              progress: Callable[[SyncResult], None] | None = None,
              since: dt.datetime | None = None,
              attempted_before: dt.datetime | None = None) -> list[SyncResult]:
    """Sync several connections, `options.parallel` feeds fetched at a time.

    Inside a transaction (the queue in immediate mode runs a task within the request's), they run
    one after another in it: other threads could not write until it ends.
    `since`: when the run this one continues began (a run of connections an earlier run deferred
    because their host was busy); by default, now. `attempted_before`: skip a connection
    attempted since then (by a run beside this one) when its turn in this run comes."""
    global _batches
    since = since or clock.utcnow()
    options = options or configured_options()
    ids = list(dict.fromkeys(connection_ids))
    with _batches_lock:
        _batches += 1
    try:
        results = _run_all(ids, options, accept_removals, progress, attempted_before)
    finally:
        with _batches_lock:
            _batches -= 1
    _note_complete_accounts(results, since)
    if not db.in_transaction() and any(r.status not in ("skipped", "deferred") for r in results):
        events.notify_committed(force=True)
    return results


def _run_all(ids: list[str], options: SyncOptions, accept_removals: bool,
             progress, attempted_before: dt.datetime | None = None) -> list[SyncResult]:
    results: dict[str, SyncResult] = {}
    if db.in_transaction() or options.parallel <= 1 or len(ids) <= 1:
        for connection_id in ids:
            results[connection_id] = sync_connection(connection_id, options,
                                                     accept_removals=accept_removals,
                                                     attempted_before=attempted_before)
            if progress:
                progress(results[connection_id])
        return [results[connection_id] for connection_id in ids]
    reported = threading.Lock()

    def run(connection_id: str) -> SyncResult:
        try:
            return sync_connection(connection_id, options, accept_removals=accept_removals,
                                   parser=parser, attempted_before=attempted_before)
        except Exception as exc:  # a bug must not stop the other connections
            log.exception("sync of %s crashed", connection_id)
            return SyncResult(connection_id, status="error", error=f"internal error: {exc}")

    def run_lane(lane: list[str]) -> None:
        try:
            for connection_id in lane:
                results[connection_id] = run(connection_id)
                if progress:
                    with reported:
                        progress(results[connection_id])
        finally:
            db.close()  # this pool thread's connection

    with _parser_pool(len(ids)) as parser, concurrent.futures.ThreadPoolExecutor(
            max_workers=options.parallel, thread_name_prefix="sync") as pool:
        for _ in pool.map(run_lane, _lanes(ids, options.max_per_host)):
            pass
    return [results[connection_id] for connection_id in ids]


def _lanes(ids: list[str], max_per_host: int) -> list[list[str]]:
    """The connections split into lanes run one after another, at most `max_per_host` lanes per
    feed host: a run never competes with itself for a host's slots, and a slow host holds up only
    its own lanes while the other hosts' feeds go on. Lanes of different hosts alternate, so the
    pool starts on every host early."""
    urls = dict(ChannelConnection.select(ChannelConnection.id, ChannelConnection.ical_url)
                .where(ChannelConnection.id.in_(ids)).tuples())
    by_host: dict[str, list[list[str]]] = {}
    for connection_id in ids:
        host = peers.peer_of(urls.get(connection_id) or connection_id)
        lanes = by_host.setdefault(host, [])
        if len(lanes) < max(1, max_per_host):
            lanes.append([connection_id])
        else:
            min(lanes, key=len).append(connection_id)
    ordered: list[list[str]] = []
    for round_ in range(max(len(lanes) for lanes in by_host.values())):
        ordered += [lanes[round_] for lanes in by_host.values() if round_ < len(lanes)]
    return ordered


def deferred(results: list[SyncResult]) -> list[str]:
    """The connections a run left for later because their host was busy."""
    return [result.connection_id for result in results if result.status == "deferred"]


def connection_ids(account_id: str | None = None, *, due_only: bool = False,
                   options: SyncOptions | None = None) -> list[str]:
    """The connections to sync (not disabled), oldest first; `due_only`: those whose last attempt
    is older than `sync.interval_minutes` and that no one is syncing now."""
    condition = ChannelConnection.status != "disabled"
    if account_id is not None:
        condition &= ChannelConnection.account == account_id
    if due_only:
        options = options or configured_options()
        now = clock.utcnow()
        cutoff = now - dt.timedelta(minutes=options.interval_minutes)
        condition &= (ChannelConnection.last_sync_attempt.is_null()
                      | (ChannelConnection.last_sync_attempt <= cutoff))
        condition &= (ChannelConnection.lease_until.is_null()
                      | (ChannelConnection.lease_until < now))
    query = (ChannelConnection.select(ChannelConnection.id).where(condition)
             .order_by(ChannelConnection.created_at, ChannelConnection.id))
    return [row.id for row in query]


def sync_account(account_id: str, options: SyncOptions | None = None, *,
                 accept_removals: bool = False, progress=None,
                 requested_at: dt.datetime | None = None) -> list[SyncResult]:
    """Every connection of the account. `requested_at`: when the sync was asked for (a trigger);
    a connection attempted since then already answers it and is not fetched again, and counts
    towards `last_sync_all` as this run's own would."""
    return sync_many(connection_ids(account_id), options, accept_removals=accept_removals,
                     progress=progress, attempted_before=requested_at, since=requested_at)


# A trigger whose run has not begun this long after it was asked for is taken for lost (its
# task was on a worker that died, or in a Redis that forgot) and run by the periodic sync.
TRIGGER_GRACE_SECONDS = 120


def sync_due(options: SyncOptions | None = None) -> list[SyncResult]:
    """What the periodic task runs every minute: every connection whose turn has come, the
    connections of a trigger whose own task was lost, and those whose host accepted removals
    but whose own task was lost (or could not be queued).

    Each claim checks again, in its UPDATE, that the connection is still due: the list was read
    when the run began, and a connection synced since by a trigger or another process is skipped
    rather than fetched twice."""
    options = options or configured_options()
    begun = clock.utcnow()
    # The same cutoff as connection_ids(due_only=True): attempted at or before it.
    cutoff = begun - dt.timedelta(minutes=options.interval_minutes)
    results = sync_many(connection_ids(due_only=True, options=options), options,
                        attempted_before=cutoff + dt.timedelta(microseconds=1))
    accepted = removals_accepted()
    if accepted:  # attempted since this run began: its own task came first
        results += sync_many(accepted, options, attempted_before=begun)
    for account_id, requested_at in triggers_left_behind():
        behind = connections_not_attempted_since(account_id, requested_at)
        if behind:
            log.info("sync: running the connections of a trigger of %s left behind", account_id)
            results += sync_many(behind, options, since=requested_at,
                                 attempted_before=requested_at)
    return results


def removals_accepted() -> list[str]:
    """Connections whose host accepted the removals a sync held back and that no sync is on:
    the flag is in the database, so the periodic sync applies them should the task queued with
    the acceptance be lost."""
    now = clock.utcnow()
    return [row.id for row in ChannelConnection.select(ChannelConnection.id).where(
        (ChannelConnection.accept_removals == True)  # noqa: E712 (SQL)
        & (ChannelConnection.status != "disabled")
        & (ChannelConnection.lease_until.is_null() | (ChannelConnection.lease_until < now)))]


def triggers_left_behind() -> list[tuple[str, dt.datetime]]:
    """(account, asked at) of every trigger of the last day that no complete run has answered
    `TRIGGER_GRACE_SECONDS` after it was asked for. The trigger's time is kept in the database
    (the cooldown), so it outlives a task that is lost."""
    now = clock.utcnow()
    rows = (SyncAccountState.select(SyncAccountState.account, SyncAccountState.last_trigger_at)
            .where(SyncAccountState.last_trigger_at.is_null(False)
                   & (SyncAccountState.last_trigger_at
                      <= now - dt.timedelta(seconds=TRIGGER_GRACE_SECONDS))
                   & (SyncAccountState.last_trigger_at >= now - dt.timedelta(days=1))
                   & (SyncAccountState.last_sync_all.is_null()
                      | (SyncAccountState.last_sync_all < SyncAccountState.last_trigger_at)))
            .tuples())
    return [(account_id, asked_at) for account_id, asked_at in rows]


def connections_not_attempted_since(account_id: str, moment: dt.datetime) -> list[str]:
    now = clock.utcnow()
    query = (ChannelConnection.select(ChannelConnection.id)
             .where((ChannelConnection.account == account_id)
                    & (ChannelConnection.status != "disabled")
                    & (ChannelConnection.last_sync_attempt.is_null()
                       | (ChannelConnection.last_sync_attempt < moment))
                    & (ChannelConnection.lease_until.is_null()
                       | (ChannelConnection.lease_until < now)))
             .order_by(ChannelConnection.created_at, ChannelConnection.id))
    return [row.id for row in query]


def _note_complete_accounts(results: list[SyncResult], since: dt.datetime) -> None:
    """`last_sync_all`: when a run last saw every (enabled) connection of an account attempted
    since it began — by itself, by a run beside it, or by the run it continues."""
    accounts = {result.account_id for result in results
                if result.account_id and result.status not in ("skipped", "deferred")}
    if not accounts:
        return
    now = clock.utcnow()
    with _write():
        for account_id in accounts:
            behind = (ChannelConnection.select().where(
                (ChannelConnection.account == account_id)
                & (ChannelConnection.status != "disabled")
                & (ChannelConnection.last_sync_attempt.is_null()
                   | (ChannelConnection.last_sync_attempt < since))).exists())
            if not behind:
                _account_state(account_id)
                (SyncAccountState.update(last_sync_all=now)
                 .where(SyncAccountState.account == account_id).execute())


def _account_state(account_id: str) -> SyncAccountState:
    state = SyncAccountState.get_or_none(SyncAccountState.account == account_id)
    if state is None:
        SyncAccountState.insert(account=account_id).on_conflict_ignore().execute()
        state = SyncAccountState.get(SyncAccountState.account == account_id)
    return state


# --- the API's questions ------------------------------------------------------------------------

def claim_trigger(account_id: str) -> tuple[bool, dt.datetime]:
    """Take the account's trigger turn: (allowed, next_allowed_at). One turn per 5 minutes per
    account, decided by a conditional UPDATE in the database, so it holds across processes."""
    now = clock.utcnow()
    cooldown = dt.timedelta(seconds=TRIGGER_COOLDOWN_SECONDS)
    with atomic():
        state = _account_state(account_id)
        taken = (SyncAccountState.update(last_trigger_at=now)
                 .where((SyncAccountState.account == account_id)
                        & (SyncAccountState.last_trigger_at.is_null()
                           | (SyncAccountState.last_trigger_at <= now - cooldown)))
                 .execute())
        if taken:
            return True, now + cooldown
        state = SyncAccountState.get(SyncAccountState.account == account_id)
        return False, state.last_trigger_at + cooldown


def status(account_id: str) -> dict:
    state = SyncAccountState.get_or_none(SyncAccountState.account == account_id)
    connections = (ChannelConnection.select().where(ChannelConnection.account == account_id)
                   .order_by(ChannelConnection.created_at, ChannelConnection.id))
    return {"last_sync_all": clock.iso(state.last_sync_all) if state else None,
            "connections": [status_view(connection) for connection in connections]}


def status_view(connection: ChannelConnection) -> dict:
    return {
        "id": connection.id,
        "property_id": connection.property_id,
        "provider": connection.provider,
        "last_sync_success": clock.iso(connection.last_sync_success),
        "last_sync_attempt": clock.iso(connection.last_sync_attempt),
        "status": connection.status,
        "last_error": connection.last_error,
        "version": connection.version,
    }


def sync_event_view(connection: ChannelConnection, result: SyncResult | None) -> dict:
    view = status_view(connection)
    if result is not None:
        view["changes"] = {"created": result.created, "blocks": result.blocks,
                           "updated": result.updated,
                           "cancelled": result.cancelled, "not_modified": result.not_modified}
    return view


def get_connection(account_id: str, property_id: str, connection_id: str) -> ChannelConnection:
    connection = ChannelConnection.get_or_none(
        (ChannelConnection.id == connection_id) & (ChannelConnection.property == property_id)
        & (ChannelConnection.account == account_id))
    if connection is None:
        raise NotFound("No such channel connection.")
    return connection


def accept_removals(account_id: str, property_id: str, connection_id: str) -> ChannelConnection:
    """The host confirms the removals a sync held back; the next sync of it applies them."""
    with atomic():
        properties.get_property(account_id, property_id)
        connection = get_connection(account_id, property_id, connection_id)
        connection.accept_removals = True
        connection.save(only=[ChannelConnection.accept_removals])
    return connection
