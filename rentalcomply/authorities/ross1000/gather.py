"""A property's ROSS 1000 month read from the database: `month_input(prop, year, month, code)`.

What it reads: the property's bookings overlapping the month (a stay arriving before it or
leaving after it included: movement.py keeps only this month's days of it; a cancelled booking
as a cancelled stay, which reports nothing; channel blocks left out), each booking's completed
check-in (the guests as the guest page or the guests API saved them, decrypted), the property's
rooms and beds (`Property.rooms`, `Property.beds`) and the days it marked closed
(`PropertyClosedDay`).

What it never does is guess. A guest whose value has no code in the authority's tables (a
country, a comune), whose residence is not given, or a booking whose check-in is not complete, is
not reported: the booking is listed in `incomplete` with why, in words a host can act on, and
the caller holds the month until it is put right. The property's own missing settings (rooms,
beds, the structure code) are in `missing`.

The mapping (shared/domain/updates-2026-11.md §1.3; docs/ross1000.md):
- citizenship, country of residence and of birth: the Polizia state codes of the shipped code
  tables (codes/, the same tables as Alloggiati Web's), valid on the arrival day (on the birth
  day for the country of birth);
- a resident of Italy: the Polizia comune code of the comune of residence, looked up by name and
  province (`residence_comune`, `residence_province`, which the guest page of an Italian property
  asks), its province the one statistics count by; a foreign resident: the town given
  (`residence_place`, else the address's town), at most 30 characters;
- sex M/F as check-in keeps it; guest types 16-20 from the check-in's relationship, as the police
  registration reads it (the same words: single, head of family or group, family or group
  member);
- idswh: the booking's id and the guest's place in the party, so a corrected guest keeps it (the
  service replaces a record sent again with the same idswh, note §1.3).
"""

from __future__ import annotations

import datetime as dt
from dataclasses import dataclass

from rentalcomply import codes
from rentalcomply.authorities.ross1000.movement import (
    FAMILY_HEAD, FAMILY_MEMBER, FOREIGN_PLACE_MAX, GROUP_LEADER, GROUP_MEMBER, HEAD_OF,
    IDSWH_MAX, ITALY, SINGLE, Document, Guest, MonthInput, Stay, days_of,
)
from rentalcomply.checkin.models import Checkin
from rentalcomply.checkin.service import load_party
from rentalcomply.core.models import Booking, Property, PropertyClosedDay

# The check-in's relationships as ROSS 1000's guest types (tipoalloggiato, the Alloggiati codes).
TYPE_OF = {"single": SINGLE, "head_of_family": FAMILY_HEAD, "head_of_group": GROUP_LEADER,
           "family_member": FAMILY_MEMBER, "group_member": GROUP_MEMBER}
# What a member is when the check-in did not say, by its lead guest's type.
MEMBER_OF_LEAD = {FAMILY_HEAD: FAMILY_MEMBER, GROUP_LEADER: GROUP_MEMBER}
# The idswh: up to 16 characters of the booking's id, a dash, the guest's place (1-999).
IDSWH_BOOKING_PART = IDSWH_MAX - 4


@dataclass(frozen=True)
class IncompleteBooking:
    """A booking of the month that cannot be reported yet, and why (each reason a sentence)."""
    booking_id: str
    reference: str  # the channel's reference where there is one, else the booking's id
    arrival: dt.date
    departure: dt.date
    reasons: tuple[str, ...]

    @property
    def why(self) -> str:
        return " ".join(self.reasons)


@dataclass(frozen=True)
class Gathered:
    input: MonthInput
    incomplete: tuple[IncompleteBooking, ...] = ()
    # The property's settings the month needs and lacks, each a sentence.
    missing: tuple[str, ...] = ()

    @property
    def complete(self) -> bool:
        return not self.incomplete and not self.missing


def idswh(booking_id: str, position: int) -> str:
    """The guest's stable id in ROSS 1000: `<booking id without its prefix, 16 chars>-<n>`
    (booking ids are `book_` and 20 random characters, so 16 of them stay unique)."""
    key = booking_id.split("_", 1)[-1][:IDSWH_BOOKING_PART]
    return f"{key}-{position + 1}"


def month_input(prop: Property, year: int, month: int, structure_code: str) -> Gathered:
    days = days_of(year, month)
    first, last = days[0], days[-1]
    missing = []
    if not (structure_code or "").strip():
        missing.append("The property's ROSS 1000 structure code is not set.")
    if not prop.rooms or prop.rooms < 1:
        missing.append("The number of rooms the property lets is not set.")
    if not prop.beds or prop.beds < 1:
        missing.append("The number of beds the property lets is not set.")
    closed = frozenset(
        _date(row.day) for row in PropertyClosedDay.select().where(
            (PropertyClosedDay.property == prop.id) & (PropertyClosedDay.day >= first)
            & (PropertyClosedDay.day <= last)))
    # A departure on the month's first morning belongs to this month's file, hence `>= first`.
    bookings = (Booking.select().where(
        (Booking.property == prop.id) & (Booking.is_block == False)  # noqa: E712 - SQL
        & (Booking.arrival_date <= last) & (Booking.departure_date >= first))
        .order_by(Booking.arrival_date, Booking.id))
    stays, incomplete = [], []
    for booking in bookings:
        arrival, departure = _date(booking.arrival_date), _date(booking.departure_date)
        if booking.status == "cancelled":
            stays.append(Stay(arrival, departure, (), cancelled=True, rooms=prop.rooms or 1))
            continue
        guests, reasons = _guests(booking, arrival)
        if reasons:
            incomplete.append(IncompleteBooking(
                booking.id, booking.external_ref or booking.id, arrival, departure,
                tuple(reasons)))
            continue
        # A property is let whole: each stay occupies every room it has (two stays on one
        # night would be a double booking, which movement.check refuses with words).
        stays.append(Stay(arrival, departure, tuple(guests), rooms=prop.rooms or 1))
    return Gathered(
        input=MonthInput(structure_code=(structure_code or "").strip(), year=year, month=month,
                         rooms_available=prop.rooms or 0, beds_available=prop.beds or 0,
                         stays=tuple(stays), closed_days=closed),
        incomplete=tuple(incomplete), missing=tuple(missing))


