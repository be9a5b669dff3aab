"""Reading a channel's feed into stays: what is a reservation, what is a block, and its dates.

The iCalendar itself is read by `icalendar` (line unfolding, escapes, `TZID`, `DURATION`, the
exclusive all-day `DTEND`): the grammar is subtle and well-kept code does it better than ours.
What each channel means by its events is ours (see docs/sync.md):

- Airbnb: `Reserved` is a reservation, its code (`HM...`) read from the reservation URL in the
  description; anything else (`Airbnb (Not available)`) is a block.
- Booking.com: every event is `CLOSED - Not available`; most are reservations, so all become
  bookings of "Booking.com guest" (a host cancels a false one).
- Vrbo: `Reserved - <name>` in the site's language (`Réservée - Melanie`) is a reservation of that
  guest; `Blocked` (and its translations) is a block.
- Other channels: a summary saying blocked, closed or not available is a block, anything else a
  reservation, named after what follows the first " - " when there is one.
"""

from __future__ import annotations

import dataclasses
import datetime as dt
import re
import zoneinfo
from typing import Callable, Iterator

from rentalcomply.sync.fetch import FeedError
from rentalcomply.sync.plain_feed import plain_events

GUEST_NAME_MAX = 200
# A feed's history (past stays) counts too, within this many times `sync.max_events` in all:
# checked on the raw text before parsing, so a flood costs no parsing and no memory.
HISTORY_FACTOR = 4
# C0 control characters other than tab and newline, and DEL: nothing a name or a note holds, and
# a NUL is refused by PostgreSQL outright. Removed from what a feed says before it is stored.
CONTROL_CHARACTERS = re.compile(r"[\x00-\x08\x0b-\x1f\x7f]")


def clean_text(text: str) -> str:
    return CONTROL_CHARACTERS.sub("", text)

# Block summaries in the languages Vrbo and the other channels use.
BLOCK_WORDS = ("blocked", "not available", "unavailable", "closed", "bloqué", "bloquée",
               "bloqueado", "bloqueada", "blockiert", "gesperrt", "bloccato", "geblokkeerd",
               "μη διαθέσιμο", "δεσμευμένο από ιδιοκτήτη")
AIRBNB_CODE = re.compile(r"\b(HM[A-Z0-9]{6,12})\b")
# "Phone Number (Last 4 Digits): 1234" in an Airbnb reservation's DESCRIPTION: a guest opening
# the property's check-in link may name themselves with it (checkin/links.py).
AIRBNB_PHONE_LAST4 = re.compile(r"(?i)phone\s+number\s*\(last\s*4\s*digits\)\s*:\s*(\d{4})\b")
DEFAULT_GUEST = {"airbnb": "Airbnb guest", "booking": "Booking.com guest", "vrbo": "Vrbo guest",
                 "other": "Channel guest"}


@dataclasses.dataclass(frozen=True)
class Stay:
    uid: str
    arrival: dt.date
    departure: dt.date  # exclusive: the check-out day
    is_block: bool
    guest_name: str
    external_ref: str | None = None
    phone_last4: str | None = None


@dataclasses.dataclass
class Feed:
    stays: list[Stay]
    # UIDs of events present but unreadable (no start, nonsense dates): never cancelled for it.
    unreadable_uids: set[str]


def check_event_count(body: bytes, max_events: int) -> None:
    """Refuse, on its text alone, a feed with more than HISTORY_FACTOR × `max_events` events."""
    limit = max_events * HISTORY_FACTOR
    count = len(_EVENT_START.findall(body))
    if count > limit:
        raise FeedError(f"the feed holds {count} events, more than {limit} in all "
                        f"({HISTORY_FACTOR} × sync.max_events, past stays included); "
                        "nothing was changed")


_EVENT_START = re.compile(rb"(?im)^BEGIN:VEVENT\s*$")


