"""The SES.Hospedajes connector through the contract, against a loopback double of the service."""
import datetime as dt

import pytest
import requests
import zeep

from rentalcomply.filings import connector as base
from rentalcomply.filings.connector import (AuthError, FilingRef, Guest, Outcome, PermanentError, Stay,
                                                 TransientError, UncertainError)
from rentalcomply.authorities.ses.connector import CONNECTOR
from rentalcomply.authorities.ses import format as fmt
from tests.police.soap_doubles_es_pt import SesDouble

CREDENTIALS = {"user": "ses-user", "password": "ses-pass"}
STAY = Stay(booking_id="bk_1", reference="BK-2026-0001", arrival=dt.date(2026, 7, 1),
            departure=dt.date(2026, 7, 4), booked_on=dt.date(2026, 5, 20), guest_count=2,
            payment_method="card", property_country="ES", property_name="Casa Azul")
HOLDER = Guest(0, "holder", {
    "first_name": "José", "last_name": "Núñez", "second_last_name": "Peña", "sex": "M",
    "birth_date": dt.date(1980, 3, 14), "nationality": "ES", "document_type": "id_card",
    "document_number": "12345678Z", "document_country": "ES", "document_support_number": "BAA000589",
    "address_street": "Calle Mayor 5", "address_city": "Madrid", "address_postcode": "28013",
    "address_country": "ES", "email": "jose@example.es"})
PARTNER = Guest(1, "traveller", {
    "first_name": "Inés", "last_name": "Gil", "second_last_name": "Sanz", "sex": "F",
    "birth_date": dt.date(1982, 6, 1), "nationality": "ES", "document_type": "id_card",
    "document_number": "87654321X", "document_country": "ES", "document_support_number": "CAB123456",
    "address_street": "Calle Luna 2", "address_city": "Madrid", "address_postcode": "28004",
    "address_country": "ES", "phone": "+34 611 222 333"})
ARRIVAL = FilingRef(id="pf_1", kind="arrival", attempt=1, remote_id=None)


@pytest.fixture
def service():
    with SesDouble(**CREDENTIALS) as double:
        yield double


def settings(double):
    return {"codigo_arrendador": "0000000042", "codigo_establecimiento": "0000012345",
            "endpoint_url": double.url}


def submit(double, guests=(HOLDER, PARTNER), filing=ARRIVAL, credentials=CREDENTIALS, timeout=5):
    return CONNECTOR.submit(credentials, settings(double), STAY, list(guests), filing, timeout)


def poll(double, outcome, timeout=5):
    return CONNECTOR.poll(CREDENTIALS, settings(double),
                          FilingRef(id="pf_1", kind="arrival", attempt=1, remote_id=outcome.remote_id), timeout)


def test_an_accepted_report_is_pending_with_its_batch_then_submitted_with_its_communication_code(service):
    service.pending_polls = 1
    queued = submit(service)
    assert queued.state == "pending" and queued.remote_id and queued.poll_after_seconds > 0
    assert service.headers_seen == [{"codigoArrendador": "0000000042", "aplicacion": "RentalComply",
                                      "tipoOperacion": "A", "tipoComunicacion": "PV"}]
    assert service.received == [fmt.build_traveller_report(settings(service), STAY, [HOLDER, PARTNER])]
    assert poll(service, queued).state == "pending"       # still being processed
    done = poll(service, queued)
    assert done.state == "submitted"
    assert done.guests == [base.GuestOutcome(0, True), base.GuestOutcome(1, True)]
    assert done.reference == service.batches[queued.reference]["code"]


def test_one_refused_person_carries_the_authoritys_reason(service):
    service.refuse_person = 2
    outcome = poll(service, submit(service))
    assert outcome.state == "rejected"
    assert outcome.guests == [
        base.GuestOutcome(index=0, accepted=False, code=None,
                          message="not recorded: SES refused the communication for another guest's data"),
        base.GuestOutcome(index=1, accepted=False, code="DATOS",
                          message="Error en la persona 2: el número de soporte no es válido")]


def test_in_a_re_filing_of_part_of_the_party_persona_1_is_the_first_guest_sent(service):
    service.refuse_person = 1
    on_her_own = Guest(1, "traveller", dict(PARTNER.data, address_street="Calle Luna 2", address_city="Sevilla",
                                            address_postcode="41001", address_country="ES", phone="+34 611 222 333"))
    queued = submit(service, guests=(on_her_own,))
    assert queued.remote_id.endswith(";1")
    assert [(g.index, g.code) for g in poll(service, queued).guests] == [(1, "DATOS")]


def test_the_remote_id_keeps_the_guests_sent_in_runs():
    from rentalcomply.authorities.ses.connector import _parse_remote_id, _remote_id

    lote = "4b0e4b8a-7c1f-4f5e-9f0e-1f0c2d3e4a5b"
    assert _remote_id(lote, list(range(40)) + [42]) == lote + ";0-39,42"
    assert _parse_remote_id(lote + ";0-39,42") == (lote, list(range(40)) + [42])
    assert _parse_remote_id(lote) == (lote, [])


