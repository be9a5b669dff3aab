"""Every text of the check-in exists in the six languages, with the same placeholders."""

import string

from rentalcomply.checkin import i18n
from rentalcomply.checkin.guests import FIELDS


def placeholders(text: str) -> set[str]:
    return {name for _, name, _, _ in string.Formatter().parse(text) if name}


def test_every_text_has_six_languages_and_the_same_placeholders():
    for key in i18n.keys():
        row = [i18n.text(lang, key) for lang in i18n.LANGUAGES]
        assert len(row) == len(i18n.LANGUAGES) and all(text.strip() for text in row), key
        assert len({frozenset(placeholders(text)) for text in row}) == 1, key


def test_every_field_has_a_label_and_every_choice_a_name():
    for name, field in FIELDS.items():
        assert i18n.has("label." + name), name
        if field.kind == "choice":
            for choice in field.choices:
                assert i18n.has(f"choice.{name}.{choice}"), (name, choice)


def test_an_unknown_language_falls_back_to_english():
    assert i18n.language("sv-SE") == "en" and i18n.language("EL") == "el"
    assert i18n.language("pt-BR") == "pt"  # Portuguese of Brazil reads the page in Portuguese
    assert i18n.text("xx", "page.title") == "Online check-in"
