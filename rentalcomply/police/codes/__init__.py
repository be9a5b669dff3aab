"""Code tables of the police authorities, shipped as package data and refreshable from the files
the authorities publish (`rentalcomply police refresh-codes`).

Italy (Alloggiati Web): municipalities with their province and validity dates, states, document
types. A refreshed table is written to `<data dir>/police-codes/<country>/` and takes precedence
over the shipped one. A birthplace takes the code valid on the birth date.
"""

from __future__ import annotations

import csv
import datetime as dt
import io
import os
import tempfile
import threading
import unicodedata
from dataclasses import dataclass
from importlib import resources
from pathlib import Path

TABLES = {"IT": ("luoghi", "stati", "documenti")}
# The check-in document types and their Alloggiati codes.
IT_DOCUMENT_TYPES = {"passport": "PASOR", "id_card": "IDENT", "driving_licence": "PATEN",
                     "residence_permit": "PERSO"}
ITALY_STATE = "100000100"

_data_dir: Path | None = None
_cache: dict[str, object] = {}
_lock = threading.Lock()


class CodeFileError(ValueError):
    """A code table file the refresh cannot read; the message names the line."""


@dataclass(frozen=True)
class Place:
    code: str
    name: str
    province: str
    valid_from: dt.date | None
    valid_to: dt.date | None
    iso: str = ""

    def valid_on(self, day: dt.date | None) -> bool:
        if day is None:
            return self.valid_to is None
        return ((self.valid_from is None or self.valid_from <= day)
                and (self.valid_to is None or day <= self.valid_to))


def configure(data_dir) -> None:
    global _data_dir
    _data_dir = Path(data_dir) if data_dir else None
    _cache.clear()


def _refreshed_path(country: str, table: str) -> Path | None:
    if _data_dir is None:
        return None
    path = _data_dir / "police-codes" / country.lower() / f"{table}.csv"
    return path if path.is_file() else None


def _text(country: str, table: str) -> str:
    path = _refreshed_path(country, table)
    if path is not None:
        return path.read_text("utf-8")
    return resources.files("rentalcomply.police.codes").joinpath(
        f"{country.lower()}/{table}.csv").read_text("utf-8")


def _date(value: str, where: str) -> dt.date | None:
    value = (value or "").strip()
    if not value:
        return None
    for fmt in ("%d/%m/%Y", "%Y-%m-%d"):
        try:
            return dt.datetime.strptime(value[:10], fmt).date()
        except ValueError:
            continue
    raise CodeFileError(f"{where}: {value!r} is not a date (dd/mm/yyyy)")


def fold(name: str) -> str:
    """A name as compared: capitals, no accents, apostrophes and runs of spaces folded."""
    text = unicodedata.normalize("NFD", name or "")
    text = "".join(c for c in text if not unicodedata.combining(c)).upper()
    text = text.replace("’", "'").replace("`", "'")
    return " ".join(text.replace("-", " ").split())


def parse_places(text: str, source: str = "file") -> list[Place]:
    """Rows of a places table: `Codice;Descrizione;Provincia;[DataInizioVal;]DataFineVal[;ISO]`,
    a header line first, semicolons (the authority's CSV) or commas."""
    if text.startswith("\ufeff"):
        text = text[1:]
    first = text.splitlines()[0] if text.strip() else ""
    delimiter = ";" if first.count(";") >= first.count(",") else ","
    reader = csv.reader(io.StringIO(text), delimiter=delimiter)
    header = [h.strip().lower() for h in next(reader, [])]
    if "codice" not in header or "descrizione" not in header:
        raise CodeFileError(f"{source}: the first line must name the columns Codice and "
                            "Descrizione")
    col = {name: header.index(name) for name in header}
    places = []
    for number, row in enumerate(reader, start=2):
        if not any(cell.strip() for cell in row):
            continue
        where = f"{source} line {number}"

        def get(name: str) -> str:
            index = col.get(name)
            return row[index].strip() if index is not None and index < len(row) else ""
        code = get("codice")
        if not code or len(code) > 9:
            raise CodeFileError(f"{where}: the code must be 1 to 9 characters")
        places.append(Place(code=code, name=fold(get("descrizione")),
                            province=get("provincia").upper(),
                            valid_from=_date(get("datainizioval"), where),
                            valid_to=_date(get("datafineval"), where), iso=get("iso").upper()))
    if not places:
        raise CodeFileError(f"{source}: no rows")
    return places


def _table(country: str, table: str) -> list[Place]:
    key = f"{country}/{table}"
    with _lock:
        if key not in _cache:
            _cache[key] = parse_places(_text(country, table), f"{key}.csv")
        return _cache[key]  # type: ignore[return-value]


