"""A run's list is read when it begins, and each claim checks again that the connection is still
due; a trigger whose task was lost is run by the periodic sync."""

from __future__ import annotations

import datetime as dt

from rentalcomply.core import clock
from rentalcomply.sync import service, tasks
from rentalcomply.sync.one_connection import sync_connection
from rentalcomply.sync.runs import sync_many
from tests.sync.conftest import fixture


def fetches(feeds, path: str) -> int:
    return sum(1 for seen in feeds.requests if seen.path == path)


def test_a_connection_synced_since_a_run_read_its_list_is_not_fetched_again(feeds, villa,
                                                                             connect, settings):
    feeds.serve("/a.ics", fixture("airbnb.ics"))
    connection = connect(villa.id, "airbnb", "/a.ics")
    listed = service.connection_ids(due_only=True)  # one worker reads the due list ...
    assert listed == [connection.id]
    sync_connection(connection.id)  # ... while another syncs the connection
    cutoff = clock.utcnow() - dt.timedelta(minutes=settings.sync.interval_minutes)
    [result] = sync_many(listed, attempted_before=cutoff)
    assert result.status == "skipped" and "synced since" in result.error
    assert fetches(feeds, "/a.ics") == 1


def test_the_periodic_sync_makes_up_for_a_trigger_whose_task_was_lost(feeds, villa, connect,
                                                                       account_a, settings):
    feeds.serve("/a.ics", fixture("airbnb.ics"))
    feeds.serve("/b.ics", fixture("booking.ics"))
    connect(villa.id, "airbnb", "/a.ics")
    connect(villa.id, "booking", "/b.ics")
    assert tasks.sync_due_connections.call_local() == 2  # both synced; not due for a while
    clock.travel(dt.timedelta(minutes=1))
    allowed, _ = service.claim_trigger(account_a)  # POST /sync/trigger: its task is lost
    assert allowed
    clock.travel(dt.timedelta(seconds=30))
    assert tasks.sync_due_connections.call_local() == 0  # the task may still be on its way
    clock.travel(dt.timedelta(seconds=service.TRIGGER_GRACE_SECONDS))
    assert tasks.sync_due_connections.call_local() == 2  # taken for lost: run here
    assert fetches(feeds, "/a.ics") == 2 and fetches(feeds, "/b.ics") == 2
    assert service.status(account_a)["last_sync_all"] is not None
    clock.travel(dt.timedelta(minutes=1))
    assert tasks.sync_due_connections.call_local() == 0  # answered: not run again


def test_a_trigger_runs_only_the_connections_not_synced_since_it_was_asked_for(
        feeds, villa, connect, account_a, settings):
    feeds.serve("/a.ics", fixture("airbnb.ics"))
    feeds.serve("/b.ics", fixture("booking.ics"))
    first = connect(villa.id, "airbnb", "/a.ics")
    connect(villa.id, "booking", "/b.ics")
    asked_at = clock.utcnow()
    clock.travel(dt.timedelta(seconds=5))
    sync_connection(first.id)  # synced by the periodic run after the trigger was asked
    tasks.sync_account_task.call_local(account_a, asked_at.isoformat())
    assert fetches(feeds, "/a.ics") == 1 and fetches(feeds, "/b.ics") == 1
