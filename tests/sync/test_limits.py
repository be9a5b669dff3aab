"""A feed is bounded in events as well as bytes, a large valid one is applied in short
transactions beside the API's writes, and what a feed says is stored without control
characters."""

from __future__ import annotations

import dataclasses
import datetime as dt
import threading
import time

import pytest

from rentalcomply.core.db import db
from rentalcomply.core.models import Booking, ChannelConnection, Event
from rentalcomply.properties import service as properties
from rentalcomply.sync.one_connection import sync_connection
from rentalcomply.sync.options import configured_options
from tests.serverutil import running_server
from tests.sync.conftest import calendar, event, fixture


@pytest.fixture
def settings_env():
    # Large enough for a 100,000-event feed, so that its count of events is what refuses it.
    return {"RENTALCOMPLY_SYNC_ALLOW_PRIVATE_ADDRESSES": "true",
            "RENTALCOMPLY_SYNC_TIMEOUT_SECONDS": "20",
            "RENTALCOMPLY_SYNC_MAX_BYTES": "30000000",
            # The client below writes as fast as it can: not a test of the rate limit.
            "RENTALCOMPLY_RATE_LIMIT_PER_MINUTE": "100000"}


def many_events(count: int, first: dt.date = dt.date(2027, 1, 1), summary: str = "Reserved") -> bytes:
    """A feed of `count` one-night stays from `first` on, built as text (icalendar is slow)."""
    lines = ["BEGIN:VCALENDAR", "VERSION:2.0", "PRODID:-//Flood//EN"]
    for number in range(count):
        day = first + dt.timedelta(days=number % 3000)
        lines += ["BEGIN:VEVENT", f"UID:flood-{number}@example.org",
                  f"DTSTART;VALUE=DATE:{day:%Y%m%d}",
                  f"DTEND;VALUE=DATE:{day + dt.timedelta(days=1):%Y%m%d}",
                  f"SUMMARY:{summary}", "END:VEVENT"]
    lines.append("END:VCALENDAR")
    return ("\r\n".join(lines) + "\r\n").encode()


def snapshot(connection):
    bookings = [(b.id, b.arrival_date, b.departure_date, b.status, b.version) for b in
                Booking.select().where(Booking.connection == connection.id).order_by(Booking.id)]
    events = Event.select().where(Event.type != "sync.error").count()
    return bookings, events


def test_the_default_bound_is_5000_future_events(settings):
    assert settings.sync.max_events == 5000
    assert configured_options().max_events == 5000


def test_a_feed_of_100000_events_is_refused_and_changes_nothing(feeds, villa, connect):
    feeds.serve("/cal.ics", fixture("airbnb.ics"))
    connection = connect(villa.id, "airbnb", "/cal.ics")
    assert sync_connection(connection.id).created == 3
    before = snapshot(connection)
    feeds.serve("/cal.ics", many_events(100_000))
    started = time.monotonic()
    result = sync_connection(connection.id)
    took = time.monotonic() - started
    assert result.status == "error"
    assert result.error == ("the feed holds 100000 events, more than 20000 in all "
                            "(4 × sync.max_events, past stays included); nothing was changed")
    current = ChannelConnection.get_by_id(connection.id)
    assert (current.status, current.last_error) == ("error", result.error)
    assert snapshot(connection) == before
    print(f"\n100,000-event feed ({len(many_events(100_000)) / 1e6:.1f} MB) refused in {took:.2f} s")
    assert took < 5, took  # refused on its text, before any parsing


def test_more_future_events_than_the_bound_changes_nothing(feeds, villa, connect):
    feeds.serve("/cal.ics", fixture("airbnb.ics"))
    connection = connect(villa.id, "airbnb", "/cal.ics")
    sync_connection(connection.id)
    before = snapshot(connection)
    options = dataclasses.replace(configured_options(), max_events=50)
    feeds.serve("/cal.ics", many_events(60))
    result = sync_connection(connection.id, options)
    assert result.status == "error"
    assert result.error == ("the feed lists 60 future events, more than sync.max_events (50); "
                            "nothing was changed")
    assert ChannelConnection.get_by_id(connection.id).last_error == result.error
    assert snapshot(connection) == before


def test_past_stays_do_not_count_against_the_bound_of_future_events(feeds, villa, connect):
    options = dataclasses.replace(configured_options(), max_events=50)
    feeds.serve("/cal.ics", many_events(60, first=dt.date(2020, 1, 1)))
    connection = connect(villa.id, "airbnb", "/cal.ics")
    result = sync_connection(connection.id, options)
    assert (result.status, result.created) == ("ok", 60)


def test_control_characters_in_a_feed_are_stripped_on_import(feeds, villa, connect):
    feeds.serve("/cal.ics", calendar(
        event("u1\x00@example.org", "20270301", "20270304", summary="Reserved - Ma\x07ria\x1b Rossi"),
        event("u2@example.org", "20270310", "20270312",
              summary="Reserved - Tab\tand\x7f Del")))
    connection = connect(villa.id, "other", "/cal.ics")
    assert sync_connection(connection.id).status == "ok"
    rows = {b.external_uid: b.guest_name for b in
            Booking.select().where(Booking.connection == connection.id)}
    assert rows == {"u1@example.org": "Maria Rossi", "u2@example.org": "Tab\tand Del"}


@pytest.mark.server
def test_a_valid_feed_of_5000_events_is_applied_while_a_client_writes_bookings(
        feeds, villa, connect, wsgi_app, owner, account_a):
    """Applied in short transactions: every booking written meanwhile is made (none is a 503),
    and the feed is whole at the end."""
    feeds.serve("/big.ics", many_events(5000))
    connection = connect(villa.id, "other", "/big.ics")
    other = properties.create_property(account_a, name="Casa Blu", address="Naxos")
    waits: list[float] = []
    statuses: list[int] = []
    syncing = threading.Event()
    done = threading.Event()

    with running_server(wsgi_app, threads=2) as server:
        def write():
            day = dt.date(2028, 1, 1)
            while not done.is_set():
                started = time.monotonic()
                status, _, _ = server.request("POST", "/api/v1/bookings", {
                    "property_id": other.id, "guest_name": "Writer", "guest_count": 1,
                    "arrival_date": day.isoformat(),
                    "departure_date": (day + dt.timedelta(days=1)).isoformat()}, key=owner.key)
                if syncing.is_set():
                    waits.append(time.monotonic() - started)
                    statuses.append(status)
                day += dt.timedelta(days=1)

        writer = threading.Thread(target=write)
        writer.start()
        time.sleep(0.3)
        syncing.set()
        started = time.monotonic()
        try:
            result = sync_connection(connection.id)
        finally:
            sync_seconds = time.monotonic() - started
            done.set()
            writer.join(timeout=30)
            db.close()
    assert (result.status, result.created) == ("ok", 5000), result.error
    assert Booking.select().where(Booking.connection == connection.id).count() == 5000
    assert statuses and set(statuses) == {201}, statuses
    print(f"\n5,000-event feed applied in {sync_seconds:.2f} s beside {len(waits)} booking "
          f"writes: slowest {max(waits) * 1000:.0f} ms, median "
          f"{sorted(waits)[len(waits) // 2] * 1000:.0f} ms")
    # Each write went through (a write held past the database's busy timeout is a 503): how long
    # the slowest waited is the figure printed above, not a check that a busy machine fails.
