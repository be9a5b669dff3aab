"""The legacy ROSS 1000 TXT file: one fixed-width record of 328 characters per guest, offered as a
second download where a region still asks for it (the XML is the recommended format: updates-
2026-11.md §1.1).

UNCONFIRMED LAYOUT. The only source is one repository (cicrusc/ross1000-validator, "Tracciato
Record di integrazione dati v.4 – 20/10/2022"), through shared/domain/italy-statistics-and-tax.md
(the table) and updates-2026-11.md §1.4 (the rules). Its README says 128 characters a line, its
widths and its code 328. So the layout is one table, `LAYOUT`, in the note's order and words:
correcting a width or a position is one line here (and the test's own table, written from the
note, says whether the two still agree).

Rules applied (note §1.4): a line per guest, CRLF after each, ASCII; text left-aligned, numbers
right-aligned, blanks to fill; dates gg/mm/aaaa; sex 1 (M) or 2 (F); the rooms and beds (fields
21-23) only for types 16-18, blank for 19-20; the tourist tax flag (field 24) blank (not known
here); modalità 1 new or overwrite, 2 variation (the departure date then required), 3 delete
(only fields 1, 2, 25 and 26 count, the rest blank).

Which guests: those arriving in the month, each with its stay's departure date (a stay across the
month's end is in the month it arrives). `codice posizione` must never change for a record and
is 10 characters: the guest's idswh where it fits, else 10 characters derived from it
(`position_code`), so the same guest always has the same code.
"""

from __future__ import annotations

import datetime as dt
import hashlib
import unicodedata
from dataclasses import dataclass

from rentalcomply.authorities.ross1000.movement import (
    HEAD_OF, ITALY, Guest, MonthInput, Stay, check, days_of,
)

NEW, VARIATION, DELETE = "1", "2", "3"
MODALITIES = (NEW, VARIATION, DELETE)
RECORD_LENGTH = 328
NOT_SPECIFIED = "Non Specificato"


@dataclass(frozen=True)
class Field:
    number: int  # the field's number in the tracciato (1-26), as the rules name them
    name: str
    start: int  # 1-based position, as the note's table
    width: int
    numeric: bool = False  # right-aligned; text is left-aligned


# The note's table (italy-statistics-and-tax.md, "TXT record"), one row per field.
LAYOUT = (
    Field(1, "tipo_alloggiato", 1, 2),
    Field(2, "data_arrivo", 3, 10),
    Field(3, "cognome", 13, 50),
    Field(4, "nome", 63, 30),
    Field(5, "sesso", 93, 1),
    Field(6, "data_nascita", 94, 10),
    Field(7, "comune_nascita", 104, 9),
    Field(8, "provincia_nascita", 113, 2),
    Field(9, "stato_nascita", 115, 9),
    Field(10, "cittadinanza", 124, 9),
    Field(11, "comune_residenza", 133, 9),
    Field(12, "provincia_residenza", 142, 2),
    Field(13, "stato_residenza", 144, 9),
    Field(14, "indirizzo", 153, 50),
    Field(15, "tipo_documento", 203, 5),
    Field(16, "numero_documento", 208, 20),
    Field(17, "luogo_rilascio", 228, 9),
    Field(18, "data_partenza", 237, 10),
    Field(19, "tipo_turismo", 247, 30),
    Field(20, "mezzo_trasporto", 277, 30),
    Field(21, "camere_occupate", 307, 3, numeric=True),
    Field(22, "camere_disponibili", 310, 3, numeric=True),
    Field(23, "letti_disponibili", 313, 4, numeric=True),
    Field(24, "tassa_soggiorno", 317, 1),
    Field(25, "codice_posizione", 318, 10),
    Field(26, "modalita", 328, 1),
)
# What a deletion keeps (note §1.4: "only fields 1, 2, 25 and 26 count").
DELETION_FIELDS = {1, 2, 25, 26}


class TxtError(ValueError):
    """A value that cannot be written in its field (too long a number, a missing date)."""


