"""The Spanish code lists (SES.Hospedajes catalogues and INE municipalities), kept in the database
beside the Italian tables (rentalcomply/codes): one table per section, `ES/<section>`.

The package ships `catalogues.json` (SES.Hospedajes' catalogues), `municipios.csv` (INE's
municipalities with their check digits, 2023) and `postcodes.csv` (each postcode's municipalities,
from INE's street register); README.md says where each comes from. A section loaded from the
authority (the service's `catalogo` operation, weekly, or a file given to `rentalcomply police
refresh-codes --country ES`) replaces the shipped one, for every process from its next filing on.
SES.Hospedajes' `catalogo` does not serve municipalities: they come from INE's file.

Sections: `tipo_documento`, `sexo`, `parentesco`, `tipo_pago` (code -> description, as the
service's `catalogo` operation answers them), `municipios` (5-digit INE code -> name), and
`from_checkin`, how the check-in form's values map onto the codes (stored as `section.value`).

`load_es_catalogue(path)` reads:
- a JSON file in the shipped shape (whole, or only some sections: they replace those sections of
  the catalogue in use);
- the XML answer of the `catalogo` operation (`<tupla><codigo/><descripcion/></tupla>`), for the
  section its name says: `tipo_documento.xml`, `sexo.xml`, `parentesco.xml`, `tipo_pago.xml`, or
  `section=` given;
- INE's municipality list as CSV (columns CPRO, CMUN, NOMBRE; `;` or `,`), for `municipios`,
  or INE's own spreadsheet as published (`diccionarioYY.xlsx`: a title line, then those columns).
"""
from __future__ import annotations

import copy
import csv
import io
import json
import os
import re
from functools import lru_cache
from importlib import resources
from pathlib import Path

FILENAME = "catalogues.json"
MUNICIPIOS_FILE = "municipios.csv"
POSTCODES_FILE = "postcodes.csv"
# INE's street register holds a few artefacts (00001...): Spain's postcodes are 01000-52999.
POSTCODE_RE = re.compile(r"^(0[1-9]|[1-4][0-9]|5[0-2])[0-9]{3}$")
SECTIONS = ("tipo_documento", "sexo", "parentesco", "tipo_pago", "municipios")
CODE_RE = {
    "tipo_documento": re.compile(r"^[A-Z]{1,5}$"),
    "sexo": re.compile(r"^[A-Z]$"),
    "parentesco": re.compile(r"^[A-Z]{2}$"),
    "tipo_pago": re.compile(r"^[A-Z]{1,5}$"),
    "municipios": re.compile(r"^[0-9]{5}$"),
}
# What the builders need to find in any catalogue, refreshed or not.
REQUIRED_CODES = {"tipo_documento": ("NIF", "NIE", "PAS", "OTRO"), "tipo_pago": ("OTRO",)}

STORED = SECTIONS + ("from_checkin",)
_cached: tuple[object, dict] | None = None


class CatalogueError(ValueError):
    """A catalogue file that cannot be used (the message says which section and code)."""


def catalogue() -> dict:
    """The catalogue in use: each section as last loaded into the database, else as shipped
    (read again when a section's version changed)."""
    global _cached
    from rentalcomply import codes
    infos = [codes.table_info("ES", name) for name in STORED]
    key = tuple((i.version, i.loaded_at) for i in infos)
    if _cached is None or _cached[0] != key:
        data = shipped()
        for info in infos:
            if info.shipped:
                continue
            rows = codes.table("ES", info.name).places
            if info.name == "from_checkin":
                mapping: dict[str, dict] = {}
                for row in rows:
                    section, _, value = row.code.partition(".")
                    mapping.setdefault(section, {})[value] = row.name
                data["from_checkin"] = mapping
            else:
                data[info.name] = {row.code: row.name for row in rows}
        sources = [i.source for i in infos if not i.shipped]
        if sources:
            data["source"] = "; ".join(dict.fromkeys(sources))
        _cached = (key, _checked(data))
    return _cached[1]


def _package_text(name: str) -> str:
    return resources.files(__name__).joinpath(name).read_text("utf-8")


@lru_cache(maxsize=1)
def _shipped() -> dict:
    data = json.loads(_package_text(FILENAME))
    data["municipios"] = {row["ine_code"]: row["name"] for row in _municipio_rows()}
    return _checked(data)


