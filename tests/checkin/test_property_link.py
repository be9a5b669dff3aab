"""The property's check-in link: the guest names their booking and lands on its page."""

import datetime as dt

from rentalcomply.bookings.reference import short_reference
from rentalcomply.checkin import links, service
from rentalcomply.checkin.models import Checkin
from rentalcomply.core.models import Booking
from rentalcomply.properties import service as properties
from rentalcomply.sync import service as sync
from rentalcomply.sync.fetch import FetchOptions
from rentalcomply.sync.options import SyncOptions
from tests.checkin.conftest import upcoming
from tests.conftest import documented_app
from tests.sync.conftest import FeedServer, calendar, event


def _path(prop) -> str:
    return "/checkin/p/" + links.property_token(prop)


def _find(guest_page, prop, status=303, lang="en", **fields):
    return guest_page.post(_path(prop) + f"?lang={lang}", fields, status=status)


def test_a_channel_code_and_the_arrival_date_open_the_bookings_page(guest_page, make_booking):
    booking = make_booking("GR", guest_email=None)
    Booking.update(external_ref="HMABCD2345", channel="airbnb").where(
        Booking.id == booking.id).execute()
    prop = Booking.get_by_id(booking.id).property
    answer = _find(guest_page, prop, reference=" hm-abcd 2345 ",
                   arrival=booking.arrival_date.isoformat())
    assert answer.headers["Location"].endswith(
        f"/checkin/{service.token_for(booking.id)}?lang=en")
    assert "Online check-in" in answer.follow().text


def test_the_bookings_own_reference_or_the_phones_last_digits_work_too(guest_page, make_booking):
    booking = make_booking("GR", guest_phone="+30 690 123 4567")
    prop = booking.property
    _find(guest_page, prop, reference=short_reference(booking.id).lower(),
          arrival=booking.arrival_date.isoformat())
    _find(guest_page, prop, reference=short_reference(booking.id), phone_last4="4567")
    Booking.update(external_ref="HMZZZZ9999", guest_phone_last4="8812").where(
        Booking.id == booking.id).execute()
    _find(guest_page, prop, reference="HMZZZZ9999", phone_last4="8812")


def test_nothing_is_shown_before_a_match(guest_page, make_booking):
    booking = make_booking("GR", guest_email=None)
    prop = booking.property
    wrong_date = _find(guest_page, prop, status=422, reference=short_reference(booking.id),
                       arrival=(booking.arrival_date + dt.timedelta(days=1)).isoformat())
    wrong_code = _find(guest_page, prop, status=422, reference="HMNOPE1234",
                       arrival=booking.arrival_date.isoformat())
    for answer in (wrong_date, wrong_code):
        assert "We found no current booking with these details" in answer.text
        assert "Maria" not in answer.text and "Online check-in" not in answer.text
    missing = _find(guest_page, prop, status=422, reference="HMNOPE1234")
    assert "Enter the reference" in missing.text


def test_cancelled_bookings_and_past_stays_do_not_match(guest_page, make_booking, owner,
                                                       frozen_clock):
    cancelled = make_booking("GR")
    prop = cancelled.property
    owner.post(f"/api/v1/bookings/{cancelled.id}/cancel")
    _find(guest_page, prop, status=422, reference=short_reference(cancelled.id),
          arrival=cancelled.arrival_date.isoformat())
    past = make_booking("GR", prop=prop, arrival_in=30)
    frozen_clock.travel(dt.timedelta(days=36))  # the day after its departure
    _find(guest_page, prop, status=422, reference=short_reference(past.id),
          arrival=past.arrival_date.isoformat())


def test_the_tenth_wrong_try_is_limited(guest_page, make_booking):
    booking = make_booking("GR")
    prop = booking.property
    for _ in range(9):
        _find(guest_page, prop, status=422, reference="HMWRONG123",
              arrival=booking.arrival_date.isoformat())
    limited = _find(guest_page, prop, status=429, reference=short_reference(booking.id),
                    arrival=booking.arrival_date.isoformat())
    assert "Too many attempts" in limited.text and int(limited.headers["Retry-After"]) > 0


