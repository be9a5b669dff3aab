"""Channel connections: a calendar feed per channel, its URL checked and shown masked."""

import pytest

from rentalcomply.core.models import Booking, ChannelConnection
from rentalcomply.properties import service as properties
from tests.conftest import make_actor, make_settings
from tests.helpers import assert_error

AIRBNB = "https://www.airbnb.com/calendar/ical/123.ics?s=0123456789abcdef"


@pytest.fixture
def villa(owner):
    return properties.create_property(owner.account_id, name="Villa Anemoi", address="Oia")


def channels_url(prop_id):
    return f"/api/v1/properties/{prop_id}/channels"


def test_it_connects_a_feed_and_shows_its_url_masked(owner, villa):
    response = owner.post_json(channels_url(villa.id), {"provider": "airbnb", "ical_url": AIRBNB},
                               status=201)
    data = response.json["data"]
    assert data == {"id": data["id"], "provider": "airbnb",
                    "ical_url": "https://www.airbnb.com/calendar/ical/123.ics?s=***",
                    "status": "pending", "last_sync_success": None, "last_sync_attempt": None,
                    "last_error": None, "version": 1}
    assert data["id"].startswith("ch_")
    assert ChannelConnection.get_by_id(data["id"]).ical_url == AIRBNB  # the real URL is kept
    shown = owner.get(f"/api/v1/properties/{villa.id}").json["data"]["channel_connections"]
    assert shown == [data]
    assert "0123456789abcdef" not in owner.get("/api/v1/properties").text


def test_a_plain_http_feed_is_accepted(owner, villa):
    owner.post_json(channels_url(villa.id), {"provider": "other",
                                             "ical_url": "http://calendar.example.com/feed.ics"},
                    status=201)


@pytest.mark.parametrize("url, message", [
    ("ftp://example.com/feed.ics", "must start with http:// or https://"),
    ("file:///etc/passwd", "must start with http:// or https://"),
    ("not a url", "must start with http:// or https://"),
    ("https://user:pass@example.com/feed.ics", "must not contain a user name or password"),
    ("https://token@example.com/feed.ics", "must not contain a user name or password"),
    ("https:///feed.ics", "has no host"),
    ("https://example.com:99999/feed.ics", "malformed"),
    ("http://[::1/feed.ics", "malformed"),
    ("https://exa mple.com/feed.ics", "spaces or control characters"),
])
def test_it_refuses_a_feed_url_that_is_not_a_plain_web_address(owner, villa, url, message):
    response = owner.post_json(channels_url(villa.id), {"provider": "airbnb", "ical_url": url},
                               status=400)
    error = assert_error(response, 400, "VALIDATION_ERROR")
    [detail] = error["details"]
    assert detail["field"] == "ical_url" and message in detail["message"]


@pytest.mark.parametrize("url", [
    "http://127.0.0.1/feed.ics", "http://localhost:8080/feed.ics", "http://[::1]/feed.ics",
    "http://10.0.0.5/feed.ics", "http://192.168.1.10/feed.ics", "http://169.254.169.254/latest",
    "http://[::ffff:10.0.0.1]/f.ics", "http://printer.local/feed.ics",
    "http://[::ffff:0:10.0.0.1]/f.ics", "http://[fec0::5]/feed.ics",
])
def test_it_refuses_a_private_or_loopback_feed_naming_the_setting(owner, villa, url):
    response = owner.post_json(channels_url(villa.id), {"provider": "other", "ical_url": url},
                               status=400)
    error = assert_error(response, 400, "VALIDATION_ERROR")
    assert "sync.allow_private_addresses" in error["details"][0]["message"]


@pytest.mark.parametrize("host", ["2130706433", "0177.0.0.1", "127.1", "0x7f.0.0.1",
                                  "0x7f000001", "017700000001", "10.1", "0xa9.0xfe.0xa9.0xfe"])
def test_a_feed_on_a_numeric_form_of_a_loopback_or_private_address_is_refused(owner, villa, host):
    """The resolver reads 127.1 or 2130706433 as 127.0.0.1: refused as webhooks are, not let
    through as a host name."""
    response = owner.post_json(channels_url(villa.id),
                               {"provider": "other", "ical_url": f"http://{host}/feed.ics"},
                               status=400)
    error = assert_error(response, 400, "VALIDATION_ERROR")
    [detail] = error["details"]
    assert detail["field"] == "ical_url"
    assert detail["message"].startswith(f"the destination is refused: {host} means ")
    assert "sync.allow_private_addresses" in detail["message"]
    assert not ChannelConnection.select().exists()


