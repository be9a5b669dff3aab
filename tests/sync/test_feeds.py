"""One connection's sync against a real HTTP server on loopback: each case ends in the right
bookings and connection status, with nothing half-applied."""

from __future__ import annotations

import datetime as dt

from rentalcomply.core import clock
from rentalcomply.core.models import Booking, ChannelConnection, Event
from rentalcomply.sync import service
from rentalcomply.sync.lease import claim_lease, release_lease
from rentalcomply.sync.one_connection import sync_connection
from rentalcomply.sync.fetch import USER_AGENT
from tests.sync.conftest import Answer, calendar, event, fixture

D = dt.date.fromisoformat


def stays(connection):
    rows = Booking.select().where(Booking.connection == connection.id).order_by(Booking.arrival_date)
    return [(b.arrival_date.isoformat(), b.departure_date.isoformat(), b.status, b.is_block)
            for b in rows]


def events_of(kind: str) -> list[dict]:
    return [e.data for e in Event.select().where(Event.type == kind).order_by(Event.created_at)]


def reloaded(connection) -> ChannelConnection:
    return ChannelConnection.get_by_id(connection.id)


def five_stays(*skip: int) -> bytes:
    return calendar(*(event(f"u{i}@airbnb.com", f"202703{i:02d}", f"202703{i + 1:02d}")
                      for i in range(1, 10, 2) if i not in skip))


# --- first import, per channel ------------------------------------------------------------------

def test_a_first_airbnb_import_makes_two_bookings_with_their_codes_and_one_block(feeds, villa, connect):
    feeds.serve("/airbnb.ics", fixture("airbnb.ics"))
    connection = connect(villa.id, "airbnb", "/airbnb.ics")
    result = sync_connection(connection.id)
    assert (result.status, result.created) == ("ok", 3)
    rows = list(Booking.select().where(Booking.connection == connection.id).order_by(Booking.arrival_date))
    assert [(b.arrival_date, b.departure_date, b.is_block, b.external_ref, b.channel) for b in rows] == [
        (D("2027-01-08"), D("2027-01-12"), False, "HMQ4T2ZXK8", "airbnb"),
        (D("2027-01-15"), D("2027-01-20"), False, "HM8JD3KQ2P", "airbnb"),
        (D("2027-02-01"), D("2027-02-05"), True, None, "airbnb"),
    ]
    assert all(b.guest_count == 1 and b.source is None for b in rows)
    assert len(events_of("booking.created")) == 2  # a block is not a booking
    current = reloaded(connection)
    assert current.status == "ok" and current.last_error is None
    assert current.last_sync_success is not None and current.etag
    [completed] = events_of("sync.completed")
    assert completed["changes"]["created"] == 3
    seen = feeds.requests_to("/airbnb.ics")[0]
    assert seen.headers["User-Agent"] == USER_AGENT


def test_booking_com_closed_dates_become_bookings_of_a_booking_com_guest(feeds, villa, connect):
    feeds.serve("/booking.ics", fixture("booking.ics"))
    connection = connect(villa.id, "booking", "/booking.ics")
    sync_connection(connection.id)
    rows = list(Booking.select().where(Booking.connection == connection.id))
    assert sorted((b.arrival_date.isoformat(), b.guest_name, b.is_block) for b in rows) == [
        ("2027-01-22", "Booking.com guest", False), ("2027-03-01", "Booking.com guest", False)]


def test_vrbo_gives_guest_names_in_any_language_durations_and_blocks(feeds, villa, connect):
    feeds.serve("/vrbo.ics", fixture("vrbo.ics"))
    connection = connect(villa.id, "vrbo", "/vrbo.ics")
    sync_connection(connection.id)
    rows = Booking.select().where(Booking.connection == connection.id).order_by(Booking.arrival_date)
    assert [(b.guest_name, b.arrival_date.isoformat(), b.departure_date.isoformat(), b.is_block)
            for b in rows] == [
        ("Αλέξανδρος Π.", "2027-02-10", "2027-02-14", False),
        ("Melanie", "2027-02-20", "2027-02-23", False),  # DURATION:P3D
        ("Blocked", "2027-03-01", "2027-03-03", True),
    ]


# --- what a later sync changes --------------------------------------------------------------------

