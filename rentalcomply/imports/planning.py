"""What importing an export would change, read without writing: one outcome per row.

Matching: a row is the booking of the account with its confirmation code (`external_ref`;
Booking.com's reservation number), else the confirmed booking of its property with the same
arrival and departure that has no code yet (a calendar-feed booking: it gets the code).
The property: its listing's (listings.py: the property's name, an alias the host gave, or the
answer given with this import); a row of a listing still unknown is a conflict until answered.

What is filled: the guest's name (replacing the channel's placeholder), adults, children and
infants with guest_count their sum, the price in euros, the code, the guest's phone, the booking
date, and the guest's language (guests.py) where the booking still has the default. A field the
host typed (`Booking.host_fields`) that differs from the file is a conflict and stays; an empty
cell never clears anything; dates are never changed (the calendar feed owns them).

Cancelled rows never create a booking. A confirmed booking that the file shows cancelled is not
cancelled by the import: it is reported as a conflict for the host to cancel (a cancellation
stops the police filing and changes the AADE declaration, so it is the host's act; the feed also
cancels future stays that leave it).
"""

from __future__ import annotations

import bisect
import datetime as dt
from dataclasses import dataclass, field
from decimal import Decimal
from typing import NamedTuple

from rentalcomply.bookings.service import INFANTS_OUTSIDE_CAPACITY, MAX_TOTAL_PRICE, checked_fields
from rentalcomply.core.db import models_from_query
from rentalcomply.core.errors import ValidationError
from rentalcomply.core.models import Booking, Property
from rentalcomply.imports.channels import CHANNEL_NAMES, Export, Reservation
from rentalcomply.imports.guests import booked_at, guest_language
from rentalcomply.imports.listings import Listings

DEFAULT_GUEST = {"airbnb": "Airbnb guest", "booking": "Booking.com guest"}
DEFAULT_MAX_GUESTS = 50
FIELD_WORDS = {"guest_name": "guest name", "guest_count": "number of guests",
               "total_price_cents": "price", "external_ref": "confirmation code",
               "payment_method": "payment method", "guest_phone": "phone",
               "guest_language": "language", "booked_at": "booking date"}
# A row whose listing is no property yet (listings.py asks which): the dashboard says it shorter.
UNKNOWN_LISTING = "the listing '{listing}' is not known yet: say which property it is"
DEFAULT_LANGUAGE = "en"  # what a calendar feed's booking has until someone knows better


@dataclass
class Outcome:
    row: int
    code: str
    action: str  # created, updated, unchanged, conflict
    # Why, as (English template, values): the dashboard translates the template, fills values.
    reasons: list[tuple[str, dict]] = field(default_factory=list)
    booking_id: str | None = None
    property_id: str | None = None
    guest_name: str | None = None
    listing: str | None = None  # as the file names it
    arrival: dt.date | None = None
    departure: dt.date | None = None
    # field -> [now, after]: what applying writes (also on a conflict row, for its other fields).
    changes: dict[str, list] = field(default_factory=dict)
    create: dict | None = None  # the new booking's fields, for a created row

    @property
    def reason(self) -> str:
        return "; ".join(template.format(**values) for template, values in self.reasons)

    def say(self, template: str, **values) -> None:
        self.reasons.append((template, values))

    def view(self) -> dict:
        return {"row": self.row, "code": self.code, "action": self.action, "reason": self.reason,
                "booking_id": self.booking_id, "property_id": self.property_id,
                "listing": self.listing, "guest_name": self.guest_name,
                "arrival_date": self.arrival.isoformat() if self.arrival else None,
                "departure_date": self.departure.isoformat() if self.departure else None,
                "changes": {name: [_shown(before), _shown(after)]
                            for name, (before, after) in self.changes.items()}}


def plan_rows(account_id: str, export: Export, listings: Listings) -> list[Outcome]:
    """Read outside any transaction: what the bookings are now, in a few queries (see Known)."""
    properties = list(Property.select().where(Property.account == account_id)
                      .order_by(Property.created_at, Property.id))
    known = Known(account_id, export.reservations, {prop.id: prop for prop in properties})
    planned_stays: dict[str, Stays] = {}
    last_row_of = {reservation.code: reservation.row for reservation in export.reservations}
    outcomes = []
    for reservation in export.reservations:
        outcome = Outcome(reservation.row, reservation.code, "unchanged",
                          guest_name=reservation.guest_name, listing=reservation.listing,
                          arrival=reservation.arrival,
                          departure=reservation.departure)
        outcomes.append(outcome)
        if last_row_of[reservation.code] != reservation.row:
            _conflict(outcome, "the code appears again in row {row}, which is the one imported",
                      row=last_row_of[reservation.code])
            continue
        prop = listings.property_of(reservation.listing)
        outcome.property_id = prop.id if prop is not None else None  # shown on every row
        booking = known.matching_booking(reservation, prop)
        if booking is not None:
            outcome.booking_id, outcome.property_id = booking.id, booking.property_id
            _plan_update(outcome, reservation, booking, known)
        elif reservation.cancelled:
            outcome.say("cancelled in the channel: no booking is made from it")
        elif prop is None:
            _conflict(outcome, UNKNOWN_LISTING, listing=reservation.listing or "")
        else:
            outcome.property_id = prop.id
            _plan_creation(outcome, reservation, prop, known,
                           planned_stays.setdefault(prop.id, Stays()))
        _check_as_bookings_would(outcome)
    return outcomes


