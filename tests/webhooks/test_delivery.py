"""Deliveries to a real receiver on a loopback port, with the queue driven step by step.

Time is moved by `tasks.run(advance=seconds)`, so the real retry schedule (minutes, hours, days)
is tested without sleeping; `fast_retries` shrinks it where real time passes.
"""

import base64
import datetime as dt
import hashlib
import hmac
import json

import pytest

import rentalcomply
from rentalcomply.core import clock, events, secrets
from rentalcomply.core.db import db
from rentalcomply.core.errors import BookingConflict
from rentalcomply.core.models import Event
from rentalcomply.core.queue import huey
from rentalcomply.webhooks import InvalidSignature, delivery, service, tasks as webhook_tasks, verify
from rentalcomply.webhooks.models import WebhookDelivery, WebhookEndpoint
from tests.conftest import ON_POSTGRES
from tests.webhooks.conftest import Hang, Receiver, down_port, register

HOUR = 3600
DAY = 24 * HOUR


def verified(request, secret: str) -> dict:
    """verify() at the moment the delivery was signed (tests that move the clock on)."""
    return verify(request.body, request.headers, secret,
                  now=int(request.headers["X-RentalComply-Timestamp"]))


def deliveries_of(actor, hook_id: str) -> list[dict]:
    return actor.get(f"/api/v1/webhooks/{hook_id}/deliveries").json["data"]


# -- what arrives ---------------------------------------------------------------------------------

def test_a_delivery_arrives_with_a_signature_that_verifies_with_the_secret_shown_at_registration(
        owner, receiver, tasks, emit):
    hook = register(owner, receiver.url, ["booking.created"])
    event = emit(owner.account_id, "booking.created", {"id": "book_1", "guest_name": "Νίκος"})
    tasks.run()

    [request] = receiver.requests
    parsed = verify(request.body, request.headers, hook["secret"])
    assert parsed == {
        "id": event.id, "type": "booking.created", "created_at": clock.iso(event.created_at),
        "timestamp": int(request.headers["X-RentalComply-Timestamp"]),
        "account_id": owner.account_id, "data": {"id": "book_1", "guest_name": "Νίκος"},
    }
    headers = request.headers
    assert headers["Content-Type"] == "application/json"
    assert headers["X-RentalComply-Event"] == "booking.created"
    assert headers["X-RentalComply-Delivery"].startswith("dlv_")
    assert headers["User-Agent"] == f"RentalComply/{rentalcomply.__version__}"
    assert request.path == "/hook"


def test_the_signatures_follow_the_documented_recipes(owner, receiver, tasks, emit):
    hook = register(owner, receiver.url)
    event = emit(owner.account_id)
    tasks.run()
    [request] = receiver.requests
    secret, body, headers = hook["secret"], request.body, request.headers
    # The interface: hex HMAC-SHA256 of the raw body, keyed with the whole secret string.
    expected = hmac.new(secret.encode(), body, hashlib.sha256).hexdigest()
    assert headers["X-RentalComply-Signature"] == f"sha256={expected}"
    assert headers["X-RentalComply-Timestamp"] == str(json.loads(body)["timestamp"])
    # Standard Webhooks: base64 HMAC over id.timestamp.body, keyed with the decoded secret.
    key = base64.b64decode(secret.removeprefix("whsec_"))
    signed = f"{event.id}.{headers['webhook-timestamp']}.".encode() + body
    assert headers["webhook-signature"] == "v1," + base64.b64encode(
        hmac.new(key, signed, hashlib.sha256).digest()).decode()
    assert headers["webhook-id"] == event.id
    assert headers["webhook-timestamp"] == headers["X-RentalComply-Timestamp"]


def test_a_body_altered_by_one_byte_fails_verification(owner, receiver, tasks, emit):
    hook = register(owner, receiver.url)
    emit(owner.account_id, data={"id": "book_1", "guest_count": 2})
    tasks.run()
    [request] = receiver.requests
    verify(request.body, request.headers, hook["secret"])
    altered = request.body.replace(b'"guest_count":2', b'"guest_count":3')
    assert len(altered) == len(request.body) and altered != request.body
    with pytest.raises(InvalidSignature):
        verify(altered, request.headers, hook["secret"])
    with pytest.raises(InvalidSignature):
        verify(request.body, request.headers, "whsec_" + base64.b64encode(b"x" * 32).decode())


