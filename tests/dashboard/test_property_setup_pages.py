"""The property page's police set-up: the authority's fields, credentials write-only, codes
checked as typed, a warning while it is incomplete, the connection test in words against the
loopback doubles, and a held filing on the booking page linking to it."""

from __future__ import annotations

import datetime as dt
import re
from zoneinfo import ZoneInfo

import pytest

from rentalcomply.bookings import service as bookings
from rentalcomply.bookings.fees import FeeRates
from rentalcomply.core import clock
from rentalcomply.core.db import atomic
from rentalcomply.dashboard import users
from rentalcomply.filings.models import AuthoritySettings, Filing
from rentalcomply.filings.settings import credentials_for
from rentalcomply.properties import service as properties
from tests.conftest import bootstrapped_settings
from tests.dashboard.conftest import DASHBOARD_ENV
from tests.police.conftest import family
from tests.police.soap_double import AlloggiatiDouble
from tests.police.soap_doubles_es_pt import SesDouble
from tests.dashboard.property_fields import shown_fields


@pytest.fixture
def alloggiati():
    from rentalcomply.authorities.alloggiati.connector import CONNECTOR
    service = AlloggiatiDouble()
    CONNECTOR.forget_tokens()
    yield service
    service.down()
    CONNECTOR.forget_tokens()


@pytest.fixture
def ses():
    with SesDouble() as double:
        yield double


@pytest.fixture
def settings(tmp_path, mail_server, alloggiati, ses):
    with bootstrapped_settings(tmp_path, **DASHBOARD_ENV, **mail_server.env,
                               RENTALCOMPLY_POLICE_ALLOGGIATI_URL=alloggiati.url,
                               RENTALCOMPLY_POLICE_SES_URL=ses.url,
                               RENTALCOMPLY_POLICE_TIMEOUT_SECONDS=3) as settings:
        users.configure(settings)
        users.forget_failures()
        yield settings
        users.forget_failures()


def italian(account_id):
    prop = properties.create_property(account_id, name="Casa Limone", address="Via Roma 1",
                                      country="IT", police_connector="alloggiati")
    return prop


def save_setup(anna, prop, status=303, **values):
    page = anna.get(f"/dashboard/properties/{prop.id}")
    return anna.post(f"/dashboard/properties/{prop.id}/police",
                     {"csrf": anna.csrf(page), **values}, status=status)


def test_an_italian_property_without_its_set_up_warns_and_shows_the_authoritys_fields(
        anna, account_a):
    prop = italian(account_a)
    text = anna.get(f"/dashboard/properties/{prop.id}").text
    assert "its set-up is not complete: nothing can be sent to Alloggiati Web" in text
    assert 'href="#police-setup"' in text
    for label in ("Alloggiati Web user", "Alloggiati Web password", "Web service key (WSKEY)"):
        assert label in text
    greek = anna.get(f"/dashboard/properties/{prop.id}?lang=el").text
    assert "Ρυθμίσεις δήλωσης στην αστυνομία" in greek and "Κλειδί υπηρεσίας web" in greek


def test_credentials_are_write_only_and_an_empty_box_keeps_them(anna, account_a):
    prop = italian(account_a)
    save_setup(anna, prop, user="VE777777", password="segreto", wskey="WSKEY1")
    assert credentials_for(prop) == {"user": "VE777777", "password": "segreto", "wskey": "WSKEY1"}
    text = anna.get(f"/dashboard/properties/{prop.id}").text
    assert "segreto" not in text and "WSKEY1" not in text
    assert "not complete" not in text and text.count(">Set</span>") == 2
    save_setup(anna, prop, user="VE777777", password="", wskey="")
    assert credentials_for(prop) == {"user": "VE777777", "password": "segreto", "wskey": "WSKEY1"}
    save_setup(anna, prop, user="VE777777", password="nuova", wskey="")
    assert credentials_for(prop) == {"user": "VE777777", "password": "nuova", "wskey": "WSKEY1"}


