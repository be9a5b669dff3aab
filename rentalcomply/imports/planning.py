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

import datetime as dt
from dataclasses import dataclass, field

from rentalcomply.bookings.service import INFANTS_OUTSIDE_CAPACITY
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
    planned_stays: dict[str, list[tuple[dt.date, dt.date, int]]] = {}
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
        booking = _matching_booking(account_id, reservation, prop)
        if booking is not None:
            outcome.booking_id, outcome.property_id = booking.id, booking.property_id
            _plan_update(outcome, reservation, booking)
        elif reservation.cancelled:
            outcome.say("cancelled in the channel: no booking is made from it")
        elif prop is None:
            _conflict(outcome, UNKNOWN_LISTING, listing=reservation.listing or "")
        else:
            outcome.property_id = prop.id
            _plan_creation(outcome, reservation, prop, planned_stays.setdefault(prop.id, []))
    return outcomes


def _matching_booking(account_id: str, reservation: Reservation, prop: Property | None):
    found = (Booking.select().where((Booking.account == account_id)
                                    & (Booking.external_ref == reservation.code)
                                    & (Booking.is_block == False))  # noqa: E712
             .order_by(Booking.created_at).first())
    if found is not None or prop is None:
        return found
    return (Booking.select().where((Booking.property == prop.id)
                                   & (Booking.arrival_date == reservation.arrival)
                                   & (Booking.departure_date == reservation.departure)
                                   & (Booking.status == "confirmed")
                                   & Booking.external_ref.is_null()
                                   & (Booking.is_block == False))  # noqa: E712
            .order_by(Booking.created_at).first())


def _plan_update(outcome: Outcome, reservation: Reservation, booking: Booking) -> None:
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
    prop = booking.property
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
    if "guest_count" in outcome.changes and _overlapping(booking) is not None:
        # bookings.service checks a new count's stay for overlaps, as on creation: a double
        # booking the host has yet to solve keeps the count as it is.
        for name in ("guest_count", "adults", "children", "infants"):
            outcome.changes.pop(name, None)
        problems.append(("the stay overlaps booking {booking}: the number of guests stays until "
                         "that is solved", {"booking": _overlapping(booking).id}))
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


def _overlapping(booking: Booking):
    return (Booking.select(Booking.id).where(
        (Booking.property == booking.property_id) & (Booking.status == "confirmed")
        & (Booking.id != booking.id) & (Booking.departure_date > booking.arrival_date)
        & (Booking.arrival_date < booking.departure_date)).order_by(Booking.arrival_date).first())


def _plan_creation(outcome: Outcome, reservation: Reservation, prop: Property,
                   planned: list[tuple[dt.date, dt.date, int]]) -> None:
    clash = (Booking.select(Booking.id, Booking.is_block).where(
        (Booking.property == prop.id) & (Booking.status == "confirmed")
        & (Booking.departure_date > reservation.arrival)
        & (Booking.arrival_date < reservation.departure)).first())
    if clash is not None:
        if clash.is_block:
            _conflict(outcome, "no booking has this code or these dates, and the dates overlap "
                               "a period blocked in a channel calendar")
        else:
            _conflict(outcome, "no booking has this code or these dates, and the dates overlap "
                               "booking {booking}", booking=clash.id)
        return
    for arrival, departure, row in planned:
        if arrival < reservation.departure and reservation.arrival < departure:
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
    planned.append((reservation.arrival, reservation.departure, reservation.row))
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
    if reservation.price_cents is not None and reservation.price_cents >= 0 \
            and reservation.currency in (None, "EUR"):
        wanted["total_price_cents"] = reservation.price_cents
        wanted["currency"] = "EUR"
    return wanted


def _price_problem(reservation: Reservation) -> tuple[str, dict]:
    if reservation.price_cents < 0:
        return "the file's amount is negative; no price was taken from it", {}
    return ("the price is in {currency}, not euros; type the price in euros on the booking (the "
            "AADE declaration is in euros)", {"currency": reservation.currency})


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