def test_a_feed_whose_name_resolves_to_loopback_is_refused_at_registration(owner, villa,
                                                                          monkeypatch):
    from rentalcomply.core import netguard
    monkeypatch.setattr(netguard, "resolve", lambda host, port: ["127.0.0.1"])
    response = owner.post_json(channels_url(villa.id),
                               {"provider": "other", "ical_url": "http://rebound.example.org/f.ics"},
                               status=400)
    error = assert_error(response, 400, "VALIDATION_ERROR")
    assert "rebound.example.org resolves to 127.0.0.1" in error["details"][0]["message"]


def test_a_private_feed_is_accepted_when_the_setting_allows_it(tmp_path, settings, account_a):
    from rentalcomply.web.app import create_app
    allowing = make_settings(tmp_path, RENTALCOMPLY_SYNC_ALLOW_PRIVATE_ADDRESSES="true")
    actor = make_actor(create_app(allowing), account_a, ["read", "write"])
    prop = properties.create_property(account_a, name="LAN", address="Athens")
    actor.post_json(channels_url(prop.id), {"provider": "other",
                                            "ical_url": "http://192.168.1.10/feed.ics"}, status=201)


def test_it_refuses_an_unknown_provider_and_a_missing_url(owner, villa):
    response = owner.post_json(channels_url(villa.id), {"provider": "expedia"}, status=400)
    error = assert_error(response, 400, "VALIDATION_ERROR")
    assert {d["field"] for d in error["details"]} == {"provider", "ical_url"}


def test_it_refuses_the_same_feed_twice_on_one_property(owner, villa):
    owner.post_json(channels_url(villa.id), {"provider": "airbnb", "ical_url": AIRBNB}, status=201)
    response = owner.post_json(channels_url(villa.id), {"provider": "airbnb", "ical_url": AIRBNB},
                               status=400)
    assert assert_error(response, 400, "VALIDATION_ERROR")["details"][0]["field"] == "ical_url"
    assert ChannelConnection.select().count() == 1


def test_connecting_a_feed_to_an_unknown_property_is_404(owner):
    response = owner.post_json(channels_url("prop_nothing"), {"provider": "airbnb", "ical_url": AIRBNB},
                               status=404)
    assert_error(response, 404, "NOT_FOUND")


def test_it_disconnects_a_feed_and_keeps_the_bookings_it_imported(owner, villa):
    import datetime as dt
    channel = properties.add_channel(owner.account_id, villa.id, provider="airbnb", ical_url=AIRBNB)
    Booking.create(id="book_imported", account=owner.account_id, property=villa.id,
                   connection=channel.id, guest_name="Airbnb guest", channel="airbnb",
                   arrival_date=dt.date(2026, 7, 1), departure_date=dt.date(2026, 7, 3))
    response = owner.delete(f"{channels_url(villa.id)}/{channel.id}", status=204)
    assert response.body == b""
    assert ChannelConnection.select().count() == 0
    assert Booking.get_by_id("book_imported").connection_id is None
    assert owner.get(f"/api/v1/properties/{villa.id}").json["data"]["channel_connections"] == []


def test_disconnecting_an_unknown_feed_or_one_of_another_property_is_404(owner, villa):
    other = properties.create_property(owner.account_id, name="Other", address="Athens")
    channel = properties.add_channel(owner.account_id, other.id, provider="airbnb", ical_url=AIRBNB)
    assert_error(owner.delete(f"{channels_url(villa.id)}/ch_nothing", status=404), 404, "NOT_FOUND")
    assert_error(owner.delete(f"{channels_url(villa.id)}/{channel.id}", status=404), 404, "NOT_FOUND")
    assert ChannelConnection.select().count() == 1


def test_channels_need_the_write_scope(reader, villa):
    response = reader.post_json(channels_url(villa.id), {"provider": "airbnb", "ical_url": AIRBNB},
                                status=403)
    assert_error(response, 403, "INSUFFICIENT_SCOPE")
    assert_error(reader.delete(f"{channels_url(villa.id)}/ch_x", status=403), 403, "INSUFFICIENT_SCOPE")


@pytest.mark.parametrize("url, shown", [
    ("https://www.airbnb.com/calendar/ical/123.ics?s=abc", "https://www.airbnb.com/calendar/ical/123.ics?s=***"),
    ("https://admin.booking.com/ical.html?t=abc&lang=en", "https://admin.booking.com/ical.html?t=***&lang=***"),
    ("https://example.com/feed.ics?secret", "https://example.com/feed.ics?***"),
    ("https://example.com/feed.ics", "https://example.com/feed.ics"),
    ("https://example.com/feed.ics#frag", "https://example.com/feed.ics"),
    ("http://www.vrbo.com/icalendar/0f9e8d7c6b5a49382716a5b4c3d2e1f0.ics",
     "http://www.vrbo.com/icalendar/***.ics"),
    ("https://example.com/calendars/ab12cd34ef56gh78ij90/export", "https://example.com/calendars/***/export"),
])
def test_a_feed_url_is_shown_with_its_secret_masked(url, shown):
    assert properties.mask_feed_url(url) == shown