# --- Italy ---------------------------------------------------------------------------------------

def it_municipalities() -> list[Place]:
    return _table("IT", "luoghi")


def it_states() -> list[Place]:
    return _table("IT", "stati")


def it_document_types() -> list[Place]:
    return _table("IT", "documenti")


def it_municipality(name: str, province: str | None = None,
                    on: dt.date | None = None) -> Place | None:
    """The municipality called `name` whose code is valid on `on` (today's code when None).

    A province that does not match is ignored when the name alone is unambiguous on that day (a
    guest born in Monza in 1980 may write MB, the province of today, for a town then in MI)."""
    wanted = fold(name)
    candidates = [p for p in it_municipalities() if p.name == wanted and p.valid_on(on)]
    # The authority's table gives only an end of validity: an open code without a known start
    # is today's code, and yields to a closed one that still covered the day.
    closed = [p for p in candidates if p.valid_to is not None]
    if closed and on is not None:
        candidates = sorted(closed, key=lambda p: p.valid_to) + [
            p for p in candidates if p.valid_to is None and p.valid_from is not None]
    if province:
        matching = [p for p in candidates if p.province == province.upper()]
        if matching:
            return matching[0]
        if len({p.code for p in candidates}) > 1:
            return None
    return candidates[0] if candidates else None


def it_state(iso: str, on: dt.date | None = None) -> Place | None:
    """The Alloggiati state code of an ISO 3166-1 alpha-2 country."""
    iso = (iso or "").upper()
    for place in it_states():
        if place.iso == iso and place.valid_on(on):
            return place
    for place in it_states():  # a state whose code is no longer valid keeps its last code
        if place.iso == iso:
            return place
    return None


def it_document_type(checkin_type: str | None) -> str | None:
    code = IT_DOCUMENT_TYPES.get(checkin_type or "")
    if code and any(p.code == code for p in it_document_types()):
        return code
    return None


def it_municipality_names() -> list[str]:
    """Names of the municipalities valid today, for the guest page's pick list."""
    today = dt.date.today()
    return sorted({p.name.title() for p in it_municipalities() if p.valid_on(today)})


def it_province_codes() -> list[str]:
    """Province codes of the municipalities valid today."""
    today = dt.date.today()
    return sorted({p.province for p in it_municipalities() if p.province and p.valid_on(today)})


# --- refreshing ----------------------------------------------------------------------------------

def refresh(country: str, table: str, text: str) -> int:
    """Check and store a table the authority published; return its row count."""
    country = country.upper()
    if country not in TABLES:
        raise CodeFileError(f"no code tables for country {country}; known: "
                            + ", ".join(TABLES))
    if table not in TABLES[country]:
        raise CodeFileError(f"unknown table {table!r}; one of: " + ", ".join(TABLES[country]))
    if _data_dir is None:
        raise CodeFileError("no data directory configured")
    places = parse_places(text, table)
    if table == "stati":  # keep our ISO column: the authority's file has none
        known = {p.name: p.iso for p in it_states() if p.iso}
        places = [Place(p.code, p.name, p.province, p.valid_from, p.valid_to,
                        p.iso or known.get(p.name, "")) for p in places]
    out = io.StringIO()
    writer = csv.writer(out, delimiter=";", lineterminator="\n")
    writer.writerow(["Codice", "Descrizione", "Provincia", "DataInizioVal", "DataFineVal", "ISO"])
    for p in places:
        writer.writerow([p.code, p.name, p.province,
                         p.valid_from.strftime("%d/%m/%Y") if p.valid_from else "",
                         p.valid_to.strftime("%d/%m/%Y") if p.valid_to else "", p.iso])
    directory = _data_dir / "police-codes" / country.lower()
    directory.mkdir(parents=True, exist_ok=True)
    fd, tmp = tempfile.mkstemp(dir=directory, suffix=".tmp")
    with os.fdopen(fd, "w", encoding="utf-8") as handle:
        handle.write(out.getvalue())
    os.replace(tmp, directory / f"{table}.csv")
    _cache.clear()
    return len(places)


def guess_table(text: str) -> str:
    """Which Italian table a published file is: documents have 5-letter codes, states 1000xxxxx
    codes, municipalities the rest."""
    places = parse_places(text, "file")
    codes = [p.code for p in places]
    if all(len(c) == 5 and c.isalpha() for c in codes):
        return "documenti"
    if all(c.startswith("1000") for c in codes):
        return "stati"
    return "luoghi"
