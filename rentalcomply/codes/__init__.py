"""Code tables of the police authorities: shipped with the package, refreshed into the database.

Italy (Alloggiati Web) has four tables: `comuni` (municipalities with their province and the last
day each code is valid), `stati` (states), `documenti` (document types), `tipo_alloggiato`
(guest types). Spain has SES.Hospedajes' catalogues and INE's municipalities (codes/es).

The package ships the authorities' own published tables, whole (`it/*.csv`, `es/*.csv`; the
README beside them gives each file's source, date and checksum): a fresh install codes every
town from its first start, with no table loaded by hand. They are read from the package on first
use (a tenth of a second, once per process), not copied into the database: a newer package
brings newer tables without a migration. A table loaded from the authority (the connector's
`Tabella` operation, weekly, or the portal's files given to `rentalcomply police refresh-codes`)
goes to `police_code_table` (source, load time, a version growing with each load) and
`police_code`, and replaces the shipped one.

A table is `complete` when it is the authority's whole table: a value it cannot code is then
wrong, and the check-in form refuses it. INE's shipped municipality list is not complete (its
source lacks 20 of INE's 2023 municipalities, codes/es/README): a Spanish town it does not find
holds the filing with a reason naming the town, never filed with a guess (filings/engine.py).

Every process keeps the rows it read in memory, keyed on the table's version, which it reads (one
small row) before each use: a load made by any process is used by all from their next lookup.

A code is looked up as valid on the day that matters: a birthplace on the birth date, a place of
issue and a citizenship on the arrival date. The authority gives only the last day of validity;
when a name has several codes valid on a day (Monza: MI to 29/06/2009, MB open), the closed one,
which ended after that day, is the code of that day.

A guest's country (ISO 3166-1 alpha-2) becomes the authority's state code through `it/stati_iso.csv`
(ours: every state of the authority's table, by its code, never by its Italian name).
"""

from __future__ import annotations

import csv
import datetime as dt
import io
import re
import threading
import unicodedata
from dataclasses import dataclass
from functools import lru_cache
from importlib import resources

from rentalcomply.codes.models import PoliceCode, PoliceCodeTable
from rentalcomply.core import clock, signals
from rentalcomply.core.db import atomic, db, insert_rows

IT_TABLES = ("comuni", "stati", "documenti", "tipo_alloggiato")
ES_TABLES = ("tipo_documento", "sexo", "parentesco", "tipo_pago", "municipios", "from_checkin")
TABLES = {"IT": IT_TABLES, "ES": ES_TABLES}
# The check-in document types and their Alloggiati codes. A residence permit has none: the
# authority's document table holds no "permesso di soggiorno", so Italian properties do not take
# one (checkin/guests.py) rather than file a guess.
IT_DOCUMENT_TYPES = {"passport": "PASOR", "id_card": "IDENT", "driving_licence": "PATEN"}
ITALY_STATE = "100000100"
# The shipped tables' source and publication date, per country and table (as codes/README.md
# says, with each file's checksum); `complete`: the authority's whole table.
SHIPPED = {
    "IT": {name: ("Alloggiati Web, the portal's Tabelle page (shipped with rentalcomply)",
                  "2025-04", True) for name in IT_TABLES},
    "ES": {**{name: ("SES.Hospedajes, operation catalogo (shipped with rentalcomply)",
                     "2025-01-08", True) for name in ES_TABLES},
           "municipios": ("INE, Relación de municipios y sus códigos por provincias 2023 "
                          "(diccionario23.xlsx; shipped with rentalcomply, 20 of 8,131 missing)",
                          "2023", False)},
}
LOAD_REASON = ("load the authority's current tables: the dashboard's Refresh code tables (Account "
               "page) or `rentalcomply police refresh-codes`")


def held_reason(uncodable: list[tuple[int, str, str]]) -> str:
    """Why a filing waits for the authority's whole tables: (guest index, field, what of the value
    the shipped table cannot code). The reason names the value: the person who reads it must
    know which town to check."""
    return ("held: " + "; ".join(f"guest {i + 1} {f}: {what}" for i, f, what in uncodable)
            + f"; the table in use is not the authority's whole list: {LOAD_REASON}")
CODE_RE = {"comuni": re.compile(r"^4[0-9]{8}$"), "stati": re.compile(r"^1[0-9]{8}$"),
           "documenti": re.compile(r"^[A-Z0-9]{5}$"), "tipo_alloggiato": re.compile(r"^[0-9]{2}$")}
PROVINCE_IN_NAME = re.compile(r"^(.*\S)\s*\(([A-Za-z]{2})\)\s*$")
REQUIRED_CODES = {"stati": (ITALY_STATE,), "tipo_alloggiato": ("16", "17", "18", "19", "20")}