def test_the_alloggiati_user_is_shown_as_text_and_the_password_and_wskey_stay_write_only(
        anna, account_a):
    prop = italian(account_a)
    save_setup(anna, prop, user="VE777777", password="segreto", wskey="WSKEY1")
    text = anna.get(f"/dashboard/properties/{prop.id}").text
    user_box = re.search(r'<input id="police-user"[^>]*>', text).group(0)
    assert 'type="password"' not in user_box and 'value="VE777777"' in user_box
    for name in ("password", "wskey"):
        box = re.search(rf'<input id="police-{name}"[^>]*>', text).group(0)
        assert 'type="password"' in box and 'value=""' in box
    assert "segreto" not in text and "WSKEY1" not in text
    # The user is still a credential for the API: named as set, never in police_settings.
    assert AuthoritySettings.get(AuthoritySettings.property == prop.id).settings == {}
    save_setup(anna, prop, user="VE888888", password="", wskey="")  # changed in its box
    assert credentials_for(prop) == {"user": "VE888888", "password": "segreto", "wskey": "WSKEY1"}
    save_setup(anna, prop, user="", password="", wskey="")  # emptied: no user any more
    assert credentials_for(prop) == {"password": "segreto", "wskey": "WSKEY1"}
    assert "not complete" in anna.get(f"/dashboard/properties/{prop.id}").text


def test_a_refused_set_up_keeps_what_was_typed_and_asks_only_the_secrets_again(anna, account_a):
    prop = properties.create_property(account_a, name="Casa Sol", address="Calle Mayor 1",
                                      country="ES", timezone="Europe/Madrid",
                                      police_connector="ses_hospedajes")
    refused = save_setup(anna, prop, status=400, codigo_arrendador="12AB",
                         codigo_establecimiento="EST0001", user="sesuser01",
                         password="Contrase\u00f1a9")
    text = refused.text
    assert "The landlord code is 10 digits" in text
    for name, value in (("codigo_arrendador", "12AB"), ("codigo_establecimiento", "EST0001"),
                        ("user", "sesuser01")):
        box = re.search(rf'<input id="police-{name}"[^>]*>', text).group(0)
        assert f'value="{value}"' in box, name
    password_box = re.search(r'<input id="police-password"[^>]*>', text).group(0)
    assert 'value=""' in password_box and "police-password-retype" in password_box
    assert "Contrase" not in text
    assert "What you typed here was not kept, as a password never is: type it again." in text
    assert "Nothing was saved." in text
    assert AuthoritySettings.get_or_none(AuthoritySettings.property == prop.id) is None
    greek = save_setup(anna, prop, status=400, codigo_arrendador="12AB", password="x y").text
    assert "δεν κρατήθηκε" not in greek  # English page: the Greek is for ?lang=el
    page = anna.get(f"/dashboard/properties/{prop.id}?lang=el")
    greek = anna.post(f"/dashboard/properties/{prop.id}/police?lang=el",
                      {"csrf": anna.csrf(page), "codigo_arrendador": "12AB",
                       "password": "abc"}, status=400).text
    assert "δεν κρατήθηκε" in greek


def test_a_refused_set_up_with_no_secret_typed_does_not_ask_to_type_one_again(anna, account_a):
    prop = properties.create_property(account_a, name="Casa Sol", address="Calle Mayor 1",
                                      country="ES", timezone="Europe/Madrid",
                                      police_connector="ses_hospedajes")
    text = save_setup(anna, prop, status=400, codigo_arrendador="12AB", password="").text
    assert "was not kept" not in text and "Nothing was saved." not in text


def test_a_spanish_code_is_checked_as_typed_with_a_sentence_beside_it(anna, account_a):
    prop = properties.create_property(account_a, name="Casa Sol", address="Calle Mayor 1",
                                      country="ES", timezone="Europe/Madrid",
                                      police_connector="ses_hospedajes")
    refused = save_setup(anna, prop, status=400, codigo_arrendador="12AB",
                         codigo_establecimiento="0000012345", user="", password="")
    assert "The landlord code is 10 digits" in refused.text
    assert 'value="12AB"' in refused.text  # the code typed is shown back to be corrected
    assert AuthoritySettings.get_or_none(AuthoritySettings.property == prop.id) is None


