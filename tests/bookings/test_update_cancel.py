"""PATCH /bookings/{id} and POST /bookings/{id}/cancel: changes re-checked, events emitted."""

import datetime as dt

import pytest

from rentalcomply.core import clock
from rentalcomply.core.models import Booking, Event
from tests.bookings.conftest import booking_body
from tests.helpers import assert_error


@pytest.fixture
def booking(owner, villa):
    return owner.post_json("/api/v1/bookings", booking_body(villa.id), status=201).json["data"]


def url(booking) -> str:
    return f"/api/v1/bookings/{booking['id']}"


def event_types() -> list[str]:
    # Sorted: events of the same second have no order of their own.
    return sorted(e.type for e in Event.select())


def test_patch_changes_guest_details_and_emits_booking_updated(owner, booking):
    clock.travel(dt.timedelta(minutes=5))
    data = owner.patch_json(url(booking), {"guest_email": "maria@example.com",
                                           "guest_phone": "+30 690 000 0000",
                                           "payment_method": "card", "total_price": 510}).json["data"]
    assert data["guest_email"] == "maria@example.com" and data["payment_method"] == "card"
    assert data["total_price"] == 510.0 and data["updated_at"] > booking["updated_at"]
    assert data["created_at"] == booking["created_at"]
    updated = Event.get(Event.type == "booking.updated")
    assert updated.data == without_link(data)


def test_patch_with_null_clears_a_nullable_field(owner, booking):
    owner.patch_json(url(booking), {"guest_email": "maria@example.com"})
    data = owner.patch_json(url(booking), {"guest_email": None, "total_price": None}).json["data"]
    assert data["guest_email"] is None and data["total_price"] is None


def test_patch_takes_merge_patch_json(owner, booking):
    response = owner.patch(url(booking), '{"guest_count": 3}',
                           content_type="application/merge-patch+json")
    assert response.json["data"]["guest_count"] == 3


def test_patch_of_the_dates_recomputes_nights_and_climate_fee(owner, booking):
    data = owner.patch_json(url(booking), {"arrival_date": "2026-03-30",
                                           "departure_date": "2026-04-02"}).json["data"]
    assert data["nights"] == 3 and data["climate_fee"] == 12.0


def test_patch_of_one_date_is_checked_against_the_other(owner, booking):
    response = owner.patch_json(url(booking), {"departure_date": "2026-07-09"}, status=400)
    error = assert_error(response, 400, "VALIDATION_ERROR")
    assert error["details"][0]["field"] == "departure_date"
    response = owner.patch_json(url(booking), {"arrival_date": "2025-07-13"}, status=400)
    assert "365" in assert_error(response, 400, "VALIDATION_ERROR")["details"][0]["message"]
    assert Booking.get_by_id(booking["id"]).departure_date == dt.date(2026, 7, 14)


def test_patch_refuses_an_overlap_with_another_booking(owner, villa, booking):
    owner.post_json("/api/v1/bookings", booking_body(
        villa.id, arrival_date="2026-07-20", departure_date="2026-07-25"), status=201)
    response = owner.patch_json(url(booking), {"departure_date": "2026-07-21"}, status=409)
    assert_error(response, 409, "BOOKING_CONFLICT")
    assert event_types() == sorted(["booking.created", "booking.created"])


def test_patch_may_move_a_booking_over_its_own_nights(owner, booking):
    data = owner.patch_json(url(booking), {"arrival_date": "2026-07-12",
                                           "departure_date": "2026-07-16"}).json["data"]
    assert data["arrival_date"] == "2026-07-12"


def test_patch_refuses_more_guests_than_the_property_takes(owner, booking):
    response = owner.patch_json(url(booking), {"guest_count": 5}, status=400)
    assert assert_error(response, 400, "VALIDATION_ERROR")["details"][0]["field"] == "guest_count"


def test_patch_refuses_fields_that_cannot_change(owner, booking):
    response = owner.patch_json(url(booking), {"property_id": "prop_x", "source": "phone",
                                               "status": "cancelled", "channel": "airbnb"},
                                status=400)
    error = assert_error(response, 400, "VALIDATION_ERROR")
    assert {d["field"] for d in error["details"]} == {"property_id", "source", "status", "channel"}


def test_patch_refuses_null_for_a_required_field(owner, booking):
    response = owner.patch_json(url(booking), {"guest_name": None, "arrival_date": None}, status=400)
    error = assert_error(response, 400, "VALIDATION_ERROR")
    assert {d["field"] for d in error["details"]} == {"guest_name", "arrival_date"}


def test_a_patch_that_changes_nothing_emits_nothing(owner, booking):
    assert owner.patch_json(url(booking), {}).json["data"] == booking
    assert owner.patch_json(url(booking), {"guest_count": 2}).json["data"] == booking
    assert event_types() == sorted(["booking.created"])


def test_patch_of_an_unknown_booking_is_404(owner):
    response = owner.patch_json("/api/v1/bookings/book_nothing", {"guest_count": 1}, status=404)
    assert_error(response, 404, "NOT_FOUND")


