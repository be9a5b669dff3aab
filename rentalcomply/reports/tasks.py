"""The Huey tasks of reports: thin, calling the service by id.

- `generate_report(account_id, year, month)`: build and store one report (queued by
  `POST /reports` and by the schedule).
- `schedule_reports` (hourly): the month just closed from the 1st at `reports.generate_hour`
  Athens time, and the year just closed in January; catches up after downtime.
- `announce_due_reports` (hourly): `report.due_soon` 5 days before a deadline, once per report.
"""

from __future__ import annotations

import logging

from huey import crontab

from rentalcomply.core import events
from rentalcomply.core.queue import huey
from rentalcomply.reports import service

log = logging.getLogger(__name__)

_settings = None


def configure(settings) -> None:
    """Called by runtime.bootstrap: the worker knows the report settings without the web app."""
    global _settings
    _settings = settings


def queue_generation(account_id: str, year: int, month: int | None) -> None:
    generate_report(account_id, year, month)


@huey.task()
def generate_report(account_id: str, year: int, month: int | None) -> str:
    report = service.generate(_settings, account_id, year, month)
    events.notify_committed()
    return report.status


@huey.periodic_task(crontab(minute="5"))
def schedule_reports() -> int:
    due = service.periods_due_for_generation(_settings.reports.generate_hour)
    for account_id, year, month in due:
        service.request_generation(account_id, year, month)
        generate_report(account_id, year, month)
    if due:
        log.info("scheduled %d reports", len(due))
    return len(due)


@huey.periodic_task(crontab(minute="35"))
def announce_due_reports() -> int:
    sent = service.announce_due_soon()
    if sent:
        events.notify_committed()
    return sent
