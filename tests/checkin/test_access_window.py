"""Access instructions for the stay only: from their opening to the departure day's check-out
hour, never for a cancelled booking or a stay moved out of the window; every showing recorded."""

import datetime as dt
import zoneinfo

import pytest

from rentalcomply.checkin import access, i18n, tasks
from rentalcomply.core import clock
from rentalcomply.core.activity import Activity
from rentalcomply.core.models import Booking, Property
from tests.checkin.test_access import (INSTRUCTIONS, complete, guest, invited, opens_at,  # noqa: F401
                                       set_access, stay, travel_to)
from tests.checkin.conftest import token_of

ATHENS = zoneinfo.ZoneInfo("Europe/Athens")


def checkout_at(booking, hour: int = 11) -> dt.datetime:
    """`hour` o'clock at Athens on the departure date, in UTC."""
    local = dt.datetime.combine(booking.departure_date, dt.time(hour), tzinfo=ATHENS)
    return local.astimezone(dt.timezone.utc).replace(tzinfo=None)


def page_of(guest, booking, lang: str = "en") -> str:  # noqa: F811
    return guest.get(f"/checkin/{token_of(booking)}?lang={lang}").text


def showings(booking) -> list[Activity]:
    return list(Activity.select().where((Activity.resource_id == booking.id)
                                        & (Activity.actor_type == "guest"))
                .order_by(Activity.created_at))


def test_a_stay_under_way_sees_them(guest, owner, stay):  # noqa: F811
    complete(owner, stay)
    travel_to(checkout_at(stay) - dt.timedelta(days=1))  # the last night
    assert "code 481273" in page_of(guest, stay)


def test_they_are_shown_until_the_check_out_hour_and_not_a_second_after(guest, owner, stay):  # noqa: F811
    complete(owner, stay)
    travel_to(checkout_at(stay) - dt.timedelta(seconds=1))
    assert "code 481273" in page_of(guest, stay)
    clock.travel(dt.timedelta(seconds=1))
    page = page_of(guest, stay)
    assert "code 481273" not in page
    day = i18n.format_date("en", stay.departure_date)
    assert f"were shown here until check-out on {day} at 11:00" in page


def test_the_check_out_hour_is_the_propertys_own(guest, owner, stay):  # noqa: F811
    shown = set_access(owner, stay.property_id, checkout_hour=10).json["data"]
    assert shown["checkout_hour"] == 10
    complete(owner, stay)
    travel_to(checkout_at(stay, 10) - dt.timedelta(seconds=1))
    assert "code 481273" in page_of(guest, stay)
    travel_to(checkout_at(stay, 10))
    assert "code 481273" not in page_of(guest, stay)


@pytest.mark.parametrize("hour", [-1, 24, "11", None, True])
def test_a_check_out_hour_outside_0_to_23_is_400(owner, stay, hour):  # noqa: F811
    refused = set_access(owner, stay.property_id, status=400, checkout_hour=hour)
    assert refused.json["error"]["details"][0]["field"] == "checkout_hour"


def test_the_check_out_hour_defaults_to_11(owner, make_property):
    prop = make_property("GR")
    assert owner.get(f"/api/v1/properties/{prop.id}").json["data"]["checkout_hour"] == 11


def test_a_stay_that_ended_yesterday_sees_no_code_even_one_changed_since(guest, owner, stay):  # noqa: F811
    complete(owner, stay)
    travel_to(checkout_at(stay) + dt.timedelta(days=1))
    set_access(owner, stay.property_id, access_instructions="Next guests: code 773190.")
    page = page_of(guest, stay)  # the link still opens: it lives until the day after departure
    assert "773190" not in page and "481273" not in page
    assert "were shown here until check-out" in page
    assert showings(stay) == []


def test_a_cancelled_booking_sees_nothing_and_is_sent_nothing(guest, owner, stay, settings,  # noqa: F811
                                                              smtp_server):
    complete(owner, stay)
    travel_to(opens_at(stay) + dt.timedelta(hours=1))
    owner.post(f"/api/v1/bookings/{stay.id}/cancel")
    set_access(owner, stay.property_id, access_instructions="Changed: code 5550.")
    assert guest.get(f"/checkin/{token_of(stay)}", status=410)
    booking = Booking.get_by_id(stay.id)
    assert access.for_guest(booking, Property.get_by_id(booking.property_id), 14).state == "none"
    assert access.send_if_due(settings, stay.id) is False
    assert tasks.send_due_access_instructions.call_local() == 0
    assert showings(stay) == []


def test_a_stay_moved_out_of_the_window_no_longer_sees_them(guest, owner, stay):  # noqa: F811
    complete(owner, stay)
    travel_to(opens_at(stay) + dt.timedelta(hours=1))
    assert "code 481273" in page_of(guest, stay)
    later = {"arrival_date": (stay.arrival_date + dt.timedelta(days=20)).isoformat(),
             "departure_date": (stay.departure_date + dt.timedelta(days=20)).isoformat()}
    owner.patch_json(f"/api/v1/bookings/{stay.id}", later)
    assert "code 481273" not in page_of(guest, stay)


def test_a_check_in_completed_early_is_not_e_mailed_once_the_stay_is_over(owner, stay,  # noqa: F811
                                                                          smtp_server):
    complete(owner, stay)
    travel_to(checkout_at(stay))
    assert tasks.send_due_access_instructions.call_local() == 0
    assert not [m for m in smtp_server.messages if m["Subject"].startswith("How to get into")]


def test_every_showing_is_recorded_with_the_booking(guest, owner, stay, smtp_server):  # noqa: F811
    complete(owner, stay)
    travel_to(opens_at(stay))
    assert tasks.send_due_access_instructions.call_local() == 1
    page_of(guest, stay)
    page_of(guest, stay, "el")
    rows = showings(stay)
    assert [(row.actor_label, row.action) for row in rows] == [
        ("e-mail to m***@example.com", "access_instructions.emailed"),
        ("guest page", "access_instructions.shown"),
        ("guest page", "access_instructions.shown")]
    assert {row.actor_id for row in rows} == {stay.id}
    assert all("481273" not in row.action + row.actor_label for row in rows)

