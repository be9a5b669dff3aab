"""A ROSS 1000 month in plain data: what the host's stays were, and what each day reports.

Pure: no database, no clock, no HTTP. The caller (later, the filing engine's monthly period
filing) gathers a property's stays of the month and hands them here; `month_days` returns one
`Day` per calendar day of the month, which `xmlfile.py` writes out. The rules and their sources
(shared/domain/updates-2026-11.md §1.3 and §1.6, italy-statistics-and-tax.md "ISTAT movement
survey") are in docs/ross1000.md; each is repeated where it is applied below.
"""

from __future__ import annotations

import calendar
import datetime as dt
from collections import Counter
from dataclasses import dataclass, field

# The Polizia di Stato state code of Italy (the same table as Alloggiati Web's `stati.csv`):
# ROSS 1000 keys citizenship and residence by these 9-digit codes (note §1.3).
ITALY = "100000100"

# tipoalloggiato, the Alloggiati Web codes ROSS 1000 reuses (italy-statistics-and-tax.md, TXT
# table, field 1; rentalcomply/codes/it/tipo_alloggiato.csv).
SINGLE = "16"
FAMILY_HEAD = "17"
GROUP_LEADER = "18"
FAMILY_MEMBER = "19"
GROUP_MEMBER = "20"
GUEST_TYPES = (SINGLE, FAMILY_HEAD, GROUP_LEADER, FAMILY_MEMBER, GROUP_MEMBER)
# A member's head: a family member (19) answers to a family head (17), a group member (20) to a
# group leader (18); `idcapo` carries the head's idswh (note §1.3).
HEAD_OF = {FAMILY_MEMBER: FAMILY_HEAD, GROUP_MEMBER: GROUP_LEADER}

# `idswh` is at most 20 characters (note §1.3); `luogoresidenza` of a foreign resident is a NUTS
# code or free text of at most 30 (note §1.3).
IDSWH_MAX = 20
FOREIGN_PLACE_MAX = 30


class MovementError(ValueError):
    """The month's data cannot make a truthful file (a guest without a head, a night on a closed
    day, a repeated idswh...): the host or the caller must correct it, nothing is guessed."""


@dataclass(frozen=True)
class Document:
    """An identity document. ROSS 1000's XML has no document fields; the legacy TXT record has
    (type, number, place of issue: italy-statistics-and-tax.md, positions 203-236), and the
    police registration needs it of a single guest or a head, so it travels with the guest."""
    kind: str  # Alloggiati document code, e.g. IDENT, PASOR
    number: str
    issued_at: str  # Polizia comune or state code of the place of issue


@dataclass(frozen=True)
class Guest:
    idswh: str  # unique and immutable for this guest's check-in: a correction re-sends it
    guest_type: str  # one of GUEST_TYPES
    sex: str  # "M" or "F" (ROSS 1000 letters, not Alloggiati's 1/2)
    birth_date: dt.date
    citizenship: str  # Polizia state code
    residence_country: str  # Polizia state code; ITALY for residents of Italy
    # For residents of Italy: the Polizia comune code (e.g. 412058091 Rome). For foreign
    # residents: a NUTS code or free text of at most 30 characters.
    residence_place: str
    # The province (two letters) of an Italian resident's comune: ISTAT's figures are by province
    # for Italians, by country for foreigners (italy-statistics-and-tax.md).
    residence_province: str = ""
    surname: str = ""
    name: str = ""
    birth_country: str = ""  # Polizia state code
    birth_comune: str = ""  # Polizia comune code, only when born in Italy (note §1.3)
    head_idswh: str = ""  # the head's idswh, for FAMILY_MEMBER and GROUP_MEMBER
    document: Document | None = None
    tourism_type: str = ""  # tipoturismo description, e.g. "Culturale"
    transport: str = ""  # mezzotrasporto description, e.g. "Treno"
    # The province (two letters) of the comune of birth: the legacy TXT record has a field for it
    # (txtfile.py); the XML names the comune alone.
    birth_province: str = ""

    @property
    def origin(self) -> str:
        """What the statistics count by: the province for a resident of Italy, the state code
        otherwise."""
        return self.residence_province if self.residence_country == ITALY else self.residence_country


