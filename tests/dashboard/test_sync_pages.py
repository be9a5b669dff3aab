"""Channel sync in the dashboard: sync now (the API's once-per-5-minutes turn), the export feed
URL with its rotation, accepting held-back removals."""

from __future__ import annotations

import datetime as dt

import pytest

from rentalcomply.core import clock
from rentalcomply.core.activity import Activity
from rentalcomply.core.models import Booking, ChannelConnection
from rentalcomply.dashboard import users
from rentalcomply.properties import service as properties
from rentalcomply.sync import export
from tests.conftest import bootstrapped_settings
from tests.dashboard.conftest import DASHBOARD_ENV
from tests.sync.conftest import calendar, event, feeds  # noqa: F401 - the fixture


@pytest.fixture
def settings(tmp_path):
    with bootstrapped_settings(tmp_path, RENTALCOMPLY_SYNC_ALLOW_PRIVATE_ADDRESSES="true",
                               **DASHBOARD_ENV) as settings:
        users.configure(settings)
        users.forget_failures()
        yield settings


def _day(days: int) -> str:
    return (clock.today() + dt.timedelta(days=days)).strftime("%Y%m%d")


def test_sync_now_imports_the_feeds_and_waits_five_minutes_for_the_next(
        anna, account_a, feeds):  # noqa: F811
    villa = properties.create_property(account_a, name="Villa Anemoi", address="Oia")
    url = feeds.serve("/airbnb.ics", calendar(event("a1@airbnb.com", _day(5), _day(8),
                                                    extra="DESCRIPTION:Reservation URL: "
                                                          "https://www.airbnb.com/hosting/reservations/details/HMABCDEF12")))
    properties.add_channel(account_a, villa.id, provider="airbnb", ical_url=url,
                           allow_private_addresses=True)
    page = anna.get(f"/dashboard/properties/{villa.id}")
    done = anna.post("/dashboard/sync", {"csrf": anna.csrf(page),
                                         "next": f"/dashboard/properties/{villa.id}"}, status=303)
    assert done.headers["Location"] == f"/dashboard/properties/{villa.id}?done=sync_queued"
    assert Booking.select().where(Booking.channel == "airbnb").count() == 1
    assert ChannelConnection.get().status == "ok"
    assert "Every feed is being synced now." in anna.get(done.headers["Location"]).text
    again = anna.post("/dashboard/sync", {"csrf": anna.csrf(page), "next": "//evil.example"},
                      status=303)
    assert again.headers["Location"] == "/dashboard/today?done=sync_wait"
    assert [a.action for a in Activity.select()] == ["sync.trigger"]


def test_the_export_url_is_shown_with_a_copy_button_and_rotates(anna, account_a, settings):
    villa = properties.create_property(account_a, name="Villa Anemoi", address="Oia")
    old = export.export_url(villa, settings.server.public_url)
    page = anna.get(f"/dashboard/properties/{villa.id}")
    assert old in page.text and 'data-copy="export-url"' in page.text
    anna.post(f"/dashboard/properties/{villa.id}/ical-token", {"csrf": anna.csrf(page), "confirm": "yes"},
              status=303)
    new = export.export_url(properties.get_property(account_a, villa.id), settings.server.public_url)
    assert new != old and new in anna.get(f"/dashboard/properties/{villa.id}").text
    # the old one answers 404 now, the new one the calendar
    anna.get(old.replace(settings.server.public_url, ""), status=404)
    assert anna.get(new.replace(settings.server.public_url, "")).body.startswith(b"BEGIN:VCALENDAR")


def test_another_accounts_property_cannot_be_rotated_or_its_removals_accepted(
        anna, account_b, settings):
    villa = properties.create_property(account_b, name="B's villa", address="Elsewhere")
    connection = properties.add_channel(account_b, villa.id, provider="vrbo",
                                        ical_url="https://www.vrbo.com/icalendar/abc.ics")
    csrf = anna.csrf(anna.get("/dashboard/today"))
    anna.post(f"/dashboard/properties/{villa.id}/ical-token", {"csrf": csrf}, status=404)
    anna.post(f"/dashboard/properties/{villa.id}/channels/{connection.id}/accept-removals",
              {"csrf": csrf}, status=404)
    assert properties.get_property(account_b, villa.id).ical_token_generation == 0