class Stay(NamedTuple):
    """A stay as overlap look-ups need it."""

    id: str
    is_block: bool


class Stays:
    """Stays of one property sorted by arrival, for overlap look-ups in memory: the stays that
    may overlap [arrival, departure) are those arriving before the departure and no longer
    ago than the longest stay held."""

    def __init__(self):
        self.arrivals: list[dt.date] = []
        self.items: list[tuple[dt.date, dt.date, object]] = []
        self.longest = dt.timedelta(0)

    def add(self, arrival: dt.date, departure: dt.date, item) -> None:
        at = bisect.bisect_right(self.arrivals, arrival)
        self.arrivals.insert(at, arrival)
        self.items.insert(at, (arrival, departure, item))
        self.longest = max(self.longest, departure - arrival)

    def first_overlapping(self, arrival: dt.date, departure: dt.date, unless: str | None = None):
        """The overlapping booking that arrives first (as ORDER BY arrival_date), or None;
        `unless`: a booking's id to leave out (the booking itself)."""
        found = None
        at = bisect.bisect_left(self.arrivals, departure)
        while at > 0:
            at -= 1
            start, end, item = self.items[at]
            if start + self.longest <= arrival:
                break
            if end > arrival and (unless is None or getattr(item, "id", None) != unless):
                found = item
        return found


class Known:
    """The account's bookings that planning the file needs, read in a few queries rather than
    three a row (issue 35: 8,000 rows took a minute): those with the file's codes, then the
    confirmed ones of the account's properties whose stays meet the dates of the file or of
    those bookings (what a row may match by dates or overlap)."""

    CHUNK = 500  # codes per query: far below every engine's limit of parameters

    def __init__(self, account_id: str, reservations: list[Reservation],
                 properties: dict[str, Property]):
        self.properties = properties
        codes = sorted({reservation.code for reservation in reservations})
        self.by_code: dict[str, Booking] = {}
        for start in range(0, len(codes), self.CHUNK):
            query = (Booking.select().where((Booking.account == account_id)
                                            & Booking.external_ref.in_(codes[start:start + self.CHUNK])
                                            & (Booking.is_block == False))  # noqa: E712
                     .order_by(Booking.created_at.desc()))
            for booking in models_from_query(query):
                self.by_code[booking.external_ref] = booking  # the earliest made wins
        days = [day for reservation in reservations
                for day in (reservation.arrival, reservation.departure)]
        days += [_day(day) for booking in self.by_code.values()
                 for day in (booking.arrival_date, booking.departure_date)]
        self.stays: dict[str, Stays] = {}
        self.by_dates: dict[tuple, Booking] = {}
        if not days or not properties:
            return
        # The stays as a few columns each, not models: a file spanning decades may meet every
        # stay of a large account. Models are read only for those a row may match by dates.
        query = (Booking.select(Booking.id, Booking.property, Booking.arrival_date,
                                Booking.departure_date, Booking.is_block, Booking.external_ref)
                 .where(Booking.property.in_(list(properties)) & (Booking.status == "confirmed")
                        & (Booking.departure_date > min(days))
                        & (Booking.arrival_date < max(days)))
                 .order_by(Booking.created_at.desc()).tuples())
        pairs = {(reservation.arrival, reservation.departure) for reservation in reservations}
        feed_ids: dict[tuple, str] = {}
        for booking_id, property_id, arrival, departure, is_block, external_ref in query:
            arrival, departure = _day(arrival), _day(departure)
            self.stays.setdefault(property_id, Stays()).add(arrival, departure,
                                                            Stay(booking_id, is_block))
            if not is_block and external_ref is None and (arrival, departure) in pairs:
                feed_ids[(property_id, arrival, departure)] = booking_id  # the earliest wins
        wanted = sorted(set(feed_ids.values()))
        found: dict[str, Booking] = {}
        for start in range(0, len(wanted), self.CHUNK):
            query = Booking.select().where(Booking.id.in_(wanted[start:start + self.CHUNK]))
            found.update((booking.id, booking) for booking in models_from_query(query))
        self.by_dates = {key: found[booking_id] for key, booking_id in feed_ids.items()
                         if booking_id in found}

    def matching_booking(self, reservation: Reservation, prop: Property | None):
        found = self.by_code.get(reservation.code)
        if found is not None or prop is None:
            return found
        return self.by_dates.get((prop.id, reservation.arrival, reservation.departure))

    def overlapping(self, property_id: str, arrival, departure, unless: str | None = None):
        stays = self.stays.get(property_id)
        return None if stays is None else stays.first_overlapping(
            _day(arrival), _day(departure), unless)


