"""ROSS 1000's web service (authorities/ross1000/service.py) against its loopback double, which
speaks the published `inviaMovimentazione` and validates what it receives against checkin.xsd:
accepted, one guest refused with a reason then corrected and re-sent with the same idswh, the
credentials refused, server errors, a timeout."""

from __future__ import annotations

import dataclasses
import datetime as dt

import pytest
from lxml import etree

from rentalcomply.authorities.ross1000 import service, xmlfile
from rentalcomply.authorities.ross1000.movement import (
    FAMILY_HEAD, FAMILY_MEMBER, ITALY, SINGLE, Guest, MonthInput, Stay,
)
from rentalcomply.filings.connector import AuthError, PermanentError, TransientError
from tests.authorities.ross1000_double import PASSWORD, USER

D = dt.date
ROME = "412058091"
GERMANY = "100000216"


def person(idswh, kind=SINGLE, head="", born=D(1980, 5, 1), country=ITALY):
    italian = country == ITALY
    return Guest(idswh=idswh, guest_type=kind, sex="F", birth_date=born, citizenship=country,
                 residence_country=country, residence_place=ROME if italian else "Berlin",
                 residence_province="RM" if italian else "", surname="Rossi", name="Anna",
                 birth_country=country, head_idswh=head)


def month(*stays: Stay) -> MonthInput:
    return MonthInput(structure_code="042", year=2026, month=6, rooms_available=2,
                      beds_available=4, stays=stays, closed_days=frozenset({D(2026, 6, 30)}))


FAMILY = Stay(D(2026, 6, 3), D(2026, 6, 6), (person("fam-1", FAMILY_HEAD),
                                              person("fam-2", FAMILY_MEMBER, head="fam-1",
                                                     born=D(2016, 1, 1))))
VISITOR = Stay(D(2026, 6, 10), D(2026, 6, 12), (person("de-1", country=GERMANY),))
# Arrives in May, leaves on 2 June: only its departure is in June's file.
FROM_MAY = Stay(D(2026, 5, 30), D(2026, 6, 2), (person("may-1"),))


def send(double, xml, **overrides):
    arguments = dict(endpoint=double.url, username=USER, password=PASSWORD, xml=xml, timeout=2)
    arguments.update(overrides)
    return service.send_month(**arguments)


def test_an_accepted_month_answers_each_record(ross1000_double):
    xml = xmlfile.build(month(FAMILY, VISITOR, FROM_MAY))
    results = send(ross1000_double, xml)
    assert [(r.idswh, r.kind, r.accepted, r.error) for r in results] == [
        ("may-1", "partenza", True, ""),
        ("fam-1", "arrivo", True, ""), ("fam-2", "arrivo", True, ""),
        ("fam-1", "partenza", True, ""), ("fam-2", "partenza", True, ""),
        ("de-1", "arrivo", True, ""), ("de-1", "partenza", True, "")]
    # What arrived is the month's file, whole: 30 days, the closed one, the structure's code.
    received = ross1000_double.received[-1]
    assert received.findtext("codice") == "042"
    assert len(received.findall("movimento")) == 30
    assert received.find("movimento[30]/struttura/apertura").text == "NO"
    assert etree.tostring(received) == etree.tostring(etree.fromstring(xml))


def test_the_request_is_the_published_envelope():
    xml = xmlfile.build(month(VISITOR))
    root = etree.fromstring(service.envelope(xml))
    assert root.tag == f"{{{service.SOAP_ENV}}}Envelope"
    call = root.find(f"{{{service.SOAP_ENV}}}Body")[0]
    assert call.tag == f"{{{service.NAMESPACE}}}inviaMovimentazione"
    # movimentazione and everything under it unqualified, as the schema's elementFormDefault.
    assert [child.tag for child in call] == ["movimentazione"]
    assert all(etree.QName(node).namespace is None for node in call.iter() if node is not call)
    with pytest.raises(PermanentError, match="not <movimenti>"):
        service.envelope(b"<other/>")


def test_a_refused_guest_is_named_with_the_reason_then_resent_with_the_same_idswh(ross1000_double):
    ross1000_double.refuse["de-1"] = "Luogo di residenza non valido"
    results = send(ross1000_double, xmlfile.build(month(FAMILY, VISITOR)))
    refused = service.refused(results)
    assert [(r.idswh, r.kind, r.error) for r in refused] == [
        ("de-1", "arrivo", "Luogo di residenza non valido"),
        ("de-1", "partenza", "Luogo di residenza non valido")]
    assert all(r.accepted for r in results if r.idswh != "de-1")
    assert [(r.idswh, r.accepted) for r in service.by_guest(results)] == [
        ("fam-1", True), ("fam-2", True), ("de-1", False)]

    # The host corrects the guest's place; the same month goes again, the guest keeps its idswh.
    del ross1000_double.refuse["de-1"]
    corrected = Stay(VISITOR.arrival, VISITOR.departure,
                     (dataclasses.replace(VISITOR.guests[0], residence_place="DE300"),))
    again = send(ross1000_double, xmlfile.build(month(FAMILY, corrected)))
    assert service.refused(again) == []
    arrival = ross1000_double.received[-1].find("movimento[10]/arrivi/arrivo")
    assert (arrival.findtext("idswh"), arrival.findtext("luogoresidenza")) == ("de-1", "DE300")