_lock = threading.Lock()
_cache: dict[tuple[str, str], tuple[tuple, "Table"]] = {}


class CodeFileError(ValueError):
    """A code table file the refresh cannot read; the message names the file and the line."""


@dataclass(frozen=True)
class Place:
    code: str
    name: str
    province: str = ""
    valid_to: dt.date | None = None

    def valid_on(self, day: dt.date | None) -> bool:
        if day is None:
            return self.valid_to is None
        return self.valid_to is None or day <= self.valid_to


@dataclass(frozen=True)
class TableInfo:
    country: str
    name: str
    version: int
    source: str
    loaded_at: dt.datetime | None
    rows: int
    published: str = ""     # the shipped table's publication date (YYYY-MM or YYYY-MM-DD)
    complete: bool = True   # the authority's whole table: what it cannot code is wrong

    @property
    def shipped(self) -> bool:
        """The copy shipped with the package, not (yet) loaded from the authority."""
        return self.loaded_at is None


class Table:
    """One table as used: its rows, by code and by folded name."""

    def __init__(self, info: TableInfo, places: list[Place]):
        self.info = info
        self.places = places
        self.by_code: dict[str, list[Place]] = {}
        self.by_name: dict[str, list[Place]] = {}
        self.today: dict[dt.date, tuple[list[str], list[str]]] = {}  # pick lists, once a day
        for place in places:
            self.by_code.setdefault(place.code, []).append(place)
            self.by_name.setdefault(fold(place.name), []).append(place)


def configure(data_dir=None) -> None:
    """Kept for callers of the former file-based tables: the tables live in the database now."""
    _cache.clear()


def fold(name: str) -> str:
    """A name as compared: capitals, no accents, apostrophes and runs of spaces folded."""
    text = unicodedata.normalize("NFD", name or "")
    text = "".join(c for c in text if not unicodedata.combining(c)).upper()
    text = text.replace("’", "'").replace("`", "'")
    return " ".join(text.replace("-", " ").split())


# --- reading the authority's files -----------------------------------------------------------------

_DAY_FIRST = re.compile(r"^([0-9]{2})/([0-9]{2})/([0-9]{4})")


def _date(value: str, where: str) -> dt.date | None:
    value = (value or "").strip()
    if not value:
        return None
    day_first = _DAY_FIRST.match(value)  # the authority's dd/mm/yyyy, without strptime's cost
    if day_first:
        try:
            return dt.date(int(day_first[3]), int(day_first[2]), int(day_first[1]))
        except ValueError:
            raise CodeFileError(f"{where}: {value!r} is not a date (dd/mm/yyyy)") from None
    for fmt in ("%d/%m/%Y", "%Y-%m-%d"):
        try:
            return dt.datetime.strptime(value[:10], fmt).date()
        except ValueError:
            continue
    raise CodeFileError(f"{where}: {value!r} is not a date (dd/mm/yyyy)")


def decode(raw: bytes) -> str:
    try:
        return raw.decode("utf-8-sig")
    except UnicodeDecodeError:
        return raw.decode("cp1252", errors="replace")  # the authority's older files


def _rows(text: str, source: str) -> tuple[list[str], list[tuple[int, list[str]]]]:
    if text.startswith("\ufeff"):
        text = text[1:]
    lines = text.splitlines()
    first = lines[0] if lines else ""
    delimiter = ";" if first.count(";") > first.count(",") else ","
    reader = csv.reader(io.StringIO(text), delimiter=delimiter)
    header = [h.strip().lower() for h in next(reader, [])]
    if "codice" not in header or "descrizione" not in header:
        raise CodeFileError(f"{source}: the first line must name the columns Codice and "
                            "Descrizione (the authority's table)")
    rows = [(number, row) for number, row in enumerate(reader, start=2)
            if any(cell.strip() for cell in row)]
    return header, rows


