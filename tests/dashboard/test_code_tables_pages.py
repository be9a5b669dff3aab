"""The police code tables on the account's page: what is in use (source, date, rows) on a fresh
install, and "Refresh code tables", answered by the Alloggiati Web and SES.Hospedajes doubles on
loopback speaking their SOAP protocols, with a sentence per country in English and Greek."""

from __future__ import annotations

import pytest

from rentalcomply import codes
from rentalcomply.authorities.alloggiati.connector import CONNECTOR
from rentalcomply.core.activity import Activity
from rentalcomply.dashboard import users
from rentalcomply.properties import service as properties
from tests.conftest import bootstrapped_settings
from tests.dashboard.conftest import DASHBOARD_ENV
from tests.police.conftest import CREDENTIALS
from tests.police.soap_double import AlloggiatiDouble
from tests.police.ine_double import IneDouble
from tests.police.soap_doubles_es_pt import SesDouble


@pytest.fixture
def double():
    service = AlloggiatiDouble()
    CONNECTOR.forget_tokens()
    yield service
    service.down()
    CONNECTOR.forget_tokens()


@pytest.fixture
def ses():
    with SesDouble() as service:
        yield service


@pytest.fixture
def ine():
    with IneDouble() as service:
        yield service


@pytest.fixture
def settings(tmp_path, mail_server, double, ses, ine):
    with bootstrapped_settings(tmp_path, **DASHBOARD_ENV, **mail_server.env,
                               RENTALCOMPLY_POLICE_ALLOGGIATI_URL=double.url,
                               RENTALCOMPLY_POLICE_SES_URL=ses.url,
                               RENTALCOMPLY_POLICE_INE_MUNICIPALITIES_URL=ine.url,
                               RENTALCOMPLY_POLICE_TIMEOUT_SECONDS=2) as settings:
        users.configure(settings)
        users.forget_failures()
        yield settings
        users.forget_failures()


def refresh(browser, lang="en"):
    page = browser.get(f"/dashboard/settings/account?lang={lang}")
    answer = browser.post("/dashboard/settings/account/code-tables",
                          {"csrf": browser.csrf(page)}, status=303)
    assert answer.location.endswith("#code-tables")
    return answer.follow().text


def test_a_fresh_install_shows_the_shipped_tables_with_their_source_date_and_rows(anna):
    text = anna.get("/dashboard/settings/account").text
    section = text[text.index('id="code-tables"'):]
    assert "comuni: 11,284 rows, Alloggiati Web, the portal&#039;s Tabelle page (shipped with " \
           "rentalcomply), published 2025-04" in section
    assert "municipios: 8,111 rows, INE, Relación de municipios" in section
    assert "lacks a few municipalities" in section and "Refresh code tables" in section


def test_refresh_code_tables_says_per_country_what_each_authority_answered(
        anna, owner, account_a, double, ses, ine):
    ine.status = 503
    text = refresh(anna)
    assert "Spain’s municipalities: not refreshed: INE did not answer." in text
    assert "Italy: not refreshed: no property files with Alloggiati Web with its credentials " \
           "yet." in text
    assert "Spain: not refreshed: no property files with SES.Hospedajes" in text
    assert double.calls == []

    prop = properties.create_property(account_a, name="Casa Limone", address="Via Roma 1",
                                      country="IT", timezone="Europe/Rome")
    owner.patch_json(f"/api/v1/properties/{prop.id}",
                     {"police_connector": "alloggiati", "police_credentials": CREDENTIALS})
    ine.status = 200
    text = refresh(anna)
    assert "Italy: refreshed from Alloggiati Web." in text
    assert "Spain’s municipalities: refreshed from INE." in text
    assert "municipios: 8,112 rows, INE, diccionario26.xlsx, loaded " in text
    assert "lacks a few municipalities" not in text  # INE's whole list now
    assert "Tabella" in double.calls
    comuni = codes.table_info("IT", "comuni")
    assert not comuni.shipped and comuni.rows == 11284
    assert "comuni: 11,284 rows, Alloggiati Web, operation Tabella, loaded " in text
    assert [a.action for a in Activity.select()].count("account.code_tables_refreshed") == 2

    ses.catalogues.update({
        "TIPO_DOCUMENTO": {"NIF": "NIF", "NIE": "NIE", "PAS": "Pasaporte", "OTRO": "Otro"},
        "SEXO": {"H": "Hombre", "M": "Mujer", "O": "Otro"},
        "PARENTESCO": {"PM": "Padre o madre", "TU": "Tutor/a", "AB": "Abuelo/a", "HR": "Hermano/a",
                       "OT": "Otro", "CY": "Cónyuge"},
        "TIPO_PAGO": {"EFECT": "Efectivo", "TARJT": "Tarjeta", "PLATF": "Plataforma",
                      "TRANS": "Transferencia", "OTRO": "Otros"}})
    casa = properties.create_property(account_a, name="Casa Sol", address="Calle 1",
                                      country="ES", timezone="Europe/Madrid")
    owner.patch_json(f"/api/v1/properties/{casa.id}", {
        "police_connector": "ses_hospedajes",
        "police_settings": {"codigo_arrendador": "0000000042",
                            "codigo_establecimiento": "0000012345"},
        "police_credentials": {"user": "ses-user", "password": "ses-pass"}})
    greek = refresh(anna, lang="el")
    assert "Ιταλία: ανανεώθηκαν από το Alloggiati Web." in greek
    assert "Ισπανία: ανανεώθηκαν από το SES.Hospedajes." in greek
    assert codes.table_info("ES", "parentesco").rows == 6
    assert codes.table_info("ES", "municipios").source == "INE, diccionario26.xlsx"  # not SES
    assert "Δήμοι της Ισπανίας: ανανεώθηκαν από το INE." in greek
    assert "Ανανέωση πινάκων κωδικών" in greek

    double.down()
    text = refresh(anna, lang="en")
    assert "Italy: not refreshed: Alloggiati Web did not answer. The tables in use stay" in text
    assert codes.table_info("IT", "comuni").version == 2  # kept as loaded
