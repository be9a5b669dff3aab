"""The worker's own operations: the daily backup."""

from __future__ import annotations

import logging

from rentalcomply.core.queue import huey
from rentalcomply.ops import backup

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