def read_it_file(text: str, source: str = "file") -> dict[str, list[Place]]:
    """The Italian tables in one of the authority's CSV files, recognised by their columns and
    codes: {table: places}. `Codice,Descrizione,Provincia,DataFineVal` rows are municipalities,
    or states (province `ES`, codes 1xxxxxxxx); both may come in one file (`Tabella` Luoghi).
    `Codice,Descrizione` rows are guest types (two digits) or document types (five characters).
    Comma or semicolon separated."""
    header, rows = _rows(text, source)
    col = {name: header.index(name) for name in header}
    places_table = "provincia" in col or "datafineval" in col
    found: dict[str, list[Place]] = {}
    for number, row in rows:
        where = f"{source} line {number}"

        def get(name: str) -> str:
            index = col.get(name)
            return row[index].strip() if index is not None and index < len(row) else ""
        code, name = get("codice").upper(), " ".join(get("descrizione").split())
        if not name:
            raise CodeFileError(f"{where}: no Descrizione")
        province = get("provincia").upper()
        if places_table:
            table = "stati" if province == "ES" or CODE_RE["stati"].match(code) else "comuni"
        else:
            table = "tipo_alloggiato" if CODE_RE["tipo_alloggiato"].match(code) else "documenti"
        if not CODE_RE[table].match(code):
            raise CodeFileError(f"{where}: {code!r} is not a code of the {table} table")
        found.setdefault(table, []).append(
            Place(code=code, name=name, province="" if table == "stati" else province,
                  valid_to=_date(get("datafineval"), where)))
    if not found:
        raise CodeFileError(f"{source}: no rows")
    if "tipo_alloggiato" in found and "documenti" in found:
        raise CodeFileError(f"{source}: mixes guest types and document types; give the "
                            "authority's files as they are")
    for table, places in found.items():
        missing = [code for code in REQUIRED_CODES.get(table, ())
                   if code not in {p.code for p in places}]
        if missing:
            raise CodeFileError(f"{source}: the {table} table lacks {', '.join(missing)}: not "
                                "the authority's whole table")
    return found


# --- the shipped tables and the ISO mapping ---------------------------------------------------------

def _package_text(name: str) -> str:
    return resources.files("rentalcomply.codes").joinpath(name).read_text("utf-8")


@lru_cache(maxsize=None)
def shipped(country: str, table: str) -> tuple[Place, ...]:
    """The Italian table shipped with the package (Spain's are read by codes/es)."""
    return tuple(read_it_file(_package_text(f"{country.lower()}/{table}.csv"),
                              f"{country.lower()}/{table}.csv").get(table, []))


def shipped_rows(country: str, table: str) -> int:
    if country == "IT":
        return len(shipped(country, table))
    from rentalcomply.codes import es  # the Spanish catalogue's own reader
    return len(es.shipped_section(table))


@lru_cache(maxsize=1)
def iso_to_states() -> dict[str, tuple[str, ...]]:
    """ISO 3166-1 alpha-2 -> the authority's state codes (two where a state's code changed:
    North Macedonia, Saint Vincent). States without an ISO code have a user-assigned one (XX
    stateless, XK Kosovo, XB Bophuthatswana) and CS is Czechoslovakia (ISO 3166-3)."""
    mapping: dict[str, list[str]] = {}
    for row in csv.DictReader(io.StringIO(_package_text("it/stati_iso.csv"))):
        mapping.setdefault(row["ISO"], []).append(row["Codice"])
    return {iso: tuple(codes) for iso, codes in mapping.items()}


# --- the tables in use ----------------------------------------------------------------------------------

def _stored_info(country: str, table: str) -> TableInfo | None:
    if db.obj is None:
        return None
    try:
        row = PoliceCodeTable.get_or_none(PoliceCodeTable.id == f"{country}/{table}")
    except Exception:  # the table does not exist yet (a database before migration 0010)
        return None
    if row is None:
        return None
    return TableInfo(country, table, row.version, row.source, row.loaded_at, row.row_count)


def table_info(country: str, table: str) -> TableInfo:
    stored = _stored_info(country, table)
    if stored is not None:
        return stored
    source, published, complete = SHIPPED[country][table]
    return TableInfo(country, table, 0, source, None, shipped_rows(country, table), published,
                     complete)


def table(country: str, name: str) -> Table:
    """The table in use, read again when its version changed."""
    info = table_info(country, name)
    key = (info.version, info.loaded_at, info.source)
    with _lock:
        cached = _cache.get((country, name))
        if cached is not None and cached[0] == key:
            return cached[1]
    if info.shipped:
        places = list(shipped(country, name)) if country == "IT" else []
    else:
        places = [Place(code, row_name, province or "", _as_date(valid_to))
                  for code, row_name, province, valid_to in
                  PoliceCode.select(PoliceCode.code, PoliceCode.name, PoliceCode.province,
                                    PoliceCode.valid_to)
                  .where(PoliceCode.table == f"{country}/{name}").order_by(PoliceCode.id).tuples()]
    loaded = Table(info, places)
    with _lock:
        _cache[(country, name)] = (key, loaded)
    return loaded


def _as_date(value) -> dt.date | None:
    if value is None or isinstance(value, dt.date) and not isinstance(value, dt.datetime):
        return value
    if isinstance(value, dt.datetime):
        return value.date()
    return dt.date.fromisoformat(str(value)[:10])


def status(country: str = "IT") -> list[TableInfo]:
    return [table_info(country, name) for name in TABLES[country]]


