"""A property's region, rooms, beds and closed days on the dashboard: the form's select
preselected with the region read from the address and its hint, the host's choice kept, Today's
"Needs a person" and the morning e-mail asking for an unknown region or missing rooms and beds,
the closed days' form (closed, reopened, refused over a booked night), in English and Greek."""

from __future__ import annotations

import datetime as dt
import re

from rentalcomply.core import clock
from rentalcomply.core.models import PropertyClosedDay
from rentalcomply.dashboard import i18n, morning, problems, service
from rentalcomply.properties import service as properties
from rentalcomply.bookings import service as bookings
from rentalcomply.bookings.fees import FeeRates
from rentalcomply.core.db import atomic
from tests.dashboard.property_fields import shown_fields


def _italian(account_id, name="Casa Santo Spirito", address="Via Maggio 12, 50125 Firenze FI",
             **extra):
    return properties.create_property(account_id, name=name, address=address, country="IT",
                                      cin="IT048017C2ABCDEFGH", **extra)


def _form(anna, prop, **changes):
    page = anna.get(f"/dashboard/properties/{prop.id}?lang=en")
    return {"csrf": anna.csrf(page), "name": prop.name, "address": prop.address,
            "country": prop.country, "timezone": prop.timezone, "max_guests": "",
            "police_connector": prop.police_connector, "status": prop.status,
            "region": prop.region or "", "rooms": "" if prop.rooms is None else str(prop.rooms),
            "beds": "" if prop.beds is None else str(prop.beds), "cin": prop.cin or "", **changes}


def _select(text: str) -> str:
    return text[text.index('<select id="region"'):text.index('</select>',
                                                          text.index('<select id="region"'))]


def test_the_form_preselects_the_region_read_from_the_address_and_says_so(anna, account_a):
    prop = _italian(account_a)
    page = anna.get(f"/dashboard/properties/{prop.id}?lang=en").text
    assert '<option value="IT-52" selected>Toscana (Tuscany)</option>' in _select(page)
    assert "Read from the address: Toscana (Tuscany)." in page
    # Saving the form unchanged keeps it the address's: a new address reads it again.
    anna.post(f"/dashboard/properties/{prop.id}",
              _form(anna, prop, address="Via Torino 3, 20123 Milano MI"), status=303)
    moved = properties.get_property(account_a, prop.id)
    assert (moved.region, moved.region_source) == ("IT-25", "address")
    anna.post(f"/dashboard/properties/{prop.id}", _form(anna, moved, region="IT-21"), status=303)
    chosen = properties.get_property(account_a, prop.id)
    assert (chosen.region, chosen.region_source) == ("IT-21", "host")
    assert "Chosen by you: kept when the address changes." in \
        anna.get(f"/dashboard/properties/{prop.id}?lang=en").text


def test_a_greek_property_is_not_asked_a_region_nor_rooms(anna, account_a):
    prop = properties.create_property(account_a, name="Studio Athinas", address="Athinas 5")
    page = anna.get(f"/dashboard/properties/{prop.id}?lang=en")
    assert not {"region", "rooms", "beds"} & shown_fields(page)
    assert 'id="closed-days"' not in page.text


def test_needs_a_person_asks_the_region_and_the_rooms_and_beds_in_words(anna, account_a):
    unsure = _italian(account_a, name="Casa Castro", address="Via Litoranea 4, 73030 Castro")
    _italian(account_a, name="Casa Completa", rooms=2, beds=4)
    spanish = properties.create_property(account_a, name="Piso Sol", address="Calle Sol 1",
                                         country="ES", timezone="Europe/Madrid")
    day = service.today(account_a)
    assert [p.id for p in day.region_missing] == [unsure.id, spanish.id]
    assert [p.name for p in day.capacity_missing] == ["Casa Castro"]
    text = anna.get("/dashboard/today?lang=en").text
    listed = text[text.index('id="region-missing"'):text.index("</ul>",
                                                              text.index('id="region-missing"'))]
    assert f'href="/dashboard/properties/{unsure.id}#region">Choose the region</a>' in listed
    assert "Piso Sol" in listed and "Casa Completa" not in listed
    assert "which region" in listed
    capacity = text[text.index('id="capacity-missing"'):]
    assert f'href="/dashboard/properties/{unsure.id}#rooms">Enter rooms and beds</a>' in capacity
    greek = anna.get("/dashboard/today?lang=el").text
    assert "Καταλύματα με άγνωστη περιφέρεια" in greek
    sections = dict(morning.lines(day, "en", i18n.Formatter("en"),
                                  "https://rentals.example.org/dashboard"))
    first, second = sections["Properties whose region is unknown"]
    assert (first.label, first.details) == ("Casa Castro", problems.REGION_MISSING)
    assert first.url == f"https://rentals.example.org/dashboard/properties/{unsure.id}#region"
    [capacity] = sections["Italian properties without rooms and beds"]
    assert capacity.url.endswith(f"/properties/{unsure.id}#rooms")


def test_days_are_closed_and_reopened_on_the_property_page(anna, account_a):
    prop = _italian(account_a)
    first = clock.today() + dt.timedelta(days=10)
    page = anna.get(f"/dashboard/properties/{prop.id}?lang=en")
    anna.post(f"/dashboard/properties/{prop.id}/closed-days", {
        "csrf": anna.csrf(page), "first_day": first.isoformat(),
        "last_day": (first + dt.timedelta(days=4)).isoformat(), "action": "close"}, status=303)
    assert PropertyClosedDay.select().count() == 5
    page = anna.get(f"/dashboard/properties/{prop.id}?lang=en")
    listed = page.text[page.text.index('id="closed-day-list"'):]
    assert "(5 days)" in listed[:listed.index("</ul>")]
    anna.post(f"/dashboard/properties/{prop.id}/closed-days", {
        "csrf": anna.csrf(page), "first_day": (first + dt.timedelta(days=1)).isoformat(),
        "last_day": "", "action": "open"}, status=303)
    assert PropertyClosedDay.select().count() == 4


def test_a_day_with_a_booked_night_is_refused_and_the_booking_linked(anna, account_a, settings):
    prop = _italian(account_a)
    arrival = clock.today() + dt.timedelta(days=20)
    with atomic():
        booking = bookings.create_booking(account_a, rates=FeeRates.from_settings(settings),
                                          property_id=prop.id, guest_name="Giulia Bianchi",
                                          arrival_date=arrival, guest_count=2,
                                          departure_date=arrival + dt.timedelta(days=3))
    page = anna.get(f"/dashboard/properties/{prop.id}?lang=el")
    refused = anna.post(f"/dashboard/properties/{prop.id}/closed-days?lang=el", {
        "csrf": anna.csrf(page), "first_day": arrival.isoformat(), "last_day": "",
        "action": "close"}, status=409).text
    notice = refused[refused.index('id="closed-days-conflict"'):]
    assert "Μια κράτηση έχει διανυκτέρευση" in notice
    assert f'href="/dashboard/bookings/{booking.id}"' in notice[:notice.index("</div>")]
    assert PropertyClosedDay.select().count() == 0
    bad = anna.post(f"/dashboard/properties/{prop.id}/closed-days?lang=en", {
        "csrf": anna.csrf(page), "first_day": arrival.isoformat(),
        "last_day": (arrival - dt.timedelta(days=2)).isoformat(), "action": "close"},
        status=400).text
    assert re.search(r'id="closed-last_day-error">ends before it starts<', bad)
