"""The Huey tasks of reports: thin, calling the service by id.

- `generate_report(account_id, year, month)`: build and store one report (queued by
  `POST /reports`, the schedule and the sweep). It runs only a generation that is waiting: a
  duplicate task does nothing (see the leases in generation.py).
- `schedule_reports` (hourly): the month just closed from the 1st at `reports.generate_hour`
  Athens time, and the year just closed in January; catches up after downtime; a report made
  while its period was running (provisional) is generated again then.
- `announce_due_reports` (hourly): `report.due_soon` 5 days before a deadline, once per report.
- The sweep: in every process that runs the task consumer, at its start and then every
  `reports.sweep_interval_seconds`, a report whose generation stopped (a crashed process: its
  lease ran out or its owner is gone) is queued again. A thread rather than a periodic task,
  since Huey's schedule counts in minutes.
"""

from __future__ import annotations

import logging
import threading

from huey import crontab

from rentalcomply.core import events
from rentalcomply.core.db import warn_of
from rentalcomply.core.outage import send
from rentalcomply.core.queue import (REPORTS_PRIORITY, queue_after_commit, stop_with_the_consumers,
                                     urgent)
from rentalcomply.reports import generation, submission

log = logging.getLogger(__name__)

_settings = None


def configure(settings) -> None:
    """Called by runtime.bootstrap: the worker knows the report settings without the web app."""
    global _settings
    _settings = settings
    generation.configure(settings)


def queue_generation(account_id: str, year: int, month: int | None) -> None:
    """Queue the generation the caller's transaction requested, once it commits. Should the queue
    not answer, the report waits as `queued` and the sweep queues it once the queue is back."""
    queue_after_commit(generate_report, account_id, year, month,
                       what=f"queuing report {account_id}/{year}-{month}")


# On the urgent queue (core/queue.py): a report has a legal deadline.
@urgent.task(priority=REPORTS_PRIORITY)
def generate_report(account_id: str, year: int, month: int | None) -> str | None:
    report = generation.run_queued(_settings, account_id, year, month)
    events.notify_committed()
    return report.status if report is not None else None


@urgent.periodic_task(crontab(minute="5"), priority=REPORTS_PRIORITY)
def schedule_reports() -> int:
    due = generation.periods_due_for_generation(_settings.reports.generate_hour)
    for account_id, year, month in due:
        generation.request_generation(account_id, year, month)
        send(generate_report, account_id, year, month, what="queuing scheduled reports")
    if due:
        log.info("scheduled %d reports", len(due))
    return len(due)


@urgent.periodic_task(crontab(minute="35"), priority=REPORTS_PRIORITY)
def announce_due_reports() -> int:
    sent = submission.announce_due_soon()
    if sent:
        events.notify_committed()
    return sent


def sweep() -> int:
    """Queue again every report whose generation stopped; how many."""
    stalled = generation.requeue_stalled()
    for account_id, year, month in stalled:
        # Not queued: still `queued` in the database, and found again after its grace.
        send(generate_report, account_id, year, month, what="queuing stalled reports")
    return len(stalled)


_sweeper: threading.Thread | None = None
_sweeper_stop = threading.Event()
_sweeper_lock = threading.Lock()


@urgent.on_startup()
def start_sweeper() -> None:
    """Run by each consumer worker as it starts: the first one starts the process's sweeper."""
    global _sweeper
    with _sweeper_lock:
        if _sweeper is not None and _sweeper.is_alive():
            return
        _sweeper_stop.clear()
        _sweeper = threading.Thread(target=_sweep_loop, name="report-sweeper", daemon=True)
        _sweeper.start()


@urgent.on_shutdown()
def stop_sweeper() -> None:
    """Stop the sweeper and wait for a sweep under way: a consumer that has stopped leaves
    nothing touching the database after it (a test drops its database right after)."""
    _sweeper_stop.set()
    sweeper = _sweeper
    if sweeper is not None and sweeper is not threading.current_thread():
        sweeper.join(timeout=30)


stop_with_the_consumers(stop_sweeper)  # also when a worker's own shutdown comes too late


def _sweep_loop() -> None:
    from rentalcomply.core.db import db
    interval = _settings.reports.sweep_interval_seconds if _settings else 10
    try:
        while True:
            try:
                sweep()
            except Exception as exc:  # a busy or unreachable database: the next round tries again
                warn_of(log, exc, "the report sweep failed")
            if _sweeper_stop.wait(interval):
                return
    finally:
        db.close()
