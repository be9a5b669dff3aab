"""The days a host marks a property closed.

The monthly tourism statistics report every day of the month, a closed day as closed (ROSS 1000
`apertura=NO`, its counts zero), so the region knows the real opening days. A day on which a
booking has a night (arrival <= day < departure) cannot be closed: the statistics would count a
guest in a closed property. One row per closed day (`PropertyClosedDay`); the API speaks in
ranges, `YYYY-MM-DD` or `YYYY-MM-DD/YYYY-MM-DD` (ISO 8601's interval, both days included).
"""

from __future__ import annotations

import dataclasses
import datetime as dt
import re
from typing import Iterable

from rentalcomply.core import clock
from rentalcomply.core.db import atomic
from rentalcomply.core.errors import BookingConflict, ValidationError
from rentalcomply.core.models import Booking, Property, PropertyClosedDay

# At most this many days in one range, and in one window read: two years.
MAX_DAYS = 731
MAX_RANGES = 100
RANGE_PATTERN = r"^\d{4}-\d{2}-\d{2}(/\d{4}-\d{2}-\d{2})?$"


@dataclasses.dataclass(frozen=True)
class DayRange:
    first: dt.date
    last: dt.date

    @property
    def days(self) -> int:
        return (self.last - self.first).days + 1

    def each(self) -> Iterable[dt.date]:
        for offset in range(self.days):
            yield self.first + dt.timedelta(days=offset)

    def view(self) -> dict:
        return {"first_day": self.first.isoformat(), "last_day": self.last.isoformat(),
                "days": self.days}

    def text(self) -> str:
        return self.first.isoformat() if self.first == self.last \
            else f"{self.first.isoformat()}/{self.last.isoformat()}"


def parse_range(value, field: str) -> DayRange:
    """`2026-12-24` or `2026-12-24/2026-12-26` (both days included), else ValidationError."""
    if not isinstance(value, str) or not re.fullmatch(RANGE_PATTERN, value.strip()):
        raise ValidationError(field, "must be a day YYYY-MM-DD or a range YYYY-MM-DD/YYYY-MM-DD "
                                     "(both days included)")
    first_text, _, last_text = value.strip().partition("/")
    try:
        first = dt.date.fromisoformat(first_text)
        last = dt.date.fromisoformat(last_text or first_text)
    except ValueError:
        raise ValidationError(field, "is not a real calendar date") from None
    if last < first:
        raise ValidationError(field, "ends before it starts")
    if (last - first).days + 1 > MAX_DAYS:
        raise ValidationError(field, f"must be at most {MAX_DAYS} days")
    return DayRange(first, last)


def ranges_of(days: Iterable[dt.date]) -> list[DayRange]:
    """Consecutive days joined into ranges, in order."""
    found: list[DayRange] = []
    for day in sorted(set(days)):
        if found and found[-1].last + dt.timedelta(days=1) == day:
            found[-1] = DayRange(found[-1].first, day)
        else:
            found.append(DayRange(day, day))
    return found


def default_window(today: dt.date | None = None) -> tuple[dt.date, dt.date]:
    """The current month's first day and a year after it: what the page and the API show
    without `from` and `to`."""
    start = (today or clock.today()).replace(day=1)
    return start, start + dt.timedelta(days=365)


def closed_ranges(prop: Property, first: dt.date, last: dt.date) -> list[DayRange]:
    """The property's closed days from `first` to `last` (both included), as ranges."""
    if last < first:
        raise ValidationError("to", "must not be before from")
    if (last - first).days + 1 > MAX_DAYS:
        raise ValidationError("to", f"must be at most {MAX_DAYS} days after from")
    return ranges_of(closed_days(prop.id, first, last))


def closed_days(property_id: str, first: dt.date, last: dt.date) -> list[dt.date]:
    """The closed days from `first` to `last`, both included: what the statistics read."""
    return [row.day for row in PropertyClosedDay.select(PropertyClosedDay.day).where(
        (PropertyClosedDay.property == property_id) & (PropertyClosedDay.day >= first)
        & (PropertyClosedDay.day <= last)).order_by(PropertyClosedDay.day)]


def change(prop: Property, close: list, reopen: list) -> list[DayRange]:
    """Close the days of `close` and reopen those of `reopen` (lists of range texts), in one
    transaction. A day in both is refused (ValidationError); a day on which a booking has a
    night cannot be closed (BookingConflict naming the bookings). Returns the ranges changed."""
    if len(close) + len(reopen) > MAX_RANGES:
        raise ValidationError("close", f"at most {MAX_RANGES} ranges in one request")
    if not close and not reopen:
        raise ValidationError("close", "give at least one range to close or to reopen")
    to_close = [parse_range(value, f"close[{index}]") for index, value in enumerate(close)]
    to_open = [parse_range(value, f"open[{index}]") for index, value in enumerate(reopen)]
    closing = {day for span in to_close for day in span.each()}
    opening = {day for span in to_open for day in span.each()}
    both = sorted(closing & opening)
    if both:
        raise ValidationError("open", f"{both[0].isoformat()} is both closed and reopened")
    with atomic():
        if closing:
            _refuse_nights(prop, to_close)
            present = set(closed_days(prop.id, min(closing), max(closing)))
            now = clock.utcnow()
            new = [{"property": prop.id, "day": day, "created_at": now}
                   for day in sorted(closing - present)]
            for start in range(0, len(new), 200):
                PropertyClosedDay.insert_many(new[start:start + 200]).execute()
        if opening:
            PropertyClosedDay.delete().where(
                (PropertyClosedDay.property == prop.id)
                & PropertyClosedDay.day.in_(sorted(opening))).execute()
    return to_close + to_open


def _refuse_nights(prop: Property, spans: list[DayRange]) -> None:
    """BookingConflict when a confirmed booking (not a channel's block: a closed property may
    well be blocked on its channels) has a night on a day to close."""
    details = []
    for index, span in enumerate(spans):
        bookings = (Booking.select().where(
            (Booking.property == prop.id) & (Booking.status == "confirmed")
            & (Booking.is_block == False)  # noqa: E712 - SQL
            & (Booking.arrival_date <= span.last)
            & (Booking.departure_date > span.first))
            .order_by(Booking.arrival_date, Booking.id))
        for booking in bookings:
            nights = [day for day in span.each()
                      if booking.arrival_date <= day < booking.departure_date]
            details.append({
                "field": f"close[{index}]", "booking_id": booking.id,
                "message": (f"booking {booking.id} (arrival {booking.arrival_date.isoformat()}, "
                            f"departure {booking.departure_date.isoformat()}) has a night on "
                            + ranges_text(nights))})
    if details:
        raise BookingConflict("A booking has a night on a day to close: move or cancel it "
                              "first, or close other days.", details=details)


def ranges_text(days: Iterable[dt.date]) -> str:
    return ", ".join(span.text() for span in ranges_of(days))
