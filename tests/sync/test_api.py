"""The sync's routes: status, the trigger and its cooldown, accepting removals, the refused date
edit, and each property's exported calendar read back as a channel would."""

from __future__ import annotations

import datetime as dt

import icalendar

from rentalcomply.core import clock
from rentalcomply.core.models import Booking, ChannelConnection
from rentalcomply.properties import service as properties
from rentalcomply.views import properties as composed
from rentalcomply.sync import service
from rentalcomply.sync.one_connection import sync_connection
from tests.helpers import assert_error
from tests.sync.conftest import calendar, event, fixture


def test_the_status_lists_each_connection_and_when_all_were_last_synced(feeds, villa, connect, reader):
    feeds.serve("/a.ics", fixture("airbnb.ics"))
    connection = connect(villa.id, "airbnb", "/a.ics")
    data = reader.get("/api/v1/sync/status").json["data"]
    assert data == {"last_sync_all": None, "connections": [{
        "id": connection.id, "property_id": villa.id, "provider": "airbnb",
        "last_sync_success": None, "last_sync_attempt": None, "status": "pending",
        "last_error": None, "version": 1}]}
    service.sync_account(connection.account_id)
    data = reader.get("/api/v1/sync/status").json["data"]
    assert data["last_sync_all"] is not None and data["connections"][0]["status"] == "ok"


def test_another_account_sees_none_of_the_connections(feeds, villa, connect, outsider):
    connect(villa.id, "airbnb", "/a.ics")
    assert outsider.get("/api/v1/sync/status").json["data"]["connections"] == []


def test_a_trigger_syncs_now_and_a_second_within_five_minutes_is_429(feeds, villa, connect, owner):
    feeds.serve("/a.ics", fixture("airbnb.ics"))
    connect(villa.id, "airbnb", "/a.ics")
    response = owner.post("/api/v1/sync/trigger", status=202)
    data = response.json["data"]
    assert (data["status"], data["connections"]) == ("queued", 1)
    # The queue runs tasks at once in these tests: the sync is done.
    assert Booking.select().where(Booking.property == villa.id).count() == 3
    clock.travel(dt.timedelta(seconds=200))
    refused = owner.post("/api/v1/sync/trigger", expect_errors=True)
    assert_error(refused, 429, "RATE_LIMITED")
    assert 1 <= int(refused.headers["Retry-After"]) <= 101
    clock.travel(dt.timedelta(seconds=101))
    owner.post("/api/v1/sync/trigger", status=202)


def test_accounts_do_not_share_the_cooldown(owner, outsider):
    owner.post("/api/v1/sync/trigger", status=202)
    outsider.post("/api/v1/sync/trigger", status=202)
    assert_error(owner.post("/api/v1/sync/trigger", expect_errors=True), 429, "RATE_LIMITED")


def test_the_cooldown_is_kept_in_the_database_for_every_process(owner, account_a):
    allowed, next_at = service.claim_trigger(account_a)  # as another process would
    assert allowed
    refused = owner.post("/api/v1/sync/trigger", expect_errors=True)
    assert_error(refused, 429, "RATE_LIMITED")
    assert int(refused.headers["Retry-After"]) > 290


def test_the_trigger_needs_the_write_scope(reader):
    assert_error(reader.post("/api/v1/sync/trigger", expect_errors=True), 403, "INSUFFICIENT_SCOPE")


def test_accepting_removals_through_the_api_applies_them(feeds, villa, connect, owner, outsider):
    feeds.serve("/a.ics", fixture("airbnb.ics"))
    connection = connect(villa.id, "airbnb", "/a.ics")
    sync_connection(connection.id)
    feeds.serve("/a.ics", calendar())
    sync_connection(connection.id)
    path = f"/api/v1/properties/{villa.id}/channels/{connection.id}/accept-removals"
    assert_error(outsider.post(path, expect_errors=True), 404, "NOT_FOUND")
    response = owner.post(path, status=202)
    assert response.json["data"]["id"] == connection.id
    assert ChannelConnection.get_by_id(connection.id).status == "ok"
    assert {b.status for b in Booking.select().where(Booking.connection == connection.id)} == {"cancelled"}


