"""The `file` connector: the authority's file built when check-in completes, downloadable
through a signed one-hour link, marked filed by the host."""

import datetime as dt
import urllib.parse

import pytest

from rentalcomply.core import clock
from rentalcomply.core.models import Booking, Event
from rentalcomply.properties import service as properties
from tests.helpers import assert_error
from tests.police.conftest import family, put_guests


@pytest.fixture
def file_property(owner):
    prop = properties.create_property(owner.account_id, name="Casa Mare", address="Via Mare 2",
                                      country="IT", max_guests=6)
    owner.patch_json(f"/api/v1/properties/{prop.id}",
                     {"police_connector": "file", "police_settings": {"apartment_id": "000777"}})
    return prop


def path_of(url):
    parts = urllib.parse.urlsplit(url)
    return parts.path + "?" + parts.query


def test_the_file_is_built_downloadable_for_an_hour_and_marked_filed(frozen_clock, owner, anonymous, double,
                                                                     make_booking, file_property):
    booking = make_booking(prop=file_property)
    owner.get(f"/api/v1/bookings/{booking.id}/police/file", status=409)
    put_guests(owner, booking.id, family())
    assert Booking.get_by_id(booking.id).report_status == "QUEUED"
    assert double.calls == []  # nothing goes to the service
    link = owner.get(f"/api/v1/bookings/{booking.id}/police/file").json["data"]
    assert link["expires_at"] == clock.iso(clock.utcnow() + dt.timedelta(hours=1))
    body = anonymous.get(path_of(link["download_url"])).body.decode("utf-8")
    lines = body.split("\r\n")
    assert lines[-1] == "" and len(lines) == 3
    assert [len(line) for line in lines[:2]] == [174, 174]
    assert lines[0].startswith("17") and lines[1].startswith("19") and lines[0].endswith("000777")
    # Altered: 403; late: 410.
    signature = urllib.parse.parse_qs(urllib.parse.urlsplit(link["download_url"]).query)["signature"][0]
    altered = link["download_url"].replace(signature, signature[:-1] + ("A" if signature[-1] != "A" else "B"))
    assert_error(anonymous.get(path_of(altered), status=403), 403, "INVALID_SIGNATURE")
    clock.travel(dt.timedelta(minutes=61))
    assert_error(anonymous.get(path_of(link["download_url"]), status=410), 410, "LINK_EXPIRED")
    # The host uploaded it by hand.
    done = owner.post_json(f"/api/v1/bookings/{booking.id}/police/filed",
                           {"reference": "RICEVUTA 123"}).json["data"]
    assert done["report_status"] == "SUBMITTED" and done["filings"][0]["reference"] == "RICEVUTA 123"
    assert [e.type for e in Event.select() if e.type.startswith("police.")] == ["police.submitted"]
    owner.post(f"/api/v1/bookings/{booking.id}/police/filed", status=409)


def test_another_account_cannot_reach_the_file(owner, outsider, make_booking, file_property):
    booking = make_booking(prop=file_property)
    put_guests(owner, booking.id, family())
    outsider.get(f"/api/v1/bookings/{booking.id}/police/file", status=404)
    outsider.post(f"/api/v1/bookings/{booking.id}/police/filed", status=404)
    link = owner.get(f"/api/v1/bookings/{booking.id}/police/file").json["data"]["download_url"]
    moved = link.replace(f"/files/police/{owner.account_id}/", f"/files/police/{outsider.account_id}/")
    outsider.get(path_of(moved), status=403)


def test_a_reader_sees_the_filing_but_cannot_refile(reader, owner, make_booking, file_property):
    booking = make_booking(prop=file_property)
    put_guests(owner, booking.id, family())
    assert reader.get(f"/api/v1/bookings/{booking.id}/police").json["data"]["connector"] == "file"
    reader.post(f"/api/v1/bookings/{booking.id}/police/refile", status=403)
