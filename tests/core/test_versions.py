"""Resource versions: every change of a property, booking, channel connection or webhook endpoint
adds one to its `version`, in the API view and in the event that announces the change."""

import pytest

from rentalcomply.core.db import db
from rentalcomply.core.models import Booking, ChannelConnection, Event, Property
from rentalcomply.core import netguard
from rentalcomply.webhooks import service as webhooks
from rentalcomply.webhooks.models import WebhookEndpoint
from tests.bookings.conftest import booking_body, villa  # noqa: F401 - a fixture


@pytest.fixture
def booking(owner, villa):
    return owner.post_json("/api/v1/bookings", booking_body(villa.id), status=201).json["data"]


def url(booking) -> str:
    return f"/api/v1/bookings/{booking['id']}"


def events_of(booking_id: str) -> list[tuple[str, str, int]]:
    found = [(e.type, e.data["status"], e.data["version"]) for e in Event.select()
             if e.data.get("id") == booking_id]
    return sorted(found, key=lambda item: item[2])


def test_a_new_booking_has_version_1(booking):
    assert booking["version"] == 1


def test_each_patch_adds_one_to_the_version(owner, booking):
    assert owner.patch_json(url(booking), {"guest_count": 3}).json["data"]["version"] == 2
    assert owner.patch_json(url(booking), {"guest_count": 1}).json["data"]["version"] == 3
    assert owner.get(url(booking)).json["data"]["version"] == 3


def test_a_patch_that_changes_nothing_keeps_the_version(owner, booking):
    assert owner.patch_json(url(booking), {"guest_count": 2}).json["data"]["version"] == 1


def test_cancel_adds_one_and_cancelling_again_does_not(owner, booking):
    owner.patch_json(url(booking), {"guest_count": 3})
    assert owner.post(url(booking) + "/cancel").json["data"]["version"] == 3
    assert owner.post(url(booking) + "/cancel").json["data"]["version"] == 3


def test_events_carry_the_version_of_the_state_they_announce(owner, booking):
    owner.patch_json(url(booking), {"guest_count": 3})
    owner.post(url(booking) + "/cancel")
    assert events_of(booking["id"]) == [("booking.created", "confirmed", 1),
                                        ("booking.updated", "confirmed", 2),
                                        ("booking.cancelled", "cancelled", 3)]


def test_the_booking_list_shows_the_same_version_as_the_booking(owner, booking):
    owner.patch_json(url(booking), {"guest_count": 3})
    listed = owner.get("/api/v1/bookings").json["data"]
    assert [item["version"] for item in listed] == [2]
    assert listed[0] == owner.get(url(booking)).json["data"]


def test_a_bulk_update_adds_one_to_every_row_it_changes(owner, villa, booking):
    other = owner.post_json("/api/v1/bookings", booking_body(
        villa.id, arrival_date="2026-08-01", departure_date="2026-08-03"), status=201).json["data"]
    with db.atomic():
        changed = Booking.update(checkin_status="INVITED").where(Booking.id == booking["id"]).execute()
    assert changed == 1
    assert Booking.get_by_id(booking["id"]).version == 2
    assert Booking.get_by_id(other["id"]).version == 1


def test_a_saved_row_holds_the_version_the_database_wrote(villa):
    stale = Property.get_by_id(villa.id)
    fresh = Property.get_by_id(villa.id)
    fresh.name = "Villa Zephyros"
    fresh.save()
    stale.address = "Fira"
    stale.save()  # bumps what the database holds, not the stale copy's number
    assert (fresh.version, stale.version, Property.get_by_id(villa.id).version) == (2, 3, 3)


def test_a_property_patch_adds_one(owner, villa):
    data = owner.patch_json(f"/api/v1/properties/{villa.id}", {"max_guests": 6}).json["data"]
    assert data["version"] == 2


def test_a_channel_connection_starts_at_1_and_counts_its_changes(owner, villa):
    data = owner.post_json(f"/api/v1/properties/{villa.id}/channels",
                           {"provider": "airbnb",
                            "ical_url": "https://www.airbnb.com/calendar/ical/1.ics?s=abc"},
                           status=201).json["data"]
    assert data["version"] == 1
    ChannelConnection.update(status="ok").where(ChannelConnection.id == data["id"]).execute()
    shown = owner.get(f"/api/v1/properties/{villa.id}").json["data"]["channel_connections"]
    assert [item["version"] for item in shown] == [2]


def test_a_webhook_endpoint_counts_patches_rotations_and_disabling(owner, monkeypatch):
    monkeypatch.setattr(netguard, "resolve", lambda host, port: ["93.184.216.34"])
    hook = owner.post_json("/api/v1/webhooks", {"url": "https://hooks.example.org/x",
                                                "events": ["*"]}, status=201).json["data"]
    assert hook["version"] == 1
    path = f"/api/v1/webhooks/{hook['id']}"
    assert owner.patch_json(path, {"description": "Desk"}).json["data"]["version"] == 2
    assert owner.post(path + "/rotate-secret").json["data"]["version"] == 3
    assert webhooks.disable_endpoint(hook["id"], "test")
    assert WebhookEndpoint.get_by_id(hook["id"]).version == 4
    assert owner.get(path).json["data"]["version"] == 4


def test_rows_written_without_a_version_start_at_1(account_a):
    # The column's default in the database: rows that existed before versions (and any insert
    # that does not name the column) have version 1.
    with db.atomic():
        db.execute_sql(f"INSERT INTO property (id, account_id, name, address, status, country, "
                       f"timezone, climate_fee_category, police_connector, created_at, updated_at) "
                       f"VALUES ({', '.join([db.param] * 11)})",
                       ("prop_old", account_a, "Old", "Oia", "active", "GR", "Europe/Athens",
                        "standard", "none", "2026-01-01 00:00:00", "2026-01-01 00:00:00"))
    assert Property.get_by_id("prop_old").version == 1
