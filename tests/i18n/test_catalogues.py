"""Every catalogue is complete and valid: each .po parses, matches its .pot, has no empty or fuzzy
entry, keeps the msgid's placeholders, passes `msgfmt --check`; every marked text is in the .pot."""

from __future__ import annotations

import shutil
import string
import subprocess

import pytest
from babel.messages.pofile import read_po

from rentalcomply import locale as catalogues
from rentalcomply.checkin import i18n as guest_i18n
from rentalcomply.dashboard import i18n as dashboard_i18n
from rentalcomply.locale import extract

LANGUAGES_OF = {"messages": dashboard_i18n.LANGUAGES, "guest": guest_i18n.LANGUAGES,
                "report": ("en", "el")}
PO_FILES = [(domain, lang) for domain, languages in LANGUAGES_OF.items() for lang in languages]


def read(path):
    with open(path, "rb") as fp:
        return read_po(fp, abort_invalid=True)


def placeholders(text: str) -> set[str]:
    return {name for _, name, _, _ in string.Formatter().parse(text) if name}


def identities(catalog) -> set:
    return {(message.context, message.id if isinstance(message.id, str) else tuple(message.id))
            for message in catalog if message.id}


def test_every_domain_has_exactly_its_languages():
    for domain, languages in LANGUAGES_OF.items():
        assert set(catalogues.languages(domain)) == set(languages), domain


@pytest.mark.parametrize("domain,lang", PO_FILES)
def test_each_po_has_the_entries_of_its_template_none_empty_or_fuzzy(domain, lang):
    catalog = read(catalogues.po_path(domain, lang))
    assert identities(catalog) == identities(read(catalogues.SHIPPED / f"{domain}.pot"))
    assert not catalog.fuzzy
    for message in catalog:
        if not message.id:
            continue
        assert not message.fuzzy, message.id
        strings = [message.string] if isinstance(message.string, str) else list(message.string)
        assert strings and all(s.strip() for s in strings), (message.context, message.id)
        assert len(strings) == (catalog.num_plurals if message.pluralizable else 1), message.id


@pytest.mark.parametrize("domain,lang", PO_FILES)
def test_each_translation_keeps_the_placeholders_of_its_english(domain, lang):
    for message in read(catalogues.po_path(domain, lang)):
        if not message.id:
            continue
        english = message.id if isinstance(message.id, str) else message.id[-1]
        strings = [message.string] if isinstance(message.string, str) else list(message.string)
        for translated in strings:
            assert placeholders(translated) == placeholders(english), (message.id, translated)


@pytest.mark.skipif(not shutil.which("msgfmt"), reason="GNU gettext's msgfmt is not installed")
@pytest.mark.parametrize("domain,lang", PO_FILES)
def test_msgfmt_checks_each_po(domain, lang, tmp_path):
    done = subprocess.run(["msgfmt", "--check", "--statistics", "-o", str(tmp_path / "out.mo"),
                           str(catalogues.po_path(domain, lang))], capture_output=True, text=True)
    assert done.returncode == 0, done.stderr
    assert "untranslated" not in done.stderr and "fuzzy" not in done.stderr, done.stderr


def test_every_text_marked_in_the_code_and_templates_is_in_the_template():
    template = read(catalogues.SHIPPED / "messages.pot")
    known = {m.id for m in template if m.id} | {m.context for m in template if m.context}
    marked = extract.extracted()
    assert len(marked) > 500  # the extractor reads the templates and the code
    assert sorted(text for text in marked if text not in known) == []


def test_the_template_extractor_reads_bottle_templates():
    found = dict(extract.extracted())
    assert "Needs a person" in found  # today.tpl: {{_('Needs a person')}}
    assert any(place.endswith("today.tpl") for place, _ in found["Needs a person"])


def test_a_key_is_found_by_its_context_and_english_stands_behind_every_language():
    assert dashboard_i18n.translate("en", "NOT_STARTED") == "Not started"
    assert dashboard_i18n.translate("it", "Today") == "Oggi"
    assert dashboard_i18n.translate("xx", "Today") == "Today"
    assert dashboard_i18n.translate("pt", "A text no catalogue has") == "A text no catalogue has"


def test_the_date_filters_say_from_and_to_and_the_sender_is_another_word_in_greek():
    # One English text has one translation: "From" once became the e-mail's sender.
    assert dashboard_i18n.translate("el", "Sender") == "Αποστολέας"
    assert dashboard_i18n.translate("el", "From") != dashboard_i18n.translate("el", "Sender")


def test_plurals_follow_each_catalogues_plural_forms():
    counts = {lang: dashboard_i18n.Formatter(lang).count("night", 1) for lang in ("it", "es", "pt")}
    assert counts == {"it": "1 notte", "es": "1 noche", "pt": "1 noite"}
    assert dashboard_i18n.Formatter("it").count("guest", 3) == "3 ospiti"
    assert dashboard_i18n.Formatter("el").count("booking", 2) == "2 κρατήσεις"


def test_a_catalogue_is_read_once_per_language():
    first = dashboard_i18n.catalogue("it")
    assert dashboard_i18n.catalogue("it") is first