def _guests(booking: Booking, arrival: dt.date) -> tuple[list[Guest], list[str]]:
    if booking.checkin_status != "COMPLETED":
        return [], ["The guests have not completed check-in."]
    row = Checkin.get_or_none(Checkin.booking == booking.id)
    party = load_party(row).get("guests", [])
    if not party:
        return [], ["The check-in holds no guests."]
    types = _types(party)
    ids = [idswh(booking.id, index) for index in range(len(party))]
    guests, reasons = [], []
    for index, data in enumerate(party):
        kind = types[index]
        head = ""
        if kind in HEAD_OF:
            heads = [ids[i] for i, t in enumerate(types) if t == HEAD_OF[kind]]
            if not heads:
                reasons.append(f"Guest {index + 1} is a family or group member with no head of "
                               "family or group leader in the party.")
                continue
            head = heads[0]
        guest, problems = _guest(data, ids[index], kind, head, arrival)
        # The guest's place in the party, never their name: a reason may be logged or e-mailed.
        reasons += [f"Guest {index + 1}: {problem}" for problem in problems]
        if guest is not None:
            guests.append(guest)
    return guests, reasons


def _types(party: list[dict]) -> list[str]:
    """Each guest's tipoalloggiato: what the check-in says, a member of the lead's kind where it
    said nothing (as the police registration reads the same party)."""
    lead = TYPE_OF.get(party[0].get("relationship") or "", SINGLE)
    result = [lead]
    for data in party[1:]:
        result.append(TYPE_OF.get(data.get("relationship") or "")
                      or MEMBER_OF_LEAD.get(lead, SINGLE))
    return result


def _guest(data: dict, guest_id: str, kind: str, head: str,
           arrival: dt.date) -> tuple[Guest | None, list[str]]:
    problems = []
    birth = _date(data.get("birth_date"))
    if birth is None:
        problems.append("the date of birth is missing.")
    sex = data.get("sex")
    if sex not in ("M", "F"):
        problems.append("the sex (M or F) is missing.")
    citizenship = _state(data.get("nationality"), arrival, "citizenship", problems)
    birth_country = _state(data.get("birth_country"), birth or arrival, "country of birth",
                           problems)
    birth_comune = birth_province = ""
    if birth_country == ITALY and birth is not None:
        place = codes.it_municipality(data.get("birth_municipality") or "",
                                      data.get("birth_province"), birth)
        if place is None:
            problems.append("the comune of birth has no code in the comuni table on the date "
                            "of birth (check its name and province).")
        else:
            birth_comune, birth_province = place.code, place.province
    residence = _state(data.get("residence_country"), arrival, "country of residence", problems)
    place_code = province = ""
    if residence == ITALY:
        comune = data.get("residence_comune")
        if not comune:
            problems.append("the comune of residence is missing (asked of residents of Italy).")
        else:
            place = codes.it_municipality(comune, data.get("residence_province"), arrival)
            if place is None:
                problems.append("the comune of residence has no code in the comuni table (check "
                                "its name and province).")
            else:
                place_code, province = place.code, place.province
    elif residence:
        town = " ".join(str(data.get("residence_place") or data.get("address_city") or "").split())
        if not town:
            problems.append("the town of residence is missing.")
        # The service takes free text of at most 30 characters (note §1.3); the figures count
        # the country, so a longer town name is cut rather than the guest held.
        place_code = town[:FOREIGN_PLACE_MAX]
    if problems:
        return None, problems
    return Guest(idswh=guest_id, guest_type=kind, sex=sex, birth_date=birth,
                 citizenship=citizenship, residence_country=residence,
                 residence_place=place_code, residence_province=province,
                 surname=str(data.get("last_name") or ""), name=str(data.get("first_name") or ""),
                 birth_country=birth_country, birth_comune=birth_comune,
                 birth_province=birth_province, head_idswh=head,
                 document=_document(data, arrival)), []


def _state(iso, on: dt.date, what: str, problems: list[str]) -> str:
    if not iso:
        problems.append(f"the {what} is missing.")
        return ""
    place = codes.it_state(str(iso), on)
    if place is None:
        problems.append(f"the {what} {iso} has no code in the states table.")
        return ""
    return place.code


def _document(data: dict, on: dt.date) -> Document | None:
    """The identity document for the legacy TXT record, where every part of it has a code
    (the XML has no document fields; members give none)."""
    kind = codes.it_document_type(data.get("document_type"))
    number = str(data.get("document_number") or "").strip()
    country = data.get("document_country")
    if country == "IT":
        place = codes.it_municipality(data.get("document_issue_place") or "", None, on)
    else:
        place = codes.it_state(country or "", on)
    if not kind or not number or place is None:
        return None
    return Document(kind, number, place.code)


def _date(value) -> dt.date | None:
    if isinstance(value, dt.datetime):
        return value.date()
    if isinstance(value, dt.date):
        return value
    try:
        return dt.date.fromisoformat(str(value)[:10]) if value else None
    except ValueError:
        return None
