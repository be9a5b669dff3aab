"""POST /bookings: a manual booking, its validation, overlap conflicts, idempotency and events."""

import datetime as dt

import pytest

from rentalcomply.checkin import service as checkin
from rentalcomply.core.models import Booking, Event
from rentalcomply.properties import service as properties
from tests.bookings.conftest import booking_body
from tests.helpers import assert_error


def test_it_creates_a_manual_booking_with_location_and_every_field(owner, villa):
    response = owner.post_json("/api/v1/bookings", booking_body(
        villa.id, guest_email="maria@example.com", guest_phone="+30 690 000 0000",
        guest_language="el", total_price=480.5, payment_method="bank_transfer", source="phone"),
        status=201)
    data = response.json["data"]
    assert response.headers["Location"] == f"/api/v1/bookings/{data['id']}"
    assert data["id"].startswith("book_")
    assert data == {
        "id": data["id"], "property_id": villa.id, "guest_name": "Maria Papadopoulou",
        "guest_email": "maria@example.com", "guest_phone": "+30 690 000 0000",
        "guest_language": "el", "arrival_date": "2026-07-10", "departure_date": "2026-07-14",
        "nights": 4, "guest_count": 2, "adults": None, "children": None, "infants": None,
        "channel": "manual", "source": "phone",
        "external_ref": None, "status": "confirmed", "checkin_status": "NOT_STARTED",
        "checkin_error": None, "report_status": "NOT_REQUIRED", "report_error": None, "total_price": 480.5,
        "climate_fee": 32.0, "currency": "EUR", "payment_method": "bank_transfer",
        "created_at": data["created_at"], "updated_at": data["created_at"], "cancelled_at": None,
        "booked_at": None, "amount_kept": None,
        "version": 1,
        "tourist_tax": None,  # the villa names no tourist tax rule set (docs/taxes.md)
        # The booking's own short reference, and its guest's link for a key that may write.
        "reference": data["reference"],
        "checkin_url": f"http://127.0.0.1:8080/checkin/{checkin.token_for(data['id'])}",
    }
    stored = Booking.get_by_id(data["id"])
    assert stored.total_price_cents == 48050 and stored.climate_fee_cents == 3200
    assert stored.account_id == owner.account_id


def test_a_minimal_booking_takes_the_decided_defaults(owner, villa):
    data = owner.post_json("/api/v1/bookings", booking_body(villa.id), status=201).json["data"]
    assert data["source"] == "direct" and data["channel"] == "manual"
    assert data["guest_language"] == "en" and data["total_price"] is None
    assert data["guest_email"] is None and data["payment_method"] is None


def test_a_property_with_a_police_connector_makes_the_report_pending(owner):
    italian = properties.create_property(owner.account_id, name="Casa", address="Roma",
                                         country="IT", police_connector="alloggiati")
    data = owner.post_json("/api/v1/bookings", booking_body(italian.id), status=201).json["data"]
    assert data["report_status"] == "PENDING"


def test_the_climate_fee_counts_each_night_at_its_months_rate(owner, villa):
    data = owner.post_json("/api/v1/bookings", booking_body(
        villa.id, arrival_date="2026-03-30", departure_date="2026-04-02"), status=201).json["data"]
    assert data["climate_fee"] == 12.0  # two winter nights at 2 EUR, one summer night at 8 EUR


def test_a_detached_house_pays_the_higher_fee(owner):
    house = properties.create_property(owner.account_id, name="House", address="Naxos",
                                       climate_fee_category="detached_over_80m2")
    data = owner.post_json("/api/v1/bookings", booking_body(house.id), status=201).json["data"]
    assert data["climate_fee"] == 60.0


def test_a_free_stay_pays_no_climate_fee(owner, villa):
    data = owner.post_json("/api/v1/bookings", booking_body(villa.id, total_price=0),
                           status=201).json["data"]
    assert data["total_price"] == 0 and data["climate_fee"] == 0


