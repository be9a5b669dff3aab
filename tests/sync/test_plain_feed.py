"""The quick reader of plain feeds (sync/plain_feed.py) reads every feed it accepts exactly as
icalendar does, and leaves every other feed to icalendar."""

from __future__ import annotations

import datetime as dt
from pathlib import Path

import icalendar
from hypothesis import HealthCheck, given, settings, strategies as st

from rentalcomply.sync.parse import parse_feed
from rentalcomply.sync.plain_feed import plain_events

FEEDS = Path(__file__).parent / "feeds"


def icalendar_reading(body: bytes) -> list[tuple]:
    calendar = icalendar.Calendar.from_ical(body)
    return [(str(event.get("uid") or ""), str(event.get("status") or ""),
             str(event.get("summary") or ""), str(event.get("description") or ""),
             event.start, event.end) for event in calendar.walk("VEVENT")]


def plain_reading(body: bytes) -> list[tuple] | None:
    events = plain_events(body)
    if events is None:
        return None
    return [(e.uid, e.status, e.summary, e.description, e.start, e.end) for e in events]


def test_the_airbnb_and_booking_samples_are_read_quickly_and_as_icalendar_reads_them():
    for name in ("airbnb.ics", "booking.ics"):
        body = (FEEDS / name).read_bytes()
        assert plain_reading(body) is not None, name
        assert plain_reading(body) == icalendar_reading(body), name


def test_a_feed_with_a_duration_a_time_zone_or_an_alarm_is_left_to_icalendar():
    vrbo = (FEEDS / "vrbo.ics").read_bytes()  # one event has DURATION instead of DTEND
    assert plain_events(vrbo) is None
    assert len(parse_feed(vrbo, "vrbo").stays) == 3
    for line in ("DTSTART;TZID=Europe/Athens:20270301T150000", "DURATION:P2D", "RRULE:FREQ=DAILY",
                 "BEGIN:VALARM\r\nACTION:DISPLAY\r\nEND:VALARM", "summary:lower-case name",
                 "SUMMARY:twice", "ATTENDEE;CN=Maria:mailto:m@example.com",
                 "DESCRIPTION:an unknown escape \\x"):
        body = feed([event_lines("u1", "20270301", "20270303", extra=[line])])
        assert plain_events(body) is None, line
    timezone = (b"BEGIN:VCALENDAR\r\nBEGIN:VTIMEZONE\r\nTZID:Europe/Athens\r\nEND:VTIMEZONE\r\n"
                b"END:VCALENDAR\r\n")
    assert plain_events(timezone) is None


def test_a_date_beside_a_date_time_or_an_impossible_date_is_left_to_icalendar():
    for start, end in (("20270301", "20270303T100000Z"), ("20270301T100000", "20270303T100000Z"),
                       ("20271301", "20271303")):
        assert plain_events(feed([event_lines("u1", start, end)])) is None
    assert parse_feed(feed([event_lines("u1", "20271301", "20271303")]), "airbnb") \
        .unreadable_uids == {"u1"}


# --- generated feeds ----------------------------------------------------------------------------

def event_lines(uid: str, start: str, end: str, *, summary: str | None = "Reserved",
                description: str | None = None, status: str | None = None,
                extra: list[str] = (), value_date: bool = True) -> list[str]:
    kind = ";VALUE=DATE" if value_date and len(start) == 8 else ""
    lines = ["BEGIN:VEVENT", f"DTSTART{kind}:{start}", f"DTEND{kind}:{end}", f"UID:{uid}",
             "DTSTAMP:20261120T080000Z"]
    if summary is not None:
        lines.append(f"SUMMARY:{summary}")
    if description is not None:
        lines.append(f"DESCRIPTION:{description}")
    if status is not None:
        lines.append(f"STATUS:{status}")
    return lines + list(extra) + ["END:VEVENT"]


def feed(events: list[list[str]], *, newline: str = "\r\n", fold_at: int | None = None) -> bytes:
    lines = ["BEGIN:VCALENDAR", "PRODID;X-RICAL-TZSOURCE=TZINFO:-//Airbnb Inc//Hosting Calendar "
             "1.0//EN", "CALSCALE:GREGORIAN", "VERSION:2.0", "X-WR-CALNAME:Villa"]
    for lines_of_event in events:
        lines += lines_of_event
    lines.append("END:VCALENDAR")
    if fold_at:
        lines = [fold(line, fold_at, newline) for line in lines]
    return (newline.join(lines) + newline).encode()


def fold(line: str, width: int, newline: str) -> str:
    if len(line) <= width:
        return line
    return newline.join([line[:width]] + [" " + line[i:i + width - 1]
                                          for i in range(width, len(line), width - 1)])


# Text with what the channels put in it: escapes, commas, colons, accents, Greek, emoji.
texts = st.lists(st.sampled_from(list("aZ09 :;,.-_@/()é€Ωλ🙂") + ["\\n", "\\N", "\\,", "\\;",
                                                                 "\\\\"]),
                 max_size=60).map("".join)
dates = st.dates(min_value=dt.date(2020, 1, 1), max_value=dt.date(2035, 12, 31))


@st.composite
def events(draw):
    start = draw(dates)
    nights = draw(st.integers(min_value=0, max_value=30))
    end = start + dt.timedelta(days=nights)
    timed = draw(st.sampled_from(["date", "utc", "floating"]))
    if timed == "date":
        first, last = f"{start:%Y%m%d}", f"{end:%Y%m%d}"
    else:
        zone = "Z" if timed == "utc" else ""
        first, last = f"{start:%Y%m%d}T150000{zone}", f"{end:%Y%m%d}T100000{zone}"
    return event_lines(draw(texts.filter(lambda t: t.strip())), first, last,
                       summary=draw(st.none() | texts), description=draw(st.none() | texts),
                       status=draw(st.none() | st.sampled_from(["CONFIRMED", "CANCELLED"])),
                       value_date=draw(st.booleans()))


@settings(max_examples=300, deadline=None, database=None,
          suppress_health_check=[HealthCheck.too_slow])
@given(st.lists(events(), max_size=6), st.sampled_from(["\r\n", "\n"]),
       st.none() | st.integers(min_value=8, max_value=75))
def test_every_generated_plain_feed_is_read_as_icalendar_reads_it(events_, newline, fold_at):
    body = feed(events_, newline=newline, fold_at=fold_at)
    quick = plain_reading(body)
    assert quick is not None  # every generated feed has the plain shape
    assert quick == icalendar_reading(body)