def test_the_page_speaks_the_guests_language(guest_page, make_property):
    prop = make_property("GR")
    page = guest_page.get(_path(prop), headers={"Accept-Language": "de-DE,de;q=0.9"})
    assert '<html lang="de">' in page.text and "Ihre Buchung finden" in page.text
    assert "Trovi la Sua prenotazione" in guest_page.get(_path(prop) + "?lang=it").text
    assert " style=" not in page.text and "<script>" not in page.text


def test_an_unknown_property_link_is_a_friendly_404(guest_page, make_property):
    prop = make_property("GR")
    guest_page.get(f"/checkin/p/{prop.id}-{'0' * 32}", status=404)
    guest_page.get("/checkin/p/nothing", status=404)
    guest_page.post("/checkin/p/nothing", {"reference": "x"}, status=404)


def test_a_feed_stays_phone_digits_are_read():
    from rentalcomply.sync.parse import _stay
    stay = _stay("uid", upcoming(3), upcoming(5), "Reserved",
                 "Reservation URL: https://www.airbnb.com/hosting/reservations/details/HMQ8Z3KX2P\n"
                 "Phone Number (Last 4 Digits): 0427", "airbnb")
    assert (stay.external_ref, stay.phone_last4) == ("HMQ8Z3KX2P", "0427")


def test_a_synced_feed_booking_has_its_link_row_at_once(settings, account_a, make_property):
    prop = make_property("GR")
    feeds = FeedServer()
    try:
        arrival = upcoming(9)
        feeds.serve("/a.ics", calendar(event("u1@airbnb.com", arrival.strftime("%Y%m%d"),
                                             upcoming(11).strftime("%Y%m%d"), "Reserved")))
        properties.add_channel(account_a, prop.id, provider="airbnb", ical_url=feeds.url("/a.ics"),
                               allow_private_addresses=True)
        sync.sync_account(account_a, SyncOptions(fetch=FetchOptions(allow_private=True)))
    finally:
        feeds.stop()
    booking = Booking.get(Booking.property == prop.id)
    row = Checkin.get(Checkin.booking == booking.id)  # BOOKINGS_IMPORTED, in the sync's transaction
    assert row.token_hash == service.token_hash(service.token_for(booking.id))


def _from(guest_page, address: str):
    visitor = documented_app(guest_page.app)
    visitor.extra_environ = {**guest_page.extra_environ, "REMOTE_ADDR": address}
    return visitor


def test_wrong_answers_from_anywhere_never_lock_out_the_guest_who_knows_the_booking(
        guest_page, make_booking, settings):
    booking = make_booking("GR")
    prop = booking.property
    right = dict(reference=short_reference(booking.id), arrival=booking.arrival_date.isoformat())
    cap = settings.checkin.find_attempts_per_property
    # The property's cap filled by many addresses, each under its own limit.
    for number in range(cap):
        _find(_from(guest_page, f"198.51.100.{number // 3 + 1}"), prop, status=422,
              reference=f"HMWRONG{number:03d}", arrival=booking.arrival_date.isoformat())
    refused = _find(_from(guest_page, "203.0.113.50"), prop, status=429, reference="HMWRONG999",
                    arrival=booking.arrival_date.isoformat())
    assert int(refused.headers["Retry-After"]) > 0
    # The real guest, from a fresh address or from one that mistyped before, still gets in.
    for address in ("203.0.113.7", "198.51.100.1", "203.0.113.50"):
        answer = _find(_from(guest_page, address), prop, **right)
        assert answer.headers["Location"].endswith(
            f"/checkin/{service.token_for(booking.id)}?lang=en")
    # ... and wrong answers are still refused meanwhile.
    _find(_from(guest_page, "203.0.113.8"), prop, status=429, reference="HMWRONG998",
          arrival=booking.arrival_date.isoformat())