def test_it_emits_booking_created_with_the_booking_as_shown(owner, villa):
    data = owner.post_json("/api/v1/bookings", booking_body(villa.id), status=201).json["data"]
    [event] = Event.select()
    assert event.type == "booking.created" and event.account_id == owner.account_id
    # Without the guest's link: a webhook is no place for a credential. The tourist tax is
    # there as the answer has it (docs/webhooks.md).
    assert event.data == {name: value for name, value in data.items() if name != "checkin_url"}


# --- validation -------------------------------------------------------------------------------

def details_of(response) -> dict:
    error = assert_error(response, 400, "VALIDATION_ERROR")
    return {d["field"]: d["message"] for d in error["details"]}


def test_it_refuses_departure_before_arrival(owner, villa):
    response = owner.post_json("/api/v1/bookings", booking_body(
        villa.id, arrival_date="2026-07-14", departure_date="2026-07-10"), status=400)
    assert "departure_date" in details_of(response)


def test_it_refuses_departure_on_the_arrival_day(owner, villa):
    response = owner.post_json("/api/v1/bookings", booking_body(
        villa.id, arrival_date="2026-07-10", departure_date="2026-07-10"), status=400)
    assert "departure_date" in details_of(response)


def test_it_accepts_365_nights_and_refuses_366(owner, villa):
    owner.post_json("/api/v1/bookings", booking_body(
        villa.id, arrival_date="2027-01-01", departure_date="2028-01-01"), status=201)
    response = owner.post_json("/api/v1/bookings", booking_body(
        villa.id, arrival_date="2029-01-01", departure_date="2030-01-02"), status=400)
    assert "365 nights" in details_of(response)["departure_date"]


@pytest.mark.parametrize("value", ["2026-02-30", "2026-13-01", "10/07/2026", "2026-7-1", 20260710,
                                   "", None])
def test_it_refuses_absurd_dates(owner, villa, value):
    response = owner.post_json("/api/v1/bookings", booking_body(villa.id, arrival_date=value),
                               status=400)
    assert "arrival_date" in details_of(response)


def test_it_refuses_dates_outside_this_century(owner, villa):
    response = owner.post_json("/api/v1/bookings", booking_body(
        villa.id, arrival_date="1999-12-30", departure_date="1999-12-31"), status=400)
    assert set(details_of(response)) == {"arrival_date", "departure_date"}


def test_it_names_every_missing_field(owner):
    response = owner.post_json("/api/v1/bookings", {}, status=400)
    assert set(details_of(response)) == {"property_id", "guest_name", "arrival_date",
                                         "departure_date", "guest_count"}


def test_it_refuses_wrong_types_and_unknown_fields_all_at_once(owner, villa):
    response = owner.post_json("/api/v1/bookings", booking_body(
        villa.id, guest_count="two", guest_name=["Maria"], total_price="480", channel="airbnb",
        status="cancelled"), status=400)
    assert set(details_of(response)) == {"guest_count", "guest_name", "total_price", "channel",
                                         "status"}
    assert Booking.select().count() == 0


@pytest.mark.parametrize("count", [0, -1, 2.5, True])
def test_it_refuses_a_guest_count_that_is_not_a_positive_whole_number(owner, villa, count):
    response = owner.post_json("/api/v1/bookings", booking_body(villa.id, guest_count=count),
                               status=400)
    assert "guest_count" in details_of(response)


def test_it_refuses_more_guests_than_the_property_takes(owner, villa):
    response = owner.post_json("/api/v1/bookings", booking_body(villa.id, guest_count=5), status=400)
    assert details_of(response)["guest_count"] == "must be at most 4 (the property's max_guests)"


def test_without_max_guests_a_booking_takes_up_to_fifty(owner):
    hostel = properties.create_property(owner.account_id, name="Hostel", address="Athens")
    owner.post_json("/api/v1/bookings", booking_body(hostel.id, guest_count=50), status=201)
    response = owner.post_json("/api/v1/bookings", booking_body(
        hostel.id, guest_count=51, arrival_date="2026-08-01", departure_date="2026-08-02"), status=400)
    assert "at most 50" in details_of(response)["guest_count"]


