"""The property form without a browser: no country until one is picked, the one step that shows a
country's fields without saving, the zone a region keeps, the police authority a new property
starts on, and the word that a property's guests are not being filed, on its page, on Today
and in the morning e-mail. The API's properties keep their `none` default (decisions.md)."""

from __future__ import annotations

import json

from rentalcomply.core.models import Property
from rentalcomply.dashboard import i18n, morning, service
from rentalcomply.dashboard.pages import property_form
from rentalcomply.properties import service as properties
from tests.dashboard.property_fields import shown_fields


def _typed(anna, page, **values):
    return {"csrf": anna.csrf(page), "name": "Casa", "address": "Via Roma 1",
            "status": "active", **values}


def _selected(response, select_id: str) -> str | None:
    chosen = response.html.select_one(f"#{select_id} option[selected]")
    return chosen["value"] if chosen is not None else None


def test_a_new_property_starts_on_no_country_and_shows_only_the_country_name_and_address(anna):
    page = anna.get("/dashboard/properties/new?lang=en")
    assert _selected(page, "country") == ""
    assert page.html.select_one("#country-fields").has_attr("hidden")
    assert page.html.select_one("[data-after-country]").has_attr("hidden")
    served = [o["value"] for o in page.html.select("#country optgroup")[0].select("option")]
    assert served == ["GR", "IT", "PT", "ES"]  # named and ordered in the page's language
    greek = anna.get("/dashboard/properties/new?lang=el").html.select("#country optgroup")[0]
    assert [o.get_text() for o in greek.select("option")] == [
        "Ελλάδα", "Ισπανία", "Ιταλία", "Πορτογαλία"]


def test_a_link_may_pick_the_country_and_an_unknown_one_picks_none(anna):
    italy = anna.get("/dashboard/properties/new?lang=en&country=it")
    assert _selected(italy, "country") == "IT"
    assert _selected(italy, "timezone") == "Europe/Rome"
    assert _selected(italy, "police_connector") == "alloggiati"
    assert {"cin", "region", "rooms", "beds"} <= shown_fields(italy)
    assert _selected(anna.get("/dashboard/properties/new?country=XX"), "country") == ""


def test_a_property_without_a_country_is_refused_in_words_and_nothing_is_saved(anna):
    page = anna.get("/dashboard/properties/new?lang=el")
    refused = anna.post("/dashboard/properties?lang=el", _typed(anna, page), status=400)
    assert "Επιλέξτε τη χώρα του καταλύματος." in refused.text
    assert refused.html.select_one("#name")["value"] == "Casa"
    assert Property.select().count() == 0


def test_the_country_step_shows_its_fields_with_what_was_typed_and_saves_nothing(anna):
    page = anna.get("/dashboard/properties/new?lang=en")
    shown = anna.post("/dashboard/properties?lang=en", _typed(
        anna, page, country="IT", shown_country="", police_connector="none", step="country"))
    assert Property.select().count() == 0
    assert shown.html.select_one("#name")["value"] == "Casa"
    assert _selected(shown, "timezone") == "Europe/Rome"
    assert _selected(shown, "police_connector") == "alloggiati"  # not the none of no country
    assert "cin" in shown_fields(shown) and "aade_property_id" not in shown_fields(shown)
    spain = anna.post("/dashboard/properties?lang=en", _typed(
        anna, page, country="ES", shown_country="IT", region="ES-CN", step="country"))
    assert _selected(spain, "timezone") == "Atlantic/Canary"
    assert _selected(spain, "police_connector") == "ses_hospedajes"
    assert [o["value"] for o in spain.html.select("#timezone option")] == [
        "", "Europe/Madrid", "Africa/Ceuta", "Atlantic/Canary"]
    kept = anna.post("/dashboard/properties?lang=en", _typed(
        anna, page, country="IT", shown_country="IT", police_connector="none", step="country"))
    assert _selected(kept, "police_connector") == "none"  # chosen on Italy's own fields: kept


def test_a_spanish_property_takes_the_zone_and_authority_of_its_region(anna, account_a):
    page = anna.get("/dashboard/properties/new?lang=en")
    anna.post("/dashboard/properties", _typed(
        anna, page, name="Casa Teide", address="Calle Castillo 4, 38002 Santa Cruz de Tenerife",
        country="ES", timezone="", police_connector="ses_hospedajes"), status=303)
    anna.post("/dashboard/properties", _typed(
        anna, page, name="Pis Gràcia", address="Carrer de Verdi 10, 08012 Barcelona",
        country="ES", timezone="Europe/Madrid", police_connector="ses_hospedajes"), status=303)
    made = {p.name: (p.timezone, p.region, p.police_connector)
            for p in properties.list_properties(account_a)}
    assert made == {"Casa Teide": ("Atlantic/Canary", "ES-CN", "ses_hospedajes"),
                    "Pis Gràcia": ("Europe/Madrid", "ES-CT", "mossos")}


def test_a_spanish_property_of_no_known_region_is_asked_its_zone(anna):
    page = anna.get("/dashboard/properties/new?lang=en")
    asked = anna.post("/dashboard/properties?lang=en", _typed(anna, page, country="ES",
                                                              timezone=""), status=400)
    assert "Spain has several time zones: choose this property’s." in asked.text
    assert _selected(asked, "timezone") == ""
    assert Property.select().count() == 0


