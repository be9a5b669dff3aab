"""SIBA: the bulletins' XML byte for byte, its XSD, and the connector against a SOAP 1.2 double."""
import base64
import datetime as dt
import textwrap

import pytest

from rentalcomply.filings.connector import (AuthError, FilingRef, Guest, GuestOutcome, PermanentError,
                                                 Stay, TransientError, UncertainError)
from rentalcomply.authorities.siba.connector import CONNECTOR
from rentalcomply.authorities.siba import format as siba
from rentalcomply.authorities.ses.format import SchemaError
from tests.police.soap_doubles_es_pt import SibaDouble

STAY = Stay(booking_id="bk_9", reference="BK-PT-7", arrival=dt.date(2026, 8, 10),
            departure=dt.date(2026, 8, 14), booked_on=dt.date(2026, 6, 1), guest_count=3,
            payment_method=None, property_country="PT", property_name="Casa do Rio")
GERMAN = Guest(0, "single", {
    "first_name": "Jürgen", "last_name": "Müller", "sex": "M", "birth_date": "1975-02-03",
    "nationality": "DE", "document_type": "passport", "document_number": "C01X00T47",
    "document_country": "DE", "residence_country": "DE", "residence_place": "München"})
PORTUGUESE = Guest(1, "single", {
    "first_name": "João", "last_name": "Conceição", "sex": "M", "birth_date": "1978-05-06",
    "nationality": "PT", "document_type": "id_card", "document_number": "154203556ZZ1",
    "document_country": "PT", "residence_country": "PT", "residence_place": "Porto"})
IRISH = Guest(2, "single", {
    "first_name": "Siobhán", "last_name": "O'Brien", "sex": "F", "birth_date": "1990-10-11",
    "nationality": "IE", "document_type": "id_card", "document_number": "PX1234567",
    "document_country": "IE", "residence_country": "IE", "residence_place": "Dún Laoghaire"})
PARTY = [GERMAN, PORTUGUESE, IRISH]
SETTINGS = {"unidade_hoteleira": "121212121", "estabelecimento": "0", "morada": "Rua da Alegria, 172",
            "localidade": "Porto", "codigo_postal": "4000", "zona_postal": "234"}
ARRIVAL = FilingRef(id="pf_9", kind="arrival", attempt=1, remote_id=None)


def test_the_bulletins_file_each_foreign_guest_and_leave_portuguese_citizens_out():
    expected = textwrap.dedent("""
        <?xml version="1.0" encoding="UTF-8"?>
        <MovimentoBAL xmlns="http://sef.pt/BAws">
          <Unidade_Hoteleira>
            <Codigo_Unidade_Hoteleira>121212121</Codigo_Unidade_Hoteleira>
            <Estabelecimento>0</Estabelecimento>
            <Nome>Casa do Rio</Nome>
            <Abreviatura></Abreviatura>
            <Morada>Rua da Alegria, 172</Morada>
            <Localidade>Porto</Localidade>
            <Codigo_Postal>4000</Codigo_Postal>
            <Zona_Postal>234</Zona_Postal>
            <Telefone></Telefone>
            <Fax></Fax>
            <Nome_Contacto></Nome_Contacto>
            <Email_Contacto></Email_Contacto>
          </Unidade_Hoteleira>
          <Boletim_Alojamento>
            <Apelido>Müller</Apelido>
            <Nome>Jürgen</Nome>
            <Nacionalidade>D</Nacionalidade>
            <Data_Nascimento>1975-02-03T00:00:00</Data_Nascimento>
            <Documento_Identificacao>C01X00T47</Documento_Identificacao>
            <Pais_Emissor_Documento>D</Pais_Emissor_Documento>
            <Tipo_Documento>P</Tipo_Documento>
            <Data_Entrada>2026-08-10T00:00:00</Data_Entrada>
            <Data_Saida>2026-08-14T00:00:00</Data_Saida>
            <Pais_Residencia_Origem>D</Pais_Residencia_Origem>
            <Local_Residencia_Origem>München</Local_Residencia_Origem>
          </Boletim_Alojamento>
          <Boletim_Alojamento>
            <Apelido>O'Brien</Apelido>
            <Nome>Siobhán</Nome>
            <Nacionalidade>IRL</Nacionalidade>
            <Data_Nascimento>1990-10-11T00:00:00</Data_Nascimento>
            <Documento_Identificacao>PX1234567</Documento_Identificacao>
            <Pais_Emissor_Documento>IRL</Pais_Emissor_Documento>
            <Tipo_Documento>B</Tipo_Documento>
            <Data_Entrada>2026-08-10T00:00:00</Data_Entrada>
            <Data_Saida>2026-08-14T00:00:00</Data_Saida>
            <Pais_Residencia_Origem>IRL</Pais_Residencia_Origem>
            <Local_Residencia_Origem>Dún Laoghaire</Local_Residencia_Origem>
          </Boletim_Alojamento>
          <Envio>
            <Numero_Ficheiro>1</Numero_Ficheiro>
            <Data_Movimento>2026-08-10T00:00:00</Data_Movimento>
          </Envio>
        </MovimentoBAL>
    """).lstrip("\n").encode("utf-8")
    assert siba.build_bulletins(SETTINGS, STAY, PARTY) == expected