def parse_feed(body: bytes, provider: str, timezone: str = "UTC",
               max_events: int | None = None) -> Feed:
    """The stays of a feed. Raises FeedError when the body is not a whole iCalendar, or holds
    more than HISTORY_FACTOR × `max_events` events in all (the caller counts the future ones)."""
    body = body.removeprefix(b"\xef\xbb\xbf")  # a UTF-8 byte-order mark some exporters add
    if max_events is not None:
        check_event_count(body, max_events)
    if not body.strip():
        raise FeedError("the feed is empty (no calendar at all)")
    text_end = body.rstrip()[-200:].upper()
    if not body.lstrip()[:15].upper().startswith(b"BEGIN:VCALENDAR"):
        raise FeedError("the feed is not an iCalendar file (it does not start with "
                        "BEGIN:VCALENDAR)")
    if not text_end.endswith(b"END:VCALENDAR"):
        raise FeedError("the feed is truncated (it does not end with END:VCALENDAR)")
    zone = _zone(timezone)
    stays: dict[str, Stay] = {}
    unreadable: set[str] = set()
    for uid, status, summary, description, dates in _events(body):
        uid = clean_text(uid).strip()
        if not uid:
            continue  # nothing to follow it by; channels always give one
        if status.upper() == "CANCELLED":
            continue
        try:
            arrival, departure = _dates(*dates(), zone)
        except (ValueError, TypeError, AttributeError, OverflowError):  # icalendar's errors too
            unreadable.add(uid[:255])
            continue
        summary = clean_text(summary).strip()
        description = clean_text(description)
        stays[uid[:255]] = _stay(uid[:255], arrival, departure, summary, description, provider)
    return Feed(list(stays.values()), unreadable)


def _events(body: bytes) -> Iterator[tuple[str, str, str, str, Callable]]:
    """(UID, STATUS, SUMMARY, DESCRIPTION, a function giving DTSTART and DTEND) of each event:
    read by plain_feed.py when the feed has the channels' plain shape, else by icalendar."""
    plain = plain_events(body)
    if plain is not None:
        for event in plain:
            yield (event.uid, event.status, event.summary, event.description,
                   lambda event=event: (event.start, event.end))
        return
    import icalendar  # with the first such feed, not at every start (sync/export.py says why)
    try:
        calendar = icalendar.Calendar.from_ical(body)
    except (ValueError, KeyError, IndexError, TypeError) as exc:
        raise FeedError(f"the feed is not valid iCalendar ({_short(exc)})") from None
    for event in calendar.walk("VEVENT"):
        yield (str(event.get("uid") or ""), str(event.get("status") or ""),
               str(event.get("summary") or ""), str(event.get("description") or ""),
               lambda event=event: (event.start, event.end))


def _stay(uid, arrival, departure, summary, description, provider) -> Stay:
    lowered = summary.casefold()
    if provider == "airbnb":
        if lowered.startswith("reserved"):
            match = AIRBNB_CODE.search(description) or AIRBNB_CODE.search(summary)
            phone = AIRBNB_PHONE_LAST4.search(description)
            return Stay(uid, arrival, departure, False, DEFAULT_GUEST["airbnb"],
                        match.group(1) if match else None, phone.group(1) if phone else None)
        return Stay(uid, arrival, departure, True, "")
    if provider == "booking":
        return Stay(uid, arrival, departure, False, DEFAULT_GUEST["booking"])
    if " - " in summary:
        prefix, name = (part.strip() for part in summary.split(" - ", 1))
        if _is_block_word(prefix) or _is_block_word(name):  # "CLOSED - Not available"
            return Stay(uid, arrival, departure, True, "")
        return Stay(uid, arrival, departure, False,
                    (name or DEFAULT_GUEST.get(provider, DEFAULT_GUEST["other"]))[:GUEST_NAME_MAX])
    if any(word in lowered for word in BLOCK_WORDS):
        return Stay(uid, arrival, departure, True, "")
    return Stay(uid, arrival, departure, False, DEFAULT_GUEST.get(provider, DEFAULT_GUEST["other"]))


def _is_block_word(text: str) -> bool:
    lowered = text.casefold()
    return any(word in lowered for word in BLOCK_WORDS)


def _dates(start, end, zone) -> tuple[dt.date, dt.date]:
    arrival, departure = _day(start, zone), _day(end, zone)
    if departure <= arrival:  # a timed event within one day, or an end before the start
        departure = arrival + dt.timedelta(days=1)
    return arrival, departure


def _day(value, zone) -> dt.date:
    if isinstance(value, dt.datetime):
        if value.tzinfo is not None and value.utcoffset() == dt.timedelta(0) \
                and getattr(value.tzinfo, "key", "UTC") in ("UTC", "Etc/UTC", None):
            # A UTC time says nothing of the listing's day: read it on the property's clock.
            return value.astimezone(zone).date()
        return value.date()  # TZID or floating: the listing's own local day
    if isinstance(value, dt.date):
        return value
    raise ValueError("not a date")


def _zone(name: str):
    try:
        return zoneinfo.ZoneInfo(name)
    except (zoneinfo.ZoneInfoNotFoundError, ValueError):
        return dt.timezone.utc


def _short(exc: Exception) -> str:
    text = str(exc).replace("\r", " ").replace("\n", " ")
    return text[:120] + ("…" if len(text) > 120 else "")