def test_a_refusal_naming_nobody_refuses_the_whole_filing(service):
    service.refuse_without_person = True
    with pytest.raises(PermanentError, match="No existe un establecimiento"):
        poll(service, submit(service))


def test_a_guest_the_service_would_refuse_is_refused_before_sending(service):
    incomplete = Guest(1, "traveller", dict(PARTNER.data, document_support_number=None))
    outcome = submit(service, guests=(HOLDER, incomplete))
    assert outcome.state == "rejected" and service.requests == 0
    assert [(g.index, g.accepted, g.code) for g in outcome.guests] == [(1, False, "document_support_number")]


def test_the_cancellation_is_its_own_communication_with_operation_b(service):
    accepted = poll(service, submit(service))
    cancel = FilingRef(id="pf_2", kind="cancellation", attempt=1, remote_id=accepted.reference)
    queued = submit(service, filing=cancel)
    assert service.headers_seen[-1] == {"codigoArrendador": "0000000042", "aplicacion": "RentalComply",
                                        "tipoOperacion": "B"}
    assert accepted.reference.encode() in service.received[-1]
    assert poll(service, queued).state == "submitted"


def test_wrong_credentials_are_an_auth_error_not_a_retry(service):
    with pytest.raises(AuthError, match="HTTP 401"):
        submit(service, credentials={"user": "ses-user", "password": "wrong"})
    with pytest.raises(AuthError):
        submit(service, credentials={})


def test_a_soap_fault_about_the_credentials_is_an_auth_error(service):
    service.fault_auth = True
    with pytest.raises(AuthError, match="credenciales"):
        submit(service)


def test_a_user_or_password_code_in_the_answer_is_an_auth_error(service):
    service.return_code = 10107
    with pytest.raises(AuthError, match="10107"):
        submit(service)
    service.return_code = 10121
    with pytest.raises(PermanentError, match="10121"):
        submit(service)


def test_the_service_down_then_up_is_retried_and_files_once(service):
    service.down = 1
    with pytest.raises(TransientError, match="503"):
        submit(service)
    queued = submit(service)
    assert len(service.received) == 1 and poll(service, queued).state == "submitted"


def test_a_service_that_does_not_answer_in_time_is_a_transient_error_never_retried_when_sending(service):
    service.delay = 1.5
    with pytest.raises(UncertainError, match="in time"):   # a TransientError the filing never retries
        submit(service, timeout=0.5)
    queued = Outcome(state="pending", remote_id="lote-1;0")
    with pytest.raises(TransientError, match="in time") as caught:   # asking again is harmless
        poll(service, queued, timeout=0.5)
    assert not isinstance(caught.value, UncertainError)


def test_nothing_listens_is_a_transient_error(service):
    s = dict(settings(service), endpoint_url="http://127.0.0.1:9/hospedajes")
    with pytest.raises(TransientError):
        CONNECTOR.submit(CREDENTIALS, s, STAY, [HOLDER], ARRIVAL, 2)


def test_the_file_for_upload_is_the_checked_xml(service):
    name, content_type, body = CONNECTOR.build_file(settings(service), STAY, [HOLDER, PARTNER], ARRIVAL)
    assert (name, content_type) == ("parte-viajeros-BK-2026-0001.xml", "application/xml")
    fmt.validate(body)


def test_the_double_serves_the_wsdl_the_connector_ships(service):
    client = zeep.Client(service.url + "?wsdl", transport=zeep.transports.Transport(session=requests.Session()))
    operations = client.wsdl.bindings[f"{{{SesDouble.NS}}}ComunicacionPortSoap11"]._operations
    assert {"comunicacion", "consultaLote", "catalogo"} <= set(operations)


def test_a_code_list_is_fetched_from_the_catalogo_operation_and_refreshes_the_catalogue(service, tmp_path):
    from rentalcomply.codes import es

    service.catalogues["TIPO_PAGO"] = {"EFECT": "Efectivo", "TARJT": "Tarjeta", "OTRO": "Otros"}
    table = CONNECTOR.fetch_catalogue(CREDENTIALS, settings(service), "TIPO_PAGO", 5)
    assert table == {"EFECT": "Efectivo", "TARJT": "Tarjeta", "OTRO": "Otros"}
    refreshed = es.with_section("tipo_pago", table, base={**es.shipped(), "from_checkin": {}})
    assert refreshed["tipo_pago"] == table
    with pytest.raises(PermanentError, match="10130"):
        CONNECTOR.fetch_catalogue(CREDENTIALS, settings(service), "NO_SUCH_LIST", 5)


def test_the_reservation_is_sent_as_rh(service):
    queued = submit(service, guests=[HOLDER], filing=FilingRef(id="pf_3", kind="reservation", attempt=1, remote_id=None))
    assert service.headers_seen[-1]["tipoComunicacion"] == "RH"
    assert b"<rol>TI</rol>" in service.received[-1]
    assert poll(service, queued).state == "submitted"
