"""Spain's reservation (RH): filed within 24 hours of the booking, its numPersonas the persons it
carries, amended when the dates change and cancelled with the booking, against the SES double,
through the real worker code (police tasks and the after-commit hook) on a stepped clock."""
import datetime as dt

import pytest
from lxml import etree

from rentalcomply.core import clock
from rentalcomply.core.models import Event
from rentalcomply.authorities.ses import reservations
from rentalcomply.core.models import Booking
from rentalcomply.filings import deadlines, tasks
from rentalcomply.authorities.ses import format as ses_format
from rentalcomply.filings.models import Filing
from rentalcomply.properties import service as properties
from tests.conftest import bootstrapped_settings
from tests.police.soap_doubles_es_pt import SesDouble


@pytest.fixture
def ses():
    with SesDouble() as double:
        yield double


@pytest.fixture
def settings(tmp_path, ses):
    with bootstrapped_settings(tmp_path, RENTALCOMPLY_POLICE_SES_URL=ses.url,
                               RENTALCOMPLY_POLICE_TIMEOUT_SECONDS=2) as settings:
        tasks.configure(settings)
        yield settings


@pytest.fixture
def spanish_property(owner, settings):
    prop = properties.create_property(owner.account_id, name="Casa del Mar", address="Calle 1",
                                      country="ES", timezone="Europe/Madrid", max_guests=4)
    owner.patch_json(f"/api/v1/properties/{prop.id}", {
        "police_connector": "ses_hospedajes",
        "police_settings": {"codigo_arrendador": "0000000042", "codigo_establecimiento": "0000012345"},
        "police_credentials": {"user": "ses-user", "password": "ses-pass"}})
    return prop


def book(owner, prop, guest_name="Ortega Ruiz, Ana", arrival_in=30, nights=3, guests=3):
    arrival = clock.today() + dt.timedelta(days=arrival_in)
    return owner.post_json("/api/v1/bookings", {
        "property_id": prop.id, "guest_name": guest_name, "guest_email": "ana@example.org",
        "arrival_date": arrival.isoformat(),
        "departure_date": (arrival + dt.timedelta(days=nights)).isoformat(),
        "guest_count": guests}, status=201).json["data"]


def row(booking_id, kind="reservation"):
    return Filing.get((Filing.booking == booking_id) & (Filing.kind == kind))


def sent(ses):
    return [h.get("tipoComunicacion") or h["tipoOperacion"] for h in ses.headers_seen]


def later(minutes=3):
    clock.travel(dt.timedelta(minutes=minutes))
    tasks.run_due.call_local()


def test_a_booking_files_its_reservation_at_once_and_ses_accepts_it_within_24_hours(
        owner, spanish_property, ses):
    booking = book(owner, spanish_property)
    filing = row(booking["id"])
    created = clock.utcnow()
    assert filing.deadline == filing.created_at + dt.timedelta(hours=24)
    # booking.created woke the worker: sent at once, before any check-in.
    assert sent(ses) == ["RH"] and filing.status == "polling"
    xml = etree.fromstring(ses.received[-1])
    ses_format.validate(ses.received[-1])
    persons = xml.findall(".//persona")
    assert xml.findtext(".//numPersonas") == str(len(persons)) == "1"  # not the 3 booked
    assert [p.findtext("rol") for p in persons] == ["TI"]
    assert persons[0].findtext("nombre") == "Ana" and persons[0].findtext("apellido1") == "Ortega Ruiz"
    assert persons[0].findtext("correo") == "ana@example.org"
    later()
    filing = row(booking["id"])
    assert filing.status == "submitted" and filing.reference
    assert filing.submitted_at - created < dt.timedelta(hours=24)
    police = owner.get(f"/api/v1/bookings/{booking['id']}/police").json["data"]
    assert police["report_status"] == "PENDING"  # the traveller report waits for the check-in
    assert [f["kind"] for f in police["filings"]] == ["reservation"]
    later()
    assert sent(ses) == ["RH"]  # filed once


