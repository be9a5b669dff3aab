"""What an export tells of the guest beyond the name: the language they are written to in, and
when they booked, as a booking takes them."""

from __future__ import annotations

import datetime as dt
import zoneinfo

# The guest page's and e-mails' languages (checkin/i18n.py LANGUAGES) by the countries that speak
# them; a country not here is written to in English.
LANGUAGE_COUNTRIES = {
    "el": ("gr", "cy"),
    "it": ("it", "sm", "va"),
    "es": ("es", "mx", "ar", "co", "cl", "pe", "ve", "ec", "gt", "cu", "bo", "do", "hn", "py",
           "sv", "ni", "cr", "pa", "uy", "ad"),
    "de": ("de", "at", "li"),
    "fr": ("fr", "mc", "lu"),
    "pt": ("pt", "br", "ao", "mz"),
}
COUNTRY_LANGUAGE = {country: language for language, countries in LANGUAGE_COUNTRIES.items()
                    for country in countries}


def guest_language(guest_country: str | None, property_country: str | None) -> str:
    """The guest's country's language where the file gives the country, else the property's
    (a guest booking a Florence flat without a country is likelier Italian than anything else)."""
    if guest_country:
        return COUNTRY_LANGUAGE.get(guest_country.lower(), "en")
    return COUNTRY_LANGUAGE.get((property_country or "").lower(), "en")


def booked_at(local: dt.datetime | None, zone_name: str | None) -> dt.datetime | None:
    """The file's booking time (the property's local time: the extranet shows the property's
    clock) as naive UTC. A day without a time is taken at its start, so that a deadline counted
    from it is never later than the true one."""
    if local is None:
        return None
    zone = zoneinfo.ZoneInfo(zone_name or "UTC")
    return local.replace(tzinfo=zone).astimezone(dt.timezone.utc).replace(tzinfo=None)
