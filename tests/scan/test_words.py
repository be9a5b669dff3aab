"""The scanner's words for the guest: seven languages, the same placeholders in each, and every
one reachable from the page's catalogue."""

import string

from rentalcomply.checkin import i18n
from rentalcomply.scan import words


def placeholders(text: str) -> set[str]:
    return {name for _, name, _, _ in string.Formatter().parse(text) if name}


def test_every_word_is_written_in_seven_languages_with_the_same_placeholders():
    assert words.ORDER == ("en", "el", "it", "es", "de", "fr", "pt")
    for key, texts in words.WORDS.items():
        assert len(texts) == 7 and all(text.strip() for text in texts), key
        assert all(placeholders(text) == placeholders(texts[0]) for text in texts), key


def test_the_guest_page_speaks_them_in_its_languages():
    for lang in i18n.LANGUAGES:
        assert i18n.text(lang, "scan.title") == words.WORDS["scan.title"][words.ORDER.index(lang)]
    assert i18n.text("el", "scan.title") == "Σάρωση του εγγράφου"
