"""One connection's sync (`sync_connection`):
1. claim the connection's lease with a conditional UPDATE (sync/lease.py), so that one connection
   is never synced twice at once, whatever the number of workers or processes; a lease outlives a
   crashed worker by at most its length (the whole fetch budget plus two minutes);
2. fetch the feed outside any transaction (sync/fetch.py), holding one of its host's slots
   (core/peers.py), parse it (sync/parse.py, sync/parser_processes.py), refuse it whole when it
   lists more than `sync.max_events` future events;
3. apply it (sync/apply.py); or record why it failed, or that it did not change.
"""

from __future__ import annotations

import datetime as dt
import logging

from rentalcomply.core import clock, events, peers
from rentalcomply.core.ids import random_base62
from rentalcomply.core.models import ChannelConnection
from rentalcomply.properties import service as properties
from rentalcomply.sync.apply import RemovalsHeld, apply_feed
from rentalcomply.sync.fetch import FeedError, fetch_feed
from rentalcomply.sync.lease import claim_lease, lease_given_back, release_lease
from rentalcomply.sync.models import connection_by_id
from rentalcomply.sync.options import SyncOptions, configured_options
from rentalcomply.sync.parse import Feed
from rentalcomply.sync.parser_processes import parse_body
from rentalcomply.sync.results import SyncResult, sync_event_view
from rentalcomply.sync.writing import wake_dispatcher, write_turn

# Every part of a sync logs under the sync service's name: one name to filter the log on.
log = logging.getLogger("rentalcomply.sync.service")


def sync_connection(connection_id: str, options: SyncOptions | None = None, *,
                    accept_removals: bool = False, parser=None,
                    attempted_before: dt.datetime | None = None) -> SyncResult:
    """Fetch and apply one connection's feed. Never raises for a feed's fault: the result (and
    the connection's status) says what happened.

    `deferred`: the feed's host already has `sync.max_fetches_per_host` fetches under way in
    this process; nothing was done, and the caller tries again shortly (core/peers.py).
    `attempted_before`: sync only if no attempt was made since (see claim_lease)."""
    options = options or configured_options()
    found = connection_by_id(connection_id)
    url = found.ical_url if found is not None else None
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
    if not claim_lease(connection_id, owner, options.lease_seconds, attempted_before):
        return SyncResult(connection_id, status="skipped",
                          error="already being synced, synced since, or no such connection")
    released = False
    try:
        connection = connection_by_id(connection_id)
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
                timezone = properties.get_property(connection.account_id,
                                                   connection.property_id).timezone
                feed = parse_body(parser, fetched.body, connection.provider, timezone,
                                  options.max_events)
                _check_size(feed, options.max_events)
                result = apply_feed(connection_id, owner, feed, fetched.etag,
                                    fetched.last_modified, options, accepting, result)
        except (FeedError, RemovalsHeld) as exc:
            result = _record_failure(connection_id, owner, str(exc), result)
        released = True  # the recording transaction gave the lease back
        return result
    finally:
        if not released:
            release_lease(connection_id, owner)


def _check_size(feed: Feed, max_events: int) -> None:
    """A feed listing more future stays than any real listing has (a calendar run wild, or one
    built to flood the database) changes nothing: the connection shows why."""
    today = clock.today()
    future = sum(1 for stay in feed.stays if stay.departure > today)
    if future > max_events:
        raise FeedError(f"the feed lists {future} future events, more than sync.max_events "
                        f"({max_events}); nothing was changed")


def _record_unchanged(connection_id: str, owner: str, result: SyncResult) -> SyncResult:
    result.not_modified = True
    with write_turn():
        connection = connection_by_id(connection_id, must_exist=True)
        now = clock.utcnow()
        connection.status, connection.last_error = "ok", None
        connection.last_sync_attempt = connection.last_sync_success = now
        connection.save(only=[ChannelConnection.status, ChannelConnection.last_error,
                              ChannelConnection.last_sync_attempt,
                              ChannelConnection.last_sync_success,
                              *lease_given_back(connection, owner)])
        events.emit(connection.account_id, "sync.completed", sync_event_view(connection, result))
    wake_dispatcher()
    return result


def _record_failure(connection_id: str, owner: str, reason: str, result: SyncResult) -> SyncResult:
    result.status, result.error = "error", reason
    result.created = result.blocks = result.updated = result.cancelled = 0
    with write_turn():
        connection = connection_by_id(connection_id)
        if connection is None:
            return result
        was_failing = connection.status == "error"
        connection.status = "error"
        connection.last_error = reason[:1000]
        connection.last_sync_attempt = clock.utcnow()
        connection.save(only=[ChannelConnection.status, ChannelConnection.last_error,
                              ChannelConnection.last_sync_attempt,
                              *lease_given_back(connection, owner)])
        if not was_failing:  # once per new failure, not on every poll
            events.emit(connection.account_id, "sync.error", sync_event_view(connection, None))
    wake_dispatcher()
    log.info("sync of %s failed: %s", connection_id, reason)
    return result
