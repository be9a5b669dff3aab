"""What a property's page shows of its access instructions (properties/access.py): which guest
languages have a text, and to an owner who asks, the texts themselves to read and change; a
member writes them without reading them back. The form is handled in pages/properties.py."""

from __future__ import annotations

import babel

from rentalcomply.checkin.i18n import LANGUAGE_NAMES
from rentalcomply.properties import access

# The form's boxes: one per language set (`access_<code>`), and one to add a language; web.py
# lets them hold line breaks.
NEW_TEXT = "access_new"


def language_name(page_lang: str, code: str) -> str:
    """A guest language as the page's reader calls it, with its own name where that differs
    ("Italian (Italiano)"), as the guest would recognise it."""
    name = babel.Locale.parse(page_lang).languages.get(code, code)
    name = name[:1].upper() + name[1:]
    return name if name == LANGUAGE_NAMES[code] else f"{name} ({LANGUAGE_NAMES[code]})"


def access_view(page, prop, *, shown: bool = False, typed: dict | None = None,
                errors: dict | None = None, hours: str | None = None) -> dict:
    """`shown`: an owner asked to read the texts (the boxes hold them, and an emptied box
    removes its language); `typed`: a refused form's texts by language, shown back only then."""
    shown = shown and page.user is not None and page.user.role == "owner"
    languages = access.languages_of(prop)
    texts = access.texts_of(prop) if shown else {}
    if shown:
        texts.update({code: text for code, text in (typed or {}).items()
                      if not code.startswith("_")})
    free = [code for code in access.LANGUAGES if code not in languages]
    home = access.property_language(prop)
    return {
        "set": bool(languages),
        "languages": [(code, language_name(page.lang, code)) for code in languages],
        "texts": texts, "shown": shown,
        "owner": page.user is not None and page.user.role == "owner",
        "free": [(code, language_name(page.lang, code)) for code in free],
        "new_language": (typed or {}).get("_new_language") or (home if home in free else
                                                               (free[0] if free else "")),
        "new_text": (typed or {}).get("_new_text", "") if shown else "",
        "home": (home, language_name(page.lang, home)),
        "errors": errors or {},
        "hours": hours if hours is not None else str(prop.access_instructions_hours_before),
    }


def typed_texts(page, prop, shown: bool) -> tuple[dict, dict]:
    """The form's texts by language as the domain takes them (None removes one), and what was
    typed, for a refused form. An empty box keeps its text unless the texts were shown, where
    emptying it is how one removes it; a box ticked "remove" removes it either way."""
    texts, typed = {}, {}
    for code in access.languages_of(prop):
        value = page.form(f"access_{code}").strip()
        typed[code] = value
        if value:
            texts[code] = value
        elif shown or page.form(f"remove_{code}") == "yes":
            texts[code] = None
    code, value = page.form("new_language"), page.form(NEW_TEXT).strip()
    typed["_new_language"], typed["_new_text"] = code, value
    if value:
        texts[code] = value  # a code not offered is refused by the domain, beside this box
    return texts, typed


def field_errors(found: dict, new_language: str, shown_languages: list[str]) -> dict:
    """The domain's error fields (`access_instructions_by_language.it`) as the form's boxes."""
    errors = {}
    for field, message in found.items():
        if field.startswith(access.BY_LANGUAGE + "."):
            code = field.split(".", 1)[1]
            errors["new" if code == new_language and code not in shown_languages
                   else code] = message
        elif field.startswith(access.BY_LANGUAGE):
            errors["new"] = message
        elif field == "access_instructions_hours_before":
            errors["hours_before"] = message
    return errors
