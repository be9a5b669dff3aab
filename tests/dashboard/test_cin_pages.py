"""Italy's CIN on the dashboard: the property form's field (Italian properties only), the
property page's warning while it is missing, Today's "Needs a person" and the morning e-mail
with what to do and a link to the field, in English and Greek."""

from __future__ import annotations

from rentalcomply.core.errors import ValidationError
from rentalcomply.dashboard import i18n, morning, problems, service
from rentalcomply.properties import service as properties
from tests.dashboard.property_fields import shown_fields

CIN = "IT058091C2ABCDEFGH"


def _italian(account_id, name="Casa Limone", **extra):
    # Its region and capacity known, so that Needs a person lists only the CIN.
    return properties.create_property(account_id, name=name, address="Via Roma 1, 00184 Roma RM",
                                      country="IT", rooms=2, beds=4, **extra)


def _needs(text: str) -> str:
    return text[text.index("Needs a person"):text.index("Arrivals, next 7 days")]


def _form(anna, prop, **changes):
    page = anna.get(f"/dashboard/properties/{prop.id}?lang=en")
    return {"csrf": anna.csrf(page), "name": prop.name, "address": prop.address,
            "country": prop.country, "timezone": prop.timezone, "max_guests": "",
            "police_connector": prop.police_connector, "status": prop.status, **changes}


def test_needs_a_person_lists_an_italian_property_without_a_cin_and_not_one_with_it(
        anna, account_a):
    without = _italian(account_a)
    _italian(account_a, name="Casa Arancio", cin=CIN, police_connector="file")
    properties.create_property(account_a, name="Studio Athinas", address="Athinas 5")
    needs = _needs(anna.get("/dashboard/today?lang=en").text)
    assert "Italian properties without their CIN" in needs
    assert f'href="/dashboard/properties/{without.id}">Casa Limone</a>' in needs
    assert f'href="/dashboard/properties/{without.id}#cin">Enter the CIN</a>' in needs
    assert problems.CIN_MISSING.replace("’", "&#039;") in needs or "Ministry of Tourism" in needs
    assert "Casa Arancio" not in needs and "Studio Athinas" not in needs
    assert [p.id for p in service.today(account_a).cin_missing] == [without.id]


def test_entering_the_cin_on_the_property_page_takes_it_off_today(anna, account_a):
    prop = _italian(account_a)
    page = anna.get(f"/dashboard/properties/{prop.id}?lang=en").text
    assert 'id="cin-warning"' in page and 'href="#cin"' in page and 'id="cin"' in page
    anna.post(f"/dashboard/properties/{prop.id}", _form(anna, prop, cin=f" {CIN} "), status=303)
    assert properties.get_property(account_a, prop.id).cin == CIN
    page = anna.get(f"/dashboard/properties/{prop.id}?lang=en").text
    assert 'id="cin-warning"' not in page and f'<span lang="it">{CIN}</span>' in page
    assert "without their CIN" not in anna.get("/dashboard/today?lang=en").text


def test_an_inactive_italian_property_is_not_asked_for_its_cin(anna, account_a):
    _italian(account_a, status="inactive")
    assert service.today(account_a).cin_missing == []


def test_the_cin_field_shows_only_on_an_italian_property(anna, account_a):
    greek = properties.create_property(account_a, name="Studio", address="Athinas 5")
    assert "cin" not in shown_fields(anna.get(f"/dashboard/properties/{greek.id}"))
    assert "cin" in shown_fields(anna.get(f"/dashboard/properties/{_italian(account_a).id}"))


def test_a_refused_cin_is_said_beside_the_field_in_greek(anna, account_a):
    prop = _italian(account_a, cin=CIN)
    answer = anna.post(f"/dashboard/properties/{prop.id}?lang=el",
                       _form(anna, prop, cin="X" * 41), status=400)
    assert "πρέπει να είναι κείμενο από 1 έως 40 χαρακτήρες" in answer.text
    moved = anna.post(f"/dashboard/properties/{prop.id}?lang=el",
                      _form(anna, prop, country="GR", timezone="Europe/Athens"), status=400)
    assert "ισχύει μόνο για ιταλικά καταλύματα" in moved.text
    assert properties.get_property(account_a, prop.id).country == "IT"


def test_the_words_match_the_services_refusals():
    for bad, kwargs in (("X" * (properties.CIN_MAX + 1), {"country": "IT"}),
                        (CIN, {"country": "GR"})):
        try:
            properties.create_property("acct_x", name="A", address="B", cin=bad, **kwargs)
        except ValidationError as error:
            message = error.details[0]["message"]
            assert i18n.translate("el", message) != message, message
        else:
            raise AssertionError("refused")


def test_the_morning_email_names_the_property_and_links_to_its_cin(settings, account_a):
    prop = _italian(account_a)
    sections = dict(morning.lines(service.today(account_a), "el", i18n.Formatter("el"),
                                  "https://rentals.example.org/dashboard"))
    [line] = sections["Ιταλικά καταλύματα χωρίς CIN"]
    assert line.label == "Casa Limone" and line.details.startswith("Καταχωρίστε τον CIN του")
    assert line.url == f"https://rentals.example.org/dashboard/properties/{prop.id}#cin"


def test_today_says_it_in_greek(anna, account_a):
    _italian(account_a)
    text = anna.get("/dashboard/today?lang=el").text
    for greek in ("Ιταλικά καταλύματα χωρίς CIN", "Καταχωρίστε τον CIN του (Υπουργείο Τουρισμού",
                  "Καταχωρίστε τον CIN</a>"):
        assert greek in text, greek
