"""The header's search: what a person types is folded (accents, case, order, a phone's
formatting), and finds the account's bookings by any guest of the party, e-mail, phone,
confirmation code or reference, never another account's."""

from __future__ import annotations

import datetime as dt

import pytest

from rentalcomply.bookings import service as bookings
from rentalcomply.bookings.fees import FeeRates
from rentalcomply.bookings.reference import short_reference
from rentalcomply.checkin import service as checkin
from rentalcomply.checkin.models import Checkin
from rentalcomply.core import clock
from rentalcomply.core.db import atomic
from rentalcomply.dashboard import search
from rentalcomply.dashboard.models import DashboardSearchTerm
from rentalcomply.properties import service as properties


# --- folding what is typed ----------------------------------------------------------------------

def test_folding_drops_accents_and_case_in_every_script():
    assert search.fold("Lucía ÁLVAREZ") == "lucia alvarez"
    assert search.fold("Ζωή Παπαδοπούλου") == "ζωη παπαδοπουλου"
    assert search.fold("Łukasz Søren Straße") == "lukasz soren strasse"


def test_words_split_names_on_punctuation_and_terms_keep_the_joined_form_too():
    assert search.words("Lucía D'Angelo-Rossi") == ["lucia", "d", "angelo", "rossi"]
    assert {"dangelorossi", "d", "angelo", "rossi"} <= search.text_terms("D'Angelo-Rossi")
    assert "k7mpq42x" in search.text_terms("K7MP-Q42X")


@pytest.mark.parametrize("typed, digits", [
    ("+39 333 123 4567", "393331234567"), ("0039 (333) 123-4567", "393331234567"),
    ("333.123.4567", "3331234567"), ("333 123 4567", "3331234567"), ("HM4KX2", None), ("12345", None)])
def test_a_phone_is_its_digits_whatever_the_formatting(typed, digits):
    assert search.phone_digits(typed) == digits


def test_a_phone_term_is_its_digits_reversed_so_its_ending_finds_it():
    assert search.phone_term("+39 333 123 4567") == "t:" + "393331234567"[::-1]
    assert search.phone_term("12") is None


# --- finding bookings ---------------------------------------------------------------------------

def _booking(settings, account_id, prop, guest, in_days=3, **extra):
    arrival = clock.today() + dt.timedelta(days=in_days)
    with atomic():
        return bookings.create_booking(account_id, rates=FeeRates.from_settings(settings),
                                       property_id=prop.id, guest_name=guest, arrival_date=arrival,
                                       departure_date=arrival + dt.timedelta(days=2),
                                       guest_count=3, **extra)


def _party(booking, *guests):
    """What the guest page keeps of a party typed so far (sealed)."""
    row = Checkin.get(Checkin.booking == booking.id)
    checkin.save_progress(booking, row, list(guests), consent=True, lang="en")


@pytest.fixture
def stays(settings, account_a, account_b):
    prop = properties.create_property(account_a, name="Casa Lucia", address="Via Roma 1")
    ferrari = _booking(settings, account_a, prop, "Luca Ferrari", guest_phone="+39 333 123 4567",
                       guest_email="luca.ferrari@example.it")
    # The check-in's lead guest gave another phone than the channel's.
    _party(ferrari, {"first_name": "Luca", "last_name": "Ferrari", "phone": "+34 612 345 678"},
           {"first_name": "Lucía", "last_name": "Ferrari Gómez"})
    airbnb = _booking(settings, account_a, prop, "Hannah Schmidt", in_days=10)
    bookings.Booking.update(external_ref="HMXK4T2PQ9", channel="airbnb").where(
        bookings.Booking.id == airbnb.id).execute()
    other = properties.create_property(account_b, name="Elsewhere", address="Somewhere 2")
    _booking(settings, account_b, other, "Lucia Ferrari")
    return {"ferrari": ferrari, "airbnb": airbnb, "property": prop}


def _found(account_id, text):
    return [b.id for b in search.matching(account_id, text)]


