"""Channel sync: the domain functions, which know nothing of Bottle.

One connection's sync (`sync_connection`):
1. claim the connection's lease with a conditional UPDATE, so that one connection is never synced
   twice at once, whatever the number of workers or processes; a lease outlives a crashed worker
   by at most its length (the whole fetch budget plus two minutes);
2. fetch the feed outside any transaction (sync/fetch.py), parse it (sync/parse.py);
3. apply it in ONE transaction: upsert by (connection, UID) — new stays become bookings or blocks,
   changed dates are applied — cancel the future stays whose event vanished, record the status
   and the HTTP validators, announce conflicts, emit `sync.completed`. Nothing is half-applied.

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
from typing import Callable, Iterable

from rentalcomply.bookings import service as bookings
from rentalcomply.bookings.fees import FeeRates, climate_fee_cents
from rentalcomply.core import clock, events
from rentalcomply.core.db import atomic, db, insert_rows
from rentalcomply.core.errors import NotFound
from rentalcomply.core.ids import new_id, random_base62
from rentalcomply.core.models import Booking, ChannelConnection, Property
from rentalcomply.properties import service as properties
from rentalcomply.sync.fetch import FeedError, FetchOptions, fetch_feed
from rentalcomply.sync.models import SyncAccountState, SyncConflict
from rentalcomply.sync.parse import Feed, Stay, parse_feed

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

    @classmethod
    def from_settings(cls, settings) -> "SyncOptions":
        return cls(fetch=FetchOptions.from_settings(settings),
                   rates=FeeRates.from_settings(settings),
                   parallel=int(settings.sync.parallel_fetches),
                   interval_minutes=int(settings.sync.interval_minutes))

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
    status: str = "ok"  # ok | error | skipped
    error: str | None = None
    not_modified: bool = False
    created: int = 0
    updated: int = 0
    cancelled: int = 0

    @property
    def failed(self) -> bool:
        return self.status == "error"


class _Held(Exception):
    """The feed would remove too much at once: nothing is applied."""


# --- one connection -----------------------------------------------------------------------------

def sync_connection(connection_id: str, options: SyncOptions | None = None, *,
                    accept_removals: bool = False, parser=None) -> SyncResult:
    """Fetch and apply one connection's feed. Never raises for a feed's fault: the result (and
    the connection's status) says what happened."""
    options = options or configured_options()
    owner = random_base62(16)
    if not _claim(connection_id, owner, options.lease_seconds):
        return SyncResult(connection_id, status="skipped",
                          error="already being synced, or no such connection")
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
            fetched = fetch_feed(connection.ical_url, options.fetch,
                                 etag=connection.etag if conditional else None,
                                 last_modified=connection.last_modified if conditional else None)
            if fetched.not_modified:
                result = _record_unchanged(connection_id, owner, result)
            else:
                timezone = Property.get_by_id(connection.property_id).timezone
                feed = _parse(parser, fetched.body, connection.provider, timezone)
                result = _apply(connection_id, owner, feed, fetched.etag, fetched.last_modified,
                                options, accepting, result)
        except (FeedError, _Held) as exc:
            result = _record_failure(connection_id, owner, str(exc), result)
        released = True  # the recording transaction gave the lease back
        return result
    finally:
        if not released:
            _release(connection_id, owner)


def _claim(connection_id: str, owner: str, lease_seconds: int) -> bool:
    now = clock.utcnow()
    with _write():
        claimed = (ChannelConnection
                   # The lease is bookkeeping, not a change of the connection: no new version.
                   .update(lease_owner=owner, lease_until=now + dt.timedelta(seconds=lease_seconds),
                           version=ChannelConnection.version)
                   .where((ChannelConnection.id == connection_id)
                          & (ChannelConnection.lease_until.is_null()
                             | (ChannelConnection.lease_until < now)))
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


def _apply(connection_id: str, owner: str, feed: Feed, etag, last_modified, options: SyncOptions,
           accepting: bool, result: SyncResult) -> SyncResult:
    with _write():
        connection = ChannelConnection.get_by_id(connection_id)
        account_id = connection.account_id
        prop = properties.get_property(account_id, connection.property_id, for_update=True)
        existing: dict[str, Booking] = {
            booking.external_uid: booking for booking in
            Booking.select().where((Booking.connection == connection.id)
                                   & Booking.external_uid.is_null(False))}
        today = clock.today()
        present = {stay.uid for stay in feed.stays} | feed.unreadable_uids
        future = [b for b in existing.values() if b.status == "confirmed" and b.arrival_date >= today]
        removals = [b for b in future if b.external_uid not in present]
        if removals and not accepting:
            problem = _removal_problem(len(future), len(removals), bool(present))
            if problem:
                raise _Held(problem)
        new_stays = []
        for stay in feed.stays:
            booking = existing.get(stay.uid)
            if booking is None:
                new_stays.append(stay)
            elif booking.status == "cancelled" and booking.cancelled_by_sync:
                _move(prop, booking, stay, options.rates, reinstate=True)
                result.updated += 1
            elif booking.status == "confirmed" and (
                    booking.arrival_date, booking.departure_date) != (stay.arrival, stay.departure):
                _move(prop, booking, stay, options.rates)
                result.updated += 1
            elif booking.status == "confirmed" and stay.external_ref and not booking.external_ref:
                booking.external_ref = stay.external_ref
                _touch(booking)
                booking.save(only=[Booking.external_ref, Booking.updated_at])
                if not booking.is_block:
                    events.emit(account_id, "booking.updated", bookings.booking_view(booking))
        result.created = _import_stays(prop, connection, new_stays, options.rates)
        for booking in removals:
            _cancel(booking)
            result.cancelled += 1
        if result.created or result.updated:  # cancellations never make a double booking
            _report_conflicts(prop)
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
    result.created = result.updated = result.cancelled = 0
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

def _report_conflicts(prop: Property) -> int:
    """Announce each new pair of overlapping confirmed stays of the property that come from
    different sources (two channels, or a channel and a manual booking): a double booking, or a
    channel's block over nights another channel sold.

    Not counted: two blocks (two channels closing the same nights sell nothing), and a block with
    exactly the dates of the other source's booking — the echo of that booking, which a channel
    importing our exported feed makes on purpose (the calendars working, not a conflict).
    """
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


@contextlib.contextmanager
def _parser_pool(feeds: int):
    """Up to two parser processes for a run of at least PARSER_POOL_MIN_FEEDS feeds, or None.

    Started with "spawn" (a fork of a process with threads can inherit a held lock); not in a
    frozen binary, whose executable is the whole application rather than Python."""
    cores = os.cpu_count() or 1
    if feeds < PARSER_POOL_MIN_FEEDS or cores < 2 or getattr(sys, "frozen", False):
        yield None
        return
    pool = concurrent.futures.ProcessPoolExecutor(
        max_workers=min(2, cores), mp_context=multiprocessing.get_context("spawn"))
    try:
        yield pool
    finally:
        pool.shutdown(wait=True, cancel_futures=True)


def _parse(parser, body: bytes, provider: str, timezone: str) -> Feed:
    if parser is not None:
        try:
            return parser.submit(parse_feed, body, provider, timezone).result()
        except concurrent.futures.process.BrokenProcessPool:
            log.warning("the parser processes stopped; parsing in this one")
    return parse_feed(body, provider, timezone)


def _as_date(value) -> dt.date:
    return dt.date.fromisoformat(value) if isinstance(value, str) else value


# --- many connections ---------------------------------------------------------------------------

def sync_many(connection_ids: Iterable[str], options: SyncOptions | None = None, *,
              accept_removals: bool = False,
              progress: Callable[[SyncResult], None] | None = None) -> list[SyncResult]:
    """Sync several connections, `options.parallel` feeds fetched at a time.

    Inside a transaction (the queue in immediate mode runs a task within the request's), they run
    one after another in it: other threads could not write until it ends."""
    global _batches
    options = options or configured_options()
    ids = list(dict.fromkeys(connection_ids))
    with _batches_lock:
        _batches += 1
    try:
        results = _run_all(ids, options, accept_removals, progress)
    finally:
        with _batches_lock:
            _batches -= 1
    _note_complete_accounts(results)
    if not db.in_transaction() and any(r.status != "skipped" for r in results):
        events.notify_committed(force=True)
    return results


def _run_all(ids: list[str], options: SyncOptions, accept_removals: bool,
             progress) -> list[SyncResult]:
    results: list[SyncResult] = []
    if db.in_transaction() or options.parallel <= 1 or len(ids) <= 1:
        for connection_id in ids:
            results.append(sync_connection(connection_id, options,
                                           accept_removals=accept_removals))
            if progress:
                progress(results[-1])
    else:
        def run(connection_id: str) -> SyncResult:
            try:
                return sync_connection(connection_id, options, accept_removals=accept_removals,
                                       parser=parser)
            except Exception as exc:  # a bug must not stop the other connections
                log.exception("sync of %s crashed", connection_id)
                return SyncResult(connection_id, status="error", error=f"internal error: {exc}")
            finally:
                db.close()  # this pool thread's connection

        with _parser_pool(len(ids)) as parser, concurrent.futures.ThreadPoolExecutor(
                max_workers=options.parallel, thread_name_prefix="sync") as pool:
            for result in pool.map(run, ids):
                results.append(result)
                if progress:
                    progress(result)
    return results


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
                 accept_removals: bool = False, progress=None) -> list[SyncResult]:
    return sync_many(connection_ids(account_id), options, accept_removals=accept_removals,
                     progress=progress)


def sync_due(options: SyncOptions | None = None) -> list[SyncResult]:
    """What the periodic task runs every minute: every connection whose turn has come."""
    options = options or configured_options()
    return sync_many(connection_ids(due_only=True, options=options), options)


def _note_complete_accounts(results: list[SyncResult]) -> None:
    """`last_sync_all`: when a run last synced every (enabled) connection of an account."""
    done: dict[str, set[str]] = {}
    for result in results:
        if result.account_id and result.status != "skipped":
            done.setdefault(result.account_id, set()).add(result.connection_id)
    if not done:
        return
    now = clock.utcnow()
    with _write():
        for account_id, synced in done.items():
            if set(connection_ids(account_id)) <= synced:
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
        view["changes"] = {"created": result.created, "updated": result.updated,
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