def _day(value) -> dt.date:
    return value if isinstance(value, dt.date) else dt.date.fromisoformat(str(value)[:10])


def _plan_update(outcome: Outcome, reservation: Reservation, booking: Booking,
                 known: Known) -> None:
    problems = []
    if reservation.cancelled:
        if booking.status == "cancelled":
            outcome.say("cancelled in the channel and here")
        else:
            _conflict(outcome, "cancelled in {channel} but confirmed here: cancel it on its page "
                               "if the guest is not coming",
                      channel=CHANNEL_NAMES[reservation.channel])
        return
    if booking.status == "cancelled":
        _conflict(outcome, "confirmed in the channel but cancelled here: nothing was changed")
        return
    if (booking.arrival_date, booking.departure_date) != (reservation.arrival, reservation.departure):
        problems.append(("the file's dates ({arrival} to {departure}) differ; the calendar feed "
                         "keeps this booking's dates",
                         {"arrival": reservation.arrival.isoformat(),
                          "departure": reservation.departure.isoformat()}))
    host_typed = set(booking.host_fields or ())
    prop = known.properties[booking.property_id]
    wanted = _wanted_values(reservation, prop)
    if booking.guest_language != DEFAULT_LANGUAGE or "guest_language" in host_typed \
            or wanted.get("guest_language") == DEFAULT_LANGUAGE:
        wanted.pop("guest_language", None)  # someone chose it; the file only hints at it
    for name in ("guest_phone", "booked_at"):
        if getattr(booking, name):
            wanted.pop(name, None)  # the host, the guest or an earlier file gave it already
    count = _counted(reservation, wanted.get("guest_count"))
    if count is not None and count > (prop.max_guests or DEFAULT_MAX_GUESTS):
        problems.append(("{count} guests are more than the property takes", {"count": count}))
        for name in ("guest_count", "adults", "children", "infants"):
            wanted.pop(name, None)
    if "guest_count" in wanted and "guest_count" in host_typed \
            and wanted["guest_count"] != booking.guest_count:
        for name in ("adults", "children", "infants"):
            wanted.pop(name, None)  # the party would no longer add up to the host's count
    for name, value in wanted.items():
        now = getattr(booking, name)
        if value is None or value == now:
            continue
        if name in host_typed:
            problems.append(("the {field} was set by hand ({now}; the file says {value})",
                             {"field": FIELD_WORDS.get(name, name), "now": _money(name, now),
                              "value": _money(name, value)}))
            continue
        if name == "external_ref" and now:
            continue
        outcome.changes[name] = [now, value]
    overlapping = known.overlapping(booking.property_id, booking.arrival_date,
                                    booking.departure_date, unless=booking.id) \
        if "guest_count" in outcome.changes else None
    if overlapping is not None:
        # bookings.service checks a new count's stay for overlaps, as on creation: a double
        # booking the host has yet to solve keeps the count as it is.
        for name in ("guest_count", "adults", "children", "infants"):
            outcome.changes.pop(name, None)
        problems.append(("the stay overlaps booking {booking}: the number of guests stays until "
                         "that is solved", {"booking": overlapping.id}))
    if "total_price_cents" not in outcome.changes:
        outcome.changes.pop("currency", None)
    if reservation.price_cents is not None and "total_price_cents" not in wanted:
        problems.append(_price_problem(reservation))
    if problems:
        outcome.action = "conflict"
        outcome.reasons.extend(problems)
    elif outcome.changes:
        outcome.action = "updated"
        outcome.say("filled: {fields}", fields=", ".join(
            FIELD_WORDS.get(name, name) for name in outcome.changes
            if name not in ("adults", "children", "infants", "currency", "guest_language")))
    else:
        outcome.say("already as in the file")


