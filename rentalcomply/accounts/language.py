"""An account's language, for the documents the layers below the dashboard write for its people
(the tourist tax returns' PDF, CSV and XLSX).

The dashboard knows the account's people and the language each chose (dashboard/users.py); the
layers below it may not import it (pyproject.toml's layers). So they ask here, and the dashboard
registers its answer when it is imported (`register(users.account_language)`). Where no dashboard
was imported (a bare command), every account reads English.
"""

from __future__ import annotations

from typing import Callable

# The Babel (CLDR) locale of each language of the `messages` catalogue: dates, numbers and money
# in the reader's language (the same mapping as dashboard/i18n.py's, which this layer may not read).
LOCALES = {"en": "en_GB", "el": "el_GR", "it": "it_IT", "es": "es_ES", "pt": "pt_PT"}
DEFAULT = "en"

_resolver: list[Callable[[str], str]] = []


def register(resolver: Callable[[str], str]) -> None:
    """The function that names an account's language (the last registered wins)."""
    _resolver[:] = [resolver]


def of_account(account_id: str) -> str:
    """The account's usual language: "en" unless the dashboard says another of LOCALES."""
    if not _resolver:
        return DEFAULT
    lang = _resolver[0](account_id)
    return lang if lang in LOCALES else DEFAULT


def locale_of(lang: str) -> str:
    """The CLDR locale a language's dates, numbers and money are written in."""
    return LOCALES.get(lang, LOCALES[DEFAULT])