def shipped() -> dict:
    """The catalogue shipped with the package (a copy: callers may change theirs)."""
    return copy.deepcopy(_shipped())


def shipped_section(section: str) -> dict:
    return _shipped().get(section, {})


@lru_cache(maxsize=1)
def _municipio_rows() -> tuple[dict, ...]:
    return tuple(csv.DictReader(io.StringIO(_package_text(MUNICIPIOS_FILE))))


@lru_cache(maxsize=1)
def check_digits() -> dict[str, str]:
    """INE code -> INE's check digit (DC), as INE's list gives it: some forms write the
    municipality as the six digits PPMMMD."""
    return {row["ine_code"]: row["check_digit"] for row in _municipio_rows()}


@lru_cache(maxsize=1)
def postcode_municipalities() -> dict[str, tuple[str, ...]]:
    """Postcode -> the INE codes of the municipalities it spans (INE's street register, 2023)."""
    found: dict[str, list[str]] = {}
    for row in csv.DictReader(io.StringIO(_package_text(POSTCODES_FILE))):
        if POSTCODE_RE.match(row["postcode"]):
            found.setdefault(row["postcode"], []).append(row["ine_code"])
    return {postcode: tuple(codes) for postcode, codes in found.items()}


def refresh_es_catalogue(path: str | os.PathLike, section: str | None = None) -> dict[str, int]:
    """What the refresh command does for Spain: read the authority's file and load the sections
    it changed into the database."""
    data = load_es_catalogue(path, section)
    return save_es_catalogue(data, data.get("source") or Path(path).name)


def load_es_catalogue(path: str | os.PathLike, section: str | None = None) -> dict:
    """Read a catalogue file the authority publishes; return the whole catalogue with it applied.

    Raises CatalogueError when the file is unreadable or a code is malformed; nothing is changed
    until the caller saves the result."""
    path = Path(path)
    try:
        raw = path.read_bytes()
    except OSError as exc:
        raise CatalogueError(f"{path}: {exc.strerror or exc}") from None
    base = copy.deepcopy(catalogue())
    name = path.name.lower()
    if name.endswith(".json"):
        try:
            data = json.loads(raw.decode("utf-8-sig"))
        except (UnicodeDecodeError, json.JSONDecodeError) as exc:
            raise CatalogueError(f"{path.name}: not JSON ({exc})") from None
        if not isinstance(data, dict):
            raise CatalogueError(f"{path.name}: a JSON object is expected")
        for key, value in data.items():
            if key in SECTIONS or key == "from_checkin":
                base[key] = value
            elif key in ("source", "version"):
                base[key] = value
    elif name.endswith(".xml"):
        target = section or path.stem.lower()
        if target not in SECTIONS:
            raise CatalogueError(f"{path.name}: say which catalogue it is ({', '.join(SECTIONS)})")
        base[target] = _from_catalogo_xml(raw, path.name)
        base["source"] = f"SES.Hospedajes catalogo ({path.name})"
    elif name.endswith((".csv", ".xlsx")):
        base["municipios"] = read_ine_file(raw, path.name)
        base["source"] = f"INE municipalities ({path.name})"
    else:
        raise CatalogueError(f"{path.name}: a .json, .xml (catalogo answer), .csv or .xlsx (INE) "
                             "file is expected")
    return _checked(base)


def with_section(section: str, table: dict, base: dict | None = None) -> dict:
    """The catalogue in use (or `base`) with one section replaced, checked; for a list fetched
    from the service (`ses.CONNECTOR.fetch_catalogue`)."""
    if section not in SECTIONS:
        raise CatalogueError(f"{section}: unknown catalogue ({', '.join(SECTIONS)})")
    data = copy.deepcopy(base if base is not None else catalogue())
    data[section] = dict(table)
    return _checked(data)


