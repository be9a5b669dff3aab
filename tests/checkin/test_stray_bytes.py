"""Control characters in a guest's details: refused by the guests API (400 naming the field) and
by the guest page (the field marked), never stored; a key twice in the page's JSON is refused."""

import pytest

from rentalcomply.checkin import service
from rentalcomply.core.models import Booking
from tests.checkin.conftest import greek_party
from tests.conftest import documented_app
from tests.helpers import assert_error

UNIT_SEPARATOR = "\u001f"


@pytest.fixture
def guest(wsgi_app):
    return documented_app(wsgi_app)


@pytest.fixture
def invited(owner, make_booking):
    booking = make_booking("GR")
    url = owner.post_json("/api/v1/checkins/resend", {"booking_id": booking.id},
                          status=202).json["data"]["checkin_url"]
    return booking, "/checkin/" + url.rsplit("/", 1)[1]


def test_the_guests_api_refuses_a_unit_separator_in_a_name(owner, make_booking):
    booking = make_booking("GR")
    party = greek_party()
    party[1]["last_name"] = f"Papa{UNIT_SEPARATOR}dopoulos"
    response = owner.put_json(f"/api/v1/bookings/{booking.id}/guests", {"guests": party},
                              status=400)
    details = assert_error(response, 400, "VALIDATION_ERROR")["details"]
    assert [d["field"] for d in details] == ["guests[1].last_name"]
    assert Booking.get_by_id(booking.id).checkin_status == "NOT_STARTED"


def test_a_line_break_in_a_name_is_folded_into_a_space(owner, make_booking):
    booking = make_booking("GR")
    party = greek_party()
    party[0]["first_name"] = "Μαρία\nΕλένη"
    owner.put_json(f"/api/v1/bookings/{booking.id}/guests", {"guests": party})
    shown = owner.get(f"/api/v1/bookings/{booking.id}/guests").json["data"]["guests"][0]
    assert shown["first_name"] == "Μαρία Ελένη"


def test_the_guest_page_marks_the_field_and_stores_nothing(guest, invited):
    booking, path = invited
    party = greek_party()
    fields = {f"g{i}.{k}": v for i, g in enumerate(party) for k, v in g.items()}
    refused = guest.post(path, {**fields, "g0.first_name": f"Ma{UNIT_SEPARATOR}ria",
                                "consent": "yes"}, status=422)
    assert "Please remove the invisible or special characters." in refused.text
    assert Booking.get_by_id(booking.id).checkin_status != "COMPLETED"


def test_the_guest_pages_json_names_the_field(guest, invited):
    booking, path = invited
    party = greek_party()
    party[0]["document_number"] = f"AB{UNIT_SEPARATOR}123456"
    response = guest.post_json(path + "/submit", {"guests": party, "consent": True}, status=422)
    assert {e["field"] for e in response.json["errors"]} == {"guests[0].document_number"}
    party_stored = service.guests_view(booking.account_id, booking.id)["guests"]
    assert all(UNIT_SEPARATOR not in str(g) for g in party_stored)


def test_a_key_twice_in_the_pages_json_is_refused_naming_it(guest, invited):
    _, path = invited
    response = guest.post(path + "/progress", b'{"guests": [], "guests": [{}]}',
                          content_type="application/json", status=400)
    error = response.json["error"]
    assert error["code"] == "VALIDATION_ERROR" and error["details"][0]["field"] == "guests"
