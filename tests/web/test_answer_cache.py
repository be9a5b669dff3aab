"""Kept answers of GET /bookings and /properties: the same bytes as rendered afresh, an ETag and
304, and every way a row changes (the API, a bulk UPDATE, raw SQL, a delete) seen at once."""

from __future__ import annotations

import pytest

from rentalcomply.core.db import db
from rentalcomply.core.ids import new_id
from rentalcomply.core.models import Booking, ChannelConnection
from rentalcomply.web import answer_cache
from rentalcomply.properties import service as properties
from tests.bookings.conftest import booking_body


@pytest.fixture
def villa(owner):
    return properties.create_property(owner.account_id, name="Villa Anemoi", address="Oia",
                                      aade_property_id="00012345678", max_guests=4)


@pytest.fixture
def booked(owner, villa):
    ids = [owner.post_json("/api/v1/bookings", booking_body(
        villa.id, arrival_date=f"2026-07-{day:02d}", departure_date=f"2026-07-{day + 1:02d}",
        guest_name=f"Guest {day}")).json["data"]["id"] for day in range(1, 8)]
    return ids


def paths(villa, booked):
    return [f"/api/v1/bookings?property_id={villa.id}&limit=5", "/api/v1/bookings?page=2&limit=3",
            f"/api/v1/bookings/{booked[0]}", "/api/v1/properties", f"/api/v1/properties/{villa.id}"]


def test_a_kept_answer_is_the_same_bytes_as_one_rendered_afresh(reader, villa, booked):
    for path in paths(villa, booked):
        answer_cache.clear()
        rendered = reader.get(path)
        kept = reader.get(path)
        assert kept.body == rendered.body
        assert kept.headers["ETag"] == rendered.headers["ETag"]
        assert kept.headers["Content-Type"] == rendered.headers["Content-Type"]


def test_an_etag_sent_back_gets_304_without_a_body_until_the_account_changes(owner, villa, booked):
    path = f"/api/v1/bookings/{booked[0]}"
    etag = owner.get(path).headers["ETag"]
    unchanged = owner.get(path, headers={"If-None-Match": etag}, status=304)
    assert unchanged.body == b"" and unchanged.headers["ETag"] == etag
    assert owner.get(path, headers={"If-None-Match": f'"other", W/{etag}'}, status=304)
    owner.patch_json(path, {"guest_name": "Renamed"})
    changed = owner.get(path, headers={"If-None-Match": etag}, status=200)
    assert changed.json["data"]["guest_name"] == "Renamed"
    assert changed.headers["ETag"] != etag


def test_a_bulk_update_outside_the_api_is_seen_by_the_next_read(owner, villa, booked):
    path = f"/api/v1/bookings?property_id={villa.id}&limit=50"
    assert owner.get(path).json["data"][0]["checkin_status"] == "NOT_STARTED"
    with db.atomic():  # as a worker would: a bulk UPDATE, no event, no API
        Booking.update(checkin_status="INVITED").where(Booking.property == villa.id).execute()
    assert {b["checkin_status"] for b in owner.get(path).json["data"]} == {"INVITED"}
    db.execute_sql("UPDATE booking SET guest_name = 'Raw SQL' WHERE id = ?"
                   if db.param == "?" else "UPDATE booking SET guest_name = 'Raw SQL' WHERE id = %s",
                   (booked[0],))
    assert owner.get(f"/api/v1/bookings/{booked[0]}").json["data"]["guest_name"] == "Raw SQL"
    assert owner.get(path).json["data"][0]["guest_name"] == "Raw SQL"


def test_a_deleted_booking_and_a_channel_connection_written_by_a_worker_are_seen_at_once(
        owner, villa, booked):
    path = f"/api/v1/bookings/{booked[1]}"
    owner.get(path)
    Booking.delete().where(Booking.id == booked[1]).execute()
    owner.get(path, status=404)
    assert owner.get(f"/api/v1/properties/{villa.id}").json["data"]["channel_connections"] == []
    ChannelConnection.create(id=new_id("ch"), account=owner.account_id, property=villa.id,
                             provider="airbnb", ical_url="https://www.airbnb.com/calendar/ical/1.ics")
    assert len(owner.get(f"/api/v1/properties/{villa.id}").json["data"]["channel_connections"]) == 1
    ChannelConnection.update(last_error="feed unreachable").execute()
    assert owner.get("/api/v1/properties").json["data"][0]["channel_connections"][0][
        "last_error"] == "feed unreachable"


def test_one_accounts_change_leaves_another_accounts_kept_answers_alone(owner, outsider, villa, booked):
    path = "/api/v1/properties"
    before = outsider.get(path).body
    version = answer_cache.account_version(outsider.account_id)
    owner.patch_json(f"/api/v1/bookings/{booked[0]}", {"guest_name": "Someone else"})
    assert answer_cache.account_version(outsider.account_id) == version
    assert outsider.get(path).body == before


def test_another_accounts_booking_is_not_answered_from_what_was_kept(owner, outsider, booked):
    owner.get(f"/api/v1/bookings/{booked[0]}")
    outsider.get(f"/api/v1/bookings/{booked[0]}", status=404)