def position_code(idswh: str) -> str:
    """The record's `codice posizione` (10 characters, never changing): the idswh where it fits,
    else the first 10 base-36 digits of its SHA-256 (stable, and unique enough per structure)."""
    if len(idswh) <= 10:
        return idswh
    number = int.from_bytes(hashlib.sha256(idswh.encode("utf-8")).digest()[:8], "big")
    digits = "0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZ"
    code = ""
    while len(code) < 10:
        number, digit = divmod(number, 36)
        code = digits[digit] + code
    return code


def ascii_text(value: str) -> str:
    """The file is ASCII: accents dropped (è -> e), anything else not ASCII and control
    characters become spaces, runs of spaces one."""
    folded = unicodedata.normalize("NFKD", value or "")
    kept = "".join(c for c in folded if not unicodedata.combining(c))
    kept = "".join(c if 32 <= ord(c) < 127 else " " for c in kept)
    return " ".join(kept.split())


def day(value: dt.date | None) -> str:
    return value.strftime("%d/%m/%Y") if value else ""


def record(values: dict[str, str]) -> str:
    """One line from {field name: value}, every field padded to its width by LAYOUT."""
    line = []
    for field in LAYOUT:
        text = ascii_text(str(values.get(field.name, "")))
        if len(text) > field.width:
            if field.numeric:
                raise TxtError(f"{field.name} {text} does not fit in {field.width} digits")
            text = text[:field.width]
        line.append(text.rjust(field.width) if field.numeric else text.ljust(field.width))
    result = "".join(line)
    assert len(result) == RECORD_LENGTH, len(result)
    return result


def guest_values(guest: Guest, stay: Stay, month: MonthInput, modality: str = NEW) -> dict:
    if modality not in MODALITIES:
        raise TxtError(f"modalità {modality!r} is not one of {', '.join(MODALITIES)}")
    values = {"tipo_alloggiato": guest.guest_type, "data_arrivo": day(stay.arrival),
              "codice_posizione": position_code(guest.idswh), "modalita": modality}
    if modality == DELETE:
        return values
    italian = guest.residence_country == ITALY
    head = guest.guest_type not in HEAD_OF  # 16, 17, 18
    document = guest.document if head else None
    values.update({
        "cognome": guest.surname, "nome": guest.name,
        "sesso": {"M": "1", "F": "2"}[guest.sex], "data_nascita": day(guest.birth_date),
        "comune_nascita": guest.birth_comune,
        "provincia_nascita": guest.birth_province if guest.birth_comune else "",
        "stato_nascita": guest.birth_country, "cittadinanza": guest.citizenship,
        "comune_residenza": guest.residence_place if italian else "",
        "provincia_residenza": guest.residence_province if italian else "",
        "stato_residenza": guest.residence_country,
        "tipo_documento": document.kind if document else "",
        "numero_documento": document.number if document else "",
        "luogo_rilascio": document.issued_at if document else "",
        "data_partenza": day(stay.departure),
        "tipo_turismo": guest.tourism_type or NOT_SPECIFIED,
        "mezzo_trasporto": guest.transport or NOT_SPECIFIED,
    })
    if head:  # fields 21-23: types 16-18 only, blank for members (note §1.4)
        values.update({"camere_occupate": str(stay.rooms),
                       "camere_disponibili": str(month.rooms_available),
                       "letti_disponibili": str(month.beds_available)})
    return values


def lines(month: MonthInput, modality: str = NEW) -> list[str]:
    """A record for each guest arriving in the month, heads before their members."""
    check(month)
    first, last = days_of(month.year, month.month)[0], days_of(month.year, month.month)[-1]
    result = []
    for stay in sorted(month.stays, key=lambda s: s.arrival):
        if stay.cancelled or not first <= stay.arrival <= last:
            continue
        for guest in sorted(stay.guests, key=lambda g: g.guest_type in HEAD_OF):
            result.append(record(guest_values(guest, stay, month, modality)))
    return result


def build(month: MonthInput, modality: str = NEW) -> bytes:
    """The month's TXT file: the records, each ended by CRLF, ASCII."""
    return "".join(line + "\r\n" for line in lines(month, modality)).encode("ascii")
