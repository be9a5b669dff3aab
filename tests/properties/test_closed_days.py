"""Closed days over the API: ranges closed and reopened, read back joined, a day with a booked
night refused with the booking named, another account's property not found."""

import datetime as dt

from rentalcomply.core import clock
from rentalcomply.core.models import PropertyClosedDay
from tests.helpers import assert_error


def _day(offset: int) -> str:
    return (clock.today() + dt.timedelta(days=offset)).isoformat()


def _property(owner):
    return owner.post_json("/api/v1/properties", {
        "name": "Casa Santo Spirito", "address": "Via Maggio 12, 50125 Firenze FI",
        "country": "IT"}, status=201).json["data"]


def test_days_are_closed_and_reopened_and_read_back_as_ranges(owner):
    prop = _property(owner)
    url = f"/api/v1/properties/{prop['id']}/closed-days"
    answer = owner.put_json(url, {"close": [f"{_day(40)}/{_day(44)}", _day(50)]}).json["data"]
    assert answer["data"] == [{"first_day": _day(40), "last_day": _day(44), "days": 5},
                              {"first_day": _day(50), "last_day": _day(50), "days": 1}]
    owner.put_json(url, {"open": [_day(42)], "close": [_day(51)]})
    listed = owner.get(url, {"from": _day(30), "to": _day(60)}).json["data"]
    assert listed["data"] == [{"first_day": _day(40), "last_day": _day(41), "days": 2},
                              {"first_day": _day(43), "last_day": _day(44), "days": 2},
                              {"first_day": _day(50), "last_day": _day(51), "days": 2}]
    assert PropertyClosedDay.select().count() == 6
    owner.put_json(url, {"close": [f"{_day(40)}/{_day(41)}"]})  # already closed: left as it is
    assert PropertyClosedDay.select().count() == 6
    assert owner.get(url).json["data"]["data"][0]["first_day"] == _day(40)


def test_a_day_with_a_booked_night_is_not_closed_and_the_booking_is_named(owner):
    prop = _property(owner)
    booking = owner.post_json("/api/v1/bookings", {
        "property_id": prop["id"], "guest_name": "Giulia Bianchi", "arrival_date": _day(20),
        "departure_date": _day(23), "guest_count": 2}, status=201).json["data"]
    url = f"/api/v1/properties/{prop['id']}/closed-days"
    error = assert_error(owner.put_json(url, {"close": [f"{_day(15)}/{_day(21)}"]}, status=409),
                         409, "BOOKING_CONFLICT")
    assert error["details"] == [{
        "field": "close[0]", "booking_id": booking["id"],
        "message": f"booking {booking['id']} (arrival {_day(20)}, departure {_day(23)}) has a "
                   f"night on {_day(20)}/{_day(21)}"}]
    assert PropertyClosedDay.select().count() == 0
    # The departure day has no night of the stay: it can close.
    assert owner.put_json(url, {"close": [f"{_day(23)}/{_day(24)}"]}).json["data"]["data"] \
        == [{"first_day": _day(23), "last_day": _day(24), "days": 2}]
    owner.post_json(f"/api/v1/bookings/{booking['id']}/cancel", {}, status=200)
    owner.put_json(url, {"close": [_day(21)]})


def test_bad_ranges_are_refused_naming_them(owner):
    prop = _property(owner)
    url = f"/api/v1/properties/{prop['id']}/closed-days"
    for body, field in (({"close": ["2027-02-30"]}, "close[0]"),
                        ({"close": [f"{_day(5)}/{_day(2)}"]}, "close[0]"),
                        ({"close": ["tomorrow"]}, "close"),
                        ({"close": [_day(3)], "open": [_day(3)]}, "open"),
                        ({}, "close")):
        error = assert_error(owner.put_json(url, body, status=400), 400, "VALIDATION_ERROR")
        assert [d["field"] for d in error["details"]] == [field], (body, error)
    error = assert_error(owner.get(url, {"from": _day(0), "to": _day(900)}, status=400), 400,
                         "VALIDATION_ERROR")


def test_another_accounts_property_is_not_found(owner, outsider, reader):
    prop = _property(owner)
    url = f"/api/v1/properties/{prop['id']}/closed-days"
    assert_error(outsider.get(url, status=404), 404, "NOT_FOUND")
    assert_error(outsider.put_json(url, {"close": [_day(3)]}, status=404), 404, "NOT_FOUND")
    assert_error(reader.put_json(url, {"close": [_day(3)]}, status=403), 403,
                 "INSUFFICIENT_SCOPE")
    assert reader.get(url).json["data"]["data"] == []