def test_a_delivery_replayed_after_five_minutes_fails_verification(owner, receiver, tasks, emit):
    hook = register(owner, receiver.url)
    emit(owner.account_id)
    tasks.run()
    [request] = receiver.requests
    sent_at = int(request.headers["X-RentalComply-Timestamp"])
    assert verify(request.body, request.headers, hook["secret"], now=sent_at + 299)
    with pytest.raises(InvalidSignature, match="300 s"):
        verify(request.body, request.headers, hook["secret"], now=sent_at + 301)
    # Nor can the replay be given a fresh time: the signed body carries the old one.
    fresh = dict(request.headers, **{"X-RentalComply-Timestamp": str(sent_at + 301)})
    with pytest.raises(InvalidSignature):
        verify(request.body, fresh, hook["secret"], now=sent_at + 301)


def test_only_the_matching_enabled_endpoints_of_the_events_account_receive_it(
        owner, outsider, tasks, emit):
    receivers = [Receiver().start() for _ in range(4)]
    try:
        everything = register(owner, receivers[0].url, ["*"])
        register(owner, receivers[1].url, ["booking.cancelled"])
        paused = register(owner, receivers[2].url, ["booking.created"])
        owner.patch_json(f"/api/v1/webhooks/{paused['id']}", {"status": "disabled"})
        register(outsider, receivers[3].url, ["*"])
        event = emit(owner.account_id, "booking.created")
        tasks.run()
        assert [len(r.requests) for r in receivers] == [1, 0, 0, 0]
        assert json.loads(receivers[0].requests[0].body)["id"] == event.id
        assert len(deliveries_of(owner, everything["id"])) == 1
    finally:
        for r in receivers:
            r.stop()


def test_every_enabled_endpoint_gets_its_own_delivery_of_an_event(owner, tasks, emit):
    receivers = [Receiver().start() for _ in range(3)]
    try:
        hooks = [register(owner, r.url) for r in receivers]
        event = emit(owner.account_id)
        tasks.run()
        for r, hook in zip(receivers, hooks):
            [request] = r.requests
            assert verify(request.body, request.headers, hook["secret"])["id"] == event.id
    finally:
        for r in receivers:
            r.stop()


# -- when the receiver does not answer 2xx --------------------------------------------------------

def test_a_receiver_that_answers_500_twice_then_200_gets_the_event_three_times_with_one_id(
        owner, receiver, tasks, emit):
    hook = register(owner, receiver.url)
    receiver.answer(500, 500, 200)
    event = emit(owner.account_id)
    tasks.run()
    assert len(receiver.requests) == 1
    [log] = deliveries_of(owner, hook["id"])
    assert log["status"] == "pending" and log["attempts"] == 1 and log["last_status_code"] == 500
    due = dt.datetime.fromisoformat(log["next_attempt_at"].rstrip("Z"))
    assert dt.timedelta(seconds=50) <= due - clock.utcnow() <= dt.timedelta(seconds=70)  # ~1 min

    tasks.run(advance=30)  # not yet due
    assert len(receiver.requests) == 1
    tasks.run(advance=40)
    assert len(receiver.requests) == 2
    tasks.run(advance=5 * 60 * 1.1)  # ~5 min
    assert len(receiver.requests) == 3
    tasks.run(advance=DAY)
    assert len(receiver.requests) == 3

    bodies = [verified(r, hook["secret"]) for r in receiver.requests]
    assert {b["id"] for b in bodies} == {event.id}
    assert {r.headers["webhook-id"] for r in receiver.requests} == {event.id}
    assert len({r.headers["X-RentalComply-Delivery"] for r in receiver.requests}) == 1
    # Each attempt is signed afresh, with the time of the attempt.
    stamps = [b["timestamp"] for b in bodies]
    assert stamps == sorted(stamps) and len(set(stamps)) == 3
    [log] = deliveries_of(owner, hook["id"])
    assert log["status"] == "succeeded" and log["attempts"] == 3
    assert log["last_status_code"] == 200 and log["next_attempt_at"] is None
    assert [a["status_code"] for a in log["attempt_log"]] == [500, 500, 200]
    assert [a["number"] for a in log["attempt_log"]] == [1, 2, 3]
    assert log["attempt_log"][0]["error"] == "HTTP 500"
    assert log["attempt_log"][0]["response_excerpt"] == '{"error":"no thanks"}'
    assert log["last_error"] is None


