"""Nights and guests counted in the six languages of the check-in, by CLDR's plural rules (Babel),
on the guest page and in the invitation e-mail."""

import babel
import pytest

from rentalcomply.checkin import i18n, mail
from rentalcomply.core.models import Property
from tests.conftest import documented_app

# What a native reader expects for 1, 2, 5 and 21 (CLDR "one" for 1 alone in these languages).
EXPECTED = {
    "en": {"night": ("1 night", "2 nights", "5 nights", "21 nights"),
           "guest": ("1 guest", "2 guests", "5 guests", "21 guests")},
    "el": {"night": ("1 νύχτα", "2 νύχτες", "5 νύχτες", "21 νύχτες"),
           "guest": ("1 επισκέπτης", "2 επισκέπτες", "5 επισκέπτες", "21 επισκέπτες")},
    "it": {"night": ("1 notte", "2 notti", "5 notti", "21 notti"),
           "guest": ("1 ospite", "2 ospiti", "5 ospiti", "21 ospiti")},
    "es": {"night": ("1 noche", "2 noches", "5 noches", "21 noches"),
           "guest": ("1 huésped", "2 huéspedes", "5 huéspedes", "21 huéspedes")},
    "de": {"night": ("1 Nacht", "2 Nächte", "5 Nächte", "21 Nächte"),
           "guest": ("1 Gast", "2 Gäste", "5 Gäste", "21 Gäste")},
    "fr": {"night": ("1 nuit", "2 nuits", "5 nuits", "21 nuits"),
           "guest": ("1 voyageur", "2 voyageurs", "5 voyageurs", "21 voyageurs")},
    "pt": {"night": ("1 noite", "2 noites", "5 noites", "21 noites"),
           "guest": ("1 hóspede", "2 hóspedes", "5 hóspedes", "21 hóspedes")},
}
NBSP = "\u00a0"


def plain(text: str) -> str:
    return text.replace(NBSP, " ")


@pytest.mark.parametrize("lang", i18n.LANGUAGES)
@pytest.mark.parametrize("word", ["night", "guest"])
def test_each_language_has_its_one_and_other_forms(lang, word):
    assert tuple(i18n.count(lang, word, n) for n in (1, 2, 5, 21)) == EXPECTED[lang][word]


def test_every_word_has_the_forms_cldr_asks_for_in_every_language():
    # The catalogue's Plural-Forms has one form per CLDR category of the language (no more, no
    # fewer), and each form writes the number.
    for word in i18n.catalogue("en").plurals:
        for lang in i18n.LANGUAGES:
            forms = i18n.catalogue(lang).plurals[word]
            rule = babel.Locale.parse(i18n.LOCALES[lang]).plural_form
            assert len(forms) == len(set(rule.tags) | {"other"}), (word, lang)
            assert all("{n}" in form for form in forms), (word, lang)


def test_the_rare_cldr_categories_come_from_babel_not_from_a_rule_of_ours():
    assert i18n.count("fr", "night", 0) == "0 nuit"  # French counts zero as one
    assert i18n.count("en", "night", 0) == "0 nights"
    assert i18n.count("it", "night", 1_000_000) == "1.000.000 di notti"  # CLDR "many"
    assert i18n.count("es", "guest", 1_000_000) == "1.000.000 de huéspedes"
    assert i18n.count("de", "night", 1_000_000) == "1.000.000 Nächte"


def test_the_privacy_notice_counts_its_years_and_days():
    assert i18n.count("en", "year", 1) == "1 year" and i18n.count("el", "year", 5) == "5 χρόνια"
    assert i18n.count("de", "day", 1) == "1 Tag" and i18n.count("fr", "day", 30) == "30 jours"


@pytest.mark.parametrize("lang", i18n.LANGUAGES)
def test_the_stay_line_agrees_with_its_numbers(lang):
    import datetime as dt
    day = dt.date(2027, 6, 10)
    one = i18n.text(lang, "page.stay", **i18n.stay(lang, day, day + dt.timedelta(days=1), 1))
    many = i18n.text(lang, "page.stay", **i18n.stay(lang, day, day + dt.timedelta(days=2), 3))
    assert plain(one).endswith(f"{EXPECTED[lang]['night'][0]} · {EXPECTED[lang]['guest'][0]}")
    night, guests = i18n.count(lang, "night", 2), i18n.count(lang, "guest", 3)
    assert plain(many).endswith(f"{night} · {guests}")
    assert f"1{NBSP}" in one  # a number never ends a line apart from its word


@pytest.fixture
def guest(wsgi_app):
    return documented_app(wsgi_app)


def open_page(owner, guest, booking, lang):
    url = owner.post_json("/api/v1/checkins/resend", {"booking_id": booking.id},
                          status=202).json["data"]["checkin_url"]
    return guest.get("/checkin/" + url.rsplit("/", 1)[1] + f"?lang={lang}").text


@pytest.mark.parametrize("lang", ["en", "el", "de"])
def test_the_guest_page_says_1_night_and_1_guest_or_more(lang, owner, guest, make_booking):
    single = make_booking("GR", guest_count=1, nights=1, arrival_in=10)
    party = make_booking("GR", guest_count=3, nights=2, arrival_in=20)
    one = plain(open_page(owner, guest, single, lang))
    three = plain(open_page(owner, guest, party, lang))
    assert f"{EXPECTED[lang]['night'][0]} · {EXPECTED[lang]['guest'][0]}" in one
    assert f"{i18n.count(lang, 'night', 2)} · {i18n.count(lang, 'guest', 3)}" in three


@pytest.mark.parametrize("lang", i18n.LANGUAGES)
def test_the_invitation_counts_the_nights_and_guests(lang, settings, make_booking):
    single = make_booking("GR", guest_count=1, nights=1, guest_language=lang)
    party = make_booking("GR", guest_count=3, nights=2, arrival_in=20, guest_language=lang)
    for booking, (nights, guests) in ((single, (1, 1)), (party, (2, 3))):
        message = mail.compose(settings, booking, Property.get_by_id(booking.property_id),
                               "https://stay.example.org/checkin/x", booking.departure_date)
        counted = f"{i18n.count(lang, 'night', nights)} · {i18n.count(lang, 'guest', guests)}"
        assert counted in plain(message.get_body(("plain",)).get_content())
        assert counted in plain(message.get_body(("html",)).get_content())
