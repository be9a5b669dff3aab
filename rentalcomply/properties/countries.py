"""The countries and time zones a property may have, named in a page's language from CLDR (through
Babel): no hand-typed list. A country is one the IANA database knows (timezones.py); its zones are
CLDR's (`territory_zones`), the most populous first where zone.tab orders them."""

from __future__ import annotations

import functools
import unicodedata

import babel
import babel.dates
from babel.core import get_global

from rentalcomply.properties.timezones import (
    default_timezone,
    is_known_country,
    zones_of,
)


def _sort_key(name: str) -> str:
    """Accents do not move a name (Ελλάδα beside Εσθονία, Österreich beside Oman)."""
    return "".join(c for c in unicodedata.normalize("NFD", name.casefold())
                   if not unicodedata.combining(c))


@functools.lru_cache(maxsize=16)
def country_choices(lang: str) -> tuple[tuple[str, str], ...]:
    """(ISO code, name in `lang`) of every known country, in the language's order of names."""
    names = babel.Locale.parse(lang).territories
    found = [(code, name) for code, name in names.items()
             if len(code) == 2 and code.isalpha() and code.isupper() and is_known_country(code)]
    return tuple(sorted(found, key=lambda item: _sort_key(item[1])))


def country_name(code: str, lang: str) -> str:
    return babel.Locale.parse(lang).territories.get(code, code)


def zones_for(country: str) -> list[str]:
    """The country's time zones, its main one first (the default a form offers)."""
    ordered = list(zones_of(country)) or ([default_timezone(country)]
                                          if default_timezone(country) else [])
    extra = sorted(z for z in get_global("territory_zones").get(country, []) if z not in ordered)
    return ordered + extra


def main_zone(country: str) -> str | None:
    zones = zones_for(country)
    return zones[0] if zones else None


@functools.lru_cache(maxsize=1024)
def zone_label(zone: str, lang: str) -> str:
    """The zone's city in `lang`, then its IANA name: "Κανάρια (Atlantic/Canary)"."""
    try:
        city = babel.dates.get_timezone_location(zone, locale=lang, return_city=True)
    except Exception:  # a zone CLDR does not name
        return zone
    return f"{city} ({zone})" if city and city not in zone else zone