def test_a_name_is_found_without_its_accents_in_any_order_and_by_its_beginning(stays, account_a):
    ferrari = stays["ferrari"].id
    assert _found(account_a, "lucia") == [ferrari]  # Lucía, the party's second guest
    assert _found(account_a, "ferrari luca") == [ferrari]
    assert _found(account_a, "FERR") == [ferrari]
    assert _found(account_a, "gomez") == [ferrari]  # a surname only the check-in holds
    assert _found(account_a, "luca schmidt") == []


def test_an_email_a_phone_a_code_and_a_reference_find_their_booking(stays, account_a):
    ferrari, airbnb = stays["ferrari"].id, stays["airbnb"].id
    assert _found(account_a, "luca.ferrari@example.it") == [ferrari]
    assert _found(account_a, "333 123 4567") == [ferrari]
    assert _found(account_a, "+39 3331234567") == [ferrari]
    assert _found(account_a, "0034 612 34 56 78") == [ferrari]  # the check-in's phone
    assert _found(account_a, "hmxk4t2pq9") == [airbnb]
    assert _found(account_a, short_reference(airbnb).lower()) == [airbnb]
    assert _found(account_a, short_reference(airbnb).replace("-", "")) == [airbnb]


def test_another_accounts_bookings_are_never_found(stays, account_a, account_b):
    assert len(_found(account_b, "lucia ferrari")) == 1
    assert stays["ferrari"].id not in _found(account_b, "luca")


def test_the_partys_names_are_kept_hashed_and_follow_a_change_of_the_party(stays, account_a):
    search.refresh(account_a)
    terms = {row.term for row in DashboardSearchTerm.select()}
    assert "gomez" not in terms and "lucia" not in terms  # sealed data: only HMACs
    assert "ferrari" in terms  # the booking's own lead name, already in clear in its row
    _party(stays["ferrari"], {"first_name": "Luca", "last_name": "Ferrari"},
           {"first_name": "Anna", "last_name": "Ferrari"})
    assert _found(account_a, "gomez") == []
    assert _found(account_a, "anna") == [stays["ferrari"].id]
    assert search.refresh(account_a) == 0  # nothing changed since


def test_the_results_page_lists_the_partys_names_dates_and_property(stays, anna):
    page = anna.get("/dashboard/search", {"q": "lucia"})
    assert "Luca Ferrari" in page.text and "Lucía Ferrari Gómez" in page.text
    assert "Casa Lucia" in page.text and "Hannah" not in page.text
    assert 'value="lucia"' in page.text  # the header's box keeps what was typed
    assert "book_" not in page.text.replace(f"/dashboard/bookings/{stays['ferrari'].id}", "")
    empty = anna.get("/dashboard/search", {"q": "nobody"})
    assert "No booking matches" in empty.text


def test_every_page_has_the_search_box_in_its_header(anna):
    for path in ("/dashboard/today", "/dashboard/bookings", "/dashboard/properties"):
        text = anna.get(path).text
        assert 'action="/dashboard/search"' in text and 'role="search"' in text


def test_a_party_erased_at_the_end_of_its_retention_leaves_no_search_words_after_the_night(
        stays, account_a):
    from rentalcomply.dashboard import tasks
    search.refresh(account_a)
    hashed_gomez = search.hashed("gomez")
    assert DashboardSearchTerm.select().where(DashboardSearchTerm.term == hashed_gomez).exists()
    departed = stays["ferrari"]
    bookings.Booking.update(arrival_date=clock.today() - dt.timedelta(days=30),
                            departure_date=clock.today() - dt.timedelta(days=28)).where(
        bookings.Booking.id == departed.id).execute()
    assert checkin.purge_guest_data(1) == 1
    tasks.refresh_search_words.call_local()
    assert not DashboardSearchTerm.select().where(
        DashboardSearchTerm.term == hashed_gomez).exists()
    assert _found(account_a, "gomez") == []
    assert _found(account_a, "luca ferrari") == [departed.id]  # the booking's own lead name stays
