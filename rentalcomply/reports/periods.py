"""A report's period as people write it (`2026-03`, `2026`) and as its code names it
(`rep_2026_03`, `rep_2026`), and today's date in Athens, where the deadlines fall."""

from __future__ import annotations

import datetime as dt
import re

from rentalcomply.authorities.aade.building import ATHENS, period_bounds
from rentalcomply.core import clock
from rentalcomply.core.errors import ValidationError

PERIOD_PATTERN = r"^\d{4}(-\d{2})?$"
EARLIEST_YEAR = 2000


def parse_period(text: str, field: str = "period") -> tuple[int, int | None]:
    """`2026-03` -> (2026, 3); `2026` -> (2026, None). A period not yet begun is refused."""
    match = re.fullmatch(r"(\d{4})(?:-(\d{2}))?", text or "")
    if not match:
        raise ValidationError(field, "must be a month YYYY-MM or a year YYYY")
    year, month = int(match.group(1)), int(match.group(2)) if match.group(2) else None
    if month is not None and not 1 <= month <= 12:
        raise ValidationError(field, "month must be 01 to 12")
    if year < EARLIEST_YEAR:
        raise ValidationError(field, f"must be {EARLIEST_YEAR} or later")
    start, _ = period_bounds(year, month)
    if start > local_today():
        raise ValidationError(field, "has not begun yet")
    return year, month


def parse_code(code: str) -> tuple[int, int | None] | None:
    match = re.fullmatch(r"rep_(\d{4})(?:_(\d{2}))?", code or "")
    if not match:
        return None
    return int(match.group(1)), int(match.group(2)) if match.group(2) else None


def local_now() -> dt.datetime:
    return clock.utcnow().replace(tzinfo=dt.timezone.utc).astimezone(ATHENS)


def local_today() -> dt.date:
    return local_now().date()
