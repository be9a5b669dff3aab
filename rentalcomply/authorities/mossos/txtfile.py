"""The Mossos d'Esquadra's traveller file ("fitxer massiu de viatgers"), as the portal's manual
(v8, May 2025, §4 "Creació i format dels fitxers") lays it out:

    1|<establishment code>|<NAME>|<yyyyMMdd>|<HHmm>|<number of traveller lines>|V24
    2|<32 fields of one traveller>|          one line per traveller

Fields are separated by `|`, never padded; an empty field keeps its `|`. Alphabetic values are in
upper case, without `|` or line breaks. Lines end with CR+LF except the last. The file is named
`<establishment code>.<sequence 001-999>.txt` (file_name).

Mapping from the check-in party (the field names of `rentalcomply.checkin.guests`): document types,
sex, kinship and payment through codes.py; countries ISO alpha-3; a Spanish address names its
province (INE, 2 digits) and municipality (INE, 6 digits: the 5-digit code and its check digit,
from the shipped INE table in `rentalcomply/codes/es`), an address abroad its locality by name. A
minor (under 18) is filed with the lead guest's address and contact, and with the kinship. What the
portal would refuse is refused here first: `MossosDataError` lists each problem with its guest.

The unconfirmed details are options (`FileOptions`, from the `[police]` settings): the encoding
(ISO-8859-1 keeping accents, or ASCII without them), the `|` closing each traveller line (both known
implementations write one "as in the official example", an image), and a CR+LF after the last line.
"""

from __future__ import annotations

import dataclasses
import datetime as dt
import re
import unicodedata

from rentalcomply.authorities.mossos import codes
from rentalcomply.codes import es as es_codes
from rentalcomply.filings.records import Problem, _date, _value, alpha3

FIELD_COUNT = 32
# The traveller fields' maximum lengths, by field number (manual §4).
MAX_LENGTHS = {2: 11, 3: 14, 4: 1, 5: 8, 6: 30, 7: 30, 8: 30, 9: 1, 10: 8, 11: 21, 12: 8, 13: 4,
               14: 8, 15: 4, 16: 8, 17: 1, 18: 20, 19: 3, 20: 3, 21: 1, 22: 5, 23: 20, 24: 2,
               25: 100, 26: 9, 27: 100, 28: 2, 29: 6, 30: 100, 31: 3, 32: 20}
NAME_MAX = 40
ESTABLISHMENT_CODE = r"[A-Za-z0-9]{9,10}"
ENCODINGS = ("iso-8859-1", "ascii")


class MossosDataError(ValueError):
    """The party cannot make a file the portal takes: `problems` says what to fix, per guest."""

    def __init__(self, problems: list[Problem]):
        self.problems = problems
        super().__init__("; ".join(
            (f"guest {p.index + 1}: " if p.index is not None else "") + f"{p.field}: {p.message}"
            for p in problems))


@dataclasses.dataclass(frozen=True)
class FileOptions:
    encoding: str = "iso-8859-1"
    trailing_separator: bool = True
    final_line_break: bool = False


def file_name(establishment: str, sequence: int) -> str:
    """`08043AAR02.001.txt`: the establishment's code and the file's number (001-999)."""
    return f"{establishment.upper()}.{(sequence - 1) % 999 + 1:03d}.txt"


def _clean(value, upper: bool = True) -> str:
    """One field's text: no separator, no line break, single spaces, upper case."""
    text = " ".join(str(value or "").replace("|", " ").split())
    return text.upper() if upper else text


def _day(value) -> str:
    day = _date(value)
    return day.strftime("%Y%m%d") if day else ""


def _age(birth: dt.date, day: dt.date) -> int:
    return day.year - birth.year - ((day.month, day.day) < (birth.month, birth.day))


def _time(value: str | None, default: str) -> str:
    digits = re.sub(r"\D", "", str(value or ""))
    return digits.zfill(4)[:4] if digits else default


def _phone(value: str | None) -> str:
    """Digits only, an international prefix written 00 (the portal's field takes no `+`)."""
    text = str(value or "").strip()
    digits = re.sub(r"\D", "", text)
    return ("00" + digits if text.startswith("+") else digits)[:20]


