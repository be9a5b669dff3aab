"""When a filing is due: each authority says (registry.Authority.deadline); most count 24 hours
from the arrival, at `police.arrival_hour` local time on the arrival date."""

from __future__ import annotations

import datetime as dt
import zoneinfo

from rentalcomply.core.models import Booking, Property
from rentalcomply.filings import registry
from rentalcomply.filings.settings import police_setting


def local_to_utc(day: dt.date, hour: int, minute: int, zone_name: str) -> dt.datetime:
    zone = zoneinfo.ZoneInfo(zone_name or "UTC")
    local = dt.datetime.combine(day, dt.time(hour, minute), tzinfo=zone)
    return local.astimezone(dt.timezone.utc).replace(tzinfo=None)

def working_days_after(day: dt.date, count: int) -> dt.date:
    while count:
        day += dt.timedelta(days=1)
        if day.weekday() < 5:
            count -= 1
    return day


def deadline(prop: Property, booking: Booking, kind: str = "arrival") -> dt.datetime:
    """When the filing of `kind` is due (naive UTC): the authority of the property's country
    decides; else 24 hours from the arrival."""
    hour = police_setting("arrival_hour", 14)
    due = registry.of_country(prop.country).deadline(prop, booking, kind, hour)
    if due is not None:
        return due
    return local_to_utc(as_date(booking.arrival_date), hour, 0, prop.timezone) + dt.timedelta(hours=24)


def as_date(value) -> dt.date:
    if isinstance(value, dt.datetime):  # a datetime is a date too: keep its day only
        return value.date()
    return value if isinstance(value, dt.date) else dt.date.fromisoformat(str(value)[:10])
