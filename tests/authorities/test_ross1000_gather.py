"""A property's ROSS 1000 month read from the database (authorities/ross1000/gather.py): the
bookings overlapping the month, their completed check-ins mapped to the authority's codes, the
rooms, beds and closed days; what cannot be coded held back with why, never guessed."""

from __future__ import annotations

import datetime as dt
import json

import pytest

from rentalcomply.authorities.ross1000 import gather, movement, xmlfile
from rentalcomply.bookings import service as bookings
from rentalcomply.bookings.fees import FeeRates
from rentalcomply.checkin import service as checkin
from rentalcomply.checkin.models import Checkin
from rentalcomply.core import clock, sealing
from rentalcomply.core.db import atomic
from rentalcomply.core.models import PropertyClosedDay
from rentalcomply.properties import service as properties
from tests.conftest import bootstrapped_settings

ROME, MILAN, NAPLES = "412058091", "403015146", "415063049"
GERMANY = "100000216"


@pytest.fixture
def settings(tmp_path):
    with bootstrapped_settings(tmp_path) as settings:
        yield settings


@pytest.fixture
def month():
    """Next month (by the product clock): first day, last day."""
    today = clock.today()
    first = (today.replace(day=1) + dt.timedelta(days=32)).replace(day=1)
    return first, movement.days_of(first.year, first.month)[-1]


@pytest.fixture
def prop(settings, account_a):
    prop = properties.create_property(account_a, name="Casa Limone", address="Via Roma 1",
                                      country="IT", max_guests=6)
    prop.rooms, prop.beds = 2, 4
    prop.save()
    return prop


def book(settings, prop, arrival, nights, guest_count=1):
    return bookings.create_booking(
        prop.account_id, rates=FeeRates.from_settings(settings), property_id=prop.id,
        guest_name="Giulia Bianchi", guest_email="giulia@example.com", arrival_date=arrival,
        departure_date=arrival + dt.timedelta(days=nights), guest_count=guest_count)


def italian(first="Giulia", relationship="single", **extra):
    guest = {"first_name": first, "last_name": "Bianchi", "sex": "F", "birth_date": "1979-03-12",
             "birth_country": "IT", "birth_municipality": "Roma", "birth_province": "RM",
             "nationality": "IT", "relationship": relationship, "document_type": "passport",
             "document_number": "YA1234567", "document_country": "IT",
             "document_issue_place": "Roma"}
    guest.update(extra)
    return guest


def german(first="Jonas", relationship="single"):
    return {"first_name": first, "last_name": "Weber", "sex": "M", "birth_date": "1990-11-02",
            "birth_country": "DE", "nationality": "DE", "relationship": relationship,
            "document_type": "passport", "document_number": "C01X00T47", "document_country": "DE",
            "document_issue_place": "Berlin"}


def check_in(booking, guests, residence):
    """The party through the guests API, then each guest's residence as the Italian guest page
    asks it (residence_country, residence_comune and residence_province, residence_place)."""
    guests[0] = {**guests[0], "phone": "+39 333 123 4567"}
    checkin.put_guests(booking.account_id, booking.id, guests)
    with atomic():
        row = Checkin.get(Checkin.booking == booking.id)
        party = checkin.load_party(row)
        for values, extra in zip(party["guests"], residence):
            values.update(extra)
        row.guests_sealed = sealing.seal(checkin.SEAL_PURPOSE + booking.id,
                                         json.dumps(party).encode("utf-8"))
        row.save()


IN_ROME = {"residence_country": "IT", "residence_comune": "Roma", "residence_province": "RM"}
IN_BERLIN = {"residence_country": "DE", "residence_place": "Berlin"}