def test_retries_follow_the_decided_schedule_with_jitter_then_give_up(owner, receiver, tasks, emit,
                                                                     monkeypatch):
    monkeypatch.setattr(delivery, "JITTER", 0.1)
    hook = register(owner, receiver.url)
    receiver.default = 503
    emit(owner.account_id)
    tasks.run()
    waits = []
    for _ in range(7):
        [log] = deliveries_of(owner, hook["id"])
        due = dt.datetime.fromisoformat(log["next_attempt_at"].rstrip("Z"))
        waits.append((due - clock.utcnow()).total_seconds())
        tasks.run(advance=waits[-1] + 1)
    expected = [60, 300, 1800, 2 * HOUR, 6 * HOUR, 12 * HOUR, DAY]
    for wait, planned in zip(waits, expected):
        assert planned * 0.9 - 1 <= wait <= planned * 1.1 + 1
    assert len(receiver.requests) == 8
    [log] = deliveries_of(owner, hook["id"])
    assert log["status"] == "failed" and log["attempts"] == 8
    assert log["last_error"] == "HTTP 503 (gave up after 8 attempts)"
    assert log["next_attempt_at"] is None
    tasks.run(advance=7 * DAY)
    assert len(receiver.requests) == 8


def test_retry_delays_are_spread_by_jitter():
    delays = {round(delivery.retry_delay(1), 3) for _ in range(50)}
    assert len(delays) > 10
    assert all(54 <= d <= 66 for d in delays)
    assert delivery.retry_delay(len(delivery.RETRY_DELAYS) + 1) is None


def test_retry_after_makes_the_next_attempt_wait_at_least_that_long(owner, receiver, tasks, emit,
                                                                    frozen_clock):
    hook = register(owner, receiver.url)
    receiver.answer((503, {"Retry-After": "600"}), (429, {"Retry-After": "5"}), 200)
    emit(owner.account_id)
    tasks.run()
    [log] = deliveries_of(owner, hook["id"])
    due = dt.datetime.fromisoformat(log["next_attempt_at"].rstrip("Z"))
    assert (due - clock.utcnow()).total_seconds() == 600
    tasks.run(advance=70)  # the schedule alone would have retried by now
    assert len(receiver.requests) == 1
    tasks.run(advance=540)
    assert len(receiver.requests) == 2
    # A shorter Retry-After than the schedule leaves the schedule's wait (~5 min) in place.
    tasks.run(advance=10)
    assert len(receiver.requests) == 2
    tasks.run(advance=5 * 60 * 1.1)
    assert len(receiver.requests) == 3


def test_retry_after_as_an_http_date_and_beyond_a_day_is_read_sensibly():
    now = dt.datetime(2026, 5, 1, 12, 0, 0)
    assert delivery.parse_retry_after("Fri, 01 May 2026 12:10:00 GMT", now) == 600
    assert delivery.parse_retry_after("120", now) == 120
    assert delivery.parse_retry_after("soon", now) is None
    assert delivery.parse_retry_after(None, now) is None
    assert delivery.retry_delay(1, retry_after=10 * DAY) == delivery.MAX_RETRY_AFTER


def test_a_receiver_that_hangs_is_cut_at_the_timeout_and_retried(
        owner, receiver, tasks, emit, monkeypatch):
    monkeypatch.setattr(service.config, "timeout_seconds", 1.0)
    hook = register(owner, receiver.url)
    receiver.answer(Hang(30), 200)
    emit(owner.account_id)
    started = clock.utcnow_precise()
    tasks.run()
    took = (clock.utcnow_precise() - started).total_seconds()
    assert 1.0 <= took < 3 * 1.0  # the receiver would hang for 30 s
    [log] = deliveries_of(owner, hook["id"])
    assert log["status"] == "pending" and log["last_status_code"] is None
    assert log["last_error"] == "the peer did not answer within 1 s"
    tasks.run(advance=70)
    [log] = deliveries_of(owner, hook["id"])
    assert log["status"] == "succeeded" and log["attempts"] == 2
    assert len(receiver.requests) == 2


def test_the_default_delivery_timeout_is_ten_seconds(settings):
    assert settings.webhooks.timeout_seconds == 10
    assert service.config.timeout_seconds == 10