def test_patch_refuses_malformed_json(owner, booking):
    response = owner.patch(url(booking), "{", content_type="application/json", status=400)
    assert_error(response, 400, "INVALID_JSON")


def test_cancel_sets_status_and_time_and_emits_booking_cancelled(owner, booking):
    clock.travel(dt.timedelta(hours=1))
    response = owner.post(url(booking) + "/cancel", status=200)
    data = response.json["data"]
    assert data["status"] == "cancelled"
    assert data["cancelled_at"] == data["updated_at"] and data["cancelled_at"] > booking["created_at"]
    assert event_types() == sorted(["booking.created", "booking.cancelled"])
    assert Event.get(Event.type == "booking.cancelled").data == without_link(data)
    assert data["checkin_url"] is None  # a cancelled booking has no working link


def test_cancelling_twice_returns_the_cancelled_booking_unchanged(owner, booking):
    first = owner.post(url(booking) + "/cancel").json["data"]
    clock.travel(dt.timedelta(hours=1))
    again = owner.post(url(booking) + "/cancel", status=200).json["data"]
    assert again == first
    assert event_types() == sorted(["booking.created", "booking.cancelled"])


def test_cancel_takes_no_body(owner, booking):
    response = owner.post_json(url(booking) + "/cancel", {"reason": "no show"}, status=400)
    assert assert_error(response, 400, "VALIDATION_ERROR")["details"][0]["field"] == "reason"
    assert Booking.get_by_id(booking["id"]).status == "confirmed"


def test_cancel_of_an_unknown_booking_is_404(owner):
    assert_error(owner.post("/api/v1/bookings/book_nothing/cancel", status=404), 404, "NOT_FOUND")


def test_cancel_with_an_idempotency_key_replays_its_first_answer(owner, booking):
    headers = {"Idempotency-Key": "cancel-1"}
    first = owner.post(url(booking) + "/cancel", headers=headers)
    again = owner.post(url(booking) + "/cancel", headers=headers)
    assert again.json == first.json  # the link of a cancelled booking is null in both


def test_a_cancelled_booking_can_still_be_corrected(owner, villa, booking):
    owner.post(url(booking) + "/cancel")
    owner.post_json("/api/v1/bookings", booking_body(villa.id), status=201)
    # No conflict: a cancelled booking holds no nights.
    data = owner.patch_json(url(booking), {"guest_name": "Maria P.", "arrival_date": "2026-07-11"}).json["data"]
    assert data["guest_name"] == "Maria P." and data["status"] == "cancelled"


def test_a_moved_arrival_after_the_departure_is_named_on_arrival_date(owner, booking):
    response = owner.patch_json(url(booking), {"arrival_date": "2026-07-20"}, status=400)
    error = assert_error(response, 400, "VALIDATION_ERROR")
    assert error["details"] == [{"field": "arrival_date", "message": "must be before departure_date"}]


def test_a_lower_max_guests_later_does_not_stop_moving_an_existing_booking(owner, villa, booking):
    owner.patch_json(f"/api/v1/properties/{villa.id}", {"max_guests": 1})
    data = owner.patch_json(url(booking), {"departure_date": "2026-07-15"}).json["data"]
    assert data["guest_count"] == 2 and data["nights"] == 5


def test_a_cancellation_can_record_the_amount_the_guest_still_pays(owner, booking):
    data = owner.post_json(url(booking) + "/cancel", {"amount_kept": 120.5}).json["data"]
    assert data["status"] == "cancelled" and data["amount_kept"] == 120.5
    assert Booking.get_by_id(booking["id"]).amount_kept_cents == 12050
    assert Event.get(Event.type == "booking.cancelled").data["amount_kept"] == 120.5


def test_the_amount_kept_can_be_corrected_after_the_cancellation(owner, booking):
    cancelled = owner.post(url(booking) + "/cancel").json["data"]
    clock.travel(dt.timedelta(hours=1))
    data = owner.post_json(url(booking) + "/cancel", {"amount_kept": 80}).json["data"]
    assert data["amount_kept"] == 80.0 and data["updated_at"] > data["cancelled_at"]
    assert data["version"] == cancelled["version"] + 1
    assert event_types() == sorted(["booking.created", "booking.cancelled", "booking.updated"])


def test_an_amount_kept_with_three_decimals_or_below_zero_is_refused(owner, booking):
    for amount in (10.555, -1, "ten"):
        response = owner.post_json(url(booking) + "/cancel", {"amount_kept": amount}, status=400)
        assert assert_error(response, 400, "VALIDATION_ERROR")["details"][0]["field"] == "amount_kept"
    assert Booking.get_by_id(booking["id"]).status == "confirmed"


def without_link(view: dict) -> dict:
    """A booking as an event carries it: without the guest's link (a credential); its tourist
    tax as the answer has it (docs/webhooks.md)."""
    return {name: value for name, value in view.items() if name != "checkin_url"}
