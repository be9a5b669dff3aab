"""Alloggiati Web records (Polizia di Stato): one fixed-width line of 168 characters per guest
(174 with the 6-character apartment id of apartment-management accounts).

| positions | field | width |
|---|---|---|
| 1-2 | guest type: 16 single, 17 head of family, 18 group leader, 19 family member, 20 group member | 2 |
| 3-12 | arrival date dd/mm/yyyy | 10 |
| 13-14 | days of stay, at most 30 | 2 |
| 15-64 | surname | 50 |
| 65-94 | first name | 30 |
| 95 | sex: 1 male, 2 female | 1 |
| 96-105 | date of birth dd/mm/yyyy | 10 |
| 106-114 | municipality of birth (born in Italy only) | 9 |
| 115-116 | province of birth (born in Italy only) | 2 |
| 117-125 | state of birth | 9 |
| 126-134 | citizenship (state code) | 9 |
| 135-139 | document type | 5 |
| 140-159 | document number | 20 |
| 160-168 | place of issue (municipality or state code) | 9 |
| 169-174 | apartment id (apartment accounts only) | 6 |

Text is upper-cased and padded with spaces on the right; family and group members (19, 20) leave
the three document fields blank and follow their head. At most 1,000 lines a file.
"""

from __future__ import annotations

import datetime as dt
import unicodedata

from rentalcomply import codes
from rentalcomply.filings.connector import Guest, Stay

RECORD_LENGTH = 168
APARTMENT_RECORD_LENGTH = 174
MAX_LINES = 1000
MAX_DAYS = 30
TYPES = {"single": "16", "head_of_family": "17", "group_leader": "18", "family_member": "19",
         "group_member": "20"}
HEADS = {"family_member": "head_of_family", "group_member": "group_leader"}
# The fields whose value must be coded from the authority's tables (codes/).
CODE_FIELDS = ("birth_municipality", "birth_country", "nationality", "document_type",
               "document_issue_place")


class RecordError(ValueError):
    """Guests whose data cannot be written as records: [(index, field, message)]."""

    def __init__(self, problems: list[tuple[int, str, str]]):
        super().__init__("; ".join(f"guest {i + 1} {f}: {m}" for i, f, m in problems))
        self.problems = problems


def text(value: str | None, width: int) -> str:
    """Upper-cased, control characters and runs of spaces folded, cut and padded to `width`."""
    value = unicodedata.normalize("NFC", value or "")
    value = "".join(c if unicodedata.category(c)[0] != "C" else " " for c in value)
    value = " ".join(value.split()).upper()
    value = value.replace("’", "'").replace("‘", "'").replace("`", "'")
    return value[:width].ljust(width)


def day(value: dt.date) -> str:
    return value.strftime("%d/%m/%Y")


def _as_date(value) -> dt.date | None:
    if isinstance(value, dt.date):
        return value
    try:
        return dt.date.fromisoformat(str(value))
    except (TypeError, ValueError):
        return None


def record(stay: Stay, guest: Guest, apartment_id: str | None = None) -> str:
    """One guest's line. RecordError names every field that has no code."""
    data = guest.data
    problems: list[tuple[int, str, str]] = []

    def refuse(field: str, message: str) -> None:
        problems.append((guest.index, field, message))

    kind = TYPES.get(guest.role)
    if kind is None:
        refuse("relationship", f"unknown role {guest.role!r}")
        kind = "16"
    days = min(max((stay.departure - stay.arrival).days, 1), MAX_DAYS)
    birth = _as_date(data.get("birth_date"))
    if birth is None:
        refuse("birth_date", "is missing")
    sex = {"M": "1", "F": "2"}.get(data.get("sex") or "")
    if sex is None:
        refuse("sex", "must be M or F")
    birth_country = data.get("birth_country") or data.get("nationality")
    municipality = province = ""
    if birth_country == "IT":
        place = codes.it_municipality(data.get("birth_place") or data.get("birth_municipality") or "",
                                      data.get("birth_province"), birth)
        if place is None:
            refuse("birth_municipality", "has no code in the municipalities table on the "
                                         "birth date")
        else:
            municipality, province = place.code, place.province
    birth_state = codes.it_state(birth_country or "", birth)
    if birth_state is None:
        refuse("birth_country", "has no code in the states table on the birth date")
    citizenship = codes.it_state(data.get("nationality") or "", stay.arrival)
    if citizenship is None:
        refuse("nationality", "has no code in the states table")
    member = kind in ("19", "20")
    document = ""
    if member:
        document = " " * 34
    else:
        doc_type = codes.it_document_type(data.get("document_type"))
        if doc_type is None:
            refuse("document_type", "has no code in the document types table")
        issue_code = _issue_place(data, stay.arrival)
        if issue_code is None:
            refuse("document_issue_place", "is not a municipality or state of the code tables")
        number = text(data.get("document_number"), 20)
        if not number.strip():
            refuse("document_number", "is missing")
        document = text(doc_type, 5) + number + text(issue_code, 9)
    if problems:
        raise RecordError(problems)
    line = (kind + day(stay.arrival) + f"{days:02d}" + text(data.get("last_name"), 50)
            + text(data.get("first_name"), 30) + sex + day(birth) + text(municipality, 9)
            + text(province, 2) + text(birth_state.code, 9) + text(citizenship.code, 9)
            + document)
    if apartment_id:
        line += text(apartment_id, 6)
    assert len(line) == (APARTMENT_RECORD_LENGTH if apartment_id else RECORD_LENGTH), len(line)
    return line


def _issue_place(data: dict, on: dt.date) -> str | None:
    """An Italian document's municipality of issue, else the issuing state; valid on `on`."""
    country = data.get("document_country")
    place = data.get("issue_place") or data.get("document_issue_place")
    if country == "IT" or (not country and place):
        found = codes.it_municipality(place or "", None, on) if place else None
        if found is not None:
            return found.code
        if country == "IT" and place and codes.fold(place) in ("ITALIA", "ITALY"):
            return codes.ITALY_STATE
        return None
    state = codes.it_state(country or "", on)
    return state.code if state else None


def ordered(guests: list[Guest]) -> list[Guest]:
    """Heads first, each followed by its members (the order the service requires)."""
    heads = [g for g in guests if g.role not in HEADS]
    members = [g for g in guests if g.role in HEADS]
    result: list[Guest] = []
    for head in heads:
        result.append(head)
        result += [m for m in members if HEADS[m.role] == head.role and m not in result]
    result += [m for m in members if m not in result]  # members without a head: refused later
    return result


def records(stay: Stay, guests: list[Guest], apartment_id: str | None = None) -> list[str]:
    """Every guest's line, members after their head. RecordError lists every refused field."""
    lines, problems = [], []
    # A member without its head here is one whose head was filed before (a re-filing sends only
    # the guests not yet accepted): its line is still valid.
    for guest in ordered(guests):
        try:
            lines.append(record(stay, guest, apartment_id))
        except RecordError as exc:
            problems += exc.problems
    if problems:
        raise RecordError(problems)
    return lines


def files(lines: list[str]) -> list[bytes]:
    """The lines as files of at most 1,000 lines each, UTF-8, CRLF line ends."""
    return [("\r\n".join(lines[start:start + MAX_LINES]) + "\r\n").encode("utf-8")
            for start in range(0, len(lines), MAX_LINES)] or [b""]
