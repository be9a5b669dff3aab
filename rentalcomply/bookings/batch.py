"""Many channel bookings at once, in the caller's transaction: an import's batch
(rentalcomply/imports). The same checks and announcements as service.create_booking, each
booking refused alone; one INSERT and one property lock for the batch instead of several
statements a booking, so that a batch holds the database's write lock a fraction of the time.

A module of its own beside service.py (whose checks it shares, as one package) so that neither
passes 600 lines.
"""

from __future__ import annotations

import bisect
import datetime as dt
from typing import Any

from rentalcomply.bookings import service
from rentalcomply.bookings.fees import FeeRates, property_fee_cents
from rentalcomply.core import clock, events, signals
from rentalcomply.core.db import insert_rows
from rentalcomply.core.errors import ApiError, BookingConflict, ValidationError
from rentalcomply.core.ids import new_id
from rentalcomply.core.models import Booking, Property
from rentalcomply.properties import service as properties


def create_channel_bookings(account_id: str, items: list[dict[str, Any]], *,
                            rates: FeeRates) -> list[Booking | ApiError]:
    """Several bookings read from a channel's export (rentalcomply/imports), in the caller's
    transaction: each item is create_booking's keyword arguments (with `channel`), checked and
    refused as create_booking would, its refusal in its place in the answer; the accepted ones
    are inserted with one statement and each announced as create_booking does
    (BOOKING_CREATED, `booking.created`). One statement and one lock per property instead of
    several per booking: an import's batch holds the write lock a fraction of the time."""
    results: list[Booking | ApiError] = []
    accepted: list[tuple[Booking, Property]] = []
    locked: dict[str, Property] = {}
    batch_stays: dict[str, tuple[list, list]] = {}
    now = clock.utcnow()
    for item in items:
        item = dict(item)
        property_id, channel = item.pop("property_id"), item.pop("channel")
        try:
            # The same fields create_booking takes from a channel's file: the phone and the
            # language the file gives (imports/guests.py), never an e-mail (the files have none).
            values = service._checked_fields({"guest_phone": None, "guest_language": "en",
                                              **item, "guest_email": None})
            if channel not in service.CHANNELS or channel == "manual":
                raise ValidationError("channel", "must be a channel: " + ", ".join(service.CHANNELS[1:]))
            if property_id not in locked:
                locked[property_id] = properties.get_property(account_id, property_id,
                                                              for_update=True)
            prop = locked[property_id]
            if prop.status != "active":
                raise ValidationError("property_id", "property is inactive; it takes no new "
                                                     "bookings")
            service._check_guest_count(prop, service._counted(channel, values["guest_count"],
                                                              values.get("infants")))
            service._refuse_overlap(prop, values["arrival_date"], values["departure_date"])
            _refuse_batch_overlap(batch_stays.setdefault(prop.id, ([], [])),
                                  values["arrival_date"], values["departure_date"])
        except ApiError as refusal:
            results.append(refusal)
            continue
        booking = Booking(
            id=new_id("book"), account=account_id, property=prop.id, channel=channel,
            source=None, status="confirmed", host_fields=[], checkin_status="NOT_STARTED",
            report_status="NOT_REQUIRED" if prop.police_connector == "none" else "PENDING",
            climate_fee_cents=property_fee_cents(prop.country, values["arrival_date"],
                                                 values["departure_date"],
                                                 prop.climate_fee_category, rates,
                                                 values.get("total_price_cents")),
            created_at=now, updated_at=now, **values)
        accepted.append((booking, prop))
        results.append(booking)
    if accepted:
        # One statement needs the same columns in every row: a field one booking lacks (a
        # price, a party) is null in it, as a plain INSERT would leave it.
        names = sorted(set().union(*(booking.__data__ for booking, _ in accepted)))
        insert_rows(Booking, [{name: booking.__data__.get(name) for name in names}
                              for booking, _ in accepted])
        for booking, prop in accepted:
            booking._dirty.clear()
            signals.send(signals.BOOKING_CREATED, booking=booking, prop=prop)
        events.emit_many(account_id, [("booking.created", view) for view in
                                      service.event_views([booking for booking, _ in accepted])])
    return results


def _refuse_batch_overlap(stays: tuple[list, list], arrival: dt.date, departure: dt.date) -> None:
    """The stays accepted earlier in a batch (not inserted yet, so not seen by _refuse_overlap),
    as sorted arrivals and their departures; the new one is added. They never overlap, so the
    one arriving last before the new departure is the only one to look at."""
    arrivals, departures = stays
    at = bisect.bisect_left(arrivals, departure)
    if at and departures[at - 1] > arrival:
        raise BookingConflict(f"The dates overlap another stay of the same file ({arrivals[at - 1]} "
                              f"to {departures[at - 1]}).")
    arrivals.insert(at, arrival)
    departures.insert(at, departure)
