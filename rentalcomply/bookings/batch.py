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
    are inserted with one statement and announced as create_booking does (BOOKINGS_CREATED,
    BOOKING_CREATED's batch form, and `booking.created`). One lock and one read of the stays per
    property, one INSERT per table, instead of several statements per booking: an import's batch
    holds the write lock a fraction of the time."""
    results: list[Booking | ApiError] = []
    accepted: list[tuple[Booking, Property]] = []
    locked: dict[str, Property] = {}
    stays_of: dict[str, _Stays] = {}
    now = clock.utcnow()
    checked = [_checked(item) for item in items]
    spans = _spans(entry for entry in checked if not isinstance(entry, ApiError))
    for entry in checked:
        if isinstance(entry, ApiError):
            results.append(entry)
            continue
        property_id, channel, values = entry
        try:
            if property_id not in locked:
                locked[property_id] = properties.get_property(account_id, property_id,
                                                              for_update=True)
                stays_of[property_id] = _Stays(locked[property_id], *spans[property_id])
            prop = locked[property_id]
            if prop.status != "active":
                raise ValidationError("property_id", "property is inactive; it takes no new "
                                                     "bookings")
            service._check_guest_count(prop, service._counted(channel, values["guest_count"],
                                                              values.get("infants")))
            stays_of[property_id].refuse_overlap(values["arrival_date"], values["departure_date"])
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
        for booking, _ in accepted:
            booking._dirty.clear()
        signals.send(signals.BOOKINGS_CREATED, account_id=account_id, created=accepted)
        events.emit_many(account_id, [("booking.created", service.booking_view(booking))
                                      for booking, _ in accepted])
    return results


def _checked(item: dict[str, Any]) -> tuple[str, str, dict] | ApiError:
    """(property id, channel, create_booking's checked fields), or the refusal."""
    item = dict(item)
    property_id, channel = item.pop("property_id"), item.pop("channel")
    try:
        # The same fields create_booking takes from a channel's file: the phone and the
        # language the file gives (imports/guests.py), never an e-mail (the files have none).
        values = service._checked_fields({"guest_phone": None, "guest_language": "en",
                                          **item, "guest_email": None})
        if channel not in service.CHANNELS or channel == "manual":
            raise ValidationError("channel", "must be a channel: " + ", ".join(service.CHANNELS[1:]))
    except ApiError as refusal:
        return refusal
    return property_id, channel, values


def _spans(entries) -> dict[str, tuple[dt.date, dt.date]]:
    """Each property's earliest arrival and latest departure in the batch."""
    spans: dict[str, tuple[dt.date, dt.date]] = {}
    for property_id, _, values in entries:
        arrival, departure = values["arrival_date"], values["departure_date"]
        earliest, latest = spans.get(property_id, (arrival, departure))
        spans[property_id] = (min(earliest, arrival), max(latest, departure))
    return spans


class _Stays:
    """One property's confirmed stays within the batch's span, read with one query when the
    batch first meets the property (it is locked then: no other writer adds any), and the stays
    the batch accepts: a new stay is checked against both without a query of its own."""

    def __init__(self, prop: Property, earliest: dt.date, latest: dt.date):
        self.prop = prop
        stored = sorted(Booking.select(Booking.arrival_date, Booking.departure_date)
                        .where((Booking.property == prop.id) & (Booking.status == "confirmed")
                               & (Booking.departure_date > earliest)
                               & (Booking.arrival_date < latest)).tuples())
        self.stored_arrivals = [arrival for arrival, _ in stored]
        # The latest departure among the stays arriving up to each one: stored stays are not
        # sure never to overlap one another (older data), so the last one alone would not do.
        self.latest_departures: list[dt.date] = []
        for _, departure in stored:
            self.latest_departures.append(max(departure, *self.latest_departures[-1:]))
        self.batch = ([], [])

    def refuse_overlap(self, arrival: dt.date, departure: dt.date) -> None:
        at = bisect.bisect_left(self.stored_arrivals, departure)
        if at and self.latest_departures[at - 1] > arrival:
            # The one query that names the clash in create_booking's own words.
            service._refuse_overlap(self.prop, arrival, departure)
        _refuse_batch_overlap(self.batch, arrival, departure)


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