def test_moving_an_imported_booking_is_refused_naming_the_channel(feeds, villa, connect, owner):
    feeds.serve("/a.ics", fixture("airbnb.ics"))
    sync_connection(connect(villa.id, "airbnb", "/a.ics").id)
    imported = Booking.get((Booking.property == villa.id) & (Booking.external_ref == "HMQ4T2ZXK8"))
    refused = owner.patch_json(f"/api/v1/bookings/{imported.id}",
                               {"departure_date": "2027-01-13"}, expect_errors=True)
    error = assert_error(refused, 409, "CHANNEL_OWNS_DATES")
    assert "Airbnb" in error["message"]
    assert Booking.get_by_id(imported.id).departure_date == dt.date(2027, 1, 12)
    # The same dates again, or the host's own fields, are fine.
    owner.patch_json(f"/api/v1/bookings/{imported.id}",
                     {"arrival_date": "2027-01-08", "guest_name": "Jo Smith"})


# --- our own feed ---------------------------------------------------------------------------------

def exported(anonymous, url: str, **kwargs):
    return anonymous.get(url[url.index("/ical/"):], **kwargs)


def booked_nights(body: bytes) -> set[dt.date]:
    """Read the feed as Airbnb does: all-day events, DTEND exclusive."""
    nights = set()
    for ev in icalendar.Calendar.from_ical(body).events:
        start, end = ev["DTSTART"].dt, ev["DTEND"].dt
        assert type(start) is dt.date and type(end) is dt.date
        day = start
        while day < end:
            nights.add(day)
            day += dt.timedelta(days=1)
    return nights


def nights(start: str, end: str) -> set[dt.date]:
    first, last = dt.date.fromisoformat(start), dt.date.fromisoformat(end)
    return {first + dt.timedelta(days=i) for i in range((last - first).days)}


def test_the_exported_feed_blocks_exactly_the_booked_nights_without_guest_data(
        feeds, villa, connect, owner, anonymous):
    feeds.serve("/v.ics", fixture("vrbo.ics"))
    feeds.serve("/b.ics", fixture("booking.ics"))
    sync_connection(connect(villa.id, "vrbo", "/v.ics").id)
    sync_connection(connect(villa.id, "booking", "/b.ics").id)
    owner.post_json("/api/v1/bookings", {"property_id": villa.id, "guest_name": "Maria Manual",
                                         "arrival_date": "2027-04-01", "departure_date": "2027-04-04",
                                         "guest_count": 2}, status=201)
    cancelled = owner.post_json("/api/v1/bookings", {
        "property_id": villa.id, "guest_name": "Gone", "arrival_date": "2027-05-01",
        "departure_date": "2027-05-03", "guest_count": 1}, status=201).json["data"]
    owner.post(f"/api/v1/bookings/{cancelled['id']}/cancel")
    url = owner.get(f"/api/v1/properties/{villa.id}").json["data"]["ical_export_url"]
    response = exported(anonymous, url)
    assert response.content_type == "text/calendar"
    body = response.body
    for secret in (b"Melanie", "Αλέξανδρος".encode(), b"Maria", b"Booking.com guest", b"Gone"):
        assert secret not in body
    assert len(icalendar.Calendar.from_ical(body).events) == 6
    assert booked_nights(body) == (
        nights("2027-02-10", "2027-02-14") | nights("2027-02-20", "2027-02-23")  # Vrbo stays
        | nights("2027-03-01", "2027-03-03")  # Vrbo block
        | nights("2027-01-22", "2027-01-25") | nights("2027-03-01", "2027-03-08")  # Booking.com
        | nights("2027-04-01", "2027-04-04"))  # manual


def test_the_exported_feed_answers_304_to_its_etag_until_a_booking_changes(
        feeds, villa, owner, anonymous):
    url = composed.property_view(villa)["ical_export_url"]
    first = exported(anonymous, url)
    etag = first.headers["ETag"]
    again = exported(anonymous, url, headers={"If-None-Match": etag}, status=304)
    assert again.body == b""
    owner.post_json("/api/v1/bookings", {"property_id": villa.id, "guest_name": "A",
                                         "arrival_date": "2027-04-01", "departure_date": "2027-04-04",
                                         "guest_count": 1}, status=201)
    changed = exported(anonymous, url, headers={"If-None-Match": etag}, status=200)
    assert changed.headers["ETag"] != etag


