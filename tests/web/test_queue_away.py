"""A task queue that does not answer is a delay, never an error: the writes that queue work
answer 202 with the work recorded in the database (where the sweeps find it), queue nothing
before their commit, and say so in one log line, not a traceback a request; what only the queue
could carry (a one-time link's e-mail) is refused with 503 and Retry-After.

The queue here is Redis on a loopback port nothing listens on: every attempt is refused at once."""

from __future__ import annotations

import datetime as dt
import logging

import pytest

from rentalcomply.core import clock, outage
from rentalcomply.core.models import ChannelConnection
from rentalcomply.reports.models import Report
from rentalcomply.sync.models import SyncAccountState
from rentalcomply.web.app import create_app
from tests.conftest import bootstrapped_settings, make_actor
from tests.e2e.conftest import free_port

pytest.importorskip("redis")


@pytest.fixture
def settings(tmp_path):
    silent = f"redis://127.0.0.1:{free_port()}/0"
    with bootstrapped_settings(tmp_path, RENTALCOMPLY_QUEUE_URL=silent,
                               RENTALCOMPLY_SYNC_ALLOW_PRIVATE_ADDRESSES="true") as settings:
        outage.watch.forget()  # a fresh start for this process's watch
        yield settings
        outage.watch.forget()


@pytest.fixture
def owner(settings):
    from rentalcomply.accounts import service as accounts
    account = accounts.create_account("Agency A").id
    return make_actor(create_app(settings), account, ["read", "write", "webhooks"])


def last_month() -> str:
    first = clock.today().replace(day=1)
    previous = first.replace(year=first.year - 1, month=12) if first.month == 1 \
        else first.replace(month=first.month - 1)
    return previous.strftime("%Y-%m")


def test_a_report_asked_for_while_the_queue_is_away_is_accepted_and_waits_in_the_database(
        owner, caplog):
    caplog.set_level(logging.WARNING)
    answer = owner.post_json("/api/v1/reports", {"period": last_month()}, status=202)
    report = Report.get(Report.code == answer.json["data"]["id"])
    assert report.job == "queued"  # what the sweep queues again once the queue is back
    assert not [r for r in caplog.records if r.exc_info]


def test_a_sync_trigger_and_accepted_removals_are_accepted_while_the_queue_is_away(
        owner, caplog):
    caplog.set_level(logging.WARNING)
    prop = owner.post_json("/api/v1/properties", {"name": "Studio", "address": "Odos 1"},
                           status=201).json["data"]
    channel = owner.post_json(f"/api/v1/properties/{prop['id']}/channels", {
        "provider": "airbnb", "ical_url": "http://127.0.0.1:9/feed.ics"}, status=201).json["data"]
    triggered = owner.post("/api/v1/sync/trigger", status=202).json["data"]
    assert triggered["status"] == "queued" and triggered["connections"] == 1
    # The trigger's time is in the database: the periodic sync runs it if its task never comes.
    assert SyncAccountState.get(SyncAccountState.account == owner.account_id).last_trigger_at
    owner.post(f"/api/v1/properties/{prop['id']}/channels/{channel['id']}/accept-removals",
               status=202)
    assert ChannelConnection.get_by_id(channel["id"]).accept_removals is True
    from rentalcomply.sync import service as sync
    assert sync.removals_accepted() == [channel["id"]]
    assert not [r for r in caplog.records if r.exc_info]


def test_many_writes_while_the_queue_is_away_log_one_line(owner, caplog):
    caplog.set_level(logging.WARNING)
    prop = owner.post_json("/api/v1/properties", {"name": "Studio", "address": "Odos 1"},
                           status=201).json["data"]
    for number in range(10):  # each emits an event, whose dispatcher cannot be woken
        arrival = clock.today() + dt.timedelta(days=30 + 3 * number)
        owner.post_json("/api/v1/bookings", {
            "property_id": prop["id"], "guest_name": f"Guest {number}", "guest_count": 2,
            "arrival_date": arrival.isoformat(),
            "departure_date": (arrival + dt.timedelta(days=2)).isoformat()}, status=201)
    assert not [r for r in caplog.records if r.exc_info]
    about_the_queue = [r.getMessage() for r in caplog.records if r.name == "rentalcomply.queue"]
    assert len(about_the_queue) == 1 and "task queue does not answer" in about_the_queue[0]


def test_a_password_link_that_only_the_queue_could_carry_is_refused_with_retry_after(
        settings, owner):
    from tests.dashboard.conftest import new_browser
    browser = new_browser(create_app(settings))
    page = browser.get("/dashboard/forgot-password")
    answer = browser.post("/dashboard/forgot-password",
                          {"csrf": browser.csrf(page), "email": "someone@example.com"},
                          status=503)
    assert answer.headers["Retry-After"] == "30"
