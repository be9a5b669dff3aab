"""The Huey tasks of police filing: thin, calling the service.

- `run_due` (every minute): queue the filings of check-ins completed, recover interrupted
  submissions, attempt the filings due (first attempts and retries), poll asynchronous outcomes,
  announce `police.at_risk`.
- `purge_files` (daily): built police files erased with the guest data, after the retention.
- `file_now`: the same at once, queued after a transaction that emitted events commits while a
  completed check-in waits to be filed (a late check-in is filed at once, not a minute later).
"""

from __future__ import annotations

import logging
import threading

from huey import crontab

from rentalcomply.core import events
from rentalcomply.core.models import Booking
from rentalcomply.core.queue import huey
from rentalcomply.police import service

log = logging.getLogger(__name__)
_running = threading.local()


_settings = None


def configure(settings) -> None:
    global _settings
    _settings = settings
    service.configure(settings)


def _run() -> dict:
    if getattr(_running, "active", False):  # the immediate queue calls back into itself
        return {}
    _running.active = True
    try:
        done = service.run_due()
        events.notify_committed()
    finally:
        _running.active = False
    if any(done.values()):
        log.info("police: %s", ", ".join(f"{k} {v}" for k, v in done.items() if v))
    return done


@huey.periodic_task(crontab(minute="*"))
def run_due() -> dict:
    return _run()


@huey.periodic_task(crontab(minute="27", hour="3"))
def purge_files() -> int:
    return service.purge_files(_settings.retention.guest_documents_days)


@huey.task()
def file_now() -> dict:
    return _run()


def _file_completed_checkins() -> None:
    try:
        waiting = (Booking.select(Booking.id).where((Booking.report_status == "PENDING")
                                                   & (Booking.checkin_status == "COMPLETED"))
                   .exists()) or bool(service.due_filings())
    except Exception:  # never fail the request for this; the periodic task files too
        log.exception("police: looking for completed check-ins failed")
        return
    if waiting:
        try:
            file_now()
        except Exception:
            log.exception("police: filing at once failed; the periodic task retries")


events.on_events_committed(_file_completed_checkins)
