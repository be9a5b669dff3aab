"""The Huey tasks of the channel sync: thin, calling the service by id.

- `sync_due_connections` (every minute): syncs each connection whose last attempt is older than
  `sync.interval_minutes`, `sync.parallel_fetches` feeds at a time. Each connection's lease makes
  a second worker or process skip it while it is being synced.
- `sync_account_task(account_id, requested_at)`: what `POST /sync/trigger` queues. Should the
  task be lost with its worker, the periodic sync runs the trigger's connections instead (the
  trigger's time is in the database).
- `sync_connection_task(connection_id)`: one connection (after the host accepted removals).
- `sync_connections_task(ids)`: the connections a run deferred because their feed's host was busy
  (`sync.max_fetches_per_host`), a few seconds later: never a worker waiting on a busy host.
"""

from __future__ import annotations

import datetime as dt
import logging

from huey import crontab

from rentalcomply.core import clock, peers
from rentalcomply.core.queue import huey
from rentalcomply.sync import export, options, service
from rentalcomply.sync.one_connection import sync_connection
from rentalcomply.sync.runs import deferred, sync_many

log = logging.getLogger(__name__)


def configure(settings) -> None:
    """Called by runtime.bootstrap: the worker knows the sync settings without the web app."""
    options.configure(settings)
    export.configure(settings.server.public_url)


def _later(results, since: dt.datetime) -> None:
    waiting = deferred(results)
    if waiting:
        sync_connections_task.schedule(args=(waiting, since.isoformat()),
                                       delay=peers.BUSY_RETRY_SECONDS)


@huey.periodic_task(crontab(minute="*"))
def sync_due_connections() -> int:
    since = clock.utcnow()
    results = service.sync_due()
    failed = [r for r in results if r.failed]
    if results:
        log.info("periodic sync: %d connections, %d failed", len(results), len(failed))
    _later(results, since)
    return len(results)


@huey.task()
def sync_account_task(account_id: str, requested_at: str | None = None) -> int:
    """`requested_at`: when the trigger was taken; a connection synced since is not fetched
    again. A task lost with its worker is made up for by the periodic sync
    (service.triggers_left_behind)."""
    asked = dt.datetime.fromisoformat(requested_at) if requested_at else None
    results = service.sync_account(account_id, requested_at=asked)
    _later(results, asked or clock.utcnow())
    return len(results)


@huey.task()
def sync_connections_task(connection_ids: list[str], since: str | None = None) -> int:
    """The connections an earlier run deferred; `since`: when that run began."""
    begun = dt.datetime.fromisoformat(since) if since else clock.utcnow()
    # A deferred connection someone synced since this run began is done.
    results = sync_many(connection_ids, since=begun, attempted_before=begun)
    _later(results, begun)
    return len(results)


@huey.task()
def sync_connection_task(connection_id: str, accept_removals: bool = False) -> str:
    result = sync_connection(connection_id, accept_removals=accept_removals)
    if result.status == "deferred":
        sync_connection_task.schedule(args=(connection_id, accept_removals),
                                      delay=peers.BUSY_RETRY_SECONDS)
    return result.status