@dataclass(frozen=True)
class Stay:
    arrival: dt.date
    departure: dt.date  # the morning the guests leave: the nights are arrival .. departure - 1
    guests: tuple[Guest, ...]
    cancelled: bool = False
    rooms: int = 1


@dataclass(frozen=True)
class MonthInput:
    structure_code: str  # the structure's code in the region's ROSS 1000 (`codice`)
    year: int
    month: int
    rooms_available: int
    beds_available: int
    stays: tuple[Stay, ...] = ()
    closed_days: frozenset[dt.date] = field(default_factory=frozenset)


@dataclass(frozen=True)
class Arrival:
    guest: Guest
    stay: Stay


@dataclass(frozen=True)
class Departure:
    guest: Guest
    stay: Stay


@dataclass(frozen=True)
class Day:
    date: dt.date
    open: bool
    rooms_available: int  # 0 on a closed day (note §1.3: apertura NO, counts 0)
    beds_available: int
    arrivals: tuple[Arrival, ...]
    departures: tuple[Departure, ...]
    rooms_occupied: int  # rooms of the stays whose night this is
    beds_occupied: int  # guests sleeping there this night
    nights: Counter  # this night's guests by origin (Guest.origin): ISTAT's "presenze"


def days_of(year: int, month: int) -> list[dt.date]:
    return [dt.date(year, month, d) for d in range(1, calendar.monthrange(year, month)[1] + 1)]


def month_days(month: MonthInput) -> list[Day]:
    """Each calendar day of the month, closed ones included (the region learns the real opening
    days from them: note §1.3 and §1.6).

    - An arrival is reported on its day and a departure on its day, each only when that day is in
      the month: a stay across the month's end has its arrival here and its departure in the next
      month's file, and its nights here are only those of this month.
    - A cancelled stay reports nothing: it never arrived.
    - A closed day reports apertura NO and zero rooms and beds; a guest cannot arrive or sleep
      there (MovementError), but may leave that morning, having slept on the last open night.
    """
    check(month)
    days = days_of(month.year, month.month)
    live = [stay for stay in month.stays if not stay.cancelled]
    result = []
    for day in days:
        is_open = day not in month.closed_days
        arrivals = tuple(Arrival(g, s) for s in live if s.arrival == day for g in _heads_first(s))
        departures = tuple(Departure(g, s) for s in live if s.departure == day
                           for g in _heads_first(s))
        sleeping = [s for s in live if s.arrival <= day < s.departure]
        if not is_open and (arrivals or sleeping):
            raise MovementError(f"{day.isoformat()} is marked closed but has guests arriving or "
                                "staying that night")
        # More rooms occupied than available means the setting or the stays are wrong; the
        # region's figures (occupancy rate) would be nonsense, so nothing is sent.
        if sum(s.rooms for s in sleeping) > month.rooms_available:
            raise MovementError(f"{day.isoformat()}: more rooms occupied than the "
                                f"{month.rooms_available} available")
        result.append(Day(
            date=day, open=is_open,
            rooms_available=month.rooms_available if is_open else 0,
            beds_available=month.beds_available if is_open else 0,
            arrivals=arrivals, departures=departures,
            rooms_occupied=sum(s.rooms for s in sleeping),
            beds_occupied=sum(len(s.guests) for s in sleeping),
            nights=Counter(g.origin for s in sleeping for g in s.guests)))
    return result


@dataclass(frozen=True)
class Totals:
    """The month's C/59 figures: ISTAT's "arrivi" and "presenze" by origin."""
    arrivals: Counter
    departures: Counter
    nights: Counter
    open_days: int
    closed_days: int