def test_a_changed_date_under_the_same_uid_moves_the_same_booking(feeds, villa, connect):
    feeds.serve("/a.ics", calendar(event("r1@airbnb.com", "20270108", "20270112")))
    connection = connect(villa.id, "airbnb", "/a.ics")
    sync_connection(connection.id)
    [before] = Booking.select().where(Booking.connection == connection.id)
    feeds.serve("/a.ics", calendar(event("r1@airbnb.com", "20270109", "20270114")))
    result = sync_connection(connection.id)
    assert (result.created, result.updated) == (0, 1)
    [after] = Booking.select().where(Booking.connection == connection.id)
    assert after.id == before.id
    assert (after.arrival_date, after.departure_date) == (D("2027-01-09"), D("2027-01-14"))
    [updated] = events_of("booking.updated")
    assert updated["id"] == before.id and updated["arrival_date"] == "2027-01-09"


def test_a_removed_event_cancels_its_future_booking(feeds, villa, connect):
    feeds.serve("/a.ics", fixture("airbnb.ics"))
    connection = connect(villa.id, "airbnb", "/a.ics")
    sync_connection(connection.id)
    body = fixture("airbnb.ics").decode()
    cut = body.index("BEGIN:VEVENT", body.index("HM8JD3KQ2P") - 400)
    end = body.index("END:VEVENT", cut) + len("END:VEVENT\n")
    feeds.serve("/a.ics", (body[:cut] + body[end:]).encode())
    result = sync_connection(connection.id)
    assert (result.status, result.cancelled) == ("ok", 1)
    assert stays(connection) == [("2027-01-08", "2027-01-12", "confirmed", False),
                                 ("2027-01-15", "2027-01-20", "cancelled", False),
                                 ("2027-02-01", "2027-02-05", "confirmed", True)]
    [cancelled] = events_of("booking.cancelled")
    assert cancelled["external_ref"] == "HM8JD3KQ2P"


def test_a_past_stay_missing_from_the_feed_is_never_cancelled(feeds, villa, connect):
    today = clock.today()
    past = (today - dt.timedelta(days=10)).strftime("%Y%m%d")
    past_end = (today - dt.timedelta(days=7)).strftime("%Y%m%d")
    feeds.serve("/a.ics", calendar(event("old@airbnb.com", past, past_end),
                                   event("new@airbnb.com", "20270108", "20270112")))
    connection = connect(villa.id, "airbnb", "/a.ics")
    sync_connection(connection.id)
    feeds.serve("/a.ics", calendar(event("new@airbnb.com", "20270108", "20270112")))
    assert sync_connection(connection.id).cancelled == 0
    assert all(status == "confirmed" for _, _, status, _ in stays(connection))


def test_a_host_edited_guest_name_survives_the_next_sync_and_the_dates_still_follow(
        feeds, villa, connect, owner):
    feeds.serve("/v.ics", fixture("vrbo.ics"))
    connection = connect(villa.id, "vrbo", "/v.ics")
    sync_connection(connection.id)
    melanie = Booking.get((Booking.connection == connection.id) & (Booking.guest_name == "Melanie"))
    owner.patch_json(f"/api/v1/bookings/{melanie.id}",
                     {"guest_name": "Melanie Dupont", "guest_email": "melanie@example.org",
                      "guest_count": 3, "total_price": 540.0, "payment_method": "card"})
    feeds.serve("/v.ics", fixture("vrbo.ics").replace(b"DTSTART;VALUE=DATE:20270220",
                                                      b"DTSTART;VALUE=DATE:20270219"))
    assert sync_connection(connection.id).updated == 1
    melanie = Booking.get_by_id(melanie.id)
    assert (melanie.guest_name, melanie.guest_email, melanie.guest_count,
            melanie.total_price_cents, melanie.payment_method) == (
        "Melanie Dupont", "melanie@example.org", 3, 54000, "card")
    assert (melanie.arrival_date, melanie.departure_date) == (D("2027-02-19"), D("2027-02-22"))


def test_a_booking_the_host_cancelled_stays_cancelled_while_its_event_remains(
        feeds, villa, connect, owner):
    feeds.serve("/b.ics", fixture("booking.ics"))
    connection = connect(villa.id, "booking", "/b.ics")
    sync_connection(connection.id)
    first = Booking.select().where(Booking.connection == connection.id).order_by(Booking.arrival_date).first()
    owner.post(f"/api/v1/bookings/{first.id}/cancel")
    sync_connection(connection.id)
    assert Booking.get_by_id(first.id).status == "cancelled"
    assert Booking.select().where(Booking.connection == connection.id).count() == 2