def test_missing_data_is_named_per_guest():
    broken = Guest(2, "single", dict(IRISH.data, document_number=None, residence_place=None))
    with pytest.raises(siba.SibaDataError) as caught:
        siba.build_bulletins({}, STAY, [GERMAN, broken])
    assert [(p.index, p.field) for p in caught.value.problems] == [
        (None, "unidade_hoteleira"), (None, "estabelecimento"), (2, "document_number"), (2, "residence_place")]


@pytest.mark.parametrize("old, new", [
    (b"<Tipo_Documento>P</Tipo_Documento>", b"<Tipo_Documento>X</Tipo_Documento>"),
    (b"<Data_Entrada>2026-08-10T00:00:00</Data_Entrada>", b"<Data_Entrada>10-08-2026</Data_Entrada>"),
    (b"<Codigo_Unidade_Hoteleira>121212121<", b"<Codigo_Unidade_Hoteleira>1212<"),
    (b"<Nacionalidade>IRL</Nacionalidade>", b"<Nacionalidade>Irl</Nacionalidade>"),
    (b"    <Numero_Ficheiro>1</Numero_Ficheiro>\n", b""),
])
def test_the_xsd_refuses_a_broken_bulletin(old, new):
    good = siba.build_bulletins(SETTINGS, STAY, PARTY)
    siba.validate(good)
    assert old in good
    with pytest.raises(SchemaError):
        siba.validate(good.replace(old, new))


# --- the connector -------------------------------------------------------------------------------

@pytest.fixture
def service():
    with SibaDouble(unit="121212121", establishment=0, key="999999999") as double:
        yield double


def submit(double, guests=PARTY, key="999999999", filing=ARRIVAL, timeout=5):
    return CONNECTOR.submit({"chave_acesso": key}, dict(SETTINGS, endpoint_url=double.url), STAY,
                            list(guests), filing, timeout)


def test_accepted_bulletins_over_soap_12(service):
    outcome = submit(service)
    assert outcome.state == "submitted"
    assert outcome.guests == [GuestOutcome(0, True), GuestOutcome(1, True, "NOT_FILED",
                                                                   "Portuguese citizens are not filed"),
                              GuestOutcome(2, True)]
    assert service.content_types[0].startswith("application/soap+xml")
    assert service.received == [siba.build_bulletins(SETTINGS, STAY, PARTY)]


def test_the_departure_is_its_own_delivery_dated_on_the_departure_day(service):
    submit(service, filing=FilingRef(id="pf_10", kind="departure", attempt=1, remote_id=None))
    assert b"<Data_Movimento>2026-08-14T00:00:00</Data_Movimento>" in service.received[0]


def test_one_refused_line_among_accepted_ones_names_its_guest(service):
    service.refuse_lines = {2: ("15", "Documento de identificação inválido")}
    outcome = submit(service)
    assert outcome.state == "rejected"
    assert [(g.index, g.accepted, g.code) for g in outcome.guests] == [
        (0, True, None), (1, True, "NOT_FILED"), (2, False, "15")]
    assert outcome.guests[2].message == "Documento de identificação inválido"


def test_a_wrong_access_key_is_an_auth_error(service):
    with pytest.raises(AuthError, match="Chave de acesso"):
        submit(service, key="111")
    with pytest.raises(AuthError):
        submit(service, key="")


def test_the_service_down_then_up(service):
    service.down = 1
    with pytest.raises(TransientError):
        submit(service)
    assert submit(service).state == "submitted" and len(service.received) == 1


def test_slow_beyond_the_timeout_is_a_transient_error(service):
    service.delay = 1.5
    with pytest.raises(UncertainError, match="in time"):   # a TransientError never retried
        submit(service, timeout=0.5)
    assert issubclass(UncertainError, TransientError)


def test_a_party_of_portuguese_citizens_sends_nothing(service):
    outcome = submit(service, guests=[PORTUGUESE])
    assert outcome.state == "submitted" and service.requests == 0


def test_a_guest_missing_data_is_refused_before_sending(service):
    outcome = submit(service, guests=[GERMAN, Guest(2, "single", dict(IRISH.data, residence_place=None))])
    assert outcome.state == "rejected" and service.requests == 0
    assert [(g.index, g.code) for g in outcome.guests] == [(2, "residence_place")]


def test_an_answer_that_is_neither_zero_nor_errors_refuses_the_delivery():
    with pytest.raises(PermanentError):
        from rentalcomply.authorities.siba.connector import parse_answer
        parse_answer("Erro inesperado")


def test_the_file_for_upload(service):
    name, content_type, body = CONNECTOR.build_file(SETTINGS, STAY, PARTY, ARRIVAL)
    assert name == "boletins-arrival-BK-PT-7.xml" and content_type == "application/xml"
    assert base64.b64decode(siba.pack(body)) == body


def test_the_module_builds_the_file_for_hosts_who_upload_by_hand():
    departure = FilingRef(id="pf_10", kind="departure", attempt=1, remote_id=None)
    name, _, body = siba.build_file(SETTINGS, STAY, PARTY, departure)
    assert name == "boletins-departure-BK-PT-7.xml"
    assert b"<Data_Movimento>2026-08-14T00:00:00</Data_Movimento>" in body
    with pytest.raises(PermanentError, match="unidade_hoteleira"):
        siba.build_file({}, STAY, PARTY, departure)
