"""The worker's own operations: the daily backup, and the hourly purge of what is past its
retention (retention.py)."""

from __future__ import annotations

import logging

from huey import crontab

from rentalcomply.core.queue import huey
from rentalcomply.ops import backup, retention

log = logging.getLogger(__name__)

_settings = None


def configure(settings) -> None:
    global _settings
    _settings = settings


def _due(timestamp) -> bool:
    """Every day at backup.daily_hour_utc, when backup.daily is on."""
    if _settings is None or not _settings.backup.daily:
        return False
    return timestamp.minute == 41 and timestamp.hour == _settings.backup.daily_hour_utc


@huey.periodic_task(_due)
def daily_backup() -> str | None:
    try:
        path = backup.daily_backup(_settings)
    except (backup.BackupError, OSError, ValueError) as exc:
        # doctor names a stale backup; the log says why this one failed.
        log.error("the daily backup failed: %s", exc)
        return None
    if path is not None:
        log.info("daily backup written: %s", path)
    return str(path) if path else None


@huey.periodic_task(crontab(minute="17"))
def purge_past_retention() -> dict[str, int]:
    """The activity log, idempotency records, ended sessions and owed work given up, past their
    retention (events and deliveries: webhooks/tasks.py; receipts and guest data: filings/ and
    checkin/), a few hundred rows at a time."""
    removed = retention.purge_past_retention(_settings)
    if any(removed.values()):
        log.info("forgot what is past its retention: %s",
                 ", ".join(f"{count} {table}" for table, count in removed.items() if count))
    return removed
