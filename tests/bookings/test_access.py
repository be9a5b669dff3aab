"""Who may do what with bookings: scopes per endpoint, and no account sees another's bookings."""

import pytest

from rentalcomply.bookings import service as bookings
from rentalcomply.core.models import Booking, Event
from rentalcomply.properties import service as properties
from tests.bookings.conftest import booking_body
from tests.helpers import assert_error


@pytest.fixture
def their_booking(outsider, rates):
    prop = properties.create_property(outsider.account_id, name="Theirs", address="Chania")
    booking = bookings.create_booking(outsider.account_id, rates=rates, property_id=prop.id,
                                      guest_name="Their guest", arrival_date="2026-07-10",
                                      departure_date="2026-07-14", guest_count=2)
    return prop, booking


def test_a_read_key_cannot_create_change_or_cancel_bookings(reader, owner, villa):
    booking = owner.post_json("/api/v1/bookings", booking_body(villa.id)).json["data"]
    for response in (
        reader.post_json("/api/v1/bookings", booking_body(villa.id, arrival_date="2026-08-01",
                                                          departure_date="2026-08-02"), status=403),
        reader.patch_json(f"/api/v1/bookings/{booking['id']}", {"guest_count": 1}, status=403),
        reader.post(f"/api/v1/bookings/{booking['id']}/cancel", status=403),
    ):
        assert "write" in assert_error(response, 403, "INSUFFICIENT_SCOPE")["message"]
    assert Booking.select().count() == 1 and Booking.get().status == "confirmed"


def test_a_write_only_key_creates_bookings_but_cannot_read_them(writer, villa):
    created = writer.post_json("/api/v1/bookings", booking_body(villa.id), status=201).json["data"]
    for path in ("/api/v1/bookings", f"/api/v1/bookings/{created['id']}"):
        assert "read" in assert_error(writer.get(path, status=403), 403, "INSUFFICIENT_SCOPE")["message"]


def test_a_webhooks_key_cannot_touch_bookings(hooker, villa):
    assert_error(hooker.get("/api/v1/bookings", status=403), 403, "INSUFFICIENT_SCOPE")
    assert_error(hooker.post_json("/api/v1/bookings", booking_body(villa.id), status=403), 403,
                 "INSUFFICIENT_SCOPE")


def test_scope_is_judged_before_the_body(reader):
    response = reader.post("/api/v1/bookings", "{not json", content_type="application/json", status=403)
    assert_error(response, 403, "INSUFFICIENT_SCOPE")


def test_without_a_key_bookings_are_unauthenticated(anonymous):
    response = anonymous.get("/api/v1/bookings", status=401)
    assert_error(response, 401, "UNAUTHENTICATED")
    assert response.headers["WWW-Authenticate"].startswith("Bearer")


def test_another_accounts_bookings_are_invisible_by_list_and_by_id(owner, their_booking):
    prop, booking = their_booking
    assert owner.get("/api/v1/bookings").json["data"] == []
    assert owner.get("/api/v1/bookings?from=2026-07-01&to=2026-07-31").json["pagination"]["total"] == 0
    assert_error(owner.get(f"/api/v1/bookings/{booking.id}", status=404), 404, "NOT_FOUND")
    assert_error(owner.get(f"/api/v1/bookings?property_id={prop.id}", status=404), 404, "NOT_FOUND")


def test_another_accounts_bookings_cannot_be_changed_or_cancelled(owner, their_booking):
    _, booking = their_booking
    assert_error(owner.patch_json(f"/api/v1/bookings/{booking.id}", {"guest_name": "Mine"},
                                  status=404), 404, "NOT_FOUND")
    assert_error(owner.post(f"/api/v1/bookings/{booking.id}/cancel", status=404), 404, "NOT_FOUND")
    unchanged = Booking.get_by_id(booking.id)
    assert unchanged.guest_name == "Their guest" and unchanged.status == "confirmed"
    assert {e.account_id for e in Event.select()} == {booking.account_id}


def test_no_booking_can_be_made_at_another_accounts_property(owner, their_booking):
    prop, _ = their_booking
    response = owner.post_json("/api/v1/bookings", booking_body(prop.id, arrival_date="2026-09-01",
                                                                departure_date="2026-09-03"),
                               status=404)
    assert_error(response, 404, "NOT_FOUND")
    assert Booking.select().where(Booking.account == owner.account_id).count() == 0


def test_another_accounts_booking_does_not_conflict_with_mine(owner, villa, their_booking):
    owner.post_json("/api/v1/bookings", booking_body(villa.id), status=201)