def _plan_creation(outcome: Outcome, reservation: Reservation, prop: Property, known: Known,
                   planned: Stays) -> None:
    clash = known.overlapping(prop.id, reservation.arrival, reservation.departure)
    if clash is not None:
        if clash.is_block:
            _conflict(outcome, "no booking has this code or these dates, and the dates overlap "
                               "a period blocked in a channel calendar")
        else:
            _conflict(outcome, "no booking has this code or these dates, and the dates overlap "
                               "booking {booking}", booking=clash.id)
        return
    row = planned.first_overlapping(reservation.arrival, reservation.departure)
    if row is not None:
        _conflict(outcome, "the dates overlap row {row} of the file", row=row)
        return
    if prop.status != "active":
        _conflict(outcome, "the property is inactive; it takes no new bookings")
        return
    wanted = _wanted_values(reservation, prop)
    count = wanted.get("guest_count") or 1
    if _counted(reservation, count) > (prop.max_guests or DEFAULT_MAX_GUESTS):
        _conflict(outcome, "{count} guests are more than the property takes",
                  count=_counted(reservation, count))
        return
    planned.add(reservation.arrival, reservation.departure, reservation.row)
    outcome.action = "created"
    outcome.say("new {channel} booking", channel=CHANNEL_NAMES[reservation.channel])
    outcome.create = {"property_id": prop.id, "channel": reservation.channel,
                      "guest_name": wanted.get("guest_name") or DEFAULT_GUEST[reservation.channel],
                      "arrival_date": reservation.arrival, "departure_date": reservation.departure,
                      "guest_count": count, "external_ref": reservation.code,
                      "guest_language": wanted["guest_language"],
                      **{name: wanted[name] for name in ("adults", "children", "infants",
                                                         "total_price_cents", "currency",
                                                         "payment_method", "guest_phone",
                                                         "booked_at")
                         if wanted.get(name) is not None}}
    if reservation.price_cents is not None and "total_price_cents" not in wanted:
        outcome.reasons.append(_price_problem(reservation))


def _counted(reservation: Reservation, count: int | None) -> int | None:
    """The guests that count against the property's capacity: Airbnb leaves infants out."""
    if count is not None and reservation.channel in INFANTS_OUTSIDE_CAPACITY \
            and reservation.infants:
        return max(count - reservation.infants, 1)
    return count


def _wanted_values(reservation: Reservation, prop: Property) -> dict:
    wanted: dict = {"external_ref": reservation.code,
                    "guest_language": guest_language(reservation.country, prop.country)}
    if reservation.phone:
        wanted["guest_phone"] = reservation.phone
    if reservation.booked_on is not None:
        wanted["booked_at"] = booked_at(reservation.booked_on, prop.timezone)
    if reservation.payment_method:
        wanted["payment_method"] = reservation.payment_method
    if reservation.guest_name:
        wanted["guest_name"] = reservation.guest_name[:200]
    if reservation.guest_count:
        wanted.update(guest_count=reservation.guest_count, adults=reservation.adults or 0,
                      children=reservation.children or 0)
        if reservation.infants is not None:
            wanted["infants"] = reservation.infants
    if reservation.price_cents is not None \
            and 0 <= reservation.price_cents <= MAX_TOTAL_PRICE * 100 \
            and reservation.currency in (None, "EUR"):
        wanted["total_price_cents"] = reservation.price_cents
        wanted["currency"] = "EUR"
    return wanted


def _price_problem(reservation: Reservation) -> tuple[str, dict]:
    if reservation.price_cents < 0:
        return "the file's amount is negative; no price was taken from it", {}
    if reservation.price_cents > MAX_TOTAL_PRICE * 100:
        return ("the file's amount is more than {limit} euros, the most a booking takes; no "
                "price was taken from it", {"limit": MAX_TOTAL_PRICE})
    return ("the price is in {currency}, not euros; type the price in euros on the booking (the "
            "AADE declaration is in euros)", {"currency": reservation.currency})


def _check_as_bookings_would(outcome: Outcome) -> None:
    """What applying writes goes through bookings.service's own check of each field, here: so
    a dry run shows as a conflict, naming its row, what the apply would refuse (issue 35: a
    price the preview showed as created refused the whole apply, naming no row)."""
    values = dict(outcome.create or {name: after for name, (_, after) in outcome.changes.items()})
    for name in ("property_id", "channel"):
        values.pop(name, None)
    if "total_price_cents" in values:
        cents = values.pop("total_price_cents")
        values["total_price"] = None if cents is None else Decimal(cents) / 100
    if not values:
        return
    try:
        checked_fields(values)
    except ValidationError as refusal:
        outcome.create, outcome.changes = None, {}
        outcome.reasons = [reason for reason in outcome.reasons
                           if not reason[0].startswith(("new ", "filled"))]
        _conflict(outcome, "the file's values cannot be taken ({problems}): nothing was changed",
                  problems="; ".join(f"{detail['field']} {detail['message']}"
                                     for detail in refusal.details or ()))


def _conflict(outcome: Outcome, template: str, **values) -> None:
    outcome.action = "conflict"
    outcome.say(template, **values)


def _money(name: str, value):
    if name == "total_price_cents" and isinstance(value, int):
        return f"{value / 100:.2f}"
    return _shown(value)


def _shown(value):
    if isinstance(value, dt.datetime):
        return value.isoformat() + "Z"
    if isinstance(value, dt.date):
        return value.isoformat()
    return value
