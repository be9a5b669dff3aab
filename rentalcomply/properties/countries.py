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


# The countries the product files or reports for: the property form lists them first.
SERVED = ("GR", "IT", "ES", "PT")

# Regions whose clock is not their country's main one: the Canary Islands keep Atlantic/Canary,
# Ceuta and Melilla Africa/Ceuta (an hour apart from Madrid in no season, but their own zone).
REGION_ZONES = {"ES-CN": "Atlantic/Canary", "ES-CE": "Africa/Ceuta", "ES-ML": "Africa/Ceuta"}


def served_choices(lang: str) -> tuple[tuple[str, str], ...]:
    """The served countries, named in `lang`, in the language's order of names."""
    return tuple(item for item in country_choices(lang) if item[0] in SERVED)


def zone_of_region(region: str | None) -> str | None:
    """The time zone a region (ISO 3166-2) keeps: its own where it has one, else its country's
    main one; None for no region."""
    if not region:
        return None
    return REGION_ZONES.get(region) or main_zone(region[:2])