def test_the_connection_test_says_connected_or_refused_in_words(anna, account_a, alloggiati):
    prop = italian(account_a)
    save_setup(anna, prop, user="RM012345", password="segreto", wskey="WSKEY1")
    page = anna.get(f"/dashboard/properties/{prop.id}")
    said = anna.post(f"/dashboard/properties/{prop.id}/police/test", {"csrf": anna.csrf(page)})
    assert "Connected: Alloggiati Web accepted these details. Nothing was filed." in said.text
    assert alloggiati.calls == ["GenerateToken"]
    save_setup(anna, prop, password="sbagliata")
    page = anna.get(f"/dashboard/properties/{prop.id}?lang=el")
    said = anna.post(f"/dashboard/properties/{prop.id}/police/test?lang=el",
                     {"csrf": anna.csrf(page)})
    assert "Απορρίφθηκε: η υπηρεσία Alloggiati Web δεν δέχτηκε" in said.text
    alloggiati.down()
    said = anna.post(f"/dashboard/properties/{prop.id}/police/test?lang=en",
                     {"csrf": anna.csrf(page)})
    assert "Cannot reach Alloggiati Web right now" in said.text


def test_the_ses_connection_test_asks_its_catalogue(anna, account_a, ses):
    prop = properties.create_property(account_a, name="Casa Sol", address="Calle Mayor 1",
                                      country="ES", timezone="Europe/Madrid",
                                      police_connector="ses_hospedajes")
    save_setup(anna, prop, codigo_arrendador="0000000042", codigo_establecimiento="0000012345",
               user="ses-user", password="ses-pass")
    page = anna.get(f"/dashboard/properties/{prop.id}")
    said = anna.post(f"/dashboard/properties/{prop.id}/police/test", {"csrf": anna.csrf(page)})
    assert "Connected: SES.Hospedajes accepted these details." in said.text
    save_setup(anna, prop, codigo_arrendador="0000000042", codigo_establecimiento="0000012345",
               password="wrong")
    said = anna.post(f"/dashboard/properties/{prop.id}/police/test", {"csrf": anna.csrf(page)})
    assert "Refused: SES.Hospedajes did not accept the user, password or key." in said.text


def test_a_filing_held_for_set_up_says_so_on_the_booking_and_links_to_the_set_up(
        anna, settings, account_a, owner, alloggiati):
    prop = italian(account_a)
    arrival = clock.today()
    with atomic():
        booking = bookings.create_booking(
            account_a, rates=FeeRates.from_settings(settings), property_id=prop.id,
            guest_name="Giulia Bianchi", guest_email="giulia@example.com", arrival_date=arrival,
            departure_date=arrival + dt.timedelta(days=3), guest_count=2)
    owner.put_json(f"/api/v1/bookings/{booking.id}/guests", {"guests": family()})
    assert Filing.get(Filing.booking == booking.id).status == "held"
    text = anna.get(f"/dashboard/bookings/{booking.id}").text
    assert "Held: set-up needed" in text
    assert "Nothing was sent: the property’s police set-up is not complete." in text
    assert f'href="/dashboard/properties/{prop.id}#police-setup"' in text
    assert "set-up needed: user" not in text  # the code is for the API and the log
    assert "Climate fee" not in text  # a Greek fee, on a Greek property's bookings only
    greek = anna.get(f"/dashboard/bookings/{booking.id}?lang=el").text
    assert "Σε αναστολή: χρειάζονται ρυθμίσεις" in greek
    save_setup(anna, prop, user="RM012345", password="segreto", wskey="WSKEY1")
    assert alloggiati.calls[-1] == "Ricevuta"
    assert Filing.get(Filing.booking == booking.id).status == "submitted"


# --- the country and time zone selects, and the fields of each country ---------------------------

