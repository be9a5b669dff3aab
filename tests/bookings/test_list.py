"""GET /bookings and GET /bookings/{id}: overlap filters, order, pagination, blocks hidden."""

import datetime as dt

import pytest

from rentalcomply.bookings import service as bookings
from rentalcomply.core.models import Booking
from rentalcomply.properties import service as properties
from tests.helpers import assert_error

D = dt.date.fromisoformat


@pytest.fixture
def stays(owner, villa, rates):
    """Three stays at the villa: 1-5 July, 5-10 July, 20-25 July."""
    def book(arrival, departure, **extra):
        return bookings.create_booking(owner.account_id, rates=rates, property_id=villa.id,
                                       guest_name=f"Guest {arrival}", arrival_date=D(arrival),
                                       departure_date=D(departure), guest_count=2, **extra).id
    return [book("2026-07-01", "2026-07-05"), book("2026-07-05", "2026-07-10"),
            book("2026-07-20", "2026-07-25")]


def listed_ids(actor, query="") -> list[str]:
    return [b["id"] for b in actor.get(f"/api/v1/bookings{query}").json["data"]]


def test_it_lists_every_booking_by_arrival_date(owner, stays):
    response = owner.get("/api/v1/bookings").json
    assert [b["id"] for b in response["data"]] == stays
    assert response["pagination"] == {"page": 1, "limit": 20, "total": 3, "has_more": False}


@pytest.mark.parametrize("query, expected", [
    ("?from=2026-07-05&to=2026-07-05", [1]),       # 1-5 July departs on the 5th: not staying
    ("?from=2026-07-04&to=2026-07-04", [0]),
    ("?from=2026-07-10&to=2026-07-20", [2]),       # arrives on `to`: included
    ("?from=2026-07-09&to=2026-07-19", [1]),
    ("?from=2026-06-01&to=2026-06-30", []),
    ("?from=2026-07-24", [2]),                     # open-ended
    ("?to=2026-07-01", [0]),
    ("?from=2026-06-01&to=2026-07-31", [0, 1, 2]),
])
def test_a_booking_matches_when_its_stay_overlaps_the_range(owner, stays, query, expected):
    assert listed_ids(owner, query) == [stays[i] for i in expected]


def test_it_filters_by_property(owner, villa, stays, rates):
    other = properties.create_property(owner.account_id, name="Other", address="Oia")
    elsewhere = bookings.create_booking(owner.account_id, rates=rates, property_id=other.id,
                                        guest_name="Elsewhere", arrival_date=D("2026-07-01"),
                                        departure_date=D("2026-07-03"), guest_count=1)
    assert listed_ids(owner, f"?property_id={villa.id}") == stays
    assert listed_ids(owner, f"?property_id={other.id}") == [elsewhere.id]


def test_it_filters_by_status_and_checkin_status(owner, stays):
    bookings.cancel_booking(owner.account_id, stays[1])
    Booking.update(checkin_status="COMPLETED").where(Booking.id == stays[2]).execute()
    assert listed_ids(owner, "?status=cancelled") == [stays[1]]
    assert listed_ids(owner, "?status=confirmed") == [stays[0], stays[2]]
    assert listed_ids(owner, "?checkin_status=COMPLETED") == [stays[2]]
    assert listed_ids(owner, "?checkin_status=NOT_STARTED&status=confirmed") == [stays[0]]


def test_bookings_arriving_the_same_day_are_ordered_by_id(owner, rates):
    ids = []
    for number in range(4):
        prop = properties.create_property(owner.account_id, name=f"Flat {number}", address="Athens")
        ids.append(bookings.create_booking(
            owner.account_id, rates=rates, property_id=prop.id, guest_name="Same day",
            arrival_date=D("2026-09-01"), departure_date=D("2026-09-02"), guest_count=1).id)
    assert listed_ids(owner) == sorted(ids)


def test_channel_blocks_are_never_listed_or_shown(owner, villa, stays):
    Booking.create(id="book_block", account=owner.account_id, property=villa.id,
                   guest_name="Not available", channel="airbnb", is_block=True,
                   arrival_date=D("2026-07-12"), departure_date=D("2026-07-15"))
    assert "book_block" not in listed_ids(owner)
    assert "book_block" not in listed_ids(owner, "?from=2026-07-12&to=2026-07-13")
    assert_error(owner.get("/api/v1/bookings/book_block", status=404), 404, "NOT_FOUND")


def test_it_paginates(owner, villa, rates):
    ids = [bookings.create_booking(owner.account_id, rates=rates, property_id=villa.id,
                                   guest_name=f"Guest {day}", arrival_date=dt.date(2026, 8, day),
                                   departure_date=dt.date(2026, 8, day + 1), guest_count=1).id
           for day in range(1, 6)]
    first = owner.get("/api/v1/bookings?limit=2").json
    assert [b["id"] for b in first["data"]] == ids[:2]
    assert first["pagination"] == {"page": 1, "limit": 2, "total": 5, "has_more": True}
    last = owner.get("/api/v1/bookings?limit=2&page=3").json
    assert [b["id"] for b in last["data"]] == ids[4:]
    assert last["pagination"]["has_more"] is False
    beyond = owner.get("/api/v1/bookings?limit=2&page=9").json
    assert beyond["data"] == [] and beyond["pagination"]["total"] == 5


@pytest.mark.parametrize("query, field", [
    ("?from=2026-07-10&to=2026-07-09", "to"),
    ("?from=2026-01-01&to=2027-01-03", "to"),
    ("?from=2026-02-30", "from"),
    ("?to=tomorrow", "to"),
    ("?status=open", "status"),
    ("?checkin_status=done", "checkin_status"),
    ("?page=0", "page"),
    ("?limit=101", "limit"),
    ("?colour=red", "colour"),
])
def test_it_refuses_bad_filters_naming_them(owner, query, field):
    error = assert_error(owner.get(f"/api/v1/bookings{query}", status=400), 400, "VALIDATION_ERROR")
    assert [d["field"] for d in error["details"]] == [field]


def test_a_range_of_exactly_366_days_is_allowed(owner, stays):
    assert listed_ids(owner, "?from=2026-01-01&to=2027-01-02") == stays


def test_filtering_by_an_unknown_property_is_404(owner):
    assert_error(owner.get("/api/v1/bookings?property_id=prop_nothing", status=404), 404, "NOT_FOUND")


def test_it_gets_one_booking(owner, stays):
    data = owner.get(f"/api/v1/bookings/{stays[0]}").json["data"]
    assert data["id"] == stays[0] and data["arrival_date"] == "2026-07-01" and data["nights"] == 4


def test_an_unknown_booking_is_404(owner):
    assert_error(owner.get("/api/v1/bookings/book_nothing", status=404), 404, "NOT_FOUND")


def test_an_empty_property_filter_is_a_validation_error_not_an_unknown_property(owner):
    response = owner.get("/api/v1/bookings?property_id=", status=400)
    assert assert_error(response, 400, "VALIDATION_ERROR")["details"][0]["field"] == "property_id"