def test_the_scripts_data_follow_each_country_and_region(anna):
    page = anna.get("/dashboard/properties/new?lang=el")
    data = json.loads(page.html.select_one("#property-form")["data-property-form"])
    assert [z for z, _label in data["zones"]["PT"]] == ["Europe/Lisbon", "Atlantic/Madeira",
                                                        "Atlantic/Azores"]
    assert [z for z, _label in data["zones"]["GR"]] == ["Europe/Athens"]
    assert data["regionZones"]["ES-CN"] == "Atlantic/Canary"
    assert (data["start"]["IT/"], data["start"]["ES/"], data["start"]["ES/ES-CT"],
            data["start"]["ES/ES-PV"], data["start"]["PT/"]) \
        == ("alloggiati", "ses_hospedajes", "mossos", "ertzaintza", "siba")
    assert "GR/" not in data["connectors"]  # Greece files no guests: only "none"
    assert data["chooseZone"] == "Επιλέξτε τη ζώνη ώρας"


def test_an_italian_property_filing_nothing_says_so_on_its_page_today_and_in_the_morning(
        anna, account_a):
    page = anna.get("/dashboard/properties/new?lang=en")
    anna.post("/dashboard/properties", _typed(anna, page, name="Casa Brera", country="IT",
                                              police_connector="none"), status=303)
    prop = Property.get(Property.name == "Casa Brera")
    assert prop.police_connector == "none"  # chosen: kept
    shown = anna.get(f"/dashboard/properties/{prop.id}?lang=en")
    notice = shown.html.select_one("#not-filed").get_text(" ", strip=True)
    assert "Guests of Casa Brera are not being filed with the police" in notice
    assert "File with Alloggiati Web" in notice
    today = anna.get("/dashboard/today?lang=en").html.select_one("#no-registration")
    assert "Casa Brera" in today.get_text()
    sections = dict(morning.lines(service.today(account_a), "en", i18n.Formatter("en"),
                                  "https://rentals.example.org/dashboard"))
    [line] = sections["Properties whose guests are not being filed"]
    assert line.label == "Casa Brera" and "not being filed with the police" in line.details
    assert line.url == f"https://rentals.example.org/dashboard/properties/{prop.id}"
    greek = anna.get(f"/dashboard/properties/{prop.id}?lang=el").html.select_one("#not-filed")
    assert "δεν δηλώνονται στην αστυνομία" in greek.get_text()


def test_the_not_filed_notice_chooses_the_authority_owed_in_one_click(anna, account_a):
    prop = properties.create_property(account_a, name="Pis Gràcia", country="ES",
                                      address="Carrer de Verdi 10, 08012 Barcelona",
                                      timezone="Europe/Madrid")
    page = anna.get(f"/dashboard/properties/{prop.id}?lang=en")
    assert page.html.select_one("#not-filed input[name=police_connector]")["value"] == "mossos"
    anna.post(f"/dashboard/properties/{prop.id}/police/choose",
              {"csrf": anna.csrf(page), "police_connector": "ses_hospedajes"}, status=303)
    assert properties.get_property(account_a, prop.id).police_connector == "none"  # not owed
    anna.post(f"/dashboard/properties/{prop.id}/police/choose",
              {"csrf": anna.csrf(page), "police_connector": "mossos"}, status=303)
    assert properties.get_property(account_a, prop.id).police_connector == "mossos"
    assert anna.get(f"/dashboard/properties/{prop.id}").html.select_one("#not-filed") is None


def test_a_greek_property_is_never_said_to_be_unfiled(anna, account_a):
    prop = properties.create_property(account_a, name="Studio Athinas", address="Athinas 5")
    assert anna.get(f"/dashboard/properties/{prop.id}").html.select_one("#not-filed") is None


def test_the_api_keeps_its_none_default_and_today_says_it(owner, anna, account_a):
    made = owner.post_json("/api/v1/properties", {"name": "Casa Api", "address": "Via Po 1",
                                                  "country": "IT"}, status=201).json["data"]
    assert made["police_connector"] == "none"
    assert [p.name for p in service.today(account_a).no_registration] == ["Casa Api"]


def test_the_forms_words_are_in_each_language_the_dashboard_speaks():
    for language in ("el", "it", "es", "pt"):
        for english in (property_form.COUNTRY_NEEDED, "Choose the country",
                        "Guests of {property} are not being filed with the police: choose its "
                        "authority."):
            translated = i18n.translate(language, english, property="Casa")
            assert translated != english.format(property="Casa"), (language, english)
            assert "Casa" in translated or "{property}" not in english


def test_a_regional_authority_of_another_region_is_refused_and_leaves_no_property(anna):
    page = anna.get("/dashboard/properties/new?lang=en")
    refused = anna.post("/dashboard/properties?lang=en", _typed(
        anna, page, name="Casa Sol", address="Calle Larios 5, 29015 Málaga", country="ES",
        timezone="Europe/Madrid", police_connector="mossos"), status=400)
    assert "files only for properties in ES-CT" in refused.text
    assert Property.select().count() == 0
