"""Spain's municipalities refreshed from INE, which publishes them as a spreadsheet (SES.Hospedajes
serves none): fetched from INE's address (here a loopback double serving INE's file shape), or
INE's file given to `rentalcomply police refresh-codes`; a filing held for a town the shipped
list lacks goes out once INE's list is loaded."""

from __future__ import annotations

import pytest

from rentalcomply import codes
from rentalcomply.core.models import Booking
from rentalcomply.filings import code_refresh, sweep
from tests.conftest import bootstrapped_settings
from tests.police.ine_double import IneDouble, ine_spreadsheet
from tests.police.soap_doubles_es_pt import SesDouble
from tests.police.test_ses_siba_filing import SPANISH_FAMILY, booking_in, poll_later


@pytest.fixture
def ses():
    with SesDouble() as double:
        yield double


@pytest.fixture
def ine():
    with IneDouble() as double:
        yield double


@pytest.fixture
def settings(tmp_path, ses, ine):
    with bootstrapped_settings(tmp_path, RENTALCOMPLY_POLICE_SES_URL=ses.url,
                               RENTALCOMPLY_POLICE_INE_MUNICIPALITIES_URL=ine.url,
                               RENTALCOMPLY_POLICE_TIMEOUT_SECONDS=2,
                               RENTALCOMPLY_SERVER_PUBLIC_URL="https://stay.example.org") as settings:
        yield settings


def test_ines_published_list_is_fetched_and_a_filing_held_for_a_town_it_adds_goes_out(
        owner, account_a, settings, ses, ine):
    party = [dict(SPANISH_FAMILY[0], address_city="Melilla", address_postcode="52001"),
             SPANISH_FAMILY[1]]
    booking = booking_in(owner, account_a, settings, "ES", "ses_hospedajes",
                         {"codigo_arrendador": "0000000042", "codigo_establecimiento": "0000012345"},
                         {"user": "ses-user", "password": "ses-pass"}, party)
    assert "\u201cMelilla\u201d" in Booking.get_by_id(booking.id).report_error  # held, named
    assert code_refresh.refresh_now()["INE"] == ("INE", "refreshed")
    assert ine.requests == ["/daco/daco42/codmun/diccionario26.xlsx"]
    info = codes.table_info("ES", "municipios")
    assert not info.shipped and info.complete and info.rows == 8112
    assert info.source == "INE, diccionario26.xlsx"
    sweep.run_due()
    assert b"<codigoMunicipio>52001</codigoMunicipio>" in ses.received[-1]
    poll_later()
    assert Booking.get_by_id(booking.id).report_status == "SUBMITTED"


def test_an_ine_answer_that_is_not_its_list_or_no_answer_keeps_the_list_in_use(settings, ine):
    ine.status = 404
    assert code_refresh.refresh_now()["INE"] == ("INE", "unreadable")
    ine.status, ine.body = 200, b"<html>Not found</html>"
    assert code_refresh.refresh_now()["INE"] == ("INE", "unreadable")
    ine.status = 503
    assert code_refresh.refresh_now()["INE"] == ("INE", "unreachable")
    ine.down()
    assert code_refresh.refresh_now()["INE"] == ("INE", "unreachable")
    assert codes.table_info("ES", "municipios").shipped  # still the shipped list


def test_no_ine_address_set_fetches_nothing(tmp_path):
    with bootstrapped_settings(tmp_path, RENTALCOMPLY_POLICE_INE_MUNICIPALITIES_URL=""):
        assert code_refresh.refresh_now()["INE"] == ("INE", "not_set")


def test_refresh_codes_takes_ines_spreadsheet_as_published(settings, tmp_path):
    from rentalcomply.codes import es
    path = tmp_path / "diccionario26.xlsx"
    path.write_bytes(ine_spreadsheet())
    assert es.refresh_es_catalogue(path) == {"municipios": 8112}
    assert es.municipality_code("Melilla", "52001") == "52001"
    assert es.municipality_code("Dos Hermanas") == "41038"
