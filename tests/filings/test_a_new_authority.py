"""An authority plugs into the engine from its own folder: registered, it is asked for its
deadline and its file, and the engine does the rest (queue on check-in, the file for the host,
at risk before the deadline, marked filed). The authority here is a test's own, for Malta."""

import datetime as dt

import pytest

from rentalcomply.core import clock
from rentalcomply.core.models import Booking, Event
from rentalcomply.filings import registry, sweep
from rentalcomply.filings.deadlines import local_to_utc
from rentalcomply.filings.models import Filing
from rentalcomply.properties import service as properties
from tests.police.conftest import put_guests


class GuestFile:
    """What an authority's format module gives: its file, built from the stay and the guests."""
    SETTING_FIELDS = ("licence",)

    @staticmethod
    def build_file(settings, stay, guests, filing):
        lines = [f"{settings.get('licence')};{stay.arrival};{g.role};{g.data['last_name']}"
                 for g in guests]
        return "guests.csv", "text/csv", ("\n".join(lines) + "\n").encode("utf-8")


class MaltaPolice(registry.Authority):
    name = "mt_police"
    country = "MT"
    title = "Malta Police (guest file)"

    def file_builder(self):
        return GuestFile

    def deadline(self, prop, booking, kind, arrival_hour):
        return local_to_utc(booking.arrival_date, 23, 0, prop.timezone)


@pytest.fixture
def malta(monkeypatch):
    monkeypatch.setitem(registry._authorities, "mt_police", MaltaPolice())


@pytest.fixture
def maltese_property(settings, owner, malta):
    prop = properties.create_property(owner.account_id, name="Valletta Loft", address="Triq il-Merkanti 1",
                                      country="MT", timezone="Europe/Malta", max_guests=4)
    owner.patch_json(f"/api/v1/properties/{prop.id}",
                     {"police_connector": "file", "police_settings": {"licence": "HF/1234"}})
    return prop


def guests():
    return [{"first_name": "Maria", "last_name": "Borg", "sex": "F", "birth_date": "1980-05-01",
             "nationality": "MT", "document_type": "passport", "document_number": "1234567",
             "document_country": "MT", "email": "maria@example.com"},
            {"first_name": "Paul", "last_name": "Borg", "sex": "M", "birth_date": "1979-01-01",
             "nationality": "MT", "document_type": "id_card", "document_number": "7654321",
             "document_country": "MT"}]


def test_a_registered_authority_is_asked_its_deadline_and_its_file(frozen_clock, owner, make_booking,
                                                                    maltese_property):
    booking = make_booking(prop=maltese_property, arrival=clock.today() + dt.timedelta(days=1))
    police = owner.get(f"/api/v1/bookings/{booking.id}/police").json["data"]
    assert police["deadline"] == clock.iso(local_to_utc(booking.arrival_date, 23, 0, "Europe/Malta"))
    put_guests(owner, booking.id, guests())
    assert Booking.get_by_id(booking.id).report_status == "QUEUED"
    row = Filing.get(Filing.booking == booking.id)
    assert (row.status, row.authority, row.property_id) == ("ready", "file", maltese_property.id)
    link = owner.get(f"/api/v1/bookings/{booking.id}/police/file").json["data"]
    assert link["filename"] == "guests.csv"
    done = owner.post_json(f"/api/v1/bookings/{booking.id}/police/filed", {"reference": "MT-1"}).json["data"]
    assert done["report_status"] == "SUBMITTED"
    assert [e.type for e in Event.select() if e.type.startswith("police.")] == ["police.submitted"]


def test_a_booking_of_an_authority_not_filed_is_announced_at_risk_before_its_deadline(
        frozen_clock, owner, make_booking, maltese_property):
    booking = make_booking(prop=maltese_property)
    due = local_to_utc(booking.arrival_date, 23, 0, "Europe/Malta")
    clock.travel(due - dt.timedelta(hours=5) - clock.utcnow())
    sweep.run_due()
    assert [e.type for e in Event.select() if e.type.startswith("police.")] == ["police.at_risk"]


def test_the_file_connector_offers_the_settings_of_every_registered_authority(malta):
    assert "licence" in registry.connector("file").setting_fields