def it_full() -> bool:
    """The tables of places and documents in use are the authority's whole tables (shipped or
    loaded): a value they cannot code is wrong, not merely unknown to us."""
    return all(table_info("IT", name).complete for name in ("comuni", "stati", "documenti"))


def load(country: str, tables: dict[str, list[Place]], source: str) -> dict[str, int]:
    """Replace the stored tables with these rows, in one transaction; return the row counts.
    Held filings are queued again in the same transaction (core/signals.py)."""
    country = country.upper()
    unknown = [name for name in tables if name not in TABLES.get(country, ())]
    if unknown:
        raise CodeFileError(f"unknown {country} table {', '.join(unknown)}")
    source = source[:300]
    with atomic():
        now = clock.utcnow()
        for name, places in tables.items():
            table_id = f"{country}/{name}"
            updated = (PoliceCodeTable.update(version=PoliceCodeTable.version + 1, source=source,
                                              loaded_at=now, row_count=len(places))
                       .where(PoliceCodeTable.id == table_id).execute())
            if not updated:
                PoliceCodeTable.create(id=table_id, country=country, name=name, version=1,
                                       source=source, loaded_at=now, row_count=len(places))
            PoliceCode.delete().where(PoliceCode.table == table_id).execute()
            for start in range(0, len(places), 2000):
                insert_rows(PoliceCode, [{"table": table_id, "code": p.code, "name": p.name[:300],
                                          "province": p.province, "valid_to": p.valid_to}
                                         for p in places[start:start + 2000]])
        signals.send(signals.CODE_TABLES_LOADED)  # held filings are queued again (filings/)
    return {name: len(places) for name, places in tables.items()}


# --- Italy ----------------------------------------------------------------------------------------

def it_municipalities() -> list[Place]:
    return table("IT", "comuni").places


def it_states() -> list[Place]:
    return table("IT", "stati").places


def it_document_types() -> list[Place]:
    return table("IT", "documenti").places


def it_municipality(name: str, province: str | None = None,
                    on: dt.date | None = None) -> Place | None:
    """The municipality called `name` whose code is valid on `on` (today's code when None).

    A province that does not match is ignored when the name alone is unambiguous on that day (a
    guest born in Monza in 1980 may write MB, the province of today, for a town then in MI). A
    name shared by towns of two provinces needs the province, given apart or as `Castro (LE)`
    (how the pick lists offer them)."""
    given = PROVINCE_IN_NAME.match(name or "")
    if given and not province:
        name, province = given.group(1), given.group(2)
    candidates = [p for p in table("IT", "comuni").by_name.get(fold(name), []) if p.valid_on(on)]
    # Only the end of validity is known: a code that ended after the day covered it, and the
    # open code (today's) came after it.
    closed = [p for p in candidates if p.valid_to is not None]
    if closed and on is not None:
        candidates = sorted(closed, key=lambda p: p.valid_to)
    if province:
        matching = [p for p in candidates if p.province == province.upper()]
        if matching:
            return matching[0]
    if len({p.code for p in candidates}) > 1:  # two places of that name: never pick one
        return None
    return candidates[0] if candidates else None


def it_state(iso: str, on: dt.date | None = None) -> Place | None:
    """The authority's state of an ISO 3166-1 alpha-2 country, valid on `on` (today when None)."""
    states = table("IT", "stati").by_code
    for code in iso_to_states().get((iso or "").upper(), ()):
        for place in states.get(code, []):
            if place.valid_on(on or dt.date.today()):
                return place
    return None


def it_document_type(checkin_type: str | None) -> str | None:
    code = IT_DOCUMENT_TYPES.get(checkin_type or "")
    if code and code in table("IT", "documenti").by_code:
        return code
    return None


def _pick_lists() -> tuple[list[str], list[str]]:
    comuni, today = table("IT", "comuni"), dt.date.today()
    if today not in comuni.today:
        valid = [p for p in comuni.places if p.valid_on(today)]
        provinces: dict[str, set[str]] = {}
        for place in valid:
            provinces.setdefault(place.name.title(), set()).add(place.province)
        names = sorted(name if len(found) == 1 else f"{name} ({province})"
                       for name, found in provinces.items() for province in sorted(found)
                       if len(found) > 1 or province == next(iter(found)))
        comuni.today = {today: (names, sorted({p.province for p in valid if p.province}))}
    return comuni.today[today]


def it_municipality_names() -> list[str]:
    """Names of the municipalities valid today, for the guest page's pick list."""
    return _pick_lists()[0]


def it_province_codes() -> list[str]:
    """Province codes of the municipalities valid today."""
    return _pick_lists()[1]