def totals(days: list[Day]) -> Totals:
    arrivals, departures, nights = Counter(), Counter(), Counter()
    for day in days:
        arrivals.update(a.guest.origin for a in day.arrivals)
        departures.update(d.guest.origin for d in day.departures)
        nights.update(day.nights)
    return Totals(arrivals=arrivals, departures=departures, nights=nights,
                  open_days=sum(1 for d in days if d.open),
                  closed_days=sum(1 for d in days if not d.open))


def _heads_first(stay: Stay) -> list[Guest]:
    """A stay's guests with heads and leaders before their members: the head of a family or group
    must be sent first (note §1.3), its members point at it with idcapo."""
    return sorted(stay.guests, key=lambda g: g.guest_type in HEAD_OF)


def check(month: MonthInput) -> None:
    """Refuse what would make a wrong or refused file, with a message a person can act on. The
    XSD cannot catch these: the published schema types every field as a string (note §1.2)."""
    if not 1 <= month.month <= 12:
        raise MovementError(f"month {month.month} is not 1 to 12")
    if not month.structure_code.strip():
        raise MovementError("the structure code is missing")
    if month.rooms_available < 0 or month.beds_available < 0:
        raise MovementError("rooms and beds available cannot be negative")
    first, last = days_of(month.year, month.month)[0], days_of(month.year, month.month)[-1]
    stray = sorted(d for d in month.closed_days if not first <= d <= last)
    if stray:
        raise MovementError(f"closed day {stray[0].isoformat()} is not in the month")
    seen: set[str] = set()
    for stay in month.stays:
        if stay.departure <= stay.arrival:
            raise MovementError(f"a stay arriving {stay.arrival.isoformat()} leaves on or before "
                                "its arrival")
        if stay.cancelled:
            continue
        if stay.rooms < 1:
            raise MovementError(f"the stay arriving {stay.arrival.isoformat()} has no room")
        if not stay.guests:
            raise MovementError(f"the stay arriving {stay.arrival.isoformat()} has no guests")
        ids = {g.idswh for g in stay.guests}
        for guest in stay.guests:
            _check_guest(guest, stay, ids)
            if guest.idswh in seen:
                raise MovementError(f"idswh {guest.idswh} is used twice")
            seen.add(guest.idswh)


def _check_guest(guest: Guest, stay: Stay, ids_in_stay: set[str]) -> None:
    who = f"guest {guest.idswh or '(no idswh)'}"
    if not guest.idswh or len(guest.idswh) > IDSWH_MAX:
        raise MovementError(f"{who}: idswh must be 1 to {IDSWH_MAX} characters")
    if guest.guest_type not in GUEST_TYPES:
        raise MovementError(f"{who}: guest type {guest.guest_type!r} is not one of "
                            f"{', '.join(GUEST_TYPES)}")
    if guest.sex not in ("M", "F"):
        raise MovementError(f"{who}: sex must be M or F")
    if not guest.citizenship or not guest.residence_country:
        raise MovementError(f"{who}: citizenship and country of residence are required")
    if not guest.residence_place:
        raise MovementError(f"{who}: the place of residence is required (the comune for a "
                            "resident of Italy, a NUTS code or the town otherwise)")
    if guest.residence_country == ITALY:
        if len(guest.residence_province) != 2:
            raise MovementError(f"{who}: a resident of Italy needs the province of residence")
    elif len(guest.residence_place) > FOREIGN_PLACE_MAX:
        raise MovementError(f"{who}: a foreign place of residence is at most "
                            f"{FOREIGN_PLACE_MAX} characters")
    if guest.birth_comune and guest.birth_country not in ("", ITALY):
        raise MovementError(f"{who}: a comune of birth is given only for a birth in Italy")
    head_type = HEAD_OF.get(guest.guest_type)
    if head_type is None:
        if guest.head_idswh:
            raise MovementError(f"{who}: only a family or group member has a head")
        return
    heads = [g for g in stay.guests if g.idswh == guest.head_idswh]
    if guest.head_idswh not in ids_in_stay or heads[0].guest_type != head_type:
        raise MovementError(f"{who}: a member (type {guest.guest_type}) needs the idswh of its "
                            f"head (type {head_type}) in the same stay")
