"""The one source of "now", so tests can step past an expiry instead of sleeping.

Times are naive UTC in the database (peewee stores them as text without an offset) and rendered
with a `Z` at the edge.
"""

import datetime as _dt

_offset = _dt.timedelta(0)
_frozen: _dt.datetime | None = None  # tests only: "now" stands still until travel() steps it


def _now() -> _dt.datetime:
    base = _frozen if _frozen is not None else _dt.datetime.now(_dt.timezone.utc)
    return base + _offset


def utcnow() -> _dt.datetime:
    return _now().replace(tzinfo=None, microsecond=0)


def utcnow_precise() -> _dt.datetime:
    return _now().replace(tzinfo=None)


def today() -> _dt.date:
    return utcnow().date()


def travel(delta: _dt.timedelta) -> None:
    """Move the clock (tests only)."""
    global _offset
    _offset += delta


def freeze() -> None:
    """Stop the clock where it is (tests only): it moves only by travel(), so a test that compares
    two readings never meets a second boundary between them on a busy machine."""
    global _frozen
    _frozen = _dt.datetime.now(_dt.timezone.utc).replace(microsecond=0)


def reset() -> None:
    global _offset, _frozen
    _offset = _dt.timedelta(0)
    _frozen = None


def iso(value: _dt.datetime | None) -> str | None:
    """`2026-11-22T09:15:00Z`, or None."""
    if value is None:
        return None
    if isinstance(value, str):  # as SQLite stores it: "2026-11-22 09:15:00[.123456]"
        return value[:10] + "T" + value[11:19] + "Z"
    return value.isoformat(timespec="seconds") + "Z"


def iso_date(value: _dt.date | None) -> str | None:
    return None if value is None else value.isoformat()