def save_es_catalogue(data: dict, source: str, sections: tuple[str, ...] = ()) -> dict[str, int]:
    """Load a checked catalogue's sections that differ from the one in use (and `sections`,
    fetched from the authority, whatever they hold) into the database, in one transaction;
    return their row counts."""
    from rentalcomply import codes
    data = _checked(data)
    current = catalogue()
    tables = {}
    for section in SECTIONS:
        if data[section] != current[section] or section in sections:
            tables[section] = [codes.Place(code, text) for code, text in data[section].items()]
    if data.get("from_checkin", {}) != current.get("from_checkin", {}):
        tables["from_checkin"] = [codes.Place(f"{section}.{value}", code)
                                  for section, mapping in data["from_checkin"].items()
                                  for value, code in mapping.items()]
    counts = codes.load("ES", tables, str(source))
    global _cached
    _cached = None
    return counts


def choices(section: str, lang: str = "es") -> list[tuple[str, str]]:
    """(code, description) pairs for a pick list, in the catalogue's order."""
    return list(catalogue()[section].items())


def municipality_code(value: str | None, postcode: str | None = None) -> str | None:
    """The INE code of a Spanish municipality given by code (5 digits, or 6 with INE's check
    digit) or by name (accents and case ignored). A name several municipalities share takes the
    one the postcode lies in (INE's street register), else the one in the postcode's province (its
    first two digits); when neither decides, it has no code, never a guess."""
    return _municipality(value, postcode)[0]


def municipality_problem(value: str | None, postcode: str | None = None) -> str:
    """Why a town has no code, naming it and what its postcode says: what a held filing and the
    host read."""
    return _municipality(value, postcode)[1]


def _municipality(value: str | None, postcode: str | None) -> tuple[str | None, str]:
    if not value or not value.strip():
        return None, "the municipality is missing"
    value, postcode = value.strip(), (postcode or "").strip()
    table = catalogue()["municipios"]
    if re.fullmatch(r"[0-9]{6}", value) and value[:5] in table \
            and check_digits().get(value[:5]) == value[5]:
        return value[:5], ""
    if re.fullmatch(r"[0-9]{5,6}", value):
        if value in table:
            return value, ""
        return None, f"{value} is not a code of INE's municipality list"
    found = _names(table).get(_fold(value), [])
    if len(found) == 1:  # most towns: the postcode table is read only when a name needs it
        return found[0], ""
    spans = postcode_municipalities().get(postcode, ()) if POSTCODE_RE.match(postcode) else ()
    if len(found) > 1 and postcode:
        found = ([code for code in found if code in spans]
                 or [code for code in found if code[:2] == postcode[:2]] or found)
    if len(found) == 1:
        return found[0], ""
    where = _postcode_words(postcode, spans, table)
    if found:
        towns = ", ".join(f"{table[code]} ({code})" for code in sorted(found))
        return None, (f"\u201c{value}\u201d names several municipalities of INE's list ({towns})"
                      f" and {where}")
    return None, f"\u201c{value}\u201d is not a municipality of INE's list ({where})"


def _postcode_words(postcode: str, spans: tuple[str, ...], table: dict) -> str:
    if not postcode:
        return "no postcode decides"
    if not spans:
        return f"postcode {postcode} is not in INE's street register"
    towns = ", ".join(f"{table[code]} ({code})" if code in table
                      else f"a municipality the list in use lacks ({code})" for code in spans)
    return f"postcode {postcode} is in {towns}"


_names_cache: tuple[dict, dict] | None = None


def _names(table: dict) -> dict[str, list[str]]:
    """Folded names (and their variants) -> INE codes, built once per catalogue."""
    global _names_cache
    if _names_cache is not None and _names_cache[0] is table:
        return _names_cache[1]
    index: dict[str, list[str]] = {}
    for code, name in table.items():
        names = {_fold(name)} | {_fold(part) for part in name.split("/")}
        if "," in name:  # INE writes "Palmas de Gran Canaria, Las": accept "Las Palmas de Gran Canaria"
            head, _, article = name.partition(",")
            names.add(_fold(f"{article.strip()} {head.strip()}"))
        for variant in names:
            index.setdefault(variant, []).append(code)
    _names_cache = (table, index)
    return index


def _fold(text: str) -> str:
    import unicodedata
    return "".join(c for c in unicodedata.normalize("NFD", text.casefold())
                   if not unicodedata.combining(c)).strip()


