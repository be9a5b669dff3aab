"""The Alloggiati Web connector against the loopback double that speaks the service's protocol."""

import datetime as dt

import pytest

from rentalcomply.authorities.alloggiati.connector import CONNECTOR
from rentalcomply.filings.connector import (AuthError, FilingRef, Guest, Stay, TransientError,
                                                 UncertainError)
from tests.police.conftest import CREDENTIALS
from tests.police.soap_double import AlloggiatiDouble

STAY = Stay(booking_id="book_1", reference="book_1", arrival=dt.date(2026, 7, 10),
            departure=dt.date(2026, 7, 12), booked_on=dt.date(2026, 6, 1), guest_count=3,
            payment_method=None, property_country="IT", property_name="Casa Limone")
FILING = FilingRef(id="pf_1", kind="arrival", attempt=1, remote_id=None)


def single(index, last_name, number):
    return Guest(index=index, role="single", data={
        "first_name": "Ada", "last_name": last_name, "sex": "F", "birth_date": dt.date(1990, 1, 1),
        "birth_country": "FR", "nationality": "FR", "document_type": "passport",
        "document_number": number, "document_country": "FR"})


GUESTS = [single(0, "Uno", "P0000001"), single(1, "Due", "P0000002"), single(2, "Tre", "P0000003")]


@pytest.fixture
def double():
    service = AlloggiatiDouble()
    CONNECTOR.forget_tokens()
    yield service
    service.down()
    CONNECTOR.forget_tokens()


def submit(double, guests=GUESTS, credentials=CREDENTIALS, timeout=2.0):
    return CONNECTOR.submit(credentials, {"endpoint_url": double.url}, STAY, guests, FILING,
                            timeout)


def test_accepted_lines_are_tested_sent_and_their_receipt_kept(double):
    outcome = submit(double)
    assert outcome.state == "submitted"
    assert [(g.index, g.accepted) for g in outcome.guests] == [(0, True), (1, True), (2, True)]
    assert double.calls == ["GenerateToken", "Test", "Send", "Ricevuta"]
    assert [line[14:18] for line in double.sent] == ["UNO ", "DUE ", "TRE "]
    assert outcome.receipt.startswith(b"%PDF") and outcome.receipt_type == "application/pdf"


def test_one_rejected_line_among_accepted_ones_is_not_sent_and_keeps_its_reason(double):
    guests = [GUESTS[0], single(1, "Due", "INVALIDO"), GUESTS[2]]
    outcome = submit(double, guests)
    assert outcome.state == "rejected"
    assert [(g.index, g.accepted, g.code) for g in outcome.guests] == [
        (0, True, None), (1, False, "42"), (2, True, None)]
    assert outcome.guests[1].message == "Numero documento non valido"
    assert len(double.sent) == 2 and all("INVALIDO" not in line for line in double.sent)


def test_refused_credentials_are_an_authentication_failure(double):
    with pytest.raises(AuthError, match="Utente o password non validi"):
        submit(double, credentials={**CREDENTIALS, "password": "wrong"})
    assert double.calls == ["GenerateToken"] and double.sent == []


def test_a_token_is_reused_until_the_service_calls_it_expired_then_renewed(double):
    submit(double, GUESTS[:1])
    submit(double, GUESTS[1:2])
    assert double.calls.count("GenerateToken") == 1
    double.expire_tokens()
    outcome = submit(double, GUESTS[2:])
    assert outcome.state == "submitted"
    assert double.calls.count("GenerateToken") == 2
    assert len(double.sent) == 3


def test_a_token_past_its_expiry_is_renewed_before_use(double):
    from rentalcomply.core import clock
    submit(double, GUESTS[:1])
    clock.travel(dt.timedelta(hours=2))
    try:
        submit(double, GUESTS[1:2])
    finally:
        clock.reset()
    assert double.calls.count("GenerateToken") == 2


def test_a_service_down_is_a_transient_error_then_files_when_up(double):
    double.down()
    with pytest.raises(TransientError, match="cannot be reached"):
        submit(double)
    double.up()
    assert submit(double).state == "submitted"
    assert len(double.sent) == 3


def test_slow_before_sending_is_transient_and_slow_on_send_is_uncertain(double):
    double.delay["Test"] = 1.5
    with pytest.raises(TransientError, match="in time") as slow:
        submit(double, timeout=0.5)
    assert not isinstance(slow.value, UncertainError)
    assert double.sent == []
    double.delay = {"Send": 1.5}
    with pytest.raises(UncertainError, match="receipt"):
        submit(double, timeout=0.5)


def test_the_file_holds_the_same_lines(double):
    name, content_type, data = CONNECTOR.build_file({}, STAY, GUESTS, FILING)
    assert name == "alloggiati-book_1-arrival.txt" and content_type.startswith("text/plain")
    assert data.decode("utf-8").split("\r\n")[:3] == CONNECTOR.lines({}, STAY, GUESTS)


def test_no_envelope_is_logged_even_at_debug_level(double, caplog):
    import logging
    with caplog.at_level(logging.DEBUG):
        submit(double)
    logged = "\n".join(record.getMessage() for record in caplog.records)
    assert "P0000001" not in logged and "segreto" not in logged and "Envelope" not in logged


def test_the_service_address_goes_through_the_network_guard(double):
    from rentalcomply.filings.connector import PermanentError
    with pytest.raises(PermanentError, match="refused"):
        CONNECTOR.submit(CREDENTIALS, {"endpoint_url": "http://224.0.0.1:9/service.asmx"}, STAY,
                         GUESTS, FILING, 1.0)
