"""The /webhooks endpoints: registration rules, the one-time secret, scopes and tenant isolation.

These run with the default settings (https only, no private destinations) and the immediate queue.
"""

import base64
import datetime as dt

import pytest

from rentalcomply.core import clock, netguard
from tests.helpers import assert_error

URL = "https://hooks.example.org/rentalcomply"


@pytest.fixture
def settings_env():
    return {}


@pytest.fixture(autouse=True)
def no_dns(monkeypatch):
    # Registration resolves names when it can; these tests decide what DNS answers.
    monkeypatch.setattr(netguard, "resolve", lambda host, port: ["93.184.216.34"])


def create(actor, url=URL, events=("booking.created",), status=201, **extra):
    return actor.post_json("/api/v1/webhooks", {"url": url, "events": list(events), **extra},
                           status=status)


def test_registering_returns_the_endpoint_with_a_one_time_secret(hooker):
    response = create(hooker, description="Front desk")
    hook = response.json["data"]
    assert hook["id"].startswith("wh_") and hook["url"] == URL
    assert hook["events"] == ["booking.created"] and hook["status"] == "active"
    assert hook["description"] == "Front desk" and hook["disabled_reason"] is None
    assert response.headers["Location"] == f"/api/v1/webhooks/{hook['id']}"
    assert hook["secret"].startswith("whsec_")
    assert len(base64.b64decode(hook["secret"][len("whsec_"):], validate=True)) == 32
    shown = hooker.get(f"/api/v1/webhooks/{hook['id']}").json["data"]
    assert "secret" not in shown
    assert all("secret" not in item for item in hooker.get("/api/v1/webhooks").json["data"])
    assert {k: v for k, v in hook.items() if k != "secret"} == shown


def test_each_endpoint_gets_its_own_secret(hooker):
    assert create(hooker).json["data"]["secret"] != create(hooker).json["data"]["secret"]


def test_all_events_is_a_star_and_names_are_kept_in_a_canonical_order(hooker):
    assert create(hooker, events=["*"]).json["data"]["events"] == ["*"]
    assert create(hooker, events=["booking.created", "*"]).json["data"]["events"] == ["*"]
    hook = create(hooker, events=["sync.error", "booking.created", "sync.error"]).json["data"]
    assert hook["events"] == ["booking.created", "sync.error"]


@pytest.mark.parametrize("events, message", [
    ([], "at least one"),
    (["booking.created", "booking.exploded"], "must be one of"),
    (["BOOKING.CREATED"], "must be one of"),
    ("booking.created", "must be an array"),
])
def test_unknown_or_missing_event_names_are_refused(hooker, events, message):
    response = hooker.post_json("/api/v1/webhooks", {"url": URL, "events": events}, status=400)
    error = assert_error(response, 400, "VALIDATION_ERROR")
    assert error["details"][0]["field"] == "events" and message in error["details"][0]["message"]


@pytest.mark.parametrize("url, message", [
    ("http://hooks.example.org/in", "webhooks.allow_http"),
    ("https://user:pass@hooks.example.org/in", "user name or password"),
    ("https://token@hooks.example.org/in", "user name or password"),
    ("ftp://hooks.example.org/in", "https://"),
    ("hooks.example.org/in", "https://"),
    ("https:///in", "no host"),
    ("https://hooks.example.org:0/in", "port"),
    ("https://hooks.example.org:99999/in", "malformed"),
    ("https://hooks.example.org/in#top", "fragment"),
    ("https://hooks.example.org/a b", "spaces"),
    ("https://hooks..example.org/in", "not a valid name"),
    ("https://%41.example.org/in", "not a valid name"),
    ("https://127.0.0.1/in", "webhooks.allow_private_addresses"),
    ("https://localhost:8443/in", "webhooks.allow_private_addresses"),
    ("https://printer.local/in", "local name"),
    ("https://10.0.0.7/in", "private"),
    ("https://192.168.1.20/in", "private"),
    ("https://169.254.169.254/latest/meta-data/", "link-local"),
    ("https://[::1]/in", "loopback"),
    ("https://[::ffff:127.0.0.1]/in", "loopback"),
    ("https://[fd00:ec2::254]/in", "private"),
    ("https://[::ffff:0:127.0.0.1]/in", "loopback"),
    ("https://[::ffff:0:a00:7]/in", "private"),
    ("https://[fec0::1]/in", "site-local"),
    ("https://0.0.0.0/in", "unspecified"),
    ("https://2130706433/in", "webhooks.allow_private_addresses"),
])
def test_urls_that_would_never_be_delivered_are_refused_with_a_reason(hooker, url, message,
                                                                      monkeypatch):
    if url == "https://2130706433/in":  # a decimal IP that resolvers read as 127.0.0.1
        monkeypatch.setattr(netguard, "resolve", lambda host, port: ["127.0.0.1"])
    error = assert_error(create(hooker, url=url, status=400), 400, "VALIDATION_ERROR")
    assert error["details"][0]["field"] == "url"
    assert message in error["details"][0]["message"], error


