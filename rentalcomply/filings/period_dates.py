"""A filing period as text ("2026-11" a month, "2026-Q1" a quarter, "2026-H1" a half-year,
"2026" a year) and its days;
the date it is where a property is (a period ends at the property's midnight, not UTC's)."""

from __future__ import annotations

import calendar
import datetime as dt
import zoneinfo

from rentalcomply.core import clock


def bounds(period: str) -> tuple[dt.date, dt.date]:
    """The first and last day of `period`."""
    if len(period) == 4:
        year = int(period)
        return dt.date(year, 1, 1), dt.date(year, 12, 31)
    year, rest = int(period[:4]), period[5:]
    if rest.startswith("Q"):
        first_month = (int(rest[1]) - 1) * 3 + 1
        last_month = first_month + 2
    elif rest.startswith("H"):
        first_month = (int(rest[1]) - 1) * 6 + 1
        last_month = first_month + 5
    else:
        first_month = last_month = int(rest)
    return (dt.date(year, first_month, 1),
            dt.date(year, last_month, calendar.monthrange(year, last_month)[1]))


def period_of(day: dt.date, kind: str) -> str:
    if kind == "year":
        return f"{day.year:04d}"
    if kind == "quarter":
        return f"{day.year:04d}-Q{(day.month - 1) // 3 + 1}"
    if kind == "half_year":
        return f"{day.year:04d}-H{(day.month - 1) // 6 + 1}"
    return f"{day.year:04d}-{day.month:02d}"


def following(period: str, kind: str) -> str:
    """The period after `period`."""
    return period_of(bounds(period)[1] + dt.timedelta(days=1), kind)


def local_today(timezone: str | None, now: dt.datetime | None = None) -> dt.date:
    """The date it is in the property's time zone."""
    now = now or clock.utcnow()
    try:
        zone = zoneinfo.ZoneInfo(timezone or "UTC")
    except (zoneinfo.ZoneInfoNotFoundError, ValueError):
        zone = dt.timezone.utc
    return now.replace(tzinfo=dt.timezone.utc).astimezone(zone).date()


def period_ended(period: str, today: dt.date) -> bool:
    """Whether `period` is over on `today` (the property's date)."""
    return bounds(period)[1] < today
