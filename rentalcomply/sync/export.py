"""Our own calendar feed per property, for the channels to import (`GET /ical/{token}.ics`).

It lists the property's confirmed bookings from every channel (manual ones included) and the
channels' blocks, each as an all-day event (`DTEND` exclusive, the departure day) without any
guest data, so that Airbnb, Booking.com and Vrbo block the nights sold elsewhere.

An Italian property's CIN, or a Spanish property's tourism licence number, goes into the feed too
(`registration_line`), because the law wants it shown in every listing and this feed is what the
host's other calendars and channels read of the property (`properties.service.registration_line`).

The token is the credential and is never stored: it is derived from the property id and a
rotation counter under the server secret (HMAC, like the check-in link), so the property view can
show the URL to key holders and a rotation (`POST /properties/{id}/ical-token`) makes every
earlier URL answer 404. The token carries the property id in front of the MAC, so the lookup is one
primary-key read and a constant-time comparison.
"""

from __future__ import annotations

import datetime as dt
import hashlib
import hmac

from rentalcomply.core import clock, secrets
from rentalcomply.core.db import atomic
from rentalcomply.core.errors import NotFound
from rentalcomply.core.models import Booking, Property
from rentalcomply.properties import service as properties

TOKEN_PURPOSE = "ical-export"
MAC_LENGTH = 32  # hex characters: 128 bits
PRODID = "-//RentalComply//Property calendar//EN"


_public_url = ""


def configure(public_url: str) -> None:
    """The address clients reach this server by (`server.public_url`), for the URLs we show."""
    global _public_url
    _public_url = public_url or ""


def export_token(prop: Property) -> str:
    return f"{prop.id}-{_mac(prop.id, prop.ical_token_generation)}"


def _mac(property_id: str, generation: int) -> str:
    return secrets.sign(TOKEN_PURPOSE, f"{property_id}:{generation}")[:MAC_LENGTH]


def export_url(prop: Property, public_url: str | None = None) -> str:
    base = _public_url if public_url is None else public_url
    return f"{base.rstrip('/')}/ical/{export_token(prop)}.ics"


def property_for_token(token: str) -> Property:
    """The property whose current token this is, or NotFound (also for a rotated one)."""
    property_id, _, mac = token.rpartition("-")
    prop = Property.get_or_none(Property.id == property_id) if property_id else None
    expected = _mac(prop.id, prop.ical_token_generation) if prop is not None else "0" * MAC_LENGTH
    if prop is None or not hmac.compare_digest(expected.encode(), mac.encode("utf-8", "replace")):
        raise NotFound("No such calendar.")
    return prop


def rotate_token(account_id: str, property_id: str) -> Property:
    with atomic():
        prop = properties.get_property(account_id, property_id)
        prop.ical_token_generation += 1
        prop.save(only=[Property.ical_token_generation])
    return prop


def calendar_bytes(prop: Property, today: dt.date | None = None) -> bytes:
    """The feed: stays that have not ended yet, bookings as "Reserved", blocks as "Not
    available"; stable bytes for unchanged data (DTSTAMP is the stay's last change)."""
    # icalendar (with dateutil, some 90 modules and 4 MiB) is imported when a feed is written or
    # read, not at every start of the server.
    import icalendar
    today = today or clock.today()
    rows = list(Booking.select(Booking.id, Booking.arrival_date, Booking.departure_date,
                               Booking.is_block, Booking.updated_at, Booking.status,
                               Booking.connection)
                .where((Booking.property == prop.id) & (Booking.departure_date > today))
                .order_by(Booking.arrival_date, Booking.id))
    # Dates of the bookings (cancelled ones too) by source, to recognise a channel's echo.
    booked = {(_date(b.arrival_date), _date(b.departure_date), b.connection_id)
              for b in rows if not b.is_block}
    stays = [b for b in rows if b.status == "confirmed"
             and not (b.is_block and _echo(b, booked))]
    calendar = icalendar.Calendar()
    calendar.add("prodid", PRODID)
    calendar.add("version", "2.0")
    calendar.add("calscale", "GREGORIAN")
    calendar.add("method", "PUBLISH")
    cin = properties.registration_line(prop)  # Italy's CIN, Spain's tourism licence
    if cin:
        # Twice on purpose: X-WR-CALDESC is the calendar's own description, which Google, Apple
        # and Outlook show for a subscribed calendar but channels' importers ignore, and some of
        # those importers keep only each event's DESCRIPTION; a non-standard X- property alone
        # would be dropped by both.
        calendar.add("x-wr-caldesc", cin)
    for stay in stays:
        event = icalendar.Event()
        event.add("uid", f"{stay.id}@rentalcomply")
        event.add("dtstamp", _utc(stay.updated_at))
        event.add("dtstart", _date(stay.arrival_date))
        event.add("dtend", _date(stay.departure_date))
        event.add("summary", "Not available" if stay.is_block else "Reserved")
        event.add("transp", "OPAQUE")
        if cin:
            event.add("description", cin)
        calendar.add_component(event)
    return calendar.to_ical()


def _echo(block: Booking, booked: set) -> bool:
    """Whether a channel's block has exactly the dates of another source's booking: the channel
    closed the nights our feed listed as sold. Listing it back would keep those nights closed on
    every channel after the booking is cancelled (each calendar re-importing the other's echo),
    so it is left out; while the booking stands, the booking itself closes the nights."""
    arrival, departure = _date(block.arrival_date), _date(block.departure_date)
    return any((arrival, departure) == (a, d) and source != block.connection_id
               for a, d, source in booked)


def etag_of(body: bytes) -> str:
    return '"' + hashlib.sha256(body).hexdigest()[:32] + '"'


def _date(value) -> dt.date:
    return dt.date.fromisoformat(value) if isinstance(value, str) else value


def _utc(value) -> dt.datetime:
    if isinstance(value, str):
        value = dt.datetime.fromisoformat(value)
    return value.replace(tzinfo=dt.timezone.utc)
