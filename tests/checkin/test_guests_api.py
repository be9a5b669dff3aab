"""GET and PUT /bookings/{id}/guests: the agency's own app sends the party."""

import datetime as dt

import pytest

from rentalcomply.core import clock
from rentalcomply.core.models import Booking, Event
from tests.checkin.conftest import PARTIES, greek_party, italian_party, spanish_party


def put(actor, booking_id, guests, status=200):
    return actor.put_json(f"/api/v1/bookings/{booking_id}/guests", {"guests": guests}, status=status)


def problems(response) -> dict:
    return {d["field"]: d["message"] for d in response.json["error"]["details"]}


@pytest.mark.parametrize("country", ["GR", "IT", "ES"])
def test_a_valid_party_completes_the_check_in(owner, make_booking, country):
    booking = make_booking(country)
    data = put(owner, booking.id, PARTIES[country]()).json["data"]
    assert data["checkin_status"] == "COMPLETED"
    assert Booking.get_by_id(booking.id).checkin_status == "COMPLETED"
    completed = [e for e in Event.select() if e.type == "checkin.completed"]
    assert len(completed) == 1
    assert "document_number" not in str(completed[0].data)
    assert PARTIES[country]()[0]["document_number"] not in str(completed[0].data)


def test_document_numbers_are_masked_to_their_last_3_characters(owner, reader, make_booking):
    booking = make_booking("ES")
    put(owner, booking.id, spanish_party())
    guests = reader.get(f"/api/v1/bookings/{booking.id}/guests").json["data"]["guests"]
    assert guests[0]["document_number"] == "******78Z"
    assert guests[0]["role"] == "lead" and guests[1]["role"] == "member"
    assert guests[0]["signed"] is True and "signature" not in guests[0]
    assert "12345678Z" not in str(guests)


def test_a_police_connector_hands_the_completed_check_in_to_the_police_filing(
        owner, make_property, make_booking):
    from rentalcomply.filings.models import Filing
    prop = make_property("IT", connector="file")
    booking = make_booking(prop=prop)
    Booking.update(report_status="NOT_REQUIRED").where(Booking.id == booking.id).execute()
    put(owner, booking.id, italian_party())
    # PENDING on completion, then queued at once by the police worker: the file is built.
    assert Booking.get_by_id(booking.id).report_status == "QUEUED"
    assert Filing.get(Filing.booking == booking.id).status == "ready"


def test_greece_without_connector_keeps_not_required(owner, make_booking):
    booking = make_booking("GR")
    put(owner, booking.id, greek_party())
    assert Booking.get_by_id(booking.id).report_status == "NOT_REQUIRED"


@pytest.mark.parametrize("country, missing", [
    ("GR", ["first_name", "last_name", "nationality"]),  # what AADE's declaration needs
    ("IT", ["sex", "birth_municipality", "birth_province", "document_issue_place", "relationship"]),
    ("ES", ["second_last_name", "document_support_number", "address_street", "signature"]),
])
def test_missing_fields_per_country_are_named(owner, make_booking, country, missing):
    booking = make_booking(country)
    party = PARTIES[country]()
    for name in missing:
        party[0].pop(name)
    details = problems(put(owner, booking.id, party, status=400))
    for name in missing:
        assert f"guests[0].{name}" in details, details
    assert Booking.get_by_id(booking.id).checkin_status == "NOT_STARTED"


def test_a_wrong_check_digit_is_refused(owner, make_booking):
    booking = make_booking("ES")
    party = spanish_party()
    party[0]["document_number"] = "12345678A"
    details = problems(put(owner, booking.id, party, status=400))
    assert "check" in details["guests[0].document_number"]


def test_a_wrong_greek_tax_number_is_refused(owner, make_booking):
    booking = make_booking("GR")
    party = greek_party()
    party[0]["tax_id"] = "094259217"
    assert "guests[0].tax_id" in problems(put(owner, booking.id, party, status=400))


def test_a_birth_date_in_the_future_is_refused(owner, make_booking):
    booking = make_booking("GR")
    party = greek_party()
    party[1]["birth_date"] = (clock.today() + dt.timedelta(days=3)).isoformat()
    details = problems(put(owner, booking.id, party, status=400))
    assert "future" in details["guests[1].birth_date"]


def test_an_impossible_date_and_an_unknown_country_are_refused(owner, make_booking):
    booking = make_booking("GR")
    party = greek_party()
    party[0]["birth_date"] = "1985-02-30"
    party[0]["nationality"] = "XX"
    details = problems(put(owner, booking.id, party, status=400))
    assert set(details) >= {"guests[0].birth_date", "guests[0].nationality"}


def test_a_minor_needs_a_relationship_and_the_lead_guest_must_be_an_adult(owner, make_booking):
    booking = make_booking("PT")
    party = greek_party()
    party[1].pop("minor_relationship")
    party[0]["birth_date"] = (clock.today() - dt.timedelta(days=365 * 15)).isoformat()
    details = problems(put(owner, booking.id, party, status=400))
    assert "guests[1].minor_relationship" in details
    assert "18" in details["guests[0].birth_date"]