def test_a_name_that_cannot_be_split_for_sure_holds_the_reservation_and_warns_before_its_deadline(
        owner, spanish_property, ses):
    booking = book(owner, spanish_property, guest_name="Ana María Ortega")
    filing = row(booking["id"])
    assert filing.status == "waiting" and "Surname(s), First name(s)" in filing.error
    assert ses.received == []
    clock.travel(dt.timedelta(hours=18, minutes=1))
    tasks.run_due.call_local()
    at_risk = [e for e in Event.select() if e.type == "police.at_risk"]
    assert len(at_risk) == 1 and at_risk[0].data["police"]["kind"] == "reservation"
    owner.patch_json(f"/api/v1/bookings/{booking['id']}", {"guest_name": "Ortega, Ana María"})
    assert sent(ses) == ["RH"]  # the host named the surname: filed at once
    persona = etree.fromstring(ses.received[-1]).find(".//persona")
    assert persona.findtext("nombre") == "Ana María" and persona.findtext("apellido1") == "Ortega"


def test_a_cancelled_booking_cancels_its_accepted_reservation_by_its_code(owner, spanish_property, ses):
    booking = book(owner, spanish_property)
    later()
    code = row(booking["id"]).reference
    owner.post_json(f"/api/v1/bookings/{booking['id']}/cancel", {})
    assert sent(ses) == ["RH", "B"]
    assert f"<anul:codigoComunicacion>{code}</anul:codigoComunicacion>".encode() in ses.received[-1]
    later()
    cancellation = row(booking["id"], "cancellation")
    assert cancellation.status == "submitted"
    assert cancellation.deadline <= clock.utcnow() + dt.timedelta(hours=24)
    later()
    assert sent(ses) == ["RH", "B"]


def test_new_dates_cancel_the_accepted_reservation_then_file_it_again_with_them(
        owner, spanish_property, ses):
    booking = book(owner, spanish_property)
    later()
    old_code = row(booking["id"]).reference
    arrival = dt.date.fromisoformat(booking["arrival_date"]) + dt.timedelta(days=7)
    owner.patch_json(f"/api/v1/bookings/{booking['id']}", {
        "arrival_date": arrival.isoformat(),
        "departure_date": (arrival + dt.timedelta(days=2)).isoformat()})
    assert sent(ses) == ["RH", "B"]
    assert f"<anul:codigoComunicacion>{old_code}</anul:codigoComunicacion>".encode() in ses.received[-1]
    later()  # the cancellation accepted: the reservation goes again, with the new dates
    assert sent(ses) == ["RH", "B", "RH"]
    assert f"<fechaEntrada>{arrival.isoformat()}T00:00:00</fechaEntrada>".encode() in ses.received[-1]
    later()
    filing = row(booking["id"])
    assert filing.status == "submitted" and filing.reference != old_code
    assert row(booking["id"], "rh_cancellation").status == "submitted"
    later()
    assert sent(ses) == ["RH", "B", "RH"]


def test_a_property_filing_with_another_connector_makes_no_reservation(owner, settings, ses):
    prop = properties.create_property(owner.account_id, name="Casa", address="Calle 2", country="ES",
                                      timezone="Europe/Madrid", max_guests=4)
    booking = book(owner, prop)
    assert not Filing.select().where(Filing.booking == booking["id"]).exists()
    assert reservations.reservations_waiting() is False and ses.received == []


def test_a_refused_reservation_shows_on_the_booking_and_is_filed_again_before_any_check_in(
        owner, spanish_property, ses):
    ses.return_code = 10121  # a refusal no retry mends
    booking = book(owner, spanish_property)
    shown = owner.get(f"/api/v1/bookings/{booking['id']}").json["data"]
    assert shown["report_status"] == "REJECTED" and "10121" in shown["report_error"]
    assert [e.data["police"]["kind"] for e in Event.select() if e.type == "police.rejected"] == \
        ["reservation"]
    ses.return_code = 0
    owner.post_json(f"/api/v1/bookings/{booking['id']}/police/refile", {})
    later()
    assert row(booking["id"]).status == "submitted"
    shown = owner.get(f"/api/v1/bookings/{booking['id']}").json["data"]
    assert shown["report_status"] == "PENDING" and shown["report_error"] is None


def test_a_refused_reservation_does_not_silence_the_arrivals_warning(owner, spanish_property, ses):
    ses.return_code = 10121
    booking = book(owner, spanish_property, arrival_in=0)
    assert owner.get(f"/api/v1/bookings/{booking['id']}").json["data"]["report_status"] == "REJECTED"
    due = deadlines.deadline(spanish_property, Booking.get_by_id(booking["id"]))
    clock.travel(due - clock.utcnow() - dt.timedelta(hours=5))
    tasks.run_due.call_local()
    at_risk = [e.data["police"]["kind"] for e in Event.select() if e.type == "police.at_risk"]
    assert "arrival" in at_risk  # no check-in yet: the traveller report is at risk
