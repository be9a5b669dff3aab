"""New and edited bookings in the dashboard: the API's service functions and rules, the errors on
the form, the check-in e-mail of a walk-in guest queued like a resend."""

from __future__ import annotations

import datetime as dt

from rentalcomply.core import clock
from rentalcomply.core.activity import Activity
from rentalcomply.core.models import Booking, Event
from rentalcomply.properties import service as properties


def _form(browser, path, **values):
    page = browser.get(path)
    return {"csrf": browser.csrf(page), **values}


def _walk_in(prop, **extra):
    arrival = clock.today() + dt.timedelta(days=2)
    return {"property_id": prop.id, "guest_name": "Nikos Walker",
            "arrival_date": arrival.isoformat(),
            "departure_date": (arrival + dt.timedelta(days=1)).isoformat(), "guest_count": "1",
            "guest_email": "nikos@example.com", "guest_phone": "+30 210 1234567",
            "guest_language": "el", "total_price": "85,50", "payment_method": "cash",
            "source": "walk_in", **extra}


def test_a_walk_in_booking_is_made_in_the_page_like_the_api_would(anna, account_a):
    prop = properties.create_property(account_a, name="Sea View", address="Akti 1")
    page = anna.get("/dashboard/bookings")
    assert 'href="/dashboard/bookings/new"' in page.text
    made = anna.post("/dashboard/bookings", _form(anna, "/dashboard/bookings/new", **_walk_in(prop)),
                     status=303)
    booking = Booking.get(Booking.guest_name == "Nikos Walker")
    assert made.location.endswith(f"/dashboard/bookings/{booking.id}?done=booking_created")
    assert (booking.channel, booking.source, booking.total_price_cents, booking.payment_method,
            booking.guest_language) == ("manual", "walk_in", 8550, "cash", "el")
    assert Event.select().where(Event.type == "booking.created").count() == 1
    assert Activity.get().action == "booking.create"
    shown = anna.get(made.location).text
    assert "The booking is made." in shown and "Cash" in shown


def test_asking_for_the_check_in_e_mail_queues_it_like_a_resend(anna, account_a):
    prop = properties.create_property(account_a, name="Sea View", address="Akti 1")
    made = anna.post("/dashboard/bookings", _form(anna, "/dashboard/bookings/new",
                                                  **_walk_in(prop, invite="yes")), status=303)
    assert made.location.endswith("done=booking_created_invited")
    booking = Booking.get(Booking.guest_name == "Nikos Walker")
    assert booking.checkin_status == "INVITED"
    assert sorted(a.action for a in Activity.select()) == ["booking.create", "checkin.resend"]


def test_bad_fields_are_shown_on_the_form_and_nothing_is_made(anna, account_a):
    prop = properties.create_property(account_a, name="Sea View", address="Akti 1", max_guests=2)
    refused = anna.post("/dashboard/bookings", _form(
        anna, "/dashboard/bookings/new",
        **_walk_in(prop, guest_name="", departure_date="someday", guest_count="9",
                   guest_email="not-an-address")), status=400)
    for field in ("guest_name", "departure_date", "guest_email"):
        assert f'id="{field}-error"' in refused.text, field
    assert 'aria-invalid="true"' in refused.text and 'value="not-an-address"' in refused.text
    too_many = anna.post("/dashboard/bookings", _form(
        anna, "/dashboard/bookings/new", **_walk_in(prop, guest_count="9")), status=400)
    assert "must be at most 2" in too_many.text
    assert Booking.select().count() == 0


def test_an_overlapping_stay_is_refused_with_the_apis_message(anna, account_a):
    prop = properties.create_property(account_a, name="Sea View", address="Akti 1")
    anna.post("/dashboard/bookings", _form(anna, "/dashboard/bookings/new", **_walk_in(prop)),
              status=303)
    clash = anna.post("/dashboard/bookings", _form(
        anna, "/dashboard/bookings/new", **_walk_in(prop, guest_name="Second Guest")), status=409)
    assert "overlap" in clash.text and Booking.select().count() == 1


def test_a_booking_is_edited_in_the_page(anna, account_a):
    prop = properties.create_property(account_a, name="Sea View", address="Akti 1")
    anna.post("/dashboard/bookings", _form(anna, "/dashboard/bookings/new", **_walk_in(prop)),
              status=303)
    booking = Booking.get()
    form = anna.get(f"/dashboard/bookings/{booking.id}/edit")
    assert 'value="Nikos Walker"' in form.text and 'value="85.50"' in form.text
    later = booking.departure_date + dt.timedelta(days=2)
    values = _walk_in(prop, departure_date=later.isoformat(), guest_count="3",
                      guest_email="nikos.w@example.com", guest_phone="", payment_method="card")
    del values["property_id"], values["source"]
    anna.post(f"/dashboard/bookings/{booking.id}/edit", {"csrf": anna.csrf(form), **values},
              status=303)
    booking = Booking.get_by_id(booking.id)
    assert (booking.departure_date, booking.guest_count, booking.guest_email, booking.guest_phone,
            booking.payment_method) == (later, 3, "nikos.w@example.com", None, "card")
    assert Event.select().where(Event.type == "booking.updated").count() == 1
    bad = anna.post(f"/dashboard/bookings/{booking.id}/edit",
                    {"csrf": anna.csrf(form), **values, "arrival_date": later.isoformat()},
                    status=400)
    assert 'id="departure_date-error"' in bad.text


def test_another_accounts_booking_cannot_be_edited(anna, boris, account_b):
    prop = properties.create_property(account_b, name="B", address="Elsewhere")
    boris.post("/dashboard/bookings", _form(boris, "/dashboard/bookings/new", **_walk_in(prop)),
               status=303)
    booking = Booking.get()
    anna.get(f"/dashboard/bookings/{booking.id}/edit", status=404)
    anna.post(f"/dashboard/bookings/{booking.id}/edit",
              _form(anna, "/dashboard/today", guest_name="Stolen"), status=404)
    created = anna.post("/dashboard/bookings", _form(anna, "/dashboard/bookings/new",
                                                     **_walk_in(prop)), status=400)
    assert "choose one of your properties" in created.text
    assert Booking.get_by_id(booking.id).guest_name == "Nikos Walker"


def test_a_note_for_the_team_is_kept_with_the_booking_and_checked(anna, account_a):
    prop = properties.create_property(account_a, name="Sea View", address="Akti 1")
    anna.post("/dashboard/bookings", _form(anna, "/dashboard/bookings/new",
                                           **_walk_in(prop, notes="Gate code 1234\r\npays cash")),
              status=303)
    booking = Booking.get()
    page = anna.get(f"/dashboard/bookings/{booking.id}").text
    assert "Notes for the team" in page and "Gate code 1234\npays cash" in page
    form = anna.get(f"/dashboard/bookings/{booking.id}/edit")
    values = _walk_in(prop, notes="bad \x07 bell", guest_name="Changed")
    del values["property_id"], values["source"]
    refused = anna.post(f"/dashboard/bookings/{booking.id}/edit",
                        {"csrf": anna.csrf(form), **values}, status=400)
    assert 'id="notes-error"' in refused.text
    assert Booking.get_by_id(booking.id).guest_name == "Nikos Walker"  # nothing changed
    too_long = anna.post("/dashboard/bookings", _form(anna, "/dashboard/bookings/new",
                                                     **_walk_in(prop, notes="x" * 2001,
                                                                guest_name="")), status=400)
    assert 'id="notes-error"' in too_long.text and 'id="guest_name-error"' in too_long.text
    assert Booking.select().count() == 1