def contract_number(reference: str) -> str:
    """The booking's reference as the contract number (at most 20 characters): the channel's
    reference, or the booking's own id without its `book_` prefix (20 characters), as typed."""
    text = _clean(reference, upper=False).replace(" ", "")
    if len(text) > MAX_LENGTHS[18] and text.startswith("book_"):
        text = text[len("book_"):]
    return text


def document_type(data: dict) -> str | None:
    kind = _value(data, "document_type")
    if not kind:
        return None
    spanish = (_value(data, "document_country") or "").upper() in ("ES", "ESP")
    return codes.DOCUMENT_TYPES.get((kind, spanish), codes.OTHER_DOCUMENT)


def traveller_fields(guest, lead: dict, stay, settings: dict, problems: list[Problem]) -> list[str]:
    """The 32 fields of one traveller's line (index 0 is field 1)."""
    data, index = guest.data, guest.index
    arrival = _date(stay.arrival)
    birth = _date(data.get("birth_date"))
    age = _age(birth, arrival) if birth else None
    minor = age is not None and age < codes.ADULT_AGE and index > 0
    checked = age is None or age > codes.DOCUMENT_CHECK_AGE
    kind = document_type(data)
    number = _clean(_value(data, "document_number")).replace(" ", "").replace("%", "")
    spanish = (_value(data, "document_country") or "").upper() in ("ES", "ESP")
    spanish_number = number if kind in codes.SPANISH_NUMBER_TYPES and spanish else ""
    foreign_number = number if number and not spanish_number else ""
    support = _clean(_value(data, "document_support_number")).replace(" ", "")
    second = _clean(_value(data, "second_last_name"))
    if checked and not number:
        problems.append(Problem(index, "document_number", "every traveller over 14 is filed "
                                                          "with a document"))
    if checked and kind == "D" and not second:
        problems.append(Problem(index, "second_last_name", "a Spanish DNI holder gives both "
                                                           "surnames"))
    if checked and kind in codes.SUPPORT_NUMBER_TYPES and number and len(support) != 9:
        problems.append(Problem(index, "document_support_number",
                                "a DNI or NIE is filed with its support number (9 characters)"))
    first, last = _clean(_value(data, "first_name")), _clean(_value(data, "last_name"))
    for name, value in (("first_name", first), ("last_name", last)):
        if not value:
            problems.append(Problem(index, name, "missing"))
    if birth is None:
        problems.append(Problem(index, "birth_date", "missing"))
    kinship = ""
    if minor:
        kinship = codes.KINSHIP_FROM_CHECKIN.get(_value(data, "minor_relationship") or "", "")
        if not kinship and (_value(data, "relationship") or "") in codes.KINSHIP:
            kinship = _value(data, "relationship")
        if not kinship:
            problems.append(Problem(index, "minor_relationship", "a traveller under 18 is filed "
                                                                 "with their kinship to the adult"))
    source = data if _value(data, "address_street", "address") or not minor else lead
    street = _clean(_value(source, "address_street", "address"))
    city = _value(source, "address_city", "city")
    postcode = _clean(_value(source, "address_postcode", "postcode")).replace(" ", "")
    country = alpha3(_value(source, "address_country", "residence_country")) or ""
    province = municipality = locality = ""
    if not street:
        problems.append(Problem(index, "address_street", "the address is missing"))
    if not country:
        problems.append(Problem(index, "address_country", "the country is missing"))
    if country == codes.SPAIN:
        code = es_codes.municipality_code(city, postcode)
        digit = es_codes.check_digits().get(code or "")
        if code and digit is not None:
            province, municipality = code[:2], code + digit
        elif source is data:
            problems.append(Problem(index, "address_city",
                                    es_codes.municipality_problem(city, postcode)))
        if not re.fullmatch(r"\d{5}", postcode):
            problems.append(Problem(index, "address_postcode", "a Spanish postcode is 5 digits"))
    elif country:
        locality = _clean(city)
        if not locality:
            problems.append(Problem(index, "address_city", "the town is missing"))
    phone = _phone(_value(data, "phone"))
    email = _clean(_value(data, "email"), upper=False)
    if minor and not phone and not email:  # a minor is reached through the lead guest
        phone, email = _phone(_value(lead, "phone")), _clean(_value(lead, "email"), upper=False)
    if not phone and not email:
        problems.append(Problem(index, "email", "a phone number or an e-mail address is needed"))
    rooms = str(settings.get("num_habitacions") or "").strip()
    internet = str(settings.get("internet") or "").strip().lower()
    payment = (str(settings.get("tipus_pagament") or "").strip().upper()
               or codes.PAYMENT_FROM_BOOKING.get(stay.payment_method or "", "OTRO"))
    fields = [
        "2", spanish_number, foreign_number, kind or "", _day(data.get("document_issue_date")),
        last, second, first, codes.SEX.get((_value(data, "sex") or "").upper(), ""),
        _day(birth), alpha3(_value(data, "nationality")) or "",
        _day(stay.arrival), _time(settings.get("hora_entrada"), "1400"),
        _day(stay.departure), _time(settings.get("hora_sortida"), "1100"),
        _day(stay.booked_on), codes.CONTRACT_RUNNING, contract_number(stay.reference),
        str(min(max(stay.guest_count or 1, 1), 999)),
        rooms if rooms.isdigit() and 1 <= int(rooms) <= 999 else "",
        {"true": "S", "yes": "S", "si": "S", "s": "S", "false": "N", "no": "N", "n": "N"}.get(internet, ""),
        payment if payment in codes.PAYMENT_TYPES else "OTRO",
        phone, kinship, email, support if kind in codes.SUPPORT_NUMBER_TYPES else "",
        street, province, municipality, locality, country, postcode,
    ]
    for number_, value in enumerate(fields, start=1):
        limit = MAX_LENGTHS.get(number_)
        if limit and len(value) > limit:
            if number_ in (6, 7, 8, 27, 30, 25):  # text: cut, as the portal allows no longer
                fields[number_ - 1] = value[:limit]
            else:
                problems.append(Problem(index, f"field {number_}",
                                        f"is longer than the {limit} characters the portal takes"))
    return fields


