"""A booking whose dates overlap another stay is refused naming that stay's guest and dates,
in the page's language; the API says the same and keeps the other booking's id in the details."""

from __future__ import annotations

import re

from rentalcomply.bookings import service as bookings
from rentalcomply.core.models import Booking
from rentalcomply.properties import service as properties
from tests.dashboard.test_booking_forms import _form, _walk_in


def test_the_overlap_names_the_other_guest_and_dates_not_an_id(anna, account_a):
    prop = properties.create_property(account_a, name="Sea View", address="Akti 1")
    anna.post("/dashboard/bookings", _form(anna, "/dashboard/bookings/new", **_walk_in(
        prop, guest_name="Luca Ferrari")), status=303)
    first = Booking.get()
    clash = anna.post("/dashboard/bookings", _form(
        anna, "/dashboard/bookings/new", **_walk_in(prop, guest_name="Second Guest")), status=409)
    notice = re.sub(r"\s+", " ", clash.html.find(class_="notice").get_text(" "))
    assert "The dates overlap the stay of Luca Ferrari, " in notice
    assert str(first.arrival_date.day) in notice and "Choose other dates" in notice
    assert first.id not in clash.text.split("<main")[1] and "book_" not in notice
    greek = anna.post("/dashboard/bookings?lang=el", _form(
        anna, "/dashboard/bookings/new?lang=el", **_walk_in(prop, guest_name="Second Guest")),
        status=409)
    notice = greek.html.find(class_="notice").get_text(" ")
    assert "επικαλύπτουν τη διαμονή του/της Luca Ferrari" in notice
    assert Booking.select().count() == 1


def test_the_apis_overlap_error_keeps_the_id_in_its_details(owner, anna, account_a):
    prop = properties.create_property(account_a, name="Sea View", address="Akti 1")
    body = {key: value for key, value in _walk_in(prop, guest_name="Luca Ferrari").items()
            if key in ("property_id", "guest_name", "arrival_date", "departure_date")}
    body["guest_count"] = 1
    first = owner.post_json("/api/v1/bookings", body, status=201).json["data"]
    error = owner.post_json("/api/v1/bookings", body, status=409).json["error"]
    assert error["message"] == (f"The dates overlap the stay of Luca Ferrari "
                                f"({first['arrival_date']} to {first['departure_date']}).")
    assert error["details"][0]["booking_id"] == first["id"]


def test_an_imported_reservation_that_overlaps_names_the_stay_not_its_id(anna, account_a,
                                                                        settings):
    from rentalcomply.bookings.fees import FeeRates
    from tests.imports.conftest import booking_xls
    from tests.imports.test_dashboard import upload
    properties.create_property(account_a, name="Studio Plaka", address="Adrianou 12",
                               aade_property_id="00000000001", max_guests=4)
    walk_in = bookings.create_booking(
        account_a, rates=FeeRates.from_settings(settings),
        property_id=properties.list_properties(account_a)[0].id, guest_name="Walk In",
        arrival_date="2026-07-21", departure_date="2026-07-23", guest_count=1)
    preview = upload(anna, booking_xls())
    main = preview.text.split("<main")[1]
    assert "the dates overlap booking Walk In, 21" in re.sub(r"\s+", " ", preview.html.find(
        "main").get_text(" ")) and walk_in.id not in main.replace(f"/{walk_in.id}", "")
