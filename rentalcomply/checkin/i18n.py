"""What the guest reads, in the seven languages of the check-in: page labels, messages, e-mail.

The words are the gettext catalogue `guest` (rentalcomply/locale/<lang>/LC_MESSAGES/guest.po):
each text's key (`label.first_name`) is its msgctxt and its English the msgid.
`text(lang, key, **values)` falls back to English for a key a language lacks, so a new label never
breaks a page. Keys are grouped: `label.*` field labels, `choice.*` options, `msg.*` validation
messages, `page.*` the page's own words, `mail.*` the invitation e-mail. The words for scanning a
document stay in scan/words.py.

`count(lang, word, n)` writes a number with its noun ("1 night", "21 νύχτες") by the catalogue's
plural forms (the msgctxt names the word: `night`, `guest`, `day`, `year`).
`territory_names(lang)` names the countries from CLDR.

Every language addresses the guest formally (σας, usted, Sie, vous, and European Portuguese's
third person of courtesy, "Indique", "o seu"): Italian with "Lei" throughout ("Compili", "Suo"),
as Italian hosts write to guests they have not met and as the other languages do, never "tu"
beside "voi".
"""

from __future__ import annotations

import datetime as dt
import functools

import babel
import babel.numbers

from rentalcomply import locale as catalogues
from rentalcomply.scan import words as scan_words

DOMAIN = "guest"
LANGUAGES = ("en", "el", "it", "es", "de", "fr", "pt")
LANGUAGE_NAMES = {"en": "English", "el": "Ελληνικά", "it": "Italiano", "es": "Español",
                  "de": "Deutsch", "fr": "Français", "pt": "Português"}

# Scanning the document's words (scan/words.py), a row of the seven languages per key.
_SCAN_ROWS: dict[str, tuple[str, ...]] = scan_words.rows(LANGUAGES)


# Babel's locale for each language: how a number is written.
LOCALES = {"en": "en_GB", "el": "el_GR", "it": "it_IT", "es": "es_ES", "de": "de_DE", "fr": "fr_FR",
           "pt": "pt_PT"}


def catalogue(lang: str) -> catalogues.Catalogue:
    return catalogues.catalogue(DOMAIN, lang if lang in LANGUAGES else "en")


@functools.cache
def _locale(lang: str) -> babel.Locale:
    return babel.Locale.parse(LOCALES.get(lang, "en_GB"))


@functools.cache
def territory_names(lang: str) -> dict[str, str]:
    """Country names in a language, from CLDR (Babel's `Locale.territories`)."""
    return dict(_locale(lang if lang in LANGUAGES else "en").territories)


def count(lang: str, word: str, n: int) -> str:
    """`1 night`, `2 nights`, `21 νύχτες`, `1.000.000 di notti`: the CLDR category of `n` in the
    language picks the form; the number is written the language's way."""
    lang = lang if lang in LANGUAGES else "en"
    form = catalogue(lang).plural(word, n)
    return form.format(n=babel.numbers.format_decimal(n, locale=_locale(lang)))


def stay(lang: str, arrival: dt.date, departure: dt.date, guests: int) -> dict[str, str]:
    """The values of `page.stay`: the dates, and the nights and guests counted in words (held
    together by no-break spaces, so that a narrow screen never leaves a number alone on a line)."""
    return {"arrival": format_date(lang, arrival), "departure": format_date(lang, departure),
            "nights": count(lang, "night", (departure - arrival).days).replace(" ", "\u00a0"),
            "guests": count(lang, "guest", guests).replace(" ", "\u00a0")}


def language(value: str | None) -> str:
    """One of LANGUAGES for a booking's guest_language (`pt-BR`, `EL`, None...)."""
    base = (value or "").split("-")[0].strip().lower()
    return base if base in LANGUAGES else "en"


def text(lang: str, key: str, **values) -> str:
    if catalogue("en").has(key):
        chosen = catalogue(lang).text(key)
    else:
        row = _SCAN_ROWS.get(key)
        if row is None:
            raise KeyError(key)
        chosen = row[LANGUAGES.index(lang)] if lang in LANGUAGES else row[0]
    return chosen.format(**values) if values else chosen


def has(key: str) -> bool:
    return catalogue("en").has(key) or key in _SCAN_ROWS


def keys() -> list[str]:
    """Every key of the guest's texts (the catalogue's contexts and the scan's rows)."""
    return [*catalogue("en").contexts, *_SCAN_ROWS]


def format_date(lang: str, day: dt.date) -> str:
    """Day, month and year as people of that language write them."""
    if lang == "en":
        return day.strftime("%d %b %Y").lstrip("0")  # "10 Jun 2027": unambiguous in English
    if lang == "de":
        return f"{day.day}.{day.month}.{day.year}"
    return f"{day.day}/{day.month}/{day.year}"