def test_a_rotated_export_url_replaces_the_old_one(villa, owner, reader, anonymous):
    old = owner.get(f"/api/v1/properties/{villa.id}").json["data"]["ical_export_url"]
    assert_error(reader.post(f"/api/v1/properties/{villa.id}/ical-token", expect_errors=True),
                 403, "INSUFFICIENT_SCOPE")
    new = owner.post(f"/api/v1/properties/{villa.id}/ical-token").json["data"]["ical_export_url"]
    assert new != old
    exported(anonymous, new, status=200)
    assert_error(exported(anonymous, old, expect_errors=True), 404, "NOT_FOUND")


def test_an_altered_or_unknown_token_is_404(villa, anonymous):
    url = composed.property_view(villa)["ical_export_url"]
    altered = url[:-5] + ("0" if url[-5] != "0" else "1") + ".ics"
    assert_error(exported(anonymous, altered, expect_errors=True), 404, "NOT_FOUND")
    assert_error(anonymous.get("/ical/nothing.ics", expect_errors=True), 404, "NOT_FOUND")
    assert_error(anonymous.get("/ical/prop_x-y.ics", expect_errors=True), 404, "NOT_FOUND")


def test_the_token_is_stored_nowhere(villa, settings):
    from rentalcomply.core.db import db
    token = composed.property_view(villa)["ical_export_url"].rsplit("/", 1)[1][:-4]
    mac = token.rsplit("-", 1)[1]
    stored = [str(value) for table in ("property", "channel_connection", "sync_account_state")
              for row in db.execute_sql(f"SELECT * FROM {table}").fetchall() for value in row]
    assert stored and not any(mac in value for value in stored)


def test_a_channel_s_echo_of_a_booking_is_not_exported_back_so_a_cancellation_frees_the_nights(
        feeds, villa, connect, anonymous):
    feeds.serve("/b.ics", fixture("booking.ics"))
    feeds.serve("/a.ics", calendar(event("echo@airbnb.com", "20270122", "20270125",
                                         summary="Airbnb (Not available)"),
                                   event("own@airbnb.com", "20270601", "20270605",
                                         summary="Airbnb (Not available)")))
    booking_com = connect(villa.id, "booking", "/b.ics")
    sync_connection(booking_com.id)
    sync_connection(connect(villa.id, "airbnb", "/a.ics").id)
    url = composed.property_view(villa)["ical_export_url"]
    assert booked_nights(exported(anonymous, url).body) == (
        nights("2027-01-22", "2027-01-25") | nights("2027-03-01", "2027-03-08")
        | nights("2027-06-01", "2027-06-05"))
    body = fixture("booking.ics").decode()
    cut = body.index("BEGIN:VEVENT")
    feeds.serve("/b.ics", (body[:cut] + body[body.index("BEGIN:VEVENT", cut + 1):]).encode())
    assert sync_connection(booking_com.id).cancelled == 1
    # Airbnb still blocks 22 to 25 January (its echo), but we no longer ask it to.
    assert booked_nights(exported(anonymous, url).body) == (
        nights("2027-03-01", "2027-03-08") | nights("2027-06-01", "2027-06-05"))


def test_an_imported_booking_s_created_event_shows_it_as_the_api_does(feeds, villa, connect, reader):
    from rentalcomply.core.models import Event
    feeds.serve("/a.ics", fixture("airbnb.ics"))
    connection = connect(villa.id, "airbnb", "/a.ics")
    sync_connection(connection.id)
    created = list(Event.select().where(Event.type == "booking.created").order_by(Event.id))
    imported = Booking.select().where((Booking.connection == connection.id)
                                      & (Booking.is_block == False)).count()  # noqa: E712
    assert imported == 2 and len(created) == imported  # one event per booking, none for a block
    for event_row in created:
        shown = reader.get(f"/api/v1/bookings/{event_row.data['id']}").json["data"]
        assert event_row.data == shown  # its tourist_tax included (docs/webhooks.md)
