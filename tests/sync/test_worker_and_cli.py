"""The sync on the real Huey consumer, several feeds at once, and `rentalcomply sync run`."""

from __future__ import annotations

import dataclasses
import threading

import pytest
from click.testing import CliRunner

from rentalcomply.cli import main
from rentalcomply.core import peers, queue
from rentalcomply.core.db import close_database, db
from rentalcomply.core.models import Booking, ChannelConnection
from rentalcomply.properties import service as properties
from rentalcomply.sync import runs
from rentalcomply.sync.one_connection import sync_connection
from rentalcomply.sync.options import configured_options
from rentalcomply.sync.parser_processes import PARSER_POOL_MIN_FEEDS
from tests.conftest import task_queue_url
from tests.helpers import poll
from tests.sync.conftest import Answer, calendar, fixture


class TestOnTheRealConsumer:
    @pytest.fixture
    def settings_env(self, tmp_path):
        return {"RENTALCOMPLY_SYNC_ALLOW_PRIVATE_ADDRESSES": "true",
                "RENTALCOMPLY_SYNC_TIMEOUT_SECONDS": "2",
                "RENTALCOMPLY_QUEUE_URL": task_queue_url(tmp_path)}

    @pytest.fixture
    def consumer(self, settings):
        started = queue.start_embedded_consumer(workers=2)
        yield started
        started.stop(graceful=True)

    def test_a_trigger_is_synced_by_the_worker_moments_later(self, feeds, villa, connect, owner,
                                                             consumer):
        for provider in ("airbnb", "booking", "vrbo"):
            feeds.serve(f"/{provider}.ics", fixture(f"{provider}.ics"))
            connect(villa.id, provider, f"/{provider}.ics")
        assert owner.post("/api/v1/sync/trigger", status=202).json["data"]["connections"] == 3
        # Under the 100 requests a minute the key may make, however long the worker takes.
        poll(lambda: owner.get("/api/v1/sync/status", expect_errors=True),
             lambda answer: answer.status_int == 200 and answer.json["data"]["last_sync_all"]
             and all(c["status"] == "ok" for c in answer.json["data"]["connections"]),
             what="every connection synced")
        assert Booking.select().where(Booking.property == villa.id).count() == 8


def test_feeds_are_fetched_in_parallel_and_each_connection_once(feeds, villa, connect, settings):
    """Each feed answers only once all six are asked for at once: one after another, the first
    would wait in vain and its barrier would break."""
    in_flight_together = threading.Barrier(6)
    connections = []
    for number in range(6):
        feeds.route(f"/slow{number}.ics", Answer(200, fixture("booking.ics"),
                                                 together=in_flight_together))
        connections.append(connect(villa.id, "booking", f"/slow{number}.ics").id)
    # Six feeds on one host: in parallel only when the host may take six fetches at once; a
    # timeout longer than the barrier's wait, so that a slow machine is never the failure.
    configured = configured_options()
    options = dataclasses.replace(configured, max_per_host=6,
                                  fetch=dataclasses.replace(configured.fetch, timeout=60))
    results = runs.sync_many(connections + connections, options)  # every id twice: synced once
    assert [r.status for r in results] == ["ok"] * 6
    assert feeds.alone == []
    assert len(feeds.requests) == 6


def test_two_runs_at_once_never_sync_a_connection_twice(feeds, villa, connect, settings):
    release = threading.Event()
    feeds.route("/slow.ics", Answer(200, fixture("airbnb.ics"), held_until=release))
    connection = connect(villa.id, "airbnb", "/slow.ics")
    outcomes = []
    # The host would take three fetches at once: the connection's lease is what stops the others.
    configured = configured_options()
    options = dataclasses.replace(configured, max_per_host=3,
                                  fetch=dataclasses.replace(configured.fetch, timeout=60))

    def run():
        outcomes.append(sync_connection(connection.id, options).status)
        db.close()

    first = threading.Thread(target=run)
    first.start()
    feeds.wait_for_request("/slow.ics")  # the first run holds the lease, its fetch in flight
    others = [threading.Thread(target=run) for _ in range(2)]
    for thread in others:
        thread.start()
    for thread in others:
        thread.join(timeout=60)
    release.set()
    first.join(timeout=60)
    assert outcomes == ["skipped", "skipped", "ok"]
    assert len(feeds.requests) == 1


