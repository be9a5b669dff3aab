"""The Huey tasks of the filing engine, thin, and its subscriptions to the in-process signals.

- `run_due` (every minute): queue the filings of check-ins completed, recover interrupted
  submissions, attempt the filings due (first attempts and retries), poll asynchronous outcomes,
  announce `police.at_risk` (sweep.py).
- `refresh_code_tables` (every ten minutes): the authorities' code tables loaded through the
  connectors (Alloggiati `Tabella`, SES `catalogo`) once a property is configured, then weekly
  (code_refresh.py); filings an earlier version held for its starter tables queued again.
- `purge_files` (daily): built files erased with the guest data, after the retention of the
  property's country; receipts after theirs (`retention.police_receipts_*`, retention.py).
- `fetch_receipts` (every quarter of an hour): the authorities' receipts of each day with filings,
  once the day has ended (Alloggiati `Ricevuta`, receipts.py), retried with backoff. On the
  ordinary queue: filing never waits behind it.
- `file_now`: the same at once, queued after a transaction that emitted events commits while a
  completed check-in waits to be filed (a late check-in is filed at once, not a minute later),
  or an authority has work waiting (Spain: a cancellation, a reservation scheduled or whose
  holder became known).

Every process imports this module and the authorities at start-up (runtime.py), so a
booking created anywhere tells the engine in its own transaction (core/signals.py).
"""

from __future__ import annotations

import logging
import threading

from huey import crontab

from rentalcomply.checkin.retention import Retention
from rentalcomply.core import events, outage, signals
from rentalcomply.core.errors import ValidationError
from rentalcomply.core.queue import POLICE_PRIORITY, huey, urgent
from rentalcomply.filings import code_refresh, engine, receipts, registry, sweep
from rentalcomply.filings import retention as police_retention
from rentalcomply.filings import settings as filing_settings

log = logging.getLogger(__name__)
_running = threading.local()


_settings = None


def configure(settings) -> None:
    global _settings
    _settings = settings
    filing_settings.configure(settings)


def _run() -> dict:
    if getattr(_running, "active", False):  # the immediate queue calls back into itself
        return {}
    _running.active = True
    try:
        done = sweep.run_due()
        events.notify_committed()
    finally:
        _running.active = False
    if any(done.values()):
        log.info("police: %s", ", ".join(f"{k} {v}" for k, v in done.items() if v))
    return done


# Filings run on the urgent queue's own workers (core/queue.py): never behind a slow feed or
# webhook receiver.
@urgent.periodic_task(crontab(minute="*"), priority=POLICE_PRIORITY)
def run_due() -> dict:
    return _run()


@huey.periodic_task(crontab(minute="*/10"))
def refresh_code_tables() -> dict:
    engine.release_starter_holds()  # after an upgrade: the shipped tables are whole now
    return code_refresh.refresh_due()


@urgent.periodic_task(crontab(minute="27", hour="3"))
def purge_files() -> int:
    """The built files with the guest data; the receipts after their own retention."""
    retention = police_retention.receipt_retention(_settings)
    erased = police_retention.erase_receipts(retention) + receipts.erase_past(retention)
    if erased:
        log.info("police: erased %d receipts past their retention", erased)
    return sweep.purge_files(Retention.from_settings(_settings))


@huey.periodic_task(crontab(minute="*/15"))
def fetch_receipts() -> dict:
    made = receipts.schedule_due()
    done = receipts.fetch_due()
    if made or any(done.values()):
        log.info("police receipts: %d owed, %s", made,
                 ", ".join(f"{k} {v}" for k, v in done.items() if v) or "none fetched")
    return {"owed": made, **done}


@urgent.task(priority=POLICE_PRIORITY)
def file_now() -> dict:
    return _run()


# Commits that emitted only these events leave no police work behind (a new booking has no
# completed check-in, nor any filing yet; a sync's own event comes with the events of whatever
# it changed): looking for some cost three queries after every write, and a channel's sync
# ten milliseconds of them after each feed.
_NO_POLICE_WORK = frozenset({"booking.created", "webhook.test", "sync.completed", "sync.error"})


def _file_completed_checkins() -> None:
    if events.committed_types() <= _NO_POLICE_WORK:
        return
    try:
        waiting = sweep.work_waiting()
    except Exception:  # never fail the request for this; the periodic task files too
        log.exception("police: looking for completed check-ins failed")
        return
    if waiting:
        try:
            # Due filings are in the database: the every-minute run files them should the queue
            # not answer now.
            outage.send(file_now, what="queuing police filings")
        except Exception:
            log.exception("police: filing at once failed; the periodic task retries")


events.on_events_committed(_file_completed_checkins)


# --- what the lower capabilities tell the engine, in their own transaction ----------------------

def _booking_created(booking, prop) -> None:
    registry.of_country(prop.country).booking_created(booking, prop)


def _bookings_created(account_id: str, created: list) -> None:
    for booking, prop in created:
        _booking_created(booking, prop)


def _booking_dates_changed(booking, prop) -> None:
    registry.of_country(prop.country).dates_changed(booking, prop)


def _connector_chosen(connector: str, country: str, region: str | None = None) -> None:
    problem = registry.connector_problem(connector, country, region)
    if problem:
        raise ValidationError("police_connector", problem)


signals.subscribe(signals.BOOKING_CREATED, _booking_created)
signals.subscribe(signals.BOOKINGS_CREATED, _bookings_created)
signals.subscribe(signals.BOOKING_DATES_CHANGED, _booking_dates_changed)
signals.subscribe(signals.CODE_TABLES_LOADED, engine.release_held)
signals.subscribe(signals.PROPERTY_CONNECTOR_CHOSEN, _connector_chosen)