def test_the_country_is_a_select_named_in_the_pages_language_with_the_countrys_zones(anna):
    english = anna.get("/dashboard/properties/new?lang=en").text
    assert '<select id="country" name="country"' in english
    assert '<option value="ES">Spain</option>' in english
    assert '<option value="" selected>Choose the country</option>' in english
    assert '<option value="GR">Greece</option>' in english
    greek = anna.get("/dashboard/properties/new?lang=el").text
    assert '<option value="ES">Ισπανία</option>' in greek
    assert '<option value="" selected>Επιλέξτε τη χώρα</option>' in greek
    italy = anna.get("/dashboard/properties/new?lang=en&country=IT").text
    assert '<option value="IT" selected>Italy</option>' in italy
    assert '<option value="Europe/Rome" selected>' in italy


def test_greek_fields_show_only_on_a_greek_property(anna, account_a):
    greek = properties.create_property(account_a, name="Studio", address="Athinas 5")
    assert "aade_property_id" in shown_fields(anna.get(f"/dashboard/properties/{greek.id}"))
    italian_fields = shown_fields(anna.get(f"/dashboard/properties/{italian(account_a).id}"))
    assert not {"aade_property_id", "climate_fee_category"} & italian_fields


def property_form(anna, prop, **changes):
    page = anna.get(f"/dashboard/properties/{prop.id}?lang=en")
    return {"csrf": anna.csrf(page), "name": prop.name, "address": prop.address,
            "country": prop.country, "timezone": prop.timezone, "max_guests": "",
            "police_connector": prop.police_connector, "status": prop.status, **changes}


def test_a_new_country_with_one_zone_takes_it_and_one_with_several_asks(anna, account_a):
    prop = properties.create_property(account_a, name="Studio", address="Athinas 5")
    anna.post(f"/dashboard/properties/{prop.id}",
              property_form(anna, prop, country="IT", climate_fee_category="standard"), status=303)
    assert properties.get_property(account_a, prop.id).timezone == "Europe/Rome"
    prop = properties.get_property(account_a, prop.id)
    asked = anna.post(f"/dashboard/properties/{prop.id}", property_form(anna, prop, country="ES"),
                      status=400)
    assert "Spain has several time zones: choose this property’s." in asked.text
    assert '<option value="Atlantic/Canary">' in asked.text
    assert properties.get_property(account_a, prop.id).timezone == "Europe/Rome"  # unchanged
    anna.post(f"/dashboard/properties/{prop.id}",
              property_form(anna, prop, country="ES", timezone="Atlantic/Canary"), status=303)
    saved = properties.get_property(account_a, prop.id)
    assert (saved.country, saved.timezone) == ("ES", "Atlantic/Canary")


def test_today_says_why_a_filing_is_held_in_words(anna, settings, account_a, owner):
    prop = italian(account_a)
    arrival = clock.today()
    with atomic():
        booking = bookings.create_booking(
            account_a, rates=FeeRates.from_settings(settings), property_id=prop.id,
            guest_name="Giulia Bianchi", guest_email="giulia@example.com", arrival_date=arrival,
            departure_date=arrival + dt.timedelta(days=3), guest_count=2)
    owner.put_json(f"/api/v1/bookings/{booking.id}/guests", {"guests": family()})
    text = anna.get("/dashboard/today?lang=en").text
    needs = text[text.index("Needs a person"):text.index("Arrivals, next 7 days")]
    assert "Giulia Bianchi" in needs and "Held" in needs
    assert "the property’s police set-up is not complete" in needs
    assert "set-up needed:" not in needs


def test_siba_offers_no_test_and_the_page_says_the_first_filing_checks(anna, account_a):
    prop = properties.create_property(account_a, name="Casa Azul", address="Rua Augusta 1",
                                      country="PT", timezone="Europe/Lisbon",
                                      police_connector="siba")
    save_setup(anna, prop, unidade_hoteleira="121212121", estabelecimento="0",
               chave_acesso="999999999")
    page = anna.get(f"/dashboard/properties/{prop.id}?lang=en")
    said = anna.post(f"/dashboard/properties/{prop.id}/police/test", {"csrf": anna.csrf(page)})
    assert "SIBA offers no test that files nothing: the first filing will check" in said.text