def build_txt(settings: dict, stay, guests: list, *, created: dt.datetime, sequence: int,
              options: FileOptions = FileOptions()) -> tuple[str, bytes]:
    """(file name, bytes) of the file of `guests` (the travellers not yet filed); `created`:
    the local time of its making (the portal refuses one later than the upload)."""
    problems: list[Problem] = []
    establishment = str(settings.get("codi_establiment") or "").strip().upper()
    if not re.fullmatch(ESTABLISHMENT_CODE, establishment):
        problems.append(Problem(None, "codi_establiment", "the establishment code the Mossos "
                                "d'Esquadra gave (9 or 10 letters or digits) is not set"))
    name = _clean(settings.get("nom_establiment") or stay.property_name)[:NAME_MAX]
    guests = sorted(guests, key=lambda g: g.index)
    if not guests:
        problems.append(Problem(None, "guests", "the file needs at least one traveller"))
    lead = dict(guests[0].data) if guests else {}
    travellers = [traveller_fields(g, lead, stay, settings, problems) for g in guests]
    if problems:
        raise MossosDataError(problems)
    header = ["1", establishment, name, created.strftime("%Y%m%d"), created.strftime("%H%M"),
              str(len(travellers)), codes.FORMAT_VERSION]
    tail = "|" if options.trailing_separator else ""
    lines = ["|".join(header)] + ["|".join(fields) + tail for fields in travellers]
    text = "\r\n".join(lines) + ("\r\n" if options.final_line_break else "")
    return file_name(establishment, sequence), encode(text, options.encoding)


def encode(text: str, encoding: str) -> bytes:
    """The text in `encoding`; a letter it lacks is written without its accent (ASCII: every
    accent dropped), never as a question mark."""
    out = []
    for char in text:
        try:
            out.append(char.encode(encoding))
        except UnicodeEncodeError:
            plain = unicodedata.normalize("NFKD", char).encode("ascii", "ignore")
            out.append(plain)
    return b"".join(out)
