"""Every booking's check-in row, and so its link, from the booking's creation.

The link's token is derived from the booking id (service.token_for); the booking is found again
by the token's hash in its check-in row. That row is made in the transaction that creates the
booking, whatever the way in: `BOOKING_CREATED` (manual, API, dashboard, demo) and
`BOOKINGS_IMPORTED` (a channel's feed) from core/signals.py. Bookings made before (or by a way
in that sends no signal) get theirs from `ensure_links`, at start-up (runtime.bootstrap) and
before a link is shown: the hash needs the server secret, which no migration knows.

Imported by every process through runtime.py, which subscribes the receivers below.
"""

from __future__ import annotations

import peewee as pw

from rentalcomply.checkin.models import Checkin
from rentalcomply.checkin.service import link, token_for, token_hash
from rentalcomply.core import clock, signals
from rentalcomply.core.db import atomic, insert_rows
from rentalcomply.core.models import Booking


def _new_rows(bookings_of: list[tuple[str, str]]) -> None:
    """Check-in rows (the hashes of their links) for (booking id, account id) pairs that have
    none: a link works from the booking's creation, whether or not anyone is ever e-mailed."""
    if not bookings_of:
        return
    now = clock.utcnow()
    # A prepared statement with every column that has a default given here: peewee's
    # insert_many built its SQL for every row (half the time of an imported booking,
    # bench/imports.py), and a model built per row only to read its defaults was a tenth of a
    # first sync's own time (bench/sync.py).
    insert_rows(Checkin, [{"booking": booking_id, "account": account_id,
                           "token_hash": token_hash(token_for(booking_id)), "sends": [],
                           "auto_invited": False, "created_at": now, "updated_at": now,
                           "version": 1}
                          for booking_id, account_id in bookings_of], ignore_conflicts=True)


def _booking_created(booking, prop) -> None:
    """BOOKING_CREATED (manual, API, dashboard, demo): in the transaction that creates it."""
    if not booking.is_block:
        _new_rows([(booking.id, booking.account_id)])


def _bookings_created(account_id: str, created: list) -> None:
    """BOOKINGS_CREATED (an import's batch): one statement for the batch."""
    _new_rows([(booking.id, account_id) for booking, _ in created if not booking.is_block])


def _bookings_imported(account_id: str, booking_ids: list[str]) -> None:
    """BOOKINGS_IMPORTED (a channel's feed): in the transaction that inserts them."""
    _new_rows([(booking_id, account_id) for booking_id in booking_ids])


signals.subscribe(signals.BOOKING_CREATED, _booking_created)
signals.subscribe(signals.BOOKINGS_CREATED, _bookings_created)
signals.subscribe(signals.BOOKINGS_IMPORTED, _bookings_imported)


def ensure_links(booking_ids: list[str] | None = None) -> int:
    """Check-in rows for the bookings that have none: those made before links worked from the
    creation (or by a way in that sends no signal). Idempotent; run at start-up, where the
    server secret is known, and before a link is shown. Returns how many were made."""
    query = (Booking.select(Booking.id, Booking.account)
             .join(Checkin, pw.JOIN.LEFT_OUTER, on=(Checkin.booking == Booking.id))
             .where(Checkin.booking.is_null(True) & (Booking.is_block == False)))  # noqa: E712
    if booking_ids is not None:
        if not booking_ids:
            return 0
        query = query.where(Booking.id.in_(booking_ids))
    missing = list(query.tuples())
    if missing:
        with atomic():
            _new_rows(missing)
    return len(missing)


def checkin_url(public_url: str, booking: Booking | dict) -> str | None:
    """The guest's link as shown to the host (API, dashboard, CLI); None for a cancelled
    booking. Not by the clock: a kept answer (web/answer_cache.py) stays true; the page itself
    says when a link has expired."""
    values = booking if isinstance(booking, dict) else booking.__data__
    if values.get("status") == "cancelled":
        return None
    return link(public_url, values["id"])