def test_spains_reservation_shows_with_its_own_deadline_on_the_booking(anna, settings, account_a):
    prop = properties.create_property(account_a, name="Casa Sol", address="Calle Mayor 1",
                                      country="ES", timezone="Europe/Madrid",
                                      police_connector="ses_hospedajes")
    arrival = clock.today() + dt.timedelta(days=10)
    with atomic():
        booking = bookings.create_booking(
            account_a, rates=FeeRates.from_settings(settings), property_id=prop.id,
            guest_name="Lucía Fernández", guest_email="lucia@example.com", arrival_date=arrival,
            departure_date=arrival + dt.timedelta(days=3), guest_count=2)
    reservation = Filing.get((Filing.booking == booking.id) & (Filing.kind == "reservation"))
    text = anna.get(f"/dashboard/bookings/{booking.id}?lang=en").text
    assert "Reservation (Spain)" in text
    line = text[text.index("Reservation (Spain)"):]
    assert "Due by" in line[:400]
    # The page shows the deadline in the property's own time, so a deadline late in the UTC day
    # is the next day in Madrid.
    local = reservation.deadline.replace(tzinfo=dt.timezone.utc).astimezone(ZoneInfo("Europe/Madrid"))
    assert f" {local.day} {local:%b} {local.year}," in line[:400]


def test_today_lists_a_property_whose_police_set_up_is_incomplete(anna, account_a):
    prop = italian(account_a)
    text = anna.get("/dashboard/today?lang=en").text
    needs = text[text.index("Needs a person"):text.index("Arrivals, next 7 days")]
    assert "Police filing on, set-up not complete" in needs
    assert f'href="/dashboard/properties/{prop.id}#police-setup">Casa Limone</a>' in needs
    assert "missing: Alloggiati Web user, Alloggiati Web password, Web service key" in needs
    save_setup(anna, prop, user="RM012345", password="segreto", wskey="WSKEY1")
    assert "set-up not complete" not in anna.get("/dashboard/today?lang=en").text


def test_the_morning_email_names_the_property_and_links_to_its_set_up(settings, account_a):
    from rentalcomply.dashboard import i18n, morning, service
    prop = italian(account_a)
    sections = dict(morning.lines(service.today(account_a), "el", i18n.Formatter("el"),
                                  "https://rentals.example.org/dashboard"))
    [line] = sections["Δήλωση στην αστυνομία ενεργή, ρυθμίσεις ελλιπείς"]
    assert line.label == "Casa Limone" and line.details.startswith("λείπουν: Χρήστης Alloggiati Web")
    assert line.url.endswith(f"/properties/{prop.id}#police-setup")


def test_a_spanish_property_saved_on_athens_time_shows_it_and_is_asked_its_zone(anna, account_a):
    prop = properties.create_property(account_a, name="Casa Sol", address="Calle Mayor 1",
                                      country="ES", timezone="Europe/Athens")
    text = anna.get(f"/dashboard/properties/{prop.id}?lang=en").text
    assert ('<option value="Europe/Athens" selected>Europe/Athens (not a time zone of this '
            'country)</option>') in text
    asked = anna.post(f"/dashboard/properties/{prop.id}", property_form(anna, prop), status=400)
    assert "Spain has several time zones" in asked.text


def test_the_police_connector_offers_the_authority_of_the_propertys_country(anna, account_a):
    text = anna.get(f"/dashboard/properties/{italian(account_a).id}?lang=en").text
    connectors = text[text.index('<select id="police_connector"'):]
    connectors = connectors[:connectors.index("</select>")]
    assert 'value="alloggiati"' in connectors and 'value="file"' in connectors
    assert 'value="siba"' not in connectors and 'value="ses_hospedajes"' not in connectors
