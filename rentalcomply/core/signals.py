"""In-process signals: how a lower capability tells the higher ones that something happened,
without importing them.

`bookings` sends BOOKING_CREATED and BOOKING_DATES_CHANGED inside the transaction that made the
change, `sync` BOOKINGS_IMPORTED inside the one that inserted a feed's new bookings; the code tables send CODE_TABLES_LOADED inside the transaction that loaded them; `properties`
sends PROPERTY_CONNECTOR_CHOSEN before it writes a property's connector or country. The
filing engine subscribes (filings/tasks.py, imported by every process at start-up), so what it
does commits or rolls back with the change itself. This is beside the outbox (core/events.py),
which tells the agency's own tools after the commit.

A subscriber's exception is raised to the sender: the transaction is rolled back, nothing is
half-written.
"""

from __future__ import annotations

from typing import Callable

BOOKING_CREATED = "booking_created"              # booking, prop
# Many bookings created at once (an import's batch): what BOOKING_CREATED means for each, sent
# once so that a receiver writes its rows for all of them in one statement. Whoever receives
# BOOKING_CREATED receives this too.
BOOKINGS_CREATED = "bookings_created"            # account_id, created: [(booking, prop)]
BOOKING_DATES_CHANGED = "booking_dates_changed"  # booking, prop
# Bookings a channel's feed brought in (sync), many at once: not BOOKING_CREATED, which would
# make the authorities file what a feed cannot fill (a feed carries no holder).
BOOKINGS_IMPORTED = "bookings_imported"          # account_id, booking_ids
CODE_TABLES_LOADED = "code_tables_loaded"        # (no arguments)
# A property is about to take a police connector, or a new country under its connector: the
# filing engine raises ValidationError where the country has no format for it (properties sits
# below the engine, whose registry knows which countries each connector files for).
PROPERTY_CONNECTOR_CHOSEN = "property_connector_chosen"  # connector, country

_subscribers: dict[str, list[Callable[..., None]]] = {}


def subscribe(signal: str, receiver: Callable[..., None]) -> None:
    """Call `receiver(**arguments)` whenever `signal` is sent (once, however often subscribed)."""
    receivers = _subscribers.setdefault(signal, [])
    if receiver not in receivers:
        receivers.append(receiver)


def send(signal: str, **arguments) -> None:
    for receiver in list(_subscribers.get(signal, ())):
        receiver(**arguments)
