"""What the guest reads, in the seven languages of the check-in: page labels, messages, e-mail.

`text(lang, key, **values)` falls back to English for a key a language lacks, so a new label never
breaks a page. Keys are grouped: `label.*` field labels, `choice.*` options, `msg.*` validation
messages, `page.*` the page's own words, `mail.*` the invitation e-mail.

`count(lang, word, n)` writes a number with its noun ("1 night", "21 νύχτες") by the language's
plural rule from CLDR (Babel's `Locale.plural_form`), never by a rule written here.
`territory_names(lang)` names the countries the same way, from CLDR.

The words themselves are in words/ (form, page, mail, privacy), a row of the seven languages per
key. Every language addresses the guest formally (σας, usted, Sie, vous, and European Portuguese's
third person of courtesy, "Indique", "o seu"): Italian with "Lei" throughout ("Compili", "Suo"),
as Italian hosts write to guests they have not met and as the other languages do, never "tu"
beside "voi".
"""

from __future__ import annotations

import datetime as dt
import functools

import babel
import babel.numbers

from rentalcomply.checkin import words
import rentalcomply.checkin.words.form  # noqa: F401  (the modules of the package, loaded)
import rentalcomply.checkin.words.mail  # noqa: F401
import rentalcomply.checkin.words.page  # noqa: F401
import rentalcomply.checkin.words.privacy  # noqa: F401
import rentalcomply.checkin.words.taxes  # noqa: F401
from rentalcomply.scan import words as scan_words

LANGUAGES = ("en", "el", "it", "es", "de", "fr", "pt")
LANGUAGE_NAMES = {"en": "English", "el": "Ελληνικά", "it": "Italiano", "es": "Español",
                  "de": "Deutsch", "fr": "Français", "pt": "Português"}

# Every key's row, from the words/ modules (one per part of the page and e-mails).
_ROWS: dict[str, tuple[str, ...]] = {**words.form.ROWS, **words.page.ROWS, **words.mail.ROWS,
                                     **words.privacy.ROWS, **words.taxes.ROWS}
_ROWS.update(scan_words.rows(LANGUAGES))  # scanning the document (scan/words.py)


# Babel's locale for each language: the plural rule and how a number is written.
LOCALES = {"en": "en_GB", "el": "el_GR", "it": "it_IT", "es": "es_ES", "de": "de_DE", "fr": "fr_FR",
           "pt": "pt_PT"}

# A noun with its number, by CLDR plural category. English, Greek and German have "one" and
# "other"; Italian, Spanish and French add "many" for round millions ("1.000.000 di notti"), and
# French counts 0 as "one" ("0 nuit"). A category a row lacks falls back to "other".
PLURALS: dict[str, dict[str, dict[str, str]]] = {
    "night": {"en": {"one": "{n} night", "other": "{n} nights"},
              "el": {"one": "{n} νύχτα", "other": "{n} νύχτες"},
              "it": {"one": "{n} notte", "many": "{n} di notti", "other": "{n} notti"},
              "es": {"one": "{n} noche", "many": "{n} de noches", "other": "{n} noches"},
              "de": {"one": "{n} Nacht", "other": "{n} Nächte"},
              "fr": {"one": "{n} nuit", "many": "{n} de nuits", "other": "{n} nuits"},
              "pt": {"one": "{n} noite", "many": "{n} de noites", "other": "{n} noites"}},
    "guest": {"en": {"one": "{n} guest", "other": "{n} guests"},
              "el": {"one": "{n} επισκέπτης", "other": "{n} επισκέπτες"},
              "it": {"one": "{n} ospite", "many": "{n} di ospiti", "other": "{n} ospiti"},
              "es": {"one": "{n} huésped", "many": "{n} de huéspedes", "other": "{n} huéspedes"},
              "de": {"one": "{n} Gast", "other": "{n} Gäste"},
              "fr": {"one": "{n} voyageur", "many": "{n} de voyageurs", "other": "{n} voyageurs"},
              "pt": {"one": "{n} hóspede", "many": "{n} de hóspedes", "other": "{n} hóspedes"}},
    # The retention period in the privacy notice: "erased 1 year after your departure".
    "day": {"en": {"one": "{n} day", "other": "{n} days"},
            "el": {"one": "{n} ημέρα", "other": "{n} ημέρες"},
            "it": {"one": "{n} giorno", "many": "{n} di giorni", "other": "{n} giorni"},
            "es": {"one": "{n} día", "many": "{n} de días", "other": "{n} días"},
            "de": {"one": "{n} Tag", "other": "{n} Tage"},
            "fr": {"one": "{n} jour", "many": "{n} de jours", "other": "{n} jours"},
            "pt": {"one": "{n} dia", "many": "{n} de dias", "other": "{n} dias"}},
    "year": {"en": {"one": "{n} year", "other": "{n} years"},
             "el": {"one": "{n} χρόνο", "other": "{n} χρόνια"},
             "it": {"one": "{n} anno", "many": "{n} di anni", "other": "{n} anni"},
             "es": {"one": "{n} año", "many": "{n} de años", "other": "{n} años"},
             "de": {"one": "{n} Jahr", "other": "{n} Jahre"},
             "fr": {"one": "{n} an", "many": "{n} d'ans", "other": "{n} ans"},
             "pt": {"one": "{n} ano", "many": "{n} de anos", "other": "{n} anos"}},
}


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
    forms = PLURALS[word][lang]
    locale = _locale(lang)
    form = forms.get(locale.plural_form(n)) or forms["other"]
    return form.format(n=babel.numbers.format_decimal(n, locale=locale))


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
    row = _ROWS.get(key)
    if row is None:
        raise KeyError(key)
    chosen = row[LANGUAGES.index(lang)] if lang in LANGUAGES else row[0]
    return chosen.format(**values) if values else chosen


def has(key: str) -> bool:
    return key in _ROWS


def format_date(lang: str, day: dt.date) -> str:
    """Day, month and year as people of that language write them."""
    if lang == "en":
        return day.strftime("%d %b %Y").lstrip("0")  # "10 Jun 2027": unambiguous in English
    if lang == "de":
        return f"{day.day}.{day.month}.{day.year}"
    return f"{day.day}/{day.month}/{day.year}"