def _from_catalogo_xml(raw: bytes, name: str) -> dict:
    from lxml import etree
    try:
        root = etree.fromstring(raw, parser=etree.XMLParser(resolve_entities=False, no_network=True))
    except etree.XMLSyntaxError as exc:
        raise CatalogueError(f"{name}: not XML ({exc})") from None
    out = {}
    for tupla in root.iter("{*}tupla", "tupla"):
        code = tupla.findtext("{*}codigo") or tupla.findtext("codigo")
        text = tupla.findtext("{*}descripcion") or tupla.findtext("descripcion")
        if code:
            out[code.strip()] = (text or "").strip()
    if not out:
        raise CatalogueError(f"{name}: no <tupla> with a <codigo>")
    return out


def read_ine_file(raw: bytes, name: str) -> dict:
    """INE's municipality list, as CSV or as INE publishes it (xlsx): {PPMMM: name}."""
    if raw[:2] == b"PK":  # a zip: INE's spreadsheet
        return _from_ine_xlsx(raw, name)
    return _from_ine_csv(raw, name)


def _from_ine_xlsx(raw: bytes, name: str) -> dict:
    import zipfile

    import openpyxl
    try:
        book = openpyxl.load_workbook(io.BytesIO(raw), read_only=True, data_only=True)
    except (zipfile.BadZipFile, KeyError, ValueError, OSError) as exc:
        raise CatalogueError(f"{name}: not a spreadsheet ({exc})") from None
    out, columns = {}, None
    try:
        for cells in book.worksheets[0].iter_rows(values_only=True):
            values = ["" if cell is None else str(cell).strip() for cell in cells]
            if columns is None:  # INE's file opens with a title line above the columns
                upper = [value.upper() for value in values]
                if {"CPRO", "CMUN", "NOMBRE"} <= set(upper):
                    columns = {key: upper.index(key) for key in ("CPRO", "CMUN", "NOMBRE")}
                continue
            cpro, cmun, text = (values[columns[key]] if columns[key] < len(values) else ""
                                for key in ("CPRO", "CMUN", "NOMBRE"))
            if cpro.isdigit() and cmun.isdigit() and text:
                out[cpro.zfill(2) + cmun.zfill(3)] = text
    finally:
        book.close()
    if not out:
        raise CatalogueError(f"{name}: no rows with CPRO, CMUN and NOMBRE")
    return out


def _from_ine_csv(raw: bytes, name: str) -> dict:
    text = raw.decode("utf-8-sig", errors="strict") if _is_utf8(raw) else raw.decode("latin-1")
    dialect = ";" if text.count(";") > text.count(",") else ","
    rows = csv.DictReader(io.StringIO(text), delimiter=dialect)
    out = {}
    for row in rows:
        row = {(k or "").strip().upper(): (v or "").strip() for k, v in row.items()}
        if not row.get("CPRO") or not row.get("CMUN") or not row.get("NOMBRE"):
            continue
        out[row["CPRO"].zfill(2) + row["CMUN"].zfill(3)] = row["NOMBRE"]
    if not out:
        raise CatalogueError(f"{name}: no rows with CPRO, CMUN and NOMBRE")
    return out


def _is_utf8(raw: bytes) -> bool:
    try:
        raw.decode("utf-8")
        return True
    except UnicodeDecodeError:
        return False


def _checked(data: dict) -> dict:
    if not isinstance(data, dict):
        raise CatalogueError("the catalogue is not an object")
    for section in SECTIONS:
        table = data.get(section)
        if not isinstance(table, dict) or not table:
            raise CatalogueError(f"{section}: missing or empty")
        for code, text in table.items():
            if not isinstance(code, str) or not CODE_RE[section].match(code):
                raise CatalogueError(f"{section}: bad code {code!r}")
            if not isinstance(text, str):
                raise CatalogueError(f"{section}: {code} has no description")
    for section, codes in REQUIRED_CODES.items():
        missing = [code for code in codes if code not in data[section]]
        if missing:
            raise CatalogueError(f"{section}: lacks {', '.join(missing)}")
    mapping = data.get("from_checkin", {})
    if not isinstance(mapping, dict):
        raise CatalogueError("from_checkin: an object is expected")
    for section, table in mapping.items():
        if section not in SECTIONS or not isinstance(table, dict):
            raise CatalogueError(f"from_checkin.{section}: unknown catalogue")
        for value, code in table.items():
            if code not in data[section]:
                raise CatalogueError(f"from_checkin.{section}: {value} maps to {code}, "
                                     f"which {section} does not have")
    return data
