"""A booking's link from its creation, and the property's link, through the API."""

from rentalcomply.checkin import booking_links, service
from rentalcomply.core.models import Booking, Event
from rentalcomply.checkin.models import Checkin
from tests.checkin.conftest import upcoming


def test_a_new_booking_without_e_mail_has_a_working_link_at_once(owner, guest_page, make_property):
    prop = make_property("GR")
    created = owner.post_json("/api/v1/bookings", {
        "property_id": prop.id, "guest_name": "Walk-in", "guest_count": 2,
        "arrival_date": upcoming(3).isoformat(), "departure_date": upcoming(5).isoformat()},
        status=201).json["data"]
    url = created["checkin_url"]
    assert url.startswith("https://") and "/checkin/" in url
    page = guest_page.get("/checkin/" + url.rsplit("/", 1)[1])
    assert "Online check-in" in page.text


def test_checkin_url_is_shown_to_writers_only(owner, reader, writer, make_booking):
    booking = make_booking("GR", guest_email=None)
    link = owner.get(f"/api/v1/bookings/{booking.id}").json["data"]["checkin_url"]
    assert link.endswith("/checkin/" + service.token_for(booking.id))
    assert "checkin_url" not in reader.get(f"/api/v1/bookings/{booking.id}").json["data"]
    assert "checkin_url" not in reader.get("/api/v1/bookings").json["data"][0]
    assert owner.get("/api/v1/bookings").json["data"][0]["checkin_url"] == link
    # The same answer is never kept for one and served to the other (web/answer_cache.py).
    assert "checkin_url" not in reader.get(f"/api/v1/bookings/{booking.id}").json["data"]
    assert owner.get(f"/api/v1/bookings/{booking.id}").json["data"]["checkin_url"] == link
    reference = owner.get(f"/api/v1/bookings/{booking.id}").json["data"]["reference"]
    assert len(reference) == 9 and reference[4] == "-" and booking.id not in reference
    prop_id = booking.property_id
    assert "/checkin/p/" in owner.get(f"/api/v1/properties/{prop_id}").json["data"]["checkin_url"]
    assert "checkin_url" not in reader.get(f"/api/v1/properties/{prop_id}").json["data"]


def test_a_booking_made_before_links_gets_its_row_when_shown(owner, make_booking, guest_page):
    booking = make_booking("GR", guest_email=None)
    Checkin.delete().where(Checkin.booking == booking.id).execute()  # as an older release left it
    assert booking_links.ensure_links() == 1
    assert booking_links.ensure_links() == 0
    guest_page.get("/checkin/" + service.token_for(booking.id), status=200)


def test_other_accounts_ids_are_404(outsider, make_booking):
    booking = make_booking("GR")
    outsider.post(f"/api/v1/bookings/{booking.id}/checkin/shared", status=404)
    outsider.post(f"/api/v1/properties/{booking.property_id}/checkin-link/rotate", status=404)
    outsider.get(f"/api/v1/properties/{booking.property_id}", status=404)


def test_marking_the_link_shared_needs_the_write_scope(reader, make_booking):
    booking = make_booking("GR")
    reader.post(f"/api/v1/bookings/{booking.id}/checkin/shared", status=403)


def test_marking_the_link_shared_invites_once(owner, make_booking):
    booking = make_booking("GR", guest_email=None)
    first = owner.post(f"/api/v1/bookings/{booking.id}/checkin/shared").json["data"]
    assert first["checkin_status"] == "INVITED"
    assert first["checkin_url"].endswith(service.token_for(booking.id))
    again = owner.post(f"/api/v1/bookings/{booking.id}/checkin/shared").json["data"]
    assert again["checkin_status"] == "INVITED" and again["version"] == first["version"]
    invited = Event.select().where((Event.type == "checkin.invited")
                                   & (Event.account == booking.account_id))
    assert [event.data["id"] for event in invited] == [booking.id]
    assert Checkin.get(Checkin.booking == booking.id).invited_at is not None


def test_a_cancelled_booking_cannot_be_marked_shared(owner, make_booking):
    booking = make_booking("GR")
    owner.post(f"/api/v1/bookings/{booking.id}/cancel", status=200)
    refused = owner.post(f"/api/v1/bookings/{booking.id}/checkin/shared", status=409)
    assert refused.json["error"]["code"] == "BOOKING_CANCELLED"
    assert Booking.get_by_id(booking.id).checkin_status == "NOT_STARTED"
    assert owner.get(f"/api/v1/bookings/{booking.id}").json["data"]["checkin_url"] is None


def test_rotation_kills_the_old_property_link(owner, reader, make_property, guest_page):
    prop = make_property("GR")
    old = owner.get(f"/api/v1/properties/{prop.id}").json["data"]["checkin_url"]
    path = "/checkin/p/" + old.rsplit("/", 1)[1]
    assert "Find your booking" in guest_page.get(path).text
    reader.post(f"/api/v1/properties/{prop.id}/checkin-link/rotate", status=403)
    new = owner.post(f"/api/v1/properties/{prop.id}/checkin-link/rotate").json["data"]
    assert new["checkin_url"] != old and "/checkin/p/" in new["checkin_url"]
    assert owner.get(f"/api/v1/properties/{prop.id}").json["data"]["checkin_url"] == \
        new["checkin_url"]
    guest_page.get(path, status=404)
    guest_page.get("/checkin/p/" + new["checkin_url"].rsplit("/", 1)[1], status=200)


def test_a_replayed_rotation_or_marking_never_shows_a_kept_link(owner, make_booking):
    booking = make_booking("GR", guest_email=None)
    headers = {"Idempotency-Key": "share-1"}
    first = owner.post(f"/api/v1/bookings/{booking.id}/checkin/shared", headers=headers)
    again = owner.post(f"/api/v1/bookings/{booking.id}/checkin/shared", headers=headers)
    assert first.json["data"]["checkin_url"] and again.json["data"]["checkin_url"] is None
    assert again.headers["Idempotent-Withheld"] == "checkin_url"
    headers = {"Idempotency-Key": "rotate-1"}
    path = f"/api/v1/properties/{booking.property_id}/checkin-link/rotate"
    rotated = owner.post(path, headers=headers).json["data"]
    replayed = owner.post(path, headers=headers).json["data"]
    assert rotated["checkin_url"] and replayed["checkin_url"] is None
    # One rotation only: the link shown first is the one that works.
    assert owner.get(f"/api/v1/properties/{booking.property_id}").json["data"]["checkin_url"] \
        == rotated["checkin_url"]


def test_the_row_of_the_link_is_made_with_the_booking(make_booking):
    booking = make_booking("GR", guest_email=None)  # bookings.create_booking: BOOKING_CREATED
    row = Checkin.get(Checkin.booking == booking.id)
    assert row.token_hash == service.token_hash(service.token_for(booking.id))
    assert booking_links.ensure_links() == 0
