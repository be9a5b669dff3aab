"""The guest's privacy notice per country: the controller (the account's, or the host by the
property until it has one), the law of the property's country in a sentence of its own, the
retention from the settings in words, the rights and the data-protection authority by name."""

import pytest

from rentalcomply.accounts import controller
from rentalcomply.checkin import i18n, privacy

LAWS = {"IT": "art. 109 del TULPS (R.D. 773/1931)", "ES": "Real Decreto 933/2021",
        "PT": "Lei n.º 23/2007", "GR": "Δήλωση Βραχυχρόνιας Διαμονής"}
AUTHORITIES = {"IT": "Garante per la protezione dei dati personali (garanteprivacy.it)",
               "ES": "Agencia Española de Protección de Datos (aepd.es)",
               "PT": "Comissão Nacional de Proteção de Dados (cnpd.pt)",
               "GR": "Αρχή Προστασίας Δεδομένων Προσωπικού Χαρακτήρα (dpa.gr)"}
OWN_LANGUAGE = {"IT": "it", "ES": "es", "PT": "pt", "GR": "el"}


@pytest.mark.parametrize("country", sorted(LAWS))
def test_each_country_names_its_law_and_its_authority_in_its_own_language(
        settings, make_property, country):
    prop = make_property(country)
    lang = OWN_LANGUAGE[country]
    notice = " ".join(privacy.notice(settings, prop, lang))
    assert LAWS[country] in notice and AUTHORITIES[country] in notice
    assert prop.name in notice  # no controller set yet: the host, by the property


def test_the_retention_is_the_countrys_setting_in_words(settings, make_property):
    spanish = " ".join(privacy.notice(settings, make_property("ES"), "en"))
    assert "erased 3 years after your departure" in spanish
    italian = " ".join(privacy.notice(settings, make_property("IT"), "it"))
    assert "cancellati 5 anni dopo la partenza" in italian


def test_a_named_controller_is_given_with_its_address_and_contact(settings, account_a,
                                                                  make_property):
    controller.save_controller(account_a, legal_name="Anemoi Stays I.K.E.",
                               address="Oia 847 02, Santorini", email="privacy@anemoi.example",
                               phone="+30 22860 71234")
    first = privacy.notice(settings, make_property("GR"), "en")[0]
    assert first == ("Controller: Anemoi Stays I.K.E., Oia 847 02, Santorini. Contact: "
                     "privacy@anemoi.example · +30 22860 71234.")


def test_a_country_whose_law_is_not_named_gets_no_law_and_any_authority(settings, make_property):
    notice = " ".join(privacy.notice(settings, make_property("FR"), "fr"))
    assert "loi" not in notice.split("Pourquoi")[1].split(".")[0]
    assert "autorité de protection des données" in notice


def test_no_country_is_slotted_into_a_sentence():
    for key in [k for k in i18n.keys() if k.startswith(("privacy.", "page.intro"))]:
        for text in (i18n.text(lang, key) for lang in i18n.LANGUAGES):
            assert "{country}" not in text, key
