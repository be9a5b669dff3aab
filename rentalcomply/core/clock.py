"""The one source of "now", so tests can step past an expiry instead of sleeping.

Times are naive UTC in the database (peewee stores them as text without an offset) and rendered
with a `Z` at the edge.
"""

import datetime as _dt

_offset = _dt.timedelta(0)
_frozen: _dt.datetime | None = None  # tests only: "now" stands still until travel() steps it
# Tests only: how far the whole run is moved from the machine's date (shift_everything()). Unlike
# travel(), reset() keeps it: it is the run's "today", not one test's.
_shift = _dt.timedelta(0)


def _real_now() -> _dt.datetime:
    return _dt.datetime.now(_dt.timezone.utc) + _shift


def _now() -> _dt.datetime:
    base = _frozen if _frozen is not None else _real_now()
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


def freeze(at: _dt.datetime | None = None) -> None:
    """Stop the clock (tests only), where it is or at `at` (naive UTC or aware): it moves only by
    travel(), so a test that compares two readings never meets a second boundary between them on
    a busy machine, and a test of fixed dates reads them on the same day whatever today is."""
    global _frozen, _offset
    if at is None:
        _frozen = _real_now().replace(microsecond=0)
    else:
        _frozen = at if at.tzinfo else at.replace(tzinfo=_dt.timezone.utc)
        _offset = _dt.timedelta(0)


def shift_everything(delta: _dt.timedelta) -> None:
    """Move every reading of this process by `delta` for good (tests only): the suite run as if
    today were another day, to show that no test depends on the date it runs."""
    global _shift
    _shift = delta


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
