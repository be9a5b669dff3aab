"""No English sentence escapes a page in another language: the main pages of a seeded account, the
morning e-mail and a police filing alert, in Italian, Spanish, Portuguese and Greek, each compared
with its English rendering. A text of three words or more that reads the same in both is a
failure, unless it is one of the words that stay the same in every language (names of the seeded
things, codes, the authorities' own names) listed here."""

from __future__ import annotations

import html.parser
import re

import pytest

from rentalcomply.core import clock
from rentalcomply.core.models import Account, Booking
from rentalcomply.dashboard import morning, police_alerts, service
from rentalcomply.dashboard.models import DashboardUser
from rentalcomply.properties import service as properties
from rentalcomply.properties.regions import REGIONS
from tests.dashboard.test_browser import ARTIFACTS, _seed

LANGUAGES = ("it", "es", "pt", "el")
# What the seeded account names itself, and names that are the same in every language.
SAME_IN_EVERY_LANGUAGE = {
    "Seaside Studio", "Plaka Loft", "Hydra Stone House", "Casa Limone", "Akti Miaouli 12, Piraeus",
    "Adrianou 40, Athens", "Kamini, Hydra", "Via Roma 1, Firenze", "Maria Rossi", "Jean Dupont",
    "Anna Schmidt", "Emma Johnson", "Lukas Novak", "Sofia García", "Oliver Brown", "Chen Wei",
    "Eleni Markou", "Not available", "Property-management system", "Channel manager",
    "Monthly export", "Alloggiati Web", "Alloggiati Web (IT)", "SES Hospedajes", "Wi-Fi", "check-in",
    "Document number does not match the nationality", "The feed answered HTTP 404",
} | {region.name for country in REGIONS.values() for region in country.values()}  # own names
WORD = re.compile(r"[^\W\d_]{2,}")


class VisibleText(html.parser.HTMLParser):
    """The texts a person reads: text between tags (not scripts or styles), and the labels a
    screen reader says or a field shows (aria-label, title, placeholder, alt)."""

    def __init__(self):
        super().__init__()
        self.texts: list[str] = []
        self.hidden = 0

    def handle_starttag(self, tag, attrs):
        if tag in ("script", "style"):
            self.hidden += 1
        for name, value in attrs:
            if name in ("aria-label", "title", "placeholder", "alt") and value:
                self.texts.append(value)

    def handle_endtag(self, tag):
        if tag in ("script", "style") and self.hidden:
            self.hidden -= 1

    def handle_data(self, data):
        if not self.hidden and data.strip():
            self.texts.append(data)


def sentences(texts) -> set[str]:
    """Texts of three words or more, whitespace folded, links and the allowed names left out."""
    found = set()
    for text in texts:
        for part in re.split(r"\s[·|]\s|\n", text):
            part = " ".join(part.split()).strip(" :·-–")
            if not part or "://" in part or "@" in part or part in SAME_IN_EVERY_LANGUAGE:
                continue
            if len(WORD.findall(part)) >= 3:
                found.add(part)
    return found


def page_sentences(browser, path: str, lang: str) -> set[str]:
    separator = "&" if "?" in path else "?"
    parser = VisibleText()
    parser.feed(browser.get(f"{path}{separator}lang={lang}").text)
    return sentences(parser.texts)


@pytest.fixture
def seeded(settings, account_a, anna):
    made = _seed(settings, account_a)
    italian = properties.create_property(account_a, name="Casa Limone",
                                         address="Via Roma 1, Firenze", country="IT",
                                         timezone="Europe/Rome")
    return {**made, "italian": italian}


def main_pages(seeded) -> dict[str, str]:
    return {
        "today": "/dashboard/today",
        "bookings": "/dashboard/bookings",
        "booking": f"/dashboard/bookings/{seeded['bookings'][4].id}",
        "booking with guests": f"/dashboard/bookings/{seeded['bookings'][2].id}",
        "properties": "/dashboard/properties",
        "property": f"/dashboard/properties/{seeded['homes'][1].id}",
        "property with its police set-up": f"/dashboard/properties/{seeded['italian'].id}",
        "reports": "/dashboard/reports",
        "account": "/dashboard/settings/account",
        "filings": "/dashboard/filings",
    }


@pytest.mark.parametrize("lang", LANGUAGES)
def test_no_english_sentence_is_left_on_the_main_pages(seeded, anna, lang):
    escaped = {}
    for name, path in main_pages(seeded).items():
        english = page_sentences(anna, path, "en")
        assert len(english) > 3, name  # the English page says something to compare
        same = sorted(english & page_sentences(anna, path, lang))
        if same:
            escaped[name] = same
    assert escaped == {}


def _mail_text(message) -> str:
    if message.is_multipart():
        return message.get_body(("plain",)).get_content()
    return message.get_content()


@pytest.mark.parametrize("lang", LANGUAGES)
def test_no_english_sentence_is_left_in_the_morning_email_or_a_filing_alert(
        settings, seeded, anna, account_a, lang):
    account = Account.get_by_id(account_a)
    day = service.today(account_a)
    assert day.needs_a_person
    police_alerts.configure(settings)
    refused = list(Booking.select().where((Booking.account == account_a)
                                          & (Booking.report_status == "REJECTED")))
    names = {home.id: home.name for home in seeded["homes"]}

    def rendered(language: str) -> tuple[set[str], set[str]]:
        DashboardUser.update(lang=language).where(DashboardUser.id == anna.user.id).execute()
        user = DashboardUser.get_by_id(anna.user.id)
        mail = morning.compose(settings, account, user, day, clock.today(), "Europe/Athens")
        alert = police_alerts.compose(account, language, user.email, refused, names)
        return (sentences([mail["Subject"], _mail_text(mail)]),
                sentences([alert["Subject"], _mail_text(alert)]))

    english_mail, english_alert = rendered("en")
    mail, alert = rendered(lang)
    # Kept to be read: the e-mails as the owner gets them (tests/artifacts/dashboard/).
    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    user = DashboardUser.get_by_id(anna.user.id)
    for kind, message in (("morning", morning.compose(settings, account, user, day, clock.today(),
                                                      "Europe/Athens")),
                          ("filing-alert", police_alerts.compose(account, lang, user.email,
                                                                 refused, names))):
        (ARTIFACTS / f"i18n-{kind}-{lang}.txt").write_text(
            f"Subject: {message['Subject']}\n\n{_mail_text(message)}", encoding="utf-8")
    assert len(english_mail) > 3 and len(english_alert) > 2
    assert sorted(english_mail & mail) == [] and sorted(english_alert & alert) == []
