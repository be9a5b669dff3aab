"""Where an Italian property's guest lives: the country of residence, and for a resident of Italy
the comune (kept as the Polizia's code from the shipped table, rentalcomply/codes/it) and its
province; a resident abroad gives none. The same rules on the guest page and the guests API."""

import pytest

from rentalcomply.core.models import Booking
from tests.checkin.conftest import italian_party, spanish_party
from tests.conftest import documented_app

ROMA = "412058091"


def put(actor, booking_id, guests, status=200):
    return actor.put_json(f"/api/v1/bookings/{booking_id}/guests", {"guests": guests},
                          status=status)


def details(response) -> dict:
    return {d["field"]: d["message"] for d in response.json["error"]["details"]}


def test_a_resident_of_italy_gives_the_comune_kept_as_its_polizia_code(owner, make_booking):
    booking = make_booking("IT")
    party = italian_party()
    party[0].update(residence_country="IT", residence_comune="roma", residence_province="rm")
    data = put(owner, booking.id, party).json["data"]
    assert data["checkin_status"] == "COMPLETED"
    lead = data["guests"][0]
    assert (lead["residence_country"], lead["residence_comune"], lead["residence_province"]) \
        == ("IT", ROMA, "RM")
    assert "residence_comune" not in data["guests"][1]  # the member lives abroad


def test_the_pick_lists_form_and_the_code_itself_are_taken(owner, make_booking):
    booking = make_booking("IT")
    party = italian_party()
    party[0].update(residence_country="IT", residence_comune="Castro (LE)")
    party[1].update(residence_country="IT", residence_comune=ROMA, residence_province="RM")
    guests = put(owner, booking.id, party).json["data"]["guests"]
    assert (guests[0]["residence_comune"], guests[0]["residence_province"]) == ("416075096", "LE")
    assert guests[1]["residence_comune"] == ROMA


def test_a_resident_of_italy_without_a_comune_or_with_an_unknown_one_is_refused(owner,
                                                                               make_booking):
    booking = make_booking("IT")
    party = italian_party()
    party[0].update(residence_country="IT")
    found = details(put(owner, booking.id, party, status=400))
    assert set(found) == {"guests[0].residence_comune", "guests[0].residence_province"}
    party[0].update(residence_comune="Atlantide", residence_province="XX")
    found = details(put(owner, booking.id, party, status=400))
    assert "guests[0].residence_comune" in found
    party[0].update(residence_comune="Castro", residence_province=None)  # BG or LE: say which
    party[0].pop("residence_province")
    assert "guests[0].residence_comune" in details(put(owner, booking.id, party, status=400))


def test_every_guest_of_an_italian_stay_gives_a_country_of_residence(owner, make_booking):
    booking = make_booking("IT")
    party = italian_party()
    party[1].pop("residence_country")
    assert set(details(put(owner, booking.id, party, status=400))) \
        == {"guests[1].residence_country"}


def test_a_resident_abroad_gives_no_comune_and_one_sent_is_dropped(owner, make_booking):
    booking = make_booking("IT")
    party = italian_party()
    party[0].update(residence_country="FR", residence_place="Lyon", residence_comune="Roma",
                    residence_province="RM")
    lead = put(owner, booking.id, party).json["data"]["guests"][0]
    assert (lead["residence_country"], lead["residence_place"]) == ("FR", "Lyon")
    assert "residence_comune" not in lead and "residence_province" not in lead


def test_a_resident_abroad_names_their_town_which_the_statistics_report(owner, make_booking):
    booking = make_booking("IT")
    party = italian_party()
    party[0].update(residence_country="FR")
    party[0].pop("residence_place", None)
    assert set(details(put(owner, booking.id, party, status=400))) \
        == {"guests[0].residence_place"}


def test_a_resident_of_italy_is_placed_by_the_comune_not_a_town(owner, make_booking):
    booking = make_booking("IT")
    party = italian_party()
    party[0].update(residence_country="IT", residence_comune="Roma", residence_province="RM",
                    residence_place="Trastevere")
    lead = put(owner, booking.id, party).json["data"]["guests"][0]
    assert lead["residence_comune"] == "412058091" and "residence_place" not in lead


def test_a_property_of_another_country_is_not_asked_a_comune(owner, make_booking):
    booking = make_booking("ES")
    party = spanish_party()
    party[0]["residence_comune"] = "Roma"
    assert "guests[0].residence_comune" in details(put(owner, booking.id, party, status=400))


@pytest.fixture
def guest(wsgi_app):
    return documented_app(wsgi_app)


def _page(owner, guest, booking):
    url = owner.post_json("/api/v1/checkins/resend", {"booking_id": booking.id},
                          status=202).json["data"]["checkin_url"]
    path = "/checkin/" + url.rsplit("/", 1)[1]
    return path, guest.get(path + "?lang=it").text


def test_the_page_asks_the_comune_of_an_italian_propertys_guests_when_they_live_in_italy(
        owner, guest, make_booking):
    path, page = _page(owner, guest, make_booking("IT"))
    comune = page[page.index('id="g0-residence_comune"') - 400:]
    assert "Comune di residenza" in page and "Provincia di residenza" in page
    assert 'list="it-municipalities"' in comune[:comune.index(">", 400) + 1]
    assert 'name="g1.residence_comune"' in page and 'name="g0.residence_country"' in page
    # Saved, the comune comes back by its name, not its code.
    party = italian_party()
    party[0].update(residence_country="IT", residence_comune="Roma", residence_province="RM")
    guest.post_json(path + "/progress", {"guests": party, "lang": "it"})
    again = guest.get(path + "?lang=it").text
    field = again[again.index('id="g0-residence_comune"'):]
    assert field[:field.index(">")].count('value="Roma"') == 1
    refused = guest.post_json(path + "/submit", {"guests": [dict(party[0], residence_comune="")]
                                                 + party[1:], "consent": True, "lang": "de"},
                              status=422).json["errors"]
    assert {e["field"] for e in refused} == {"guests[0].residence_comune"}


def test_the_page_of_a_spanish_or_greek_property_asks_no_comune(owner, guest, make_booking):
    for country in ("ES", "GR"):
        _, page = _page(owner, guest, make_booking(country))
        assert "residence_comune" not in page