def test_a_sync_finding_its_feed_host_busy_is_deferred_not_blocked(feeds, villa, connect,
                                                                   settings):
    """One fetch per host at a time (sync.max_fetches_per_host = 1): a second sync of another
    feed on the same host returns, `deferred`, while the first is still held in flight, and the
    task queues it again shortly."""
    release = threading.Event()
    feeds.route("/slow.ics", Answer(200, fixture("airbnb.ics"), held_until=release))
    feeds.serve("/other.ics", fixture("booking.ics"))
    slow = connect(villa.id, "airbnb", "/slow.ics")
    other = connect(villa.id, "booking", "/other.ics")
    assert settings.sync.max_fetches_per_host == 1
    configured = configured_options()
    patient = dataclasses.replace(configured, fetch=dataclasses.replace(configured.fetch, timeout=60))
    first = threading.Thread(target=lambda: (sync_connection(slow.id, patient), db.close()))
    first.start()
    feeds.wait_for_request("/slow.ics")  # the host's one slot is taken
    try:
        result = sync_connection(other.id)
        assert not release.is_set() and first.is_alive()  # it did not wait for the first
    finally:
        release.set()
        first.join(timeout=60)
    assert (result.status, result.error) == ("deferred",
                                            "another feed from 127.0.0.1 is being fetched")
    assert ChannelConnection.get_by_id(other.id).status == "pending"  # untouched
    assert runs.deferred([result]) == [other.id]
    assert sync_connection(other.id).status == "ok"  # the host is free again


def test_a_run_takes_one_host_s_feeds_in_turn_and_other_hosts_beside_them(villa, account_a):
    ids = [properties.add_channel(account_a, villa.id, provider="other",
                                  ical_url=f"https://{host}/{number}.ics").id
           for number, host in enumerate(["a.example.org", "a.example.org", "b.example.org",
                                          "A.example.org", "b.example.org"])]
    assert runs._lanes(ids, 1) == [[ids[0], ids[1], ids[3]], [ids[2], ids[4]]]
    assert runs._lanes(ids, 2) == [[ids[0], ids[3]], [ids[2]], [ids[1]], [ids[4]]]


def test_the_periodic_task_syncs_only_what_is_due(feeds, villa, connect, settings):
    from rentalcomply.core import clock
    from rentalcomply.sync import tasks
    import datetime as dt
    feeds.serve("/a.ics", fixture("airbnb.ics"))
    connect(villa.id, "airbnb", "/a.ics")
    assert tasks.sync_due_connections.call_local() == 1
    assert tasks.sync_due_connections.call_local() == 0
    clock.travel(dt.timedelta(minutes=settings.sync.interval_minutes))
    assert tasks.sync_due_connections.call_local() == 1


def run_cli(settings, *args):
    result = CliRunner().invoke(
        main, ["--data-dir", str(settings.data_dir), "sync", "run", *args],
        env={"RENTALCOMPLY_SYNC_ALLOW_PRIVATE_ADDRESSES": "true",
             "RENTALCOMPLY_SYNC_TIMEOUT_SECONDS": "1", "RENTALCOMPLY_QUEUE_URL": "memory://",
             # The test's database, SQLite or PostgreSQL.
             "RENTALCOMPLY_DATABASE_URL": settings.database.url or None},
        catch_exceptions=False)
    close_database()
    return result


def test_sync_run_exits_1_naming_every_failed_connection(feeds, villa, connect, settings):
    feeds.serve("/good.ics", fixture("airbnb.ics"))
    good = connect(villa.id, "airbnb", "/good.ics")
    broken = [connect(villa.id, "booking", "/missing.ics"),
              connect(villa.id, "vrbo", "/html.ics")]
    feeds.route("/html.ics", Answer(200, b"<html></html>"))
    result = run_cli(settings)
    assert result.exit_code == 1, result.output
    for connection in broken:
        assert connection.id in result.output
    assert good.id not in result.output.split("FAILED", 1)[1]
    assert "HTTP 404" in result.output and "not an iCalendar" in result.output
    assert "Synced 1 of 3 connections: 2 new bookings, 1 new block, 0 changed" in result.output


def test_sync_run_accept_removals_applies_what_was_held_back(feeds, villa, connect, settings):
    feeds.serve("/a.ics", fixture("airbnb.ics"))
    connection = connect(villa.id, "airbnb", "/a.ics")
    assert run_cli(settings, "--account", villa.account_id).exit_code == 0
    feeds.serve("/a.ics", calendar())
    held = run_cli(settings)
    assert held.exit_code == 1 and "accept the removals" in held.output
    accepted = run_cli(settings, "--accept-removals")
    assert accepted.exit_code == 0 and "3 cancelled" in accepted.output
    assert ChannelConnection.get_by_id(connection.id).status == "ok"
    assert properties.get_property(villa.account_id, villa.id)


def test_a_large_run_parses_in_worker_processes_with_the_same_result(feeds, villa, connect,
                                                                      settings):
    ids = []
    for number in range(PARSER_POOL_MIN_FEEDS):
        feeds.serve(f"/v{number}.ics", fixture("vrbo.ics").replace(b"UID:", f"UID:{number}-".encode()))
        ids.append(connect(villa.id, "vrbo", f"/v{number}.ics").id)
    results = runs.sync_many(ids)
    assert [r.created for r in results] == [3] * len(ids)
    names = {b.guest_name for b in Booking.select().where(Booking.property == villa.id)}
    assert names == {"Αλέξανδρος Π.", "Melanie", "Blocked"}
    feeds.route("/v0.ics", Answer(200, b"<html></html>"))
    [first, *_] = runs.sync_many(ids)  # a FeedError raised in a parser process comes back
    assert first.status == "error" and "not an iCalendar" in first.error
