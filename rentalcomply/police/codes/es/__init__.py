"""The Spanish code lists (SES.Hospedajes catalogues and INE municipalities) as refreshable data.

The package ships `catalogues.json`; a refresh reads a file the authority publishes with
`load_es_catalogue(path)` and keeps the result in `<data dir>/police-codes/es/` with
`save_es_catalogue` (both in one call: `refresh_es_catalogue(path, data_dir)`), where it replaces
the shipped copy from then on.

Sections: `tipo_documento`, `sexo`, `parentesco`, `tipo_pago` (code -> description, as the
service's `catalogo` operation answers them), `municipios` (5-digit INE code -> name), and
`from_checkin`, how the check-in form's values map onto the codes.

`load_es_catalogue(path)` reads:
- a JSON file in the shipped shape (whole, or only some sections: they replace those sections of
  the catalogue in use);
- the XML answer of the `catalogo` operation (`<tupla><codigo/><descripcion/></tupla>`), for the
  section its name says: `tipo_documento.xml`, `sexo.xml`, `parentesco.xml`, `tipo_pago.xml`, or
  `section=` given;
- INE's municipality list as CSV (columns CPRO, CMUN, NOMBRE; `;` or `,`), for `municipios`.
"""
from __future__ import annotations

import copy
import csv
import io
import json
import os
import re
import tempfile
from functools import lru_cache
from importlib import resources
from pathlib import Path

FILENAME = "catalogues.json"
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

_directory: Path | None = None
_cached: tuple[object, dict] | None = None


class CatalogueError(ValueError):
    """A catalogue file that cannot be used (the message says which section and code)."""


def use_directory(directory: str | os.PathLike | None) -> None:
    """Read the catalogue from `directory` (where `save_es_catalogue` wrote it) when one is there.
    Left unset, it is `<data dir>/police-codes/es/`, the data directory being the one given to
    `rentalcomply.police.codes.configure`."""
    global _directory, _cached
    _directory = Path(directory) if directory else None
    _cached = None


def refreshed_directory() -> Path | None:
    if _directory is not None:
        return _directory
    from rentalcomply.police import codes
    data_dir = getattr(codes, "_data_dir", None)
    return Path(data_dir) / "police-codes" / "es" if data_dir else None


def catalogue() -> dict:
    """The catalogue in use: the refreshed copy if there is one, else the shipped one (read again
    when the refreshed file changes)."""
    global _cached
    directory = refreshed_directory()
    path = directory / FILENAME if directory is not None else None
    try:
        key = (str(path), path.stat().st_mtime_ns) if path is not None else None
    except OSError:
        key = None
    if _cached is None or _cached[0] != key:
        data = _checked(json.loads(path.read_text("utf-8"))) if key else shipped()
        _cached = (key, data)
    return _cached[1]


@lru_cache(maxsize=1)
def _shipped_text() -> str:
    return resources.files(__name__).joinpath(FILENAME).read_text("utf-8")


def shipped() -> dict:
    return _checked(json.loads(_shipped_text()))


def refresh_es_catalogue(path: str | os.PathLike, data_dir: str | os.PathLike,
                         section: str | None = None) -> Path:
    """What the refresh command does for Spain: read the authority's file and keep the result
    in `<data_dir>/police-codes/es/`, where it replaces the shipped catalogue."""
    return save_es_catalogue(load_es_catalogue(path, section), Path(data_dir) / "police-codes" / "es")


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
    elif name.endswith(".csv"):
        base["municipios"] = _from_ine_csv(raw, path.name)
        base["source"] = f"INE municipalities ({path.name})"
    else:
        raise CatalogueError(f"{path.name}: a .json, .xml (catalogo answer) or .csv (INE) file is expected")
    return _checked(base)


def with_section(section: str, table: dict, base: dict | None = None) -> dict:
    """The catalogue in use (or `base`) with one section replaced, checked; for a list fetched
    from the service (`ses.CONNECTOR.fetch_catalogue`)."""
    if section not in SECTIONS:
        raise CatalogueError(f"{section}: unknown catalogue ({', '.join(SECTIONS)})")
    data = copy.deepcopy(base if base is not None else catalogue())
    data[section] = dict(table)
    return _checked(data)


def save_es_catalogue(data: dict, directory: str | os.PathLike) -> Path:
    """Write a checked catalogue into `directory` atomically; return the file's path."""
    data = _checked(data)
    directory = Path(directory)
    directory.mkdir(parents=True, exist_ok=True)
    fd, tmp = tempfile.mkstemp(dir=directory, prefix=".catalogues-", suffix=".json")
    with os.fdopen(fd, "w", encoding="utf-8") as out:
        json.dump(data, out, ensure_ascii=False, indent=1, sort_keys=True)
    os.replace(tmp, directory / FILENAME)
    global _cached
    _cached = None
    return directory / FILENAME


def choices(section: str, lang: str = "es") -> list[tuple[str, str]]:
    """(code, description) pairs for a pick list, in the catalogue's order."""
    return list(catalogue()[section].items())


def municipality_code(value: str | None) -> str | None:
    """The INE code of a Spanish municipality given by code or by name (accents and case ignored)."""
    if not value:
        return None
    value = value.strip()
    table = catalogue()["municipios"]
    if re.fullmatch(r"[0-9]{5}", value):
        return value if value in table else None
    wanted = _fold(value)
    for code, name in table.items():
        names = {_fold(name)} | {_fold(part) for part in name.split("/")}
        if "," in name:  # INE writes "Palmas de Gran Canaria, Las": accept "Las Palmas de Gran Canaria"
            head, _, article = name.partition(",")
            names.add(_fold(f"{article.strip()} {head.strip()}"))
        if wanted in names:
            return code
    return None


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