def test_a_receiver_that_is_down_is_retried_until_it_is_back(owner, tasks, emit):
    port = down_port()
    hook = register(owner, f"http://127.0.0.1:{port}/hook")
    emit(owner.account_id)
    tasks.run()
    [log] = deliveries_of(owner, hook["id"])
    assert log["status"] == "pending" and "cannot connect" in log["last_error"]
    receiver = Receiver()
    receiver.port = port
    receiver.start()
    try:
        tasks.run(advance=70)
        [request] = receiver.requests
        assert verified(request, hook["secret"])
    finally:
        receiver.stop()
    assert deliveries_of(owner, hook["id"])[0]["status"] == "succeeded"


def test_redirects_are_not_followed(owner, receiver, tasks, emit):
    elsewhere = Receiver().start()
    try:
        hook = register(owner, receiver.url)
        receiver.answer((307, {"Location": elsewhere.url}))
        emit(owner.account_id)
        tasks.run()
        assert elsewhere.requests == []
        [log] = deliveries_of(owner, hook["id"])
        assert log["status"] == "pending" and log["last_status_code"] == 307
        assert "redirects are not followed" in log["last_error"] and elsewhere.url in log["last_error"]
    finally:
        elsewhere.stop()


def test_410_gone_disables_the_endpoint_and_says_why(owner, receiver, tasks, emit):
    hook = register(owner, receiver.url)
    receiver.answer(410)
    emit(owner.account_id)
    tasks.run()
    shown = owner.get(f"/api/v1/webhooks/{hook['id']}").json["data"]
    assert shown["status"] == "disabled"
    assert "410 Gone" in shown["disabled_reason"] and shown["disabled_at"]
    [log] = deliveries_of(owner, hook["id"])
    assert log["status"] == "failed" and log["last_status_code"] == 410
    emit(owner.account_id)
    tasks.run(advance=DAY)
    assert len(receiver.requests) == 1
    assert len(deliveries_of(owner, hook["id"])) == 1


def test_an_endpoint_failing_every_attempt_for_three_days_is_disabled_and_its_owner_sees_why(
        frozen_clock, owner, receiver, tasks, emit):
    hook = register(owner, receiver.url)
    receiver.default = 500
    emit(owner.account_id)
    tasks.run()
    first_failure = clock.utcnow()
    elapsed = 0
    while elapsed < 3 * DAY + 2 * HOUR:  # a new event every 6 hours, and the retries run
        tasks.run(advance=6 * HOUR)
        elapsed += 6 * HOUR
        shown = owner.get(f"/api/v1/webhooks/{hook['id']}").json["data"]
        if shown["status"] == "disabled":
            break
        assert shown["failing_since"] == clock.iso(first_failure)
        emit(owner.account_id)
        tasks.run()
    assert shown["status"] == "disabled"
    assert elapsed >= 3 * DAY
    assert shown["disabled_reason"].startswith("Every delivery attempt failed for 3 days")
    assert "HTTP 500" in shown["disabled_reason"]
    logs = deliveries_of(owner, hook["id"])
    assert logs and all(log["status"] == "failed" for log in logs)
    assert any("disabled" in (log["last_error"] or "") for log in logs)
    attempts_then = len(receiver.requests)
    emit(owner.account_id)
    tasks.run(advance=2 * DAY)
    assert len(receiver.requests) == attempts_then
    # Enabling it again gives it a clean slate.
    enabled = owner.patch_json(f"/api/v1/webhooks/{hook['id']}", {"status": "active"}).json["data"]
    assert enabled["status"] == "active" and enabled["disabled_reason"] is None
    assert enabled["failing_since"] is None


def test_a_success_resets_the_failure_clock(owner, receiver, tasks, emit):
    hook = register(owner, receiver.url)
    receiver.answer(500, 200)
    emit(owner.account_id)
    tasks.run()
    assert owner.get(f"/api/v1/webhooks/{hook['id']}").json["data"]["failing_since"]
    tasks.run(advance=70)
    shown = owner.get(f"/api/v1/webhooks/{hook['id']}").json["data"]
    assert shown["failing_since"] is None and shown["last_success_at"]


def test_the_disable_window_is_a_setting(tmp_path):
    from tests.conftest import make_settings
    settings = make_settings(tmp_path, RENTALCOMPLY_WEBHOOKS_DISABLE_AFTER_DAYS="5")
    service.configure(settings)
    try:
        assert service.config.disable_after_days == 5
    finally:
        service.configure(make_settings(tmp_path))