def test_an_unchanged_feed_answers_304_to_our_etag_and_nothing_is_read_again(feeds, villa, connect):
    feeds.serve("/a.ics", fixture("airbnb.ics"))
    connection = connect(villa.id, "airbnb", "/a.ics")
    sync_connection(connection.id)
    result = sync_connection(connection.id)
    assert result.not_modified and result.status == "ok"
    second = feeds.requests_to("/a.ics")[1]
    assert second.headers["If-None-Match"] == reloaded(connection).etag
    assert len(stays(connection)) == 3


# --- the removal guard ----------------------------------------------------------------------------

def test_a_feed_turned_empty_cancels_nothing_and_errors_until_the_removals_are_accepted(
        feeds, villa, connect):
    feeds.serve("/a.ics", fixture("airbnb.ics"))
    connection = connect(villa.id, "airbnb", "/a.ics")
    sync_connection(connection.id)
    feeds.serve("/a.ics", calendar())
    for _ in range(2):
        result = sync_connection(connection.id)
        assert result.status == "error" and "without any event" in result.error
    assert [s[2] for s in stays(connection)] == ["confirmed"] * 3
    current = reloaded(connection)
    assert current.status == "error" and "accept the removals" in current.last_error
    assert len(events_of("sync.error")) == 1  # once per new failure, not on every poll
    result = sync_connection(connection.id, accept_removals=True)
    assert (result.status, result.cancelled) == ("ok", 3)
    assert reloaded(connection).status == "ok"


def test_a_feed_that_lost_most_of_its_future_stays_at_once_is_held_back(feeds, villa, connect):
    feeds.serve("/a.ics", five_stays())
    connection = connect(villa.id, "airbnb", "/a.ics")
    sync_connection(connection.id)
    feeds.serve("/a.ics", five_stays(1, 3, 5))  # 3 of 5 gone, and a date moved would wait too
    result = sync_connection(connection.id)
    assert result.status == "error" and "lost 3 of its 5 future stays" in result.error
    assert [s[2] for s in stays(connection)] == ["confirmed"] * 5
    feeds.serve("/a.ics", five_stays(1, 3))  # 2 of 5: a plausible day of cancellations
    result = sync_connection(connection.id)
    assert (result.status, result.cancelled) == ("ok", 2)


def test_the_accept_flag_set_by_the_host_lets_the_next_sync_apply_the_removals(feeds, villa, connect):
    feeds.serve("/a.ics", five_stays())
    connection = connect(villa.id, "airbnb", "/a.ics")
    sync_connection(connection.id)
    feeds.serve("/a.ics", five_stays(1, 3, 5))
    assert sync_connection(connection.id).status == "error"
    service.accept_removals(connection.account_id, villa.id, connection.id)
    assert sync_connection(connection.id).cancelled == 3
    assert reloaded(connection).accept_removals is False


# --- feeds that fail ------------------------------------------------------------------------------

def failed_with(feeds, villa, connect, answer: Answer, expected: str):
    feeds.serve("/good.ics", fixture("airbnb.ics"))
    connection = connect(villa.id, "airbnb", "/good.ics")
    sync_connection(connection.id)
    before = stays(connection)
    feeds.route("/good.ics", answer)
    result = sync_connection(connection.id)
    assert result.status == "error" and expected in result.error, result.error
    current = reloaded(connection)
    assert current.status == "error" and expected in current.last_error
    assert stays(connection) == before  # nothing half-applied
    [error] = events_of("sync.error")
    assert expected in error["last_error"] and error["id"] == connection.id
    return connection


def test_a_500_puts_the_connection_in_error_and_changes_nothing(feeds, villa, connect):
    failed_with(feeds, villa, connect, Answer(500, b"oops"), "HTTP 500")


def test_a_slow_server_past_the_timeout_is_an_error(feeds, villa, connect):
    failed_with(feeds, villa, connect, Answer(200, fixture("airbnb.ics"), delay=2.5, etag=False),
                "within 1 s")


def test_a_20_mb_body_is_refused_by_its_content_length(feeds, villa, connect):
    failed_with(feeds, villa, connect, Answer(200, b"X" * 20_000_000, etag=False), "sync.max_bytes")


