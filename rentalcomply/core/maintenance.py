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