# -- the outbox -----------------------------------------------------------------------------------

def test_a_write_that_is_rolled_back_emits_no_event(owner, receiver, tasks):
    register(owner, receiver.url)
    with pytest.raises(RuntimeError):
        with db.atomic():
            events.emit(owner.account_id, "booking.created", {"id": "book_never"})
            raise RuntimeError("the write failed")
    events.notify_committed()
    tasks.run(advance=DAY)
    assert Event.select().count() == 0
    assert receiver.requests == []


def test_an_api_write_refused_by_a_business_rule_emits_no_event(wsgi_app, owner, receiver, tasks):
    from rentalcomply.web.validation import Field

    @wsgi_app.api.post("/test-bookings", scope="write", summary="emit, then refuse", status=201,
                       body={"refuse": Field("boolean", required=True)},
                       response={"type": "object"}, errors=[BookingConflict])
    def make_booking(ctx):
        events.emit(ctx.account_id, "booking.created", {"id": "book_maybe"})
        if ctx.body["refuse"]:
            raise BookingConflict()
        return {"ok": True}

    hook = register(owner, receiver.url)
    owner.post_json("/api/v1/test-bookings", {"refuse": True}, status=409)
    tasks.run(advance=DAY)
    assert receiver.requests == [] and Event.select().count() == 0
    owner.post_json("/api/v1/test-bookings", {"refuse": False}, status=201)
    tasks.run()
    [request] = receiver.requests
    assert verified(request, hook["secret"])["data"] == {"id": "book_maybe"}


def test_events_announced_by_no_write_are_found_by_the_sweep(owner, receiver, tasks):
    hook = register(owner, receiver.url)
    with db.atomic():  # e.g. the command line, which wakes no dispatcher
        event = events.emit(owner.account_id, "sync.completed", {"connections": 2})
    tasks.run()
    assert receiver.requests == []
    webhook_tasks.sweep_outbox()
    tasks.run()
    [request] = receiver.requests
    assert verify(request.body, request.headers, hook["secret"])["id"] == event.id


def test_a_delivery_whose_queued_task_was_lost_is_sent_by_the_sweep(owner, receiver, tasks, emit):
    hook = register(owner, receiver.url)
    receiver.answer(500, 200)
    emit(owner.account_id)
    tasks.run()
    huey.flush()  # the queue lost everything: a crash, a deleted queue.db
    assert tasks.scheduled() == []
    tasks.run(advance=70)
    assert len(receiver.requests) == 1
    webhook_tasks.sweep_outbox()
    tasks.run()
    assert len(receiver.requests) == 2
    assert deliveries_of(owner, hook["id"])[0]["status"] == "succeeded"


def test_a_delivery_is_never_attempted_twice_at_once(owner, receiver, tasks, emit):
    hook = register(owner, receiver.url)
    receiver.answer(500, 200)
    emit(owner.account_id)
    tasks.run()
    tasks.run(advance=30)
    [row] = WebhookDelivery.select()
    clock.travel(dt.timedelta(seconds=40))
    claim = delivery._claim(row.id)
    assert claim is not None
    # While that attempt is in flight, neither the sweep nor the scheduled retry claims it.
    assert delivery._claim(row.id) is None
    assert webhook_tasks.service.due_deliveries() == []
    delivery.attempt(row.id)
    assert len(receiver.requests) == 1
    # A crash mid-attempt releases it once the hold expires.
    tasks.run(advance=service.config.timeout_seconds + delivery.LEASE_MARGIN + 1)
    webhook_tasks.sweep_outbox()
    tasks.run()
    assert len(receiver.requests) == 2
    assert deliveries_of(owner, hook["id"])[0]["status"] == "succeeded"


def test_two_dispatchers_at_once_make_one_delivery_per_event_and_endpoint(owner, receiver, tasks):
    register(owner, receiver.url)
    with db.atomic():
        events.emit(owner.account_id, "booking.created", {"id": "book_1"})
    first = service.dispatch_pending_events()
    second = service.dispatch_pending_events()
    assert len(first[1]) == 1 and second == (0, [])
    assert WebhookDelivery.select().count() == 1


