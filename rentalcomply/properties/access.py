"""A property's access instructions (door code, Wi-Fi, how to get in): one text per guest
language, sealed together for this property alone (core/sealing.py).

- A guest reads the text of their own language, else the property's (its country's language),
  else any there is (English first): `text_for`. One text in one language is therefore enough for
  every guest, as before there were languages.
- The languages set (not their texts) are kept in clear beside the seal
  (`Property.access_instructions_languages`), so that a property's view and a list of properties
  say which are set without opening anything; the texts are opened only for a guest in the
  window (checkin/access.py) and for an owner on the property page.
- Sealed before languages existed, a property's one text opens as the language the upgrade
  recorded for it (migration 0040: its country's), or the property's language.
"""

from __future__ import annotations

import json
import logging
from typing import Any

from rentalcomply.core import sealing
from rentalcomply.core.checks import control_character_problem
from rentalcomply.core.models import Property

log = logging.getLogger(__name__)

# The guest page's languages (checkin/i18n.LANGUAGES, which sits above this layer; a test keeps
# the two equal).
LANGUAGES = ("en", "el", "it", "es", "de", "fr", "pt")
# The language a property's guests are most likely to read when theirs has no text: its
# country's, where the guest page speaks it.
COUNTRY_LANGUAGES = {"GR": "el", "CY": "el", "IT": "it", "SM": "it", "VA": "it", "ES": "es",
                     "AD": "es", "PT": "pt", "DE": "de", "AT": "de", "LI": "de", "FR": "fr",
                     "MC": "fr"}
ACCESS_MAX = 2000
SEAL_PURPOSE = "property-access:"
FIELD = "access_instructions"
BY_LANGUAGE = "access_instructions_by_language"
_FORMAT = 2  # the sealed JSON's; a text sealed before it is a plain string


def property_language(prop: Property) -> str:
    return COUNTRY_LANGUAGES.get(prop.country, "en")


def languages_of(prop: Property) -> list[str]:
    """The languages that have a text, in LANGUAGES' order; never opens the seal."""
    if not prop.access_instructions_sealed:
        return []
    recorded = [code for code in (prop.access_instructions_languages or "").split(",") if code]
    return [code for code in LANGUAGES if code in recorded] or [property_language(prop)]


def texts_of(prop: Property) -> dict[str, str]:
    """Every language's text in clear ({} when none is set, or the seal cannot be opened)."""
    if not prop.access_instructions_sealed:
        return {}
    try:
        opened = sealing.unseal(SEAL_PURPOSE + prop.id,
                                prop.access_instructions_sealed).decode("utf-8")
    except sealing.Unsealable:
        # The server secret changed since they were set: as if unset, until the host sets them.
        log.warning("property %s: its access instructions cannot be opened with this server "
                    "secret; set them again", prop.id)
        return {}
    try:
        stored = json.loads(opened)
    except ValueError:
        stored = None
    if isinstance(stored, dict) and stored.get("format") == _FORMAT:
        return {code: text for code, text in stored["texts"].items() if text}
    return {languages_of(prop)[0]: opened} if opened else {}  # sealed before languages


def text_for(prop: Property, lang: str | None = None) -> str | None:
    """The text a guest reading `lang` gets: theirs, else the property's language's, else English,
    else any; None when none is set."""
    texts = texts_of(prop)
    for code in (lang, property_language(prop), "en", *LANGUAGES):
        if code and texts.get(code):
            return texts[code]
    return None


def check(values: dict[str, Any], details: list[dict]) -> dict[str, Any]:
    """`access_instructions` (one text for every guest; null or "" removes them all) and
    `access_instructions_by_language` (merged: a language's text, null or "" removes it) cleaned;
    problems appended to `details`, never quoting a text."""
    cleaned: dict[str, Any] = {}
    if FIELD in values and BY_LANGUAGE in values:
        details.append({"field": BY_LANGUAGE, "message": f"give either {FIELD} (one text for "
                        f"every guest) or {BY_LANGUAGE}, not both"})
        return cleaned
    if FIELD in values:
        text = _checked_text(FIELD, values[FIELD], details)
        if text is not False:
            cleaned[FIELD] = text
    if BY_LANGUAGE in values:
        given = values[BY_LANGUAGE]
        if not isinstance(given, dict):
            details.append({"field": BY_LANGUAGE,
                            "message": "must be an object of language codes and texts"})
            return cleaned
        texts = {}
        for code, text in given.items():
            if code not in LANGUAGES:
                details.append({"field": f"{BY_LANGUAGE}.{str(code)[:16]}",
                                "message": "must be a language of the guest page: "
                                           + ", ".join(LANGUAGES)})
                continue
            text = _checked_text(f"{BY_LANGUAGE}.{code}", text, details)
            if text is not False:
                texts[code] = text
        cleaned[BY_LANGUAGE] = texts
    return cleaned


def _checked_text(field: str, text: Any, details: list[dict]) -> str | None | bool:
    """The text stripped, None for null or "", or False when refused (said in `details`)."""
    if text is not None and not isinstance(text, str):
        details.append({"field": field, "message": "must be a string or null"})
        return False
    text = (text or "").strip()
    problem = control_character_problem(text, multiline=True)
    if len(text) > ACCESS_MAX:
        details.append({"field": field, "message": f"must be at most {ACCESS_MAX} characters"})
    elif problem:
        details.append({"field": field, "message": problem})
    else:
        return text or None
    return False


def changes(prop: Property, cleaned: dict[str, Any]) -> dict[str, Any]:
    """The property's columns to change for the cleaned access texts ({} when they say what is
    set already: a new seal would differ every time)."""
    if FIELD not in cleaned and BY_LANGUAGE not in cleaned:
        return {}
    current = texts_of(prop)
    if FIELD in cleaned:  # one text for every guest: the property's language, the fallback
        texts = {property_language(prop): cleaned[FIELD]} if cleaned[FIELD] else {}
    else:
        texts = dict(current)
        for code, text in cleaned[BY_LANGUAGE].items():
            if text:
                texts[code] = text
            else:
                texts.pop(code, None)
    if texts == current and bool(prop.access_instructions_sealed) == bool(texts):
        return {}
    if not texts:
        return {"access_instructions_sealed": None, "access_instructions_languages": None}
    payload = json.dumps({"format": _FORMAT, "texts": texts}, sort_keys=True, ensure_ascii=False)
    return {"access_instructions_sealed": sealing.seal(SEAL_PURPOSE + prop.id,
                                                       payload.encode("utf-8")),
            "access_instructions_languages": ",".join(c for c in LANGUAGES if c in texts)}
