"""A quick reader for the plain feeds the channels publish; every other feed is icalendar's.

Airbnb, Booking.com and Vrbo export the same simple shape: one VCALENDAR of VEVENTs, each with a
UID, an all-day (or UTC) DTSTART and DTEND, a SUMMARY and perhaps a DESCRIPTION, no time zones,
no parameters but VALUE, no recurrence. icalendar reads every line into typed objects, which was
13.6 ms of a 100-event feed's 16.8 ms and half the processor time of a first sync of 200 feeds
(bench/sync.py). This reader takes only that shape, and hands anything else back (None): a
parameter, a component or a property it does not know, a time zone, a duration, a property
twice, an escape it does not know, a date it cannot read, DTSTART and DTEND of different kinds,
a blank line. Then the whole feed is icalendar's, as before, so every unusual case keeps
icalendar's meaning; tests/sync/test_plain_feed.py checks that the two readers agree on every
feed this one accepts (the channels' samples, and generated feeds).
"""

from __future__ import annotations

import dataclasses
import datetime as dt
import re
import zoneinfo

# A line's name. Names are upper case in every channel's feed; a lower-case one (allowed by the
# grammar) is left to icalendar.
_NAME = re.compile(r"[A-Z][A-Z0-9-]*(?=[;:])")
# A line read: NAME, at most a VALUE parameter, then the value.
_LINE = re.compile(r"([A-Z][A-Z0-9-]*)(?:;VALUE=(DATE|DATE-TIME))?:(.*)", re.DOTALL)
_DATE = re.compile(r"(\d{4})(\d{2})(\d{2})")
_DATE_TIME = re.compile(r"(\d{4})(\d{2})(\d{2})T(\d{2})(\d{2})(\d{2})(Z?)")
# A TEXT escape: \\ \; \, \n \N. Any other backslash is left to icalendar.
_ESCAPE = re.compile(r"\\(.?)", re.DOTALL)
_UNESCAPED = {"\\": "\\", ";": ";", ",": ",", "n": "\n", "N": "\n"}

# The properties read from an event, and those of the calendar or an event that say nothing a
# stay depends on (skipped, whatever their value: icalendar's reading of them is not used either).
_READ = {"UID", "SUMMARY", "DESCRIPTION", "STATUS", "DTSTART", "DTEND"}
_SKIPPED = {"PRODID", "VERSION", "CALSCALE", "METHOD", "DTSTAMP", "CREATED", "LAST-MODIFIED",
            "SEQUENCE", "TRANSP", "LOCATION", "URL", "CLASS", "PRIORITY"}
_UTC = zoneinfo.ZoneInfo("UTC")


@dataclasses.dataclass
class PlainEvent:
    """What parse.py reads of an event, as icalendar would give it (text unescaped, DTSTART and
    DTEND as dates, UTC date-times or floating date-times)."""
    uid: str
    status: str
    summary: str
    description: str
    start: dt.date | dt.datetime
    end: dt.date | dt.datetime


class _NotPlain(Exception):
    pass


def plain_events(body: bytes) -> list[PlainEvent] | None:
    """The events of a plain feed, or None when the feed is not plain (icalendar reads it)."""
    try:
        text = body.decode("utf-8")
    except UnicodeDecodeError:
        return None
    if re.search(r"\r(?!\n)", text):
        return None  # a lone carriage return: where lines end is left to icalendar
    text = text.replace("\r\n", "\n").rstrip("\n")
    if "\n\n" in text:
        return None  # blank lines unfold in ways left to icalendar
    try:
        # Split on line feeds alone: str.splitlines would also split on characters that
        # iCalendar keeps inside a value (form feed, U+2028).
        return _read(text.replace("\n ", "").replace("\n\t", "").split("\n"))
    except _NotPlain:
        return None


def _read(lines: list[str]) -> list[PlainEvent]:
    events: list[PlainEvent] = []
    if not lines or lines[0] != "BEGIN:VCALENDAR" or lines[-1] != "END:VCALENDAR":
        raise _NotPlain
    event: dict[str, object] | None = None
    for line in lines[1:-1]:
        name = _NAME.match(line)
        if name is None:
            raise _NotPlain
        if name.group().startswith("X-") or name.group() in _SKIPPED:
            continue  # with whatever parameters (Airbnb's PRODID has one)
        match = _LINE.fullmatch(line)
        if match is None:
            raise _NotPlain
        name, value_type, value = match.groups()
        if name == "BEGIN":
            if value != "VEVENT" or event is not None:
                raise _NotPlain
            event = {}
        elif name == "END":
            if value != "VEVENT" or event is None:
                raise _NotPlain
            events.append(_event(event))
            event = None
        elif event is None or name not in _READ or name in event:
            raise _NotPlain
        elif name in ("DTSTART", "DTEND"):
            event[name] = _when(value, value_type)
        elif value_type is not None:
            raise _NotPlain
        else:
            event[name] = _text(value)
    if event is not None:
        raise _NotPlain
    return events


def _event(fields: dict) -> PlainEvent:
    if "DTSTART" not in fields or "DTEND" not in fields:
        raise _NotPlain  # icalendar's rules for a missing end (or start) apply
    start, end = fields["DTSTART"], fields["DTEND"]
    if type(start) is not type(end) or getattr(start, "tzinfo", None) is not getattr(
            end, "tzinfo", None):
        raise _NotPlain  # a date beside a date-time, or UTC beside floating: icalendar's call
    return PlainEvent(fields.get("UID", ""), fields.get("STATUS", ""), fields.get("SUMMARY", ""),
                      fields.get("DESCRIPTION", ""), start, end)


def _when(value: str, value_type: str | None) -> dt.date | dt.datetime:
    try:
        if value_type != "DATE-TIME" and (date := _DATE.fullmatch(value)):
            return dt.date(*map(int, date.groups()))
        if value_type != "DATE" and (moment := _DATE_TIME.fullmatch(value)):
            *parts, utc = moment.groups()
            return dt.datetime(*map(int, parts), tzinfo=_UTC if utc else None)
    except ValueError:
        pass  # a month 13: icalendar marks the event unreadable
    raise _NotPlain


def _text(value: str) -> str:
    if "\\" not in value:
        return value

    def unescape(match: re.Match) -> str:
        if match.group(1) not in _UNESCAPED:
            raise _NotPlain
        return _UNESCAPED[match.group(1)]

    return _ESCAPE.sub(unescape, value)
