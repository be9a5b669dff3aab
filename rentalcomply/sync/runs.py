"""Running many connections (`sync_many`): `sync.parallel_fetches` feeds fetched at a time, in
lanes of connections run one after another (at most `sync.max_fetches_per_host` lanes per feed
host), large runs parsing in parser processes beside this one."""

from __future__ import annotations

import concurrent.futures
import datetime as dt
import logging
import threading
from typing import Callable, Iterable

from rentalcomply.core import clock, events, peers
from rentalcomply.core.db import db
from rentalcomply.core.wal import checkpoints_beside, no_checkpoints_in_this_thread
from rentalcomply.core.models import ChannelConnection
from rentalcomply.sync.account_state import note_complete_accounts
from rentalcomply.sync.one_connection import sync_connection
from rentalcomply.sync.options import SyncOptions, configured_options
from rentalcomply.sync.parser_processes import parser_pool
from rentalcomply.sync.results import SyncResult
from rentalcomply.sync.writing import run_under_way

# Every part of a sync logs under the sync service's name: one name to filter the log on.
log = logging.getLogger("rentalcomply.sync.service")


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
    since = since or clock.utcnow()
    options = options or configured_options()
    ids = list(dict.fromkeys(connection_ids))
    with run_under_way():
        results = _run_all(ids, options, accept_removals, progress, attempted_before)
    note_complete_accounts(results, since)
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
            no_checkpoints_in_this_thread()
            for connection_id in lane:
                results[connection_id] = run(connection_id)
                if progress:
                    with reported:
                        progress(results[connection_id])
        finally:
            db.close()  # this pool thread's connection

    with parser_pool(len(ids)) as parser, checkpoints_beside(), \
            concurrent.futures.ThreadPoolExecutor(max_workers=options.parallel,
                                                  thread_name_prefix="sync") as pool:
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