def test_delivered_events_are_forgotten_after_the_retention_period(owner, receiver, tasks, emit):
    register(owner, receiver.url)
    emit(owner.account_id)
    receiver.default = 500
    tasks.run()
    receiver.default = 200
    emit(owner.account_id)
    tasks.run()
    clock.travel(dt.timedelta(days=31))
    # The one still waiting to be delivered is kept until its delivery ends.
    assert webhook_tasks.purge_delivered_events.call_local() == 1
    assert Event.select().count() == 1 and WebhookDelivery.select().count() == 1


# -- secrets --------------------------------------------------------------------------------------

def test_a_rotated_secret_signs_alongside_the_new_one_for_24_hours(owner, receiver, tasks, emit):
    hook = register(owner, receiver.url)
    rotated = owner.post(f"/api/v1/webhooks/{hook['id']}/rotate-secret").json["data"]
    old, new = hook["secret"], rotated["secret"]
    assert new != old and new.startswith("whsec_")
    emit(owner.account_id)
    tasks.run()
    [request] = receiver.requests
    assert verify(request.body, request.headers, old) == verify(request.body, request.headers, new)
    assert request.headers["X-RentalComply-Signature"].count("sha256=") == 2
    assert request.headers["X-RentalComply-Signature"].split(",")[0] == \
        "sha256=" + hmac.new(new.encode(), request.body, hashlib.sha256).hexdigest()
    assert len(request.headers["webhook-signature"].split(" ")) == 2

    tasks.run(advance=DAY + 60)
    emit(owner.account_id)
    tasks.run()
    later = receiver.requests[1]
    verified(later, new)
    with pytest.raises(InvalidSignature):
        verified(later, old)
    assert "," not in later.headers["X-RentalComply-Signature"]


@pytest.mark.skipif(ON_POSTGRES, reason="reads the SQLite database file")
def test_secrets_are_not_stored_in_clear(owner, settings):
    hook = register(owner, "https://hooks.example.org/in")
    db.close()
    raw = (settings.data_dir / "rentalcomply.db").read_bytes()
    wal = settings.data_dir / "rentalcomply.db-wal"
    raw += wal.read_bytes() if wal.exists() else b""
    assert hook["secret"].encode() not in raw
    assert hook["secret"][6:].encode() not in raw
    stored = WebhookEndpoint.get_by_id(hook["id"])
    assert service.unseal(stored.secret_sealed) == hook["secret"]


def test_a_sealed_secret_altered_or_opened_under_another_server_secret_is_refused(owner):
    sealed = service.seal("whsec_" + base64.b64encode(b"k" * 32).decode())
    flipped = sealed[:-5] + ("A" if sealed[-5] != "A" else "B") + sealed[-4:]
    with pytest.raises(service.SecretUnavailable):
        service.unseal(flipped)
    original = secrets.server_secret()
    secrets.set_server_secret(b"another server secret")
    try:
        with pytest.raises(service.SecretUnavailable, match="rotate"):
            service.unseal(sealed)
    finally:
        secrets.set_server_secret(original)


def test_a_delivery_that_cannot_be_signed_fails_and_says_to_rotate(owner, receiver, tasks, emit):
    hook = register(owner, receiver.url)
    WebhookEndpoint.update(secret_sealed=service.seal("x")[:-4] + "AAAA").execute()
    emit(owner.account_id)
    tasks.run()
    assert receiver.requests == []
    [log] = deliveries_of(owner, hook["id"])
    assert log["status"] == "failed" and "rotate" in log["last_error"]


# -- the test endpoint and deletion ---------------------------------------------------------------

def test_the_test_endpoint_sends_webhook_test_to_that_endpoint_alone(owner, receiver, tasks):
    other = Receiver().start()
    try:
        hook = register(owner, receiver.url, ["booking.created"])
        register(owner, other.url, ["*"])
        answer = owner.post(f"/api/v1/webhooks/{hook['id']}/test", status=202).json["data"]
        assert answer["type"] == "webhook.test" and answer["status"] == "queued"
        tasks.run()
        [request] = receiver.requests
        event = verify(request.body, request.headers, hook["secret"])
        assert event["type"] == "webhook.test" and event["id"] == answer["event_id"]
        assert event["data"]["webhook_id"] == hook["id"]
        assert other.requests == []
        [log] = deliveries_of(owner, hook["id"])
        assert log["event_type"] == "webhook.test" and log["status"] == "succeeded"
    finally:
        other.stop()


def test_a_disabled_endpoint_can_still_be_tested(owner, receiver, tasks):
    hook = register(owner, receiver.url)
    owner.patch_json(f"/api/v1/webhooks/{hook['id']}", {"status": "disabled"})
    owner.post(f"/api/v1/webhooks/{hook['id']}/test", status=202)
    tasks.run()
    assert len(receiver.requests) == 1