def test_a_month_of_bookings_becomes_the_month_input(settings, prop, month):
    first, last = month
    single = book(settings, prop, first + dt.timedelta(days=2), 3)
    check_in(single, [italian()], [IN_ROME])
    family = book(settings, prop, first + dt.timedelta(days=9), 4, guest_count=2)
    check_in(family, [german(relationship="head_of_family"),
                      german("Lena", relationship="family_member")], [IN_BERLIN, IN_BERLIN])
    # Across the month's end: its nights here are counted, its departure is next month's.
    across = book(settings, prop, last - dt.timedelta(days=1), 4)
    check_in(across, [italian(first="Marco")],
             [{"residence_country": "IT", "residence_comune": "Milano",
               "residence_province": "MI"}])
    cancelled = book(settings, prop, first + dt.timedelta(days=20), 2)
    bookings.cancel_booking(prop.account_id, cancelled.id)
    closed = first + dt.timedelta(days=15)
    PropertyClosedDay.create(property=prop.id, day=closed)

    gathered = gather.month_input(prop, first.year, first.month, " 042 ")
    assert gathered.complete, (gathered.incomplete, gathered.missing)
    data = gathered.input
    assert (data.structure_code, data.year, data.month) == ("042", first.year, first.month)
    assert (data.rooms_available, data.beds_available) == (2, 4)
    assert data.closed_days == frozenset({closed})
    by_arrival = {stay.arrival: stay for stay in data.stays}
    assert by_arrival[first + dt.timedelta(days=20)].cancelled

    rome = by_arrival[single.arrival_date].guests[0]
    assert rome.idswh == gather.idswh(single.id, 0) and len(rome.idswh) <= 20
    assert (rome.guest_type, rome.sex, rome.citizenship, rome.residence_country,
            rome.residence_place, rome.residence_province, rome.birth_country,
            rome.birth_comune) == ("16", "F", "100000100", "100000100", ROME, "RM", "100000100",
                                   ROME)
    assert (rome.document.kind, rome.document.issued_at) == ("PASOR", ROME)

    head, member = by_arrival[family.arrival_date].guests
    assert (head.guest_type, member.guest_type, member.head_idswh) == ("17", "19", head.idswh)
    assert (member.citizenship, member.residence_country, member.residence_place,
            member.origin) == (GERMANY, GERMANY, "Berlin", GERMANY)
    assert member.document is None  # a family member gives none

    milan = by_arrival[across.arrival_date].guests[0]
    assert (milan.residence_place, milan.origin) == (MILAN, "MI")

    # It builds: the figures of the month, checked against the schema.
    days = movement.month_days(data)
    totals = movement.totals(days)
    assert totals.arrivals == {"RM": 1, GERMANY: 2, "MI": 1}
    assert totals.nights == {"RM": 3, GERMANY: 8, "MI": 2}
    assert totals.closed_days == 1
    assert b"<codice>042</codice>" in xmlfile.build(data)


def test_a_departure_on_the_first_morning_belongs_to_the_month(settings, prop, month):
    first, _ = month
    booking = book(settings, prop, first - dt.timedelta(days=2), 2)
    check_in(booking, [italian()], [IN_ROME])
    gathered = gather.month_input(prop, first.year, first.month, "042")
    day_one = movement.month_days(gathered.input)[0]
    assert [d.guest.idswh for d in day_one.departures] == [gather.idswh(booking.id, 0)]


