"""The Huey tasks of the channel sync: thin, calling the service by id.

- `sync_due_connections` (every minute): syncs each connection whose last attempt is older than
  `sync.interval_minutes`, `sync.parallel_fetches` feeds at a time. Each connection's lease makes
  a second worker or process skip it while it is being synced.
- `sync_account_task(account_id)`: what `POST /sync/trigger` queues.
- `sync_connection_task(connection_id)`: one connection (after the host accepted removals).
"""

from __future__ import annotations

import logging

from huey import crontab

from rentalcomply.core.queue import huey
from rentalcomply.sync import export, service

log = logging.getLogger(__name__)


def configure(settings) -> None:
    """Called by runtime.bootstrap: the worker knows the sync settings without the web app."""
    service.configure(settings)
    export.configure(settings.server.public_url)


@huey.periodic_task(crontab(minute="*"))
def sync_due_connections() -> int:
    results = service.sync_due()
    failed = [r for r in results if r.failed]
    if results:
        log.info("periodic sync: %d connections, %d failed", len(results), len(failed))
    return len(results)


@huey.task()
def sync_account_task(account_id: str) -> int:
    return len(service.sync_account(account_id))


@huey.task()
def sync_connection_task(connection_id: str, accept_removals: bool = False) -> str:
    return service.sync_connection(connection_id, accept_removals=accept_removals).status
