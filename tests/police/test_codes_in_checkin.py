"""The Italian code tables in check-in: birthplaces and places of issue must have a code, and the
guest page offers them as pick lists."""

import datetime as dt

from rentalcomply.checkin import service as checkin
from rentalcomply.checkin.guests import validate_party
from rentalcomply.core import clock
from rentalcomply.core.db import atomic
from rentalcomply.core.models import Booking
from rentalcomply import codes
from tests.conftest import documented_app
from tests.police.conftest import family

ARRIVAL = clock.today() + dt.timedelta(days=10)


def problems_of(party):
    _, problems = validate_party("IT", party, guest_count=len(party), arrival=ARRIVAL,
                                 complete=True)
    return {p.path for p in problems}


def load_places(*rows):
    codes.load("IT", {"comuni": [codes.Place(*row) for row in rows],
                      "stati": list(codes.shipped("IT", "stati")),
                      "documenti": list(codes.shipped("IT", "documenti"))}, "test")


def test_a_birthplace_without_a_code_is_refused_from_the_first_start(settings):
    party = family()
    party[0]["birth_municipality"] = "Atlantide"
    # The shipped tables are the authority's whole tables: what they cannot code is wrong.
    assert problems_of(party) == {"guests[0].birth_municipality"}
    party[0]["birth_municipality"] = "Abbadia Cerreto"
    assert problems_of(party) == set()
    load_places(("412058091", "ROMA", "RM"), ("403015146", "MILANO", "MI"))
    assert problems_of(party) == {"guests[0].birth_municipality"}  # the table loaded is the truth


def test_a_birthplace_is_judged_on_the_birth_date(settings):
    party = family()
    party[0].update(birth_municipality="Monza", birth_province="MB", birth_date="1979-03-12")
    assert problems_of(party) == set()
    assert codes.it_municipality("Monza", "MB", dt.date(1979, 3, 12)).code == "403015149"


def test_an_italian_place_of_issue_needs_a_code_a_foreign_one_does_not(settings):
    load_places(("412058091", "ROMA", "RM"), ("403015146", "MILANO", "MI"))
    party = family()  # the head's document: a family member gives none
    party[0]["document_issue_place"] = "Gotham"
    assert "guests[0].document_issue_place" in problems_of(party)
    party[0].update(document_country="FR", document_issue_place="Paris")
    assert problems_of(party) == set()


def test_the_guest_page_offers_the_italian_places_as_pick_lists(wsgi_app, make_booking):
    booking = make_booking(arrival=ARRIVAL)
    with atomic():
        checkin._checkin_row(Booking.get_by_id(booking.id))
    page = documented_app(wsgi_app).get(f"/checkin/{checkin.token_for(booking.id)}").text
    assert 'list="it-municipalities"' in page and 'list="it-provinces"' in page
    assert '<datalist id="it-municipalities">' in page
    assert '<option value="Roma"></option>' in page and '<option value="MB"></option>' in page