def test_what_cannot_be_coded_is_held_with_why(settings, prop, month):
    first, _ = month
    no_comune = book(settings, prop, first + dt.timedelta(days=1), 2)
    check_in(no_comune, [italian()], [{"residence_country": "IT"}])
    unknown_comune = book(settings, prop, first + dt.timedelta(days=4), 2)
    check_in(unknown_comune, [italian()], [{"residence_country": "IT",
                                            "residence_comune": "Atlantide",
                                            "residence_province": "RM"}])
    no_residence = book(settings, prop, first + dt.timedelta(days=7), 2, guest_count=2)
    check_in(no_residence, [german(relationship="head_of_group"),
                            german("Lena", relationship="group_member")], [IN_BERLIN, {}])
    not_checked_in = book(settings, prop, first + dt.timedelta(days=10), 2)
    fine = book(settings, prop, first + dt.timedelta(days=13), 2)
    check_in(fine, [italian()], [IN_ROME])

    gathered = gather.month_input(prop, first.year, first.month, "042")
    assert not gathered.complete
    why = {held.booking_id: held.why for held in gathered.incomplete}
    assert why == {
        no_comune.id: "Guest 1: the comune of residence is missing (asked of residents of Italy).",
        unknown_comune.id: "Guest 1: the comune of residence has no code in the comuni table "
                           "(check its name and province).",
        no_residence.id: "Guest 2: the country of residence is missing.",
        not_checked_in.id: "The guests have not completed check-in.",
    }
    # The names of the guests are in no reason (reasons may be logged or e-mailed).
    assert all("Bianchi" not in text and "Weber" not in text for text in why.values())
    assert [stay.arrival for stay in gathered.input.stays] == [fine.arrival_date]


def test_the_idswh_stays_when_a_guest_is_corrected(settings, prop, month):
    first, _ = month
    booking = book(settings, prop, first + dt.timedelta(days=3), 2)
    check_in(booking, [italian()], [IN_ROME])
    before = gather.month_input(prop, first.year, first.month, "042").input.stays[0].guests[0]
    check_in(booking, [italian(first="Giuliana", birth_date="1979-03-13")], [IN_ROME])
    after = gather.month_input(prop, first.year, first.month, "042").input.stays[0].guests[0]
    assert after.idswh == before.idswh and after.name == "Giuliana"


def test_missing_property_settings_are_named(settings, prop, month):
    first, _ = month
    prop.rooms = prop.beds = None
    prop.save()
    gathered = gather.month_input(prop, first.year, first.month, "")
    assert gathered.missing == ("The property's ROSS 1000 structure code is not set.",
                                "The number of rooms the property lets is not set.",
                                "The number of beds the property lets is not set.")
    # An empty month still has its thirty-odd days, open and without guests.
    assert gathered.input.stays == () and not gathered.incomplete


def test_an_idswh_is_at_most_twenty_characters():
    assert gather.idswh("book_" + "a" * 20, 998) == "a" * 16 + "-999"
    assert len(gather.idswh("book_" + "a" * 20, 998)) == 20


def test_a_gathered_month_through_the_web_service_double(settings, prop, month, ross1000_double):
    """From the database to the service and back: a guest refused with a reason, corrected on
    the check-in, sent again under the same idswh and accepted."""
    from rentalcomply.authorities.ross1000 import service
    from tests.authorities.ross1000_double import PASSWORD, USER

    first, _ = month
    booking = book(settings, prop, first + dt.timedelta(days=4), 3, guest_count=2)
    check_in(booking, [german(relationship="head_of_family"),
                       german("Lena", relationship="family_member")],
             [IN_BERLIN, {"residence_country": "DE", "residence_place": "Atlantis"}])
    member = gather.idswh(booking.id, 1)
    ross1000_double.refuse[member] = "Luogo di residenza non valido"

    def send():
        gathered = gather.month_input(prop, first.year, first.month, "042")
        assert gathered.complete
        return service.send_month(ross1000_double.url, USER, PASSWORD,
                                  xmlfile.build(gathered.input), timeout=5)

    refused = service.refused(send())
    assert {(r.idswh, r.kind, r.error) for r in refused} == {
        (member, "arrivo", "Luogo di residenza non valido"),
        (member, "partenza", "Luogo di residenza non valido")}

    check_in(booking, [german(relationship="head_of_family"),
                       german("Lena", relationship="family_member")], [IN_BERLIN, IN_BERLIN])
    del ross1000_double.refuse[member]
    assert service.refused(send()) == []
    arrival = ross1000_double.received[-1].xpath(f"//arrivo[idswh='{member}']")[0]
    assert arrival.findtext("luogoresidenza") == "Berlin"