def test_deleting_an_endpoint_drops_its_pending_deliveries(owner, receiver, tasks, emit):
    hook = register(owner, receiver.url)
    receiver.default = 500
    emit(owner.account_id)
    tasks.run()
    owner.delete(f"/api/v1/webhooks/{hook['id']}", status=204)
    assert WebhookDelivery.select().count() == 0
    tasks.run(advance=DAY)
    webhook_tasks.sweep_outbox()
    tasks.run()
    assert len(receiver.requests) == 1


# -- the SSRF guard at connect time ---------------------------------------------------------------

@pytest.fixture
def strict_private(monkeypatch):
    monkeypatch.setattr(service.config, "allow_private_addresses", False)


def test_a_name_that_resolves_to_a_private_address_at_delivery_time_is_refused(
        owner, receiver, tasks, emit, monkeypatch, strict_private):
    from rentalcomply.core import netguard
    monkeypatch.setattr(netguard, "resolve", lambda host, port: ["93.184.216.34"])
    hook = register(owner, f"http://hooks.example.org:{receiver.port}/hook")
    # DNS rebinding: the name now points at this machine.
    monkeypatch.setattr(netguard, "resolve", lambda host, port: ["127.0.0.1"])
    emit(owner.account_id)
    tasks.run()
    assert receiver.requests == []
    [log] = deliveries_of(owner, hook["id"])
    assert log["status"] == "failed"
    assert "hooks.example.org resolves to 127.0.0.1, a loopback address" in log["last_error"]
    assert "webhooks.allow_private_addresses" in log["last_error"]


def test_the_allowance_for_private_addresses_lets_deliveries_reach_the_lan(
        owner, receiver, tasks, emit, monkeypatch):
    from rentalcomply.core import netguard
    monkeypatch.setattr(netguard, "resolve", lambda host, port: ["127.0.0.1"])
    hook = register(owner, f"http://tools.agency.example:{receiver.port}/hook")
    emit(owner.account_id)
    tasks.run()
    [request] = receiver.requests
    assert request.headers["Host"] == f"tools.agency.example:{receiver.port}"
    assert verify(request.body, request.headers, hook["secret"])


def test_a_duplicate_task_for_a_retry_not_yet_due_makes_no_early_attempt(owner, receiver, tasks, emit):
    register(owner, receiver.url)
    receiver.answer(500, 200)
    emit(owner.account_id)
    tasks.run()
    [row] = WebhookDelivery.select()
    assert delivery.attempt(row.id) is None  # e.g. queued by the sweep just before the failure
    webhook_tasks.deliver(row.id)
    tasks.run(advance=50)
    assert len(receiver.requests) == 1
    tasks.run(advance=20)
    assert len(receiver.requests) == 2


# -- events that no endpoint takes ---------------------------------------------------------------

def test_an_event_no_active_endpoint_takes_wakes_no_dispatcher_and_the_sweep_still_clears_it(
        owner, receiver, tasks, emit):
    tasks.run()
    unheard = emit(owner.account_id, "booking.created")
    assert huey.pending_count() == 0  # no dispatcher woken for it
    webhook_tasks.sweep_outbox.call_local()
    assert Event.get_by_id(unheard.id).dispatched_at is not None

    hook = register(owner, receiver.url, ["booking.cancelled"])
    tasks.run()
    emit(owner.account_id, "booking.created")
    assert huey.pending_count() == 0  # a type the endpoint does not take
    heard = emit(owner.account_id, "booking.cancelled")
    assert huey.pending_count() >= 1
    tasks.run()
    assert [r.headers["X-RentalComply-Event"] for r in receiver.requests] == ["booking.cancelled"]
    assert [d["event_id"] for d in deliveries_of(owner, hook["id"])] == [heard.id]


def test_an_endpoint_disabled_wakes_no_dispatcher_for_the_events_after(
        owner, receiver, tasks, emit):
    hook = register(owner, receiver.url)
    owner.patch_json(f"/api/v1/webhooks/{hook['id']}", {"status": "disabled"}, status=200)
    tasks.run()
    emit(owner.account_id, "booking.updated")
    assert huey.pending_count() == 0
    tasks.run()
    assert receiver.requests == []
