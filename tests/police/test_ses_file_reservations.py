"""Spain on the `file` connector: the reservation communication (RH) is built too, for the host to
upload within 24 hours of the booking (the channel's booking time where known), valid against the
published schema, warned about before its deadline; marked filed, and its cancellation file built
once the booking is cancelled."""
import datetime as dt

import pytest

from rentalcomply.authorities.ses import format as ses_format
from rentalcomply.bookings import service as bookings
from rentalcomply.bookings.fees import FeeRates
from rentalcomply.core import clock
from rentalcomply.core.models import Event
from rentalcomply.filings import sweep
from rentalcomply.filings.models import Filing
from rentalcomply.properties import service as properties
from tests.conftest import bootstrapped_settings
from tests.police.test_file_connector import path_of


@pytest.fixture
def settings(tmp_path):
    with bootstrapped_settings(tmp_path, RENTALCOMPLY_SERVER_PUBLIC_URL="https://stay.example.org") \
            as settings:
        yield settings


@pytest.fixture
def file_host(owner, settings):
    prop = properties.create_property(owner.account_id, name="Casa del Mar", address="Calle 1",
                                      country="ES", timezone="Europe/Madrid", max_guests=4)
    owner.patch_json(f"/api/v1/properties/{prop.id}", {
        "police_connector": "file",
        "police_settings": {"codigo_arrendador": "0000000042",
                            "codigo_establecimiento": "0000012345"}})
    return prop


def reservation(booking_id, kind="reservation"):
    return Filing.get((Filing.booking == booking_id) & (Filing.kind == kind))


def downloaded(owner, anonymous, booking_id, kind):
    link = owner.get(f"/api/v1/bookings/{booking_id}/police/file?kind={kind}").json["data"]
    return link["filename"], anonymous.get(path_of(link["download_url"])).body


def test_a_file_hosts_booking_gets_its_reservation_file_due_24_hours_after_the_booking(
        frozen_clock, owner, anonymous, account_a, settings, file_host):
    booked_at = clock.utcnow() - dt.timedelta(hours=3)  # the channel's booking, imported later
    arrival = clock.today() + dt.timedelta(days=20)
    booking = bookings.create_booking(
        account_a, rates=FeeRates.from_settings(settings), property_id=file_host.id,
        guest_name="Ortega Ruiz, Ana", guest_email="ana@example.org", arrival_date=arrival,
        departure_date=arrival + dt.timedelta(days=3), guest_count=2, channel="booking",
        source=None, external_ref="4711", booked_at=booked_at)
    row = reservation(booking.id)
    assert (row.authority, row.deadline) == ("file", booked_at + dt.timedelta(hours=24))
    sweep.run_due()
    row = reservation(booking.id)
    assert row.status == "ready" and row.file_name == "reserva-hospedaje-4711.xml"
    name, xml = downloaded(owner, anonymous, booking.id, "reservation")
    ses_format.validate(xml)  # against the published schema shipped in authorities/ses/xsd
    assert b"<rol>TI</rol>" in xml and b"<nombre>Ana</nombre>" in xml
    # Not uploaded 6 hours before the deadline: announced at risk, like every filing.
    clock.travel(booked_at + dt.timedelta(hours=19) - clock.utcnow())
    sweep.run_due()
    assert [e.type for e in Event.select() if e.type == "police.at_risk"] == ["police.at_risk"]
    # The host uploads it, and types the code SES.Hospedajes gave it.
    owner.post_json(f"/api/v1/filings/{row.id}/filed", {"reference": "RH-000123"})
    assert reservation(booking.id).status == "submitted"
    # Cancelled: the cancellation file names that code.
    owner.post_json(f"/api/v1/bookings/{booking.id}/cancel", {})
    sweep.run_due()
    cancel = reservation(booking.id, "cancellation")
    assert (cancel.authority, cancel.status) == ("file", "ready")
    assert cancel.deadline <= clock.utcnow() + dt.timedelta(hours=24)
    name, xml = downloaded(owner, anonymous, booking.id, "cancellation")
    ses_format.validate(xml)
    assert name == "anulacion-4711.xml" and b"RH-000123" in xml


def test_a_catalan_file_host_owes_no_ses_reservation(owner, account_a, settings):
    from rentalcomply.core.models import Property
    prop = properties.create_property(owner.account_id, name="Pis", address="Carrer 1",
                                      country="ES", timezone="Europe/Madrid")
    Property.update(region="ES-CT").where(Property.id == prop.id).execute()
    owner.patch_json(f"/api/v1/properties/{prop.id}", {"police_connector": "file"})
    booking = bookings.create_booking(
        account_a, rates=FeeRates.from_settings(settings), property_id=prop.id,
        guest_name="Puig, Jordi", guest_email="j@example.cat",
        arrival_date=clock.today() + dt.timedelta(days=5),
        departure_date=clock.today() + dt.timedelta(days=7), guest_count=1)
    assert not Filing.select().where(Filing.booking == booking.id).exists()