def test_refused_credentials_are_an_auth_error(ross1000_double):
    with pytest.raises(AuthError, match="refused the transmission credentials .HTTP 401"):
        send(ross1000_double, xmlfile.build(month(VISITOR)), password="wrong")
    ross1000_double.refuse_credentials()
    with pytest.raises(AuthError, match="HTTP 401"):
        send(ross1000_double, xmlfile.build(month(VISITOR)))
    with pytest.raises(AuthError, match="not both set"):
        send(ross1000_double, xmlfile.build(month(VISITOR)), username="")


@pytest.mark.parametrize("status", [500, 502, 503])
def test_a_server_error_is_transient(ross1000_double, status):
    ross1000_double.status = status
    with pytest.raises(TransientError, match=f"HTTP {status}"):
        send(ross1000_double, xmlfile.build(month(VISITOR)))


def test_soap_faults_server_transient_client_permanent(ross1000_double):
    ross1000_double.fault = "Server"
    with pytest.raises(TransientError, match="Errore interno"):
        send(ross1000_double, xmlfile.build(month(VISITOR)))
    ross1000_double.fault = "Client"
    with pytest.raises(PermanentError, match="refused the month: Errore interno"):
        send(ross1000_double, xmlfile.build(month(VISITOR)))


def test_a_month_the_service_cannot_read_is_refused_permanently(ross1000_double):
    # A movimento without its struttura's four counts: the double's schema check refuses it.
    broken = (b'<?xml version="1.0"?><movimenti><codice>042</codice><prodotto>x</prodotto>'
              b"<movimento><data>20260601</data><struttura><apertura>SI</apertura></struttura>"
              b"</movimento></movimenti>")
    with pytest.raises(PermanentError, match="Movimentazione non valida"):
        send(ross1000_double, broken)


def test_a_timeout_is_transient(ross1000_double):
    ross1000_double.delay = 1.5
    with pytest.raises(TransientError, match="did not answer in time"):
        send(ross1000_double, xmlfile.build(month(VISITOR)), timeout=0.5)


def test_a_service_that_is_down_is_transient(ross1000_double):
    ross1000_double.down()
    with pytest.raises(TransientError, match="cannot be reached"):
        send(ross1000_double, xmlfile.build(month(VISITOR)))


def test_an_answer_that_is_not_the_operations_is_permanent():
    with pytest.raises(PermanentError, match="not XML"):
        service.read_answer(200, b"<html")
    with pytest.raises(PermanentError, match="without an inviaMovimentazioneResponse"):
        service.read_answer(200, f'<S:Envelope xmlns:S="{service.SOAP_ENV}"><S:Body/>'
                                 "</S:Envelope>".encode())
    with pytest.raises(PermanentError, match="without its idswh"):
        service.read_answer(200, (
            f'<S:Envelope xmlns:S="{service.SOAP_ENV}"><S:Body><n:inviaMovimentazioneResponse '
            f'xmlns:n="{service.NAMESPACE}"><return><risultatiGiorno><arrivi><arrivo><idswh>a'
            "</idswh></arrivo></arrivi></risultatiGiorno></return></n:inviaMovimentazioneResponse>"
            "</S:Body></S:Envelope>").encode())


def test_corrections_are_read_under_the_schemas_retifiche_spelling():
    answer = (f'<S:Envelope xmlns:S="{service.SOAP_ENV}"><S:Body><n:inviaMovimentazioneResponse '
              f'xmlns:n="{service.NAMESPACE}"><return><risultatiGiorno><retifiche><eliminazione>'
              "<idswh>x-1</idswh><successo>false</successo><errore>Arrivo inesistente</errore>"
              "</eliminazione></retifiche></risultatiGiorno><risultatiGiorno/></return>"
              "</n:inviaMovimentazioneResponse></S:Body></S:Envelope>").encode()
    assert service.read_answer(200, answer) == [
        service.GuestResult("x-1", "eliminazione", False, "Arrivo inesistente")]


def test_the_thirty_stay_month_through_the_double(ross1000_double):
    """Issue 37's month (tests/authorities/test_ross1000.py: Italians of three provinces,
    foreigners of five countries, a family, a stay across the month's end, a cancelled one, a
    closed day) as the service receives and answers it."""
    from tests.authorities.test_ross1000 import MONTH

    results = send(ross1000_double, xmlfile.build(MONTH))
    kinds = [r.kind for r in results]
    assert (kinds.count("arrivo"), kinds.count("partenza")) == (31, 30)
    assert all(r.accepted for r in results)
    assert "S30" not in {r.idswh for r in results}  # the cancelled stay reports nothing
    assert len(ross1000_double.received[-1].findall("movimento")) == 30
