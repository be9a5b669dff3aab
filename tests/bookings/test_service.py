"""The booking functions the command line, the demo and the sync call, without HTTP."""

import datetime as dt

import pytest

from rentalcomply.bookings import service as bookings
from rentalcomply.core.errors import BookingConflict, NotFound, ValidationError
from rentalcomply.core.models import Booking, Event


def book(account_id, rates, property_id, **overrides):
    fields = dict(property_id=property_id, guest_name="Maria", arrival_date="2026-07-10",
                  departure_date="2026-07-14", guest_count=2)
    fields.update(overrides)
    return bookings.create_booking(account_id, rates=rates, **fields)


def test_create_booking_takes_dates_as_iso_text_or_dates(owner, villa, rates):
    first = book(owner.account_id, rates, villa.id)
    second = book(owner.account_id, rates, villa.id, arrival_date=dt.date(2026, 8, 1),
                  departure_date=dt.date(2026, 8, 3), total_price=100)
    assert first.nights == 4 and second.total_price_cents == 10000
    assert [e.type for e in Event.select()] == ["booking.created", "booking.created"]


def test_create_booking_refuses_what_the_api_would_refuse(owner, villa, rates):
    with pytest.raises(ValidationError) as caught:
        book(owner.account_id, rates, villa.id, guest_name=" ", arrival_date="2026-02-30",
             guest_count=0, guest_email="nobody", total_price=1.234, payment_method="iou")
    assert {d["field"] for d in caught.value.details} == {
        "guest_name", "arrival_date", "guest_count", "guest_email", "total_price", "payment_method"}
    with pytest.raises(ValidationError):
        book(owner.account_id, rates, villa.id, source="fax")
    assert Booking.select().count() == 0


def test_create_booking_raises_conflict_and_not_found(owner, outsider, villa, rates):
    book(owner.account_id, rates, villa.id)
    with pytest.raises(BookingConflict):
        book(owner.account_id, rates, villa.id, arrival_date="2026-07-13", departure_date="2026-07-15")
    with pytest.raises(NotFound):
        book(outsider.account_id, rates, villa.id, arrival_date="2026-09-01",
             departure_date="2026-09-02")
    assert Booking.select().count() == 1 and Event.select().count() == 1


def test_list_bookings_is_a_query_of_the_accounts_own(owner, outsider, villa, rates):
    mine = book(owner.account_id, rates, villa.id)
    assert [b.id for b in bookings.list_bookings(owner.account_id)] == [mine.id]
    assert list(bookings.list_bookings(outsider.account_id)) == []
    assert bookings.list_bookings(owner.account_id, date_from=dt.date(2026, 7, 14)).count() == 0


def test_update_booking_refuses_unknown_fields(owner, villa, rates):
    booking = book(owner.account_id, rates, villa.id)
    with pytest.raises(ValidationError):
        bookings.update_booking(owner.account_id, booking.id, rates=rates, status="cancelled")


def test_update_booking_recomputes_the_fee_only_when_dates_or_price_change(owner, villa, rates):
    booking = book(owner.account_id, rates, villa.id)
    assert booking.climate_fee_cents == 3200
    free = bookings.update_booking(owner.account_id, booking.id, rates=rates, total_price=0)
    assert free.climate_fee_cents == 0
    paid = bookings.update_booking(owner.account_id, booking.id, rates=rates, total_price=None)
    assert paid.climate_fee_cents == 3200


def test_cancel_booking_is_idempotent(owner, villa, rates):
    booking = book(owner.account_id, rates, villa.id)
    first = bookings.cancel_booking(owner.account_id, booking.id)
    again = bookings.cancel_booking(owner.account_id, booking.id)
    assert first.cancelled_at == again.cancelled_at
    assert [e.type for e in Event.select()].count("booking.cancelled") == 1


def test_get_booking_of_another_account_is_not_found(owner, outsider, villa, rates):
    booking = book(owner.account_id, rates, villa.id)
    assert bookings.get_booking(owner.account_id, booking.id).id == booking.id
    with pytest.raises(NotFound):
        bookings.get_booking(outsider.account_id, booking.id)


def test_money_is_shown_in_euros_with_two_decimals(owner, villa, rates):
    booking = book(owner.account_id, rates, villa.id, total_price=19.99)
    view = bookings.booking_view(booking)
    assert view["total_price"] == 19.99 and view["climate_fee"] == 32.0 and view["currency"] == "EUR"