@pytest.mark.parametrize("email", ["maria", "maria@example", "@example.com", "maria @example.com", ""])
def test_it_refuses_a_malformed_email(owner, villa, email):
    response = owner.post_json("/api/v1/bookings", booking_body(villa.id, guest_email=email), status=400)
    assert "guest_email" in details_of(response)


@pytest.mark.parametrize("field, value", [
    ("source", "airbnb"), ("payment_method", "bitcoin"), ("guest_language", "English"),
    ("total_price", -1), ("total_price", 10.001), ("guest_name", "x" * 201), ("guest_phone", ""),
])
def test_it_refuses_values_outside_the_documented_ones(owner, villa, field, value):
    response = owner.post_json("/api/v1/bookings", booking_body(villa.id, **{field: value}), status=400)
    assert field in details_of(response)


def test_it_refuses_a_booking_for_an_inactive_property(owner, villa):
    properties.update_property(owner.account_id, villa.id, status="inactive")
    response = owner.post_json("/api/v1/bookings", booking_body(villa.id), status=400)
    assert details_of(response)["property_id"].startswith("property is inactive")


def test_a_booking_for_an_unknown_property_is_404(owner):
    response = owner.post_json("/api/v1/bookings", booking_body("prop_nothing"), status=404)
    assert_error(response, 404, "NOT_FOUND")


def test_it_refuses_malformed_json(owner):
    response = owner.post("/api/v1/bookings", '{"guest_name": "Maria"', status=400,
                          content_type="application/json")
    assert_error(response, 400, "INVALID_JSON")


def test_it_refuses_a_body_that_is_not_json(owner, villa):
    response = owner.post("/api/v1/bookings", "guest_name=Maria", status=415,
                          content_type="application/x-www-form-urlencoded")
    assert_error(response, 415, "UNSUPPORTED_MEDIA_TYPE")


def test_it_refuses_a_body_over_one_mebibyte(owner, villa):
    body = booking_body(villa.id, guest_name="x" * (1024 * 1024))
    response = owner.post_json("/api/v1/bookings", body, status=413)
    assert_error(response, 413, "PAYLOAD_TOO_LARGE")


def test_a_json_array_is_not_a_booking(owner):
    response = owner.post("/api/v1/bookings", "[]", status=400, content_type="application/json")
    assert_error(response, 400, "VALIDATION_ERROR")


# --- conflicts -----------------------------------------------------------------------------------

@pytest.mark.parametrize("arrival, departure", [
    ("2026-07-10", "2026-07-14"),  # the same nights
    ("2026-07-08", "2026-07-11"),  # ends inside
    ("2026-07-13", "2026-07-20"),  # starts inside
    ("2026-07-11", "2026-07-12"),  # within
    ("2026-07-01", "2026-07-31"),  # around
])
def test_an_overlapping_booking_is_a_conflict(owner, villa, arrival, departure):
    first = owner.post_json("/api/v1/bookings", booking_body(villa.id), status=201).json["data"]
    response = owner.post_json("/api/v1/bookings", booking_body(
        villa.id, arrival_date=arrival, departure_date=departure), status=409)
    error = assert_error(response, 409, "BOOKING_CONFLICT")
    # Named by its guest and dates; the id is for API clients, in the details.
    assert first["id"] not in error["message"]
    assert error["message"] == (f"The dates overlap the stay of {first['guest_name']} "
                                f"({first['arrival_date']} to {first['departure_date']}).")
    [detail] = error["details"]
    assert (detail["booking_id"], detail["arrival_date"]) == (first["id"], first["arrival_date"])
    assert Booking.select().count() == 1


def test_a_departure_day_can_be_the_next_arrival_day(owner, villa):
    owner.post_json("/api/v1/bookings", booking_body(villa.id), status=201)
    owner.post_json("/api/v1/bookings", booking_body(
        villa.id, arrival_date="2026-07-14", departure_date="2026-07-16"), status=201)
    owner.post_json("/api/v1/bookings", booking_body(
        villa.id, arrival_date="2026-07-08", departure_date="2026-07-10"), status=201)


