"""What the authorities' XML formats share: a problem found in a guest's data, the schema error
(a bug here, never sent), ISO alpha-3 country codes, and the reading of check-in values."""
from __future__ import annotations

import datetime as dt
import json
from dataclasses import dataclass
from functools import lru_cache
from importlib import resources


@dataclass(frozen=True)
class Problem:
    index: int | None     # the guest (party order), None for the stay or the property settings
    field: str            # the check-in field (or setting) to fix
    message: str



class SchemaError(ValueError):
    """The XML does not validate against the shipped XSD (a bug here, never sent)."""



@lru_cache(maxsize=1)
def _alpha3() -> dict[str, str]:
    raw = resources.files("rentalcomply.filings").joinpath("iso3166_alpha3.json").read_text("utf-8")
    return json.loads(raw)


def alpha3(code: str | None) -> str | None:
    """ISO 3166-1 alpha-3 of an alpha-2 code (an alpha-3 code is returned as it is)."""
    if not code:
        return None
    code = code.strip().upper()
    if len(code) == 3 and code in _alpha3().values():
        return code
    return _alpha3().get(code)


def _value(data: dict, *names: str) -> str | None:
    for name in names:
        value = data.get(name)
        if isinstance(value, (dt.date, dt.datetime)):
            return value.isoformat()[:10]
        if value is not None and str(value).strip():
            return " ".join(str(value).split())
    return None


def _date(value) -> dt.date | None:
    if isinstance(value, dt.datetime):
        return value.date()
    if isinstance(value, dt.date):
        return value
    try:
        return dt.date.fromisoformat(str(value)[:10]) if value else None
    except ValueError:
        return None