def test_a_name_that_resolves_to_a_private_address_is_refused_at_registration(hooker, monkeypatch):
    monkeypatch.setattr(netguard, "resolve", lambda host, port: ["93.184.216.34", "10.1.2.3"])
    error = assert_error(create(hooker, status=400), 400, "VALIDATION_ERROR")
    assert "resolves to 10.1.2.3" in error["message"]
    assert "webhooks.allow_private_addresses" in error["message"]


def test_a_name_that_does_not_resolve_yet_is_accepted(hooker, monkeypatch):
    import socket

    def no_answer(host, port):
        raise socket.gaierror(socket.EAI_NONAME, "Name or service not known")
    monkeypatch.setattr(netguard, "resolve", no_answer)
    create(hooker, url="https://not-yet-live.example.org/in")


def test_a_name_that_resolves_too_slowly_is_accepted_without_holding_up_the_request(
        hooker, monkeypatch):
    import threading
    import time

    from rentalcomply.webhooks import service
    monkeypatch.setattr(service, "REGISTRATION_DNS_SECONDS", 0.2)
    answered = threading.Event()

    def slow_resolve(host, port):  # answers once the test is over (or in 30 s)
        answered.wait(30)
        return ["10.0.0.1"]
    monkeypatch.setattr(netguard, "resolve", slow_resolve)
    started = time.monotonic()
    try:
        create(hooker, url="https://slow-dns.example.org/in")
        # Not held for the 30 s of the resolver; the room over its 0.2 s is a loaded machine's.
        assert time.monotonic() - started < 10
    finally:
        answered.set()


def test_a_missing_url_or_unknown_field_is_named(hooker):
    response = hooker.post_json("/api/v1/webhooks", {"events": ["*"], "secret": "mine"}, status=400)
    fields = {d["field"] for d in assert_error(response, 400, "VALIDATION_ERROR")["details"]}
    assert fields == {"url", "secret"}


def test_a_key_without_the_webhooks_scope_gets_403_everywhere(hooker, reader, writer):
    hook = create(hooker).json["data"]
    base = f"/api/v1/webhooks/{hook['id']}"
    for actor in (reader, writer):
        calls = [
            actor.post_json("/api/v1/webhooks", {"url": URL, "events": ["*"]}, expect_errors=True),
            actor.get("/api/v1/webhooks", expect_errors=True),
            actor.get(base, expect_errors=True),
            actor.patch_json(base, {"description": "x"}, expect_errors=True),
            actor.delete(base, expect_errors=True),
            actor.post(base + "/rotate-secret", expect_errors=True),
            actor.get(base + "/deliveries", expect_errors=True),
            actor.post(base + "/test", expect_errors=True),
        ]
        for response in calls:
            error = assert_error(response, 403, "INSUFFICIENT_SCOPE")
            assert "webhooks" in error["message"]


def test_another_accounts_webhook_is_404_and_never_listed(hooker, outsider):
    hook = create(hooker).json["data"]
    base = f"/api/v1/webhooks/{hook['id']}"
    calls = [
        outsider.get(base, expect_errors=True),
        outsider.patch_json(base, {"status": "disabled"}, expect_errors=True),
        outsider.delete(base, expect_errors=True),
        outsider.post(base + "/rotate-secret", expect_errors=True),
        outsider.get(base + "/deliveries", expect_errors=True),
        outsider.post(base + "/test", expect_errors=True),
    ]
    for response in calls:
        assert_error(response, 404, "NOT_FOUND")
    assert outsider.get("/api/v1/webhooks").json["data"] == []
    shown = hooker.get(base).json["data"]
    assert shown["status"] == "active" and shown["previous_secret_expires_at"] is None