def test_ten_kilobytes_in_a_name_is_refused(owner, make_booking):
    booking = make_booking("GR")
    party = greek_party()
    party[0]["first_name"] = "A" * 10_000
    assert "200" in problems(put(owner, booking.id, party, status=400))["guests[0].first_name"]


def test_control_characters_in_a_name_are_refused(owner, make_booking):
    booking = make_booking("GR")
    party = greek_party()
    party[0]["last_name"] = "Smith\u0007\u202e"
    assert "guests[0].last_name" in problems(put(owner, booking.id, party, status=400))


def test_script_in_a_name_is_stored_as_text(owner, make_booking):
    booking = make_booking("GR")
    party = greek_party()
    party[0]["first_name"] = "<script>alert(1)</script>"
    put(owner, booking.id, party)
    guests = owner.get(f"/api/v1/bookings/{booking.id}/guests").json["data"]["guests"]
    assert guests[0]["first_name"] == "<script>alert(1)</script>"


def test_the_whole_party_is_needed(owner, make_booking):
    booking = make_booking("IT", guest_count=3)
    assert "guests" in problems(put(owner, booking.id, italian_party(), status=400))


def test_a_stay_where_nothing_is_filed_needs_the_lead_guests_name_alone(owner, make_booking):
    booking = make_booking("FR", guest_count=3)
    assert "guests[0].last_name" in problems(put(owner, booking.id, [{"first_name": "Anna"}],
                                                 status=400))
    put(owner, booking.id, [{"first_name": "Anna", "last_name": "Weber",
                             "email": "anna@example.org"}])
    assert Booking.get_by_id(booking.id).checkin_status == "COMPLETED"


def test_a_greek_stay_declares_its_lead_guest_alone_and_needs_nothing_else(owner, make_booking):
    booking = make_booking("GR", guest_count=3)
    lead = {"first_name": "Anna", "last_name": "Weber", "nationality": "DE",
            "document_number": "C01X00T47", "email": "anna@example.org"}
    put(owner, booking.id, [lead])
    assert Booking.get_by_id(booking.id).checkin_status == "COMPLETED"
    assert "guests" in problems(put(owner, make_booking("GR", guest_count=1).id,
                                    [lead, lead], status=400))


def test_a_field_the_country_does_not_ask_is_refused(owner, make_booking):
    booking = make_booking("GR")
    party = greek_party()
    party[0]["signature"] = "data:image/png;base64,AAAA"
    assert "guests[0].signature" in problems(put(owner, booking.id, party, status=400))


def test_not_a_list_of_objects_is_400(owner, make_booking):
    booking = make_booking("GR")
    put(owner, booking.id, ["x", 3], status=400)
    owner.put_json(f"/api/v1/bookings/{booking.id}/guests", {"guests": "x"}, status=400)


def test_another_accounts_booking_is_404(outsider, make_booking):
    booking = make_booking("GR")
    put(outsider, booking.id, greek_party(), status=404)
    outsider.get(f"/api/v1/bookings/{booking.id}/guests", status=404)


def test_scopes(reader, writer, make_booking):
    booking = make_booking("GR")
    put(reader, booking.id, greek_party(), status=403)
    writer.get(f"/api/v1/bookings/{booking.id}/guests", status=403)


def test_a_cancelled_booking_takes_no_party(owner, make_booking):
    booking = make_booking("GR")
    owner.post(f"/api/v1/bookings/{booking.id}/cancel")
    assert put(owner, booking.id, greek_party(), status=409).json["error"]["code"] == "BOOKING_CANCELLED"


def test_an_empty_party_reads_as_empty(reader, make_booking):
    booking = make_booking("GR")
    data = reader.get(f"/api/v1/bookings/{booking.id}/guests").json["data"]
    assert data["guests"] == [] and data["checkin_status"] == "NOT_STARTED"


def test_sending_the_party_again_replaces_it_without_a_second_event(owner, make_booking):
    booking = make_booking("GR")
    put(owner, booking.id, greek_party())
    corrected = greek_party()
    corrected[0]["first_name"] = "Μαρίνα"
    data = put(owner, booking.id, corrected).json["data"]
    assert data["guests"][0]["first_name"] == "Μαρίνα" and data["checkin_status"] == "COMPLETED"
    assert len([e for e in Event.select() if e.type == "checkin.completed"]) == 1


def test_a_late_party_completes_an_expired_check_in(owner, make_booking):
    booking = make_booking("GR", arrival_in=1, nights=1)
    Booking.update(checkin_status="EXPIRED").where(Booking.id == booking.id).execute()
    assert put(owner, booking.id, greek_party()).json["data"]["checkin_status"] == "COMPLETED"
