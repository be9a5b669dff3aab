"""An Italian property's CIN in its exported calendar feed: the calendar's description and every
event's, as the law wants it shown in every listing; none for a property without one or outside
Italy."""

from __future__ import annotations

import icalendar

from rentalcomply.properties import service as properties
from rentalcomply.views import properties as composed
from tests.sync.test_api import exported

CIN = "IT058091C2ABCDEFGH"


def _book(owner, property_id: str, arrival: str, departure: str) -> None:
    owner.post_json("/api/v1/bookings", {"property_id": property_id, "guest_name": "Giulia Verdi",
                                         "arrival_date": arrival, "departure_date": departure,
                                         "guest_count": 2}, status=201)


def test_the_feed_of_an_italian_property_carries_its_cin_in_the_calendar_and_each_event(
        account_a, owner, anonymous):
    roma = properties.create_property(account_a, name="Casa Trastevere", address="Roma",
                                      country="IT", cin=CIN)
    _book(owner, roma.id, "2027-04-01", "2027-04-04")
    _book(owner, roma.id, "2027-05-01", "2027-05-03")
    body = exported(anonymous, composed.property_view(roma)["ical_export_url"]).body
    calendar = icalendar.Calendar.from_ical(body)
    assert str(calendar["X-WR-CALDESC"]) == f"CIN {CIN}"
    assert [str(event["DESCRIPTION"]) for event in calendar.events] == [f"CIN {CIN}"] * 2
    assert b"Giulia" not in body  # still no guest data


def test_a_cin_set_later_changes_the_feed_and_its_etag(account_a, owner, anonymous):
    roma = properties.create_property(account_a, name="Casa", address="Roma", country="IT")
    _book(owner, roma.id, "2027-04-01", "2027-04-04")
    url = composed.property_view(roma)["ical_export_url"]
    before = exported(anonymous, url)
    assert b"CIN" not in before.body and b"X-WR-CALDESC" not in before.body
    owner.patch_json(f"/api/v1/properties/{roma.id}", {"cin": CIN})
    after = exported(anonymous, url, headers={"If-None-Match": before.headers["ETag"]}, status=200)
    assert f"CIN {CIN}".encode() in after.body


def test_a_property_outside_italy_has_no_cin_in_its_feed_even_if_its_row_holds_one(
        account_a, owner, anonymous):
    villa = properties.create_property(account_a, name="Villa", address="Oia")
    _book(owner, villa.id, "2027-04-01", "2027-04-04")
    villa.cin = CIN  # written around the service's rule, as an old or hand-edited row might be
    villa.save()
    body = exported(anonymous, composed.property_view(villa)["ical_export_url"]).body
    assert b"CIN" not in body