def test_an_unknown_webhook_is_404(hooker):
    assert_error(hooker.get("/api/v1/webhooks/wh_nothing", status=404), 404, "NOT_FOUND")


def test_the_list_is_paginated_in_creation_order(hooker):
    ids = [create(hooker).json["data"]["id"] for _ in range(3)]
    page = hooker.get("/api/v1/webhooks?limit=2").json
    assert page["pagination"] == {"page": 1, "limit": 2, "total": 3, "has_more": True}
    rest = hooker.get("/api/v1/webhooks?limit=2&page=2").json
    assert {h["id"] for h in page["data"] + rest["data"]} == set(ids)


def test_an_endpoint_can_be_changed_disabled_and_enabled_again(hooker):
    hook = create(hooker).json["data"]
    base = f"/api/v1/webhooks/{hook['id']}"
    changed = hooker.patch_json(base, {"events": ["booking.cancelled"], "description": "Desk"}).json["data"]
    assert changed["events"] == ["booking.cancelled"] and changed["description"] == "Desk"
    assert changed["url"] == URL
    disabled = hooker.patch_json(base, {"status": "disabled"}).json["data"]
    assert disabled["status"] == "disabled" and disabled["disabled_reason"] == "Disabled through the API."
    enabled = hooker.patch_json(base, {"status": "active"}).json["data"]
    assert enabled["status"] == "active" and enabled["disabled_reason"] is None
    error = assert_error(hooker.patch_json(base, {"url": "https://10.0.0.1/x"}, status=400),
                         400, "VALIDATION_ERROR")
    assert "webhooks.allow_private_addresses" in error["message"]
    assert hooker.get(base).json["data"]["url"] == URL


def test_deleting_an_endpoint_removes_it(hooker):
    hook = create(hooker).json["data"]
    response = hooker.delete(f"/api/v1/webhooks/{hook['id']}", status=204)
    assert response.body == b""
    hooker.get(f"/api/v1/webhooks/{hook['id']}", status=404)
    hooker.delete(f"/api/v1/webhooks/{hook['id']}", status=404)


def test_rotating_the_secret_shows_the_new_one_once_and_keeps_the_old_for_24_hours(hooker):
    hook = create(hooker).json["data"]
    rotated = hooker.post(f"/api/v1/webhooks/{hook['id']}/rotate-secret").json["data"]
    assert rotated["secret"] != hook["secret"] and rotated["secret"].startswith("whsec_")
    grace_end = dt.datetime.fromisoformat(rotated["previous_secret_expires_at"].rstrip("Z"))
    # Within a second: the clock may tick between the answer and this line.
    assert dt.timedelta(hours=24) - (grace_end - clock.utcnow()) <= dt.timedelta(seconds=1)
    shown = hooker.get(f"/api/v1/webhooks/{hook['id']}").json["data"]
    assert "secret" not in shown and shown["previous_secret_expires_at"] == rotated["previous_secret_expires_at"]
    clock.travel(dt.timedelta(hours=24, seconds=1))
    assert hooker.get(f"/api/v1/webhooks/{hook['id']}").json["data"]["previous_secret_expires_at"] is None


def test_the_delivery_log_of_a_new_endpoint_is_empty_and_filterable(hooker):
    hook = create(hooker).json["data"]
    log = hooker.get(f"/api/v1/webhooks/{hook['id']}/deliveries?status=failed").json
    assert log["data"] == [] and log["pagination"]["total"] == 0
    response = hooker.get(f"/api/v1/webhooks/{hook['id']}/deliveries?status=lost", status=400)
    assert_error(response, 400, "VALIDATION_ERROR")


def test_every_webhook_operation_is_in_the_openapi_document(anonymous):
    document = anonymous.get("/api/v1/openapi.json").json
    paths = document["paths"]
    assert set(paths["/api/v1/webhooks"]) == {"get", "post"}
    assert set(paths["/api/v1/webhooks/{webhook_id}"]) == {"get", "patch", "delete"}
    for suffix, method in (("rotate-secret", "post"), ("deliveries", "get"), ("test", "post")):
        operation = paths[f"/api/v1/webhooks/{{webhook_id}}/{suffix}"][method]
        assert operation["x-scope"] == "webhooks"
    assert "secret" in document["components"]["schemas"]["WebhookEndpointWithSecret"]["required"]
