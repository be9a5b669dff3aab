"""Housekeeping the worker does on its own: forgetting what the retention settings say to forget."""

from __future__ import annotations

import logging

from huey import crontab

from rentalcomply.core.queue import huey
from rentalcomply.web import idempotency

log = logging.getLogger(__name__)


@huey.periodic_task(crontab(minute="17"))
def purge_idempotency_records() -> int:
    """Idempotency-Key records past their retention (24 h by default)."""
    removed = idempotency.purge_expired()
    if removed:
        log.info("forgot %d expired idempotency records", removed)
    return removed


@huey.periodic_task(crontab(minute="23"))
def purge_dashboard_sessions() -> int:
    """Dashboard sessions and one-time links past their end (a session is also removed when it is
    next presented; this catches the ones never presented again)."""
    from rentalcomply.dashboard import users
    removed = users.purge_expired()
    if removed:
        log.info("forgot %d ended dashboard sessions and links", removed)
    return removed