def test_a_20_mb_body_without_content_length_is_cut_at_the_cap(feeds, villa, connect):
    failed_with(feeds, villa, connect, Answer(200, b"X" * 20_000_000, stream=True, etag=False),
                "sync.max_bytes")


def test_a_body_that_is_not_icalendar_is_an_error(feeds, villa, connect):
    failed_with(feeds, villa, connect, Answer(200, b"<html><body>Log in</body></html>", etag=False),
                "not an iCalendar file")


def test_a_truncated_feed_is_an_error_not_a_cancellation(feeds, villa, connect):
    body = fixture("airbnb.ics")
    failed_with(feeds, villa, connect, Answer(200, body[:len(body) * 2 // 3], etag=False),
                "truncated")


def test_a_connection_recovers_and_fails_anew_with_a_new_sync_error(feeds, villa, connect):
    connection = failed_with(feeds, villa, connect, Answer(500), "HTTP 500")
    feeds.serve("/good.ics", fixture("airbnb.ics"))
    assert sync_connection(connection.id).status == "ok"
    feeds.route("/good.ics", Answer(503))
    sync_connection(connection.id)
    assert len(events_of("sync.error")) == 2


# --- redirects and the guard ----------------------------------------------------------------------

def test_a_redirect_is_followed_to_the_feed(feeds, villa, connect):
    feeds.serve("/new.ics", fixture("booking.ics"))
    feeds.route("/old.ics", Answer(301, headers={"Location": "/new.ics"}))
    connection = connect(villa.id, "booking", "/old.ics")
    assert sync_connection(connection.id).created == 2


def test_endless_redirects_stop_after_the_configured_number(feeds, villa, connect):
    feeds.route("/loop.ics", Answer(302, headers={"Location": "/loop.ics"}))
    connection = connect(villa.id, "airbnb", "/loop.ics")
    result = sync_connection(connection.id)
    assert result.status == "error" and "sync.max_redirects" in result.error
    assert len(feeds.requests_to("/loop.ics")) == 4


def test_a_redirect_to_a_refused_address_is_not_followed(feeds, monkeypatch):
    """A public feed (here a name we let through to the loopback server) redirecting to a
    loopback or metadata address: every hop is vetted again, so the second one is refused."""
    from rentalcomply.core import netguard
    from rentalcomply.sync.fetch import FeedError, FetchOptions, fetch_feed
    original = netguard.vetted_addresses

    def public_feeds_host(target, allow_private, private_setting=None):
        if target.host == "feeds.example":
            return ["127.0.0.1"]
        return original(target, allow_private, private_setting)

    monkeypatch.setattr(netguard, "vetted_addresses", public_feeds_host)
    strict = FetchOptions(timeout=1, allow_private=False)
    feeds.serve("/feed.ics", fixture("airbnb.ics"))
    assert not fetch_feed(f"http://feeds.example:{feeds.port}/feed.ics", strict).not_modified
    for location in (feeds.url("/feed.ics"), "http://169.254.169.254/latest/meta-data/"):
        feeds.route("/moved.ics", Answer(302, headers={"Location": location}))
        try:
            fetch_feed(f"http://feeds.example:{feeds.port}/moved.ics", strict)
        except FeedError as exc:
            assert "refused" in str(exc) and "sync.allow_private_addresses" in str(exc)
        else:
            raise AssertionError(f"a redirect to {location} was followed")
    assert len(feeds.requests_to("/feed.ics")) == 1  # only the direct fetch


# --- what iCalendar allows ------------------------------------------------------------------------

def test_folded_long_lines_are_unfolded_before_reading_the_code(feeds, villa, connect):
    description = ("DESCRIPTION:Reservation URL: https://www.airbnb.com/hosting/reservations/d\r\n"
                   " etails/HMFOLD1234\\nPhone Number (Last 4 Digits): 4821")
    feeds.serve("/a.ics", calendar(event("f@airbnb.com", "20270108", "20270112", extra=description)))
    connection = connect(villa.id, "airbnb", "/a.ics")
    sync_connection(connection.id)
    assert Booking.get(Booking.connection == connection.id).external_ref == "HMFOLD1234"


def test_a_tzid_start_counts_on_the_listing_s_own_day(feeds, villa, connect):
    body = calendar("UID:tz-1\nDTSTART;TZID=America/New_York:20270301T220000\n"
                    "DTEND;TZID=America/New_York:20270305T100000\nSUMMARY:Reserved - Bob",
                    "UID:utc-1\nDTSTART:20270309T230000Z\nDTEND:20270312T090000Z\n"
                    "SUMMARY:Reserved - Ann")
    feeds.serve("/v.ics", body)
    connection = connect(villa.id, "vrbo", "/v.ics")
    sync_connection(connection.id)
    rows = Booking.select().where(Booking.connection == connection.id).order_by(Booking.arrival_date)
    assert [(b.guest_name, b.arrival_date.isoformat(), b.departure_date.isoformat()) for b in rows] == [
        ("Bob", "2027-03-01", "2027-03-05"),
        ("Ann", "2027-03-10", "2027-03-12"),  # 23:00 UTC is already the 10th in Athens
    ]


def test_an_event_without_dtend_is_one_night(feeds, villa, connect):
    feeds.serve("/o.ics", calendar(event("n@x", "20270401", summary="Reserved - Kim"),
                                   "UID:t@x\nDTSTART:20270410T150000\nSUMMARY:Reserved - Lee"))
    connection = connect(villa.id, "other", "/o.ics")
    sync_connection(connection.id)
    assert stays(connection) == [("2027-04-01", "2027-04-02", "confirmed", False),
                                 ("2027-04-10", "2027-04-11", "confirmed", False)]


# --- double bookings and the lease ----------------------------------------------------------------

def test_overlapping_bookings_of_two_channels_raise_one_conflict_per_pair(feeds, villa, connect):
    feeds.serve("/a.ics", calendar(event("a1@airbnb.com", "20270122", "20270126")))
    feeds.serve("/b.ics", fixture("booking.ics"))  # 2027-01-22 to 25 overlaps
    airbnb = connect(villa.id, "airbnb", "/a.ics")
    booking = connect(villa.id, "booking", "/b.ics")
    sync_connection(airbnb.id)
    sync_connection(booking.id)
    sync_connection(airbnb.id)
    feeds.serve("/b.ics", fixture("booking.ics") + b"")
    sync_connection(booking.id)
    [conflict] = events_of("booking.conflict")
    assert conflict["property_id"] == villa.id
    assert (conflict["from"], conflict["to"]) == ("2027-01-22", "2027-01-25")
    assert {b["channel"] for b in conflict["bookings"]} == {"airbnb", "booking"}


def test_a_block_over_nights_another_channel_sold_is_a_conflict(feeds, villa, connect):
    """The fixtures themselves: Vrbo blocked 1 to 3 March, Booking.com sold 1 to 8 March."""
    feeds.serve("/v.ics", fixture("vrbo.ics"))
    feeds.serve("/b.ics", fixture("booking.ics"))
    sync_connection(connect(villa.id, "vrbo", "/v.ics").id)
    sync_connection(connect(villa.id, "booking", "/b.ics").id)
    [conflict] = events_of("booking.conflict")
    assert (conflict["from"], conflict["to"]) == ("2027-03-01", "2027-03-03")
    assert conflict["blocks"] == [{"channel": "vrbo", "arrival_date": "2027-03-01",
                                   "departure_date": "2027-03-03"}]
    assert [b["channel"] for b in conflict["bookings"]] == ["booking"]


def test_a_channel_s_echo_of_a_booking_and_two_blocks_are_not_conflicts(feeds, villa, connect):
    # Airbnb blocks exactly the nights our feed lists as sold on Booking.com: the calendars working.
    feeds.serve("/a.ics", calendar(event("echo@airbnb.com", "20270122", "20270125",
                                         summary="Airbnb (Not available)"),
                                   event("blk@airbnb.com", "20270401", "20270405",
                                         summary="Airbnb (Not available)")))
    feeds.serve("/v.ics", calendar(event("v-blk", "20270402", "20270404", summary="Blocked")))
    feeds.serve("/b.ics", fixture("booking.ics"))
    sync_connection(connect(villa.id, "airbnb", "/a.ics").id)
    sync_connection(connect(villa.id, "vrbo", "/v.ics").id)
    sync_connection(connect(villa.id, "booking", "/b.ics").id)
    assert events_of("booking.conflict") == []


def test_a_connection_being_synced_is_skipped_by_a_second_sync(feeds, villa, connect):
    feeds.serve("/a.ics", fixture("airbnb.ics"))
    connection = connect(villa.id, "airbnb", "/a.ics")
    assert claim_lease(connection.id, "someone", 60)
    result = sync_connection(connection.id)
    assert result.status == "skipped" and not feeds.requests
    release_lease(connection.id, "someone")
    assert sync_connection(connection.id).status == "ok"
    current = reloaded(connection)
    assert current.lease_owner is None and current.lease_until is None  # given back
    feeds.route("/a.ics", Answer(500))
    assert sync_connection(connection.id).status == "error"
    assert reloaded(connection).lease_owner is None


def test_a_stay_cancelled_by_a_sync_comes_back_with_its_event_but_a_host_cancellation_stays(
        feeds, villa, connect, owner):
    feeds.serve("/a.ics", calendar(event("r1@airbnb.com", "20270108", "20270112"),
                                   event("r2@airbnb.com", "20270115", "20270120")))
    connection = connect(villa.id, "airbnb", "/a.ics")
    sync_connection(connection.id)
    first, second = Booking.select().where(Booking.connection == connection.id).order_by(Booking.arrival_date)
    owner.post(f"/api/v1/bookings/{second.id}/cancel")
    feeds.serve("/a.ics", calendar())  # a broken export, accepted by mistake
    assert sync_connection(connection.id, accept_removals=True).cancelled == 1
    feeds.serve("/a.ics", calendar(event("r1@airbnb.com", "20270108", "20270112"),
                                   event("r2@airbnb.com", "20270115", "20270120")))
    assert sync_connection(connection.id).updated == 1
    assert Booking.get_by_id(first.id).status == "confirmed"
    assert Booking.get_by_id(first.id).cancelled_at is None
    assert Booking.get_by_id(second.id).status == "cancelled"


def test_an_unreadable_event_is_never_taken_for_a_cancellation(feeds, villa, connect):
    feeds.serve("/a.ics", calendar(event("r1@airbnb.com", "20270108", "20270112")))
    connection = connect(villa.id, "airbnb", "/a.ics")
    sync_connection(connection.id)
    feeds.serve("/a.ics", calendar("UID:r1@airbnb.com\nSUMMARY:Reserved"))  # no DTSTART
    result = sync_connection(connection.id)
    assert (result.status, result.cancelled) == ("ok", 0)
    assert stays(connection) == [("2027-01-08", "2027-01-12", "confirmed", False)]


def test_each_change_a_sync_makes_gives_the_booking_its_next_version_and_the_event_says_it(
        feeds, villa, connect):
    feeds.serve("/a.ics", calendar(event("r1@airbnb.com", "20270108", "20270112")))
    connection = connect(villa.id, "airbnb", "/a.ics")
    sync_connection(connection.id)
    feeds.serve("/a.ics", calendar(event("r1@airbnb.com", "20270109", "20270112")))
    sync_connection(connection.id)
    feeds.serve("/a.ics", calendar(event("r1@airbnb.com", "20270109", "20270112"),
                                   event("r2@airbnb.com", "20270301", "20270302")))
    sync_connection(connection.id)
    feeds.serve("/a.ics", calendar(event("r2@airbnb.com", "20270301", "20270302")))
    sync_connection(connection.id)
    booking = Booking.get(Booking.external_uid == "r1@airbnb.com")
    announced = [(kind, data["version"]) for kind in ("booking.created", "booking.updated",
                                                      "booking.cancelled")
                 for data in events_of(kind) if data["id"] == booking.id]
    assert announced == [("booking.created", 1), ("booking.updated", 2), ("booking.cancelled", 3)]
    assert booking.version == 3


def test_a_byte_order_mark_and_bare_newlines_are_read_like_any_feed(feeds, villa, connect):
    body = b"\xef\xbb\xbf" + fixture("booking.ics").replace(b"\r\n", b"\n")
    feeds.serve("/b.ics", body)
    connection = connect(villa.id, "booking", "/b.ics")
    assert sync_connection(connection.id).created == 2


def test_a_body_of_zero_bytes_is_an_error_not_an_empty_calendar(feeds, villa, connect):
    failed_with(feeds, villa, connect, Answer(200, b"", etag=False), "the feed is empty")


def test_an_announced_length_over_the_cap_is_refused_before_reading_the_body(feeds, villa, connect):
    # It announces 20 MB and sends 10 bytes: only a refusal on the header itself names the cap.
    failed_with(feeds, villa, connect, Answer(200, b"BEGIN:VCAL", stream=True, etag=False,
                                              headers={"Content-Length": "20000000"}),
                "sync.max_bytes")