def test_a_cancelled_booking_frees_its_dates(owner, villa):
    first = owner.post_json("/api/v1/bookings", booking_body(villa.id)).json["data"]
    owner.post(f"/api/v1/bookings/{first['id']}/cancel")
    owner.post_json("/api/v1/bookings", booking_body(villa.id), status=201)


def test_the_same_dates_at_another_property_are_no_conflict(owner, villa):
    other = properties.create_property(owner.account_id, name="Other", address="Oia")
    owner.post_json("/api/v1/bookings", booking_body(villa.id), status=201)
    owner.post_json("/api/v1/bookings", booking_body(other.id), status=201)


def test_a_channel_block_is_a_conflict_without_naming_the_block(owner, villa):
    Booking.create(id="book_block", account=owner.account_id, property=villa.id,
                   guest_name="Not available", channel="airbnb", is_block=True,
                   arrival_date=dt.date(2026, 7, 12), departure_date=dt.date(2026, 7, 20))
    response = owner.post_json("/api/v1/bookings", booking_body(villa.id), status=409)
    error = assert_error(response, 409, "BOOKING_CONFLICT")
    assert "book_block" not in error["message"] and "blocked" in error["message"]


def test_a_refused_booking_writes_no_event(owner, villa):
    owner.post_json("/api/v1/bookings", booking_body(villa.id), status=201)
    owner.post_json("/api/v1/bookings", booking_body(villa.id), status=409)
    owner.post_json("/api/v1/bookings", booking_body(villa.id, guest_count=9), status=400)
    assert [e.type for e in Event.select()] == ["booking.created"]


# --- idempotency ---------------------------------------------------------------------------------

def test_a_retry_with_the_same_idempotency_key_returns_the_first_booking(owner, villa):
    headers = {"Idempotency-Key": "booking-42"}
    first = owner.post_json("/api/v1/bookings", booking_body(villa.id), headers=headers, status=201)
    again = owner.post_json("/api/v1/bookings", booking_body(villa.id), headers=headers, status=201)
    # The guest's link is never kept for a replay: null, and said so.
    assert again.json["data"] == {**first.json["data"], "checkin_url": None}
    assert again.headers["Idempotent-Withheld"] == "checkin_url"
    assert again.headers["Location"] == first.headers["Location"]
    assert Booking.select().count() == 1 and Event.select().count() == 1


def test_a_retry_of_a_conflict_replays_the_stored_409(owner, villa):
    owner.post_json("/api/v1/bookings", booking_body(villa.id), status=201)
    headers = {"Idempotency-Key": "clash-1"}
    first = owner.post_json("/api/v1/bookings", booking_body(villa.id), headers=headers, status=409)
    # Even once the dates are free again, the key answers as it first did.
    Booking.update(status="cancelled").execute()
    again = owner.post_json("/api/v1/bookings", booking_body(villa.id), headers=headers, status=409)
    assert again.body == first.body
    assert Booking.select().count() == 1


def test_the_same_idempotency_key_with_another_booking_is_a_conflict(owner, villa):
    headers = {"Idempotency-Key": "booking-43"}
    owner.post_json("/api/v1/bookings", booking_body(villa.id), headers=headers, status=201)
    response = owner.post_json("/api/v1/bookings", booking_body(villa.id, guest_count=3),
                               headers=headers, status=409)
    assert_error(response, 409, "IDEMPOTENCY_CONFLICT")
    assert Booking.select().count() == 1


@pytest.mark.parametrize("key", ["\xd7", "caf\xc3\xa9", "two words", "k" * 256])
def test_an_idempotency_key_outside_visible_ascii_is_refused_not_a_server_error(owner, villa, key):
    response = owner.post_json("/api/v1/bookings", booking_body(villa.id),
                               headers={"Idempotency-Key": key}, status=400)
    error = assert_error(response, 400, "VALIDATION_ERROR")
    assert error["details"][0]["field"] == "Idempotency-Key"
    assert Booking.select().count() == 0
