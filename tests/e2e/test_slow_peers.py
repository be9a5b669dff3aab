"""The real server (Waitress and its embedded worker on the SQLite queue) beside hostile peers:
calendar feeds and webhook receivers that answer their headers at once with `Connection: close`
and then send a byte a second. Each is cut at its timeout, and meanwhile a completed Italian
check-in is filed with the Alloggiati double and a report is generated before any of them is cut."""

from __future__ import annotations

import datetime as dt
import time

from rentalcomply.core import clock
from tests.e2e.conftest import start_server  # noqa: F401 - fixture
from tests.police.conftest import CREDENTIALS, family
from tests.police.soap_double import AlloggiatiDouble
from tests.webhooks.test_netguard import Trickle

# sync.timeout_seconds and webhooks.timeout_seconds here: long enough that the filing and the
# report, seconds at most on a loaded machine, are done before the first hostile peer is cut.
TIMEOUT = 10
SLOW_HEAD = b"HTTP/1.1 200 OK\r\nContent-Type: text/calendar\r\nConnection: close\r\n\r\n"


def api(server, method, path, body=None, expect=None):
    status, data, _ = server.request(method, "/api/v1" + path, body)
    if expect is not None:
        assert status == expect, (status, data)
    return data["data"] if data and "data" in data else data


def wait_until(check, timeout: float, every: float = 0.1):
    deadline = time.monotonic() + timeout
    while True:
        value = check()
        if value:
            return value
        assert time.monotonic() < deadline, "not within the time allowed"
        time.sleep(every)


def _seconds(values: list[float]) -> str:
    return ", ".join(f"{value:.2f} s" for value in values)


def generate_report(server, period: str) -> float:
    started = time.monotonic()
    api(server, "POST", "/reports", {"period": period}, 202)
    report_id = "rep_" + period.replace("-", "_")
    wait_until(lambda: api(server, "GET", f"/reports/{report_id}")["status"] == "completed", 30,
               every=0.05)
    return time.monotonic() - started


def test_trickling_feeds_and_receivers_are_cut_while_filings_and_reports_go_on(
        start_server, tmp_path):  # noqa: F811
    double = AlloggiatiDouble()
    # Four hostile peers on four hosts, so that the per-host limit alone cannot save the
    # workers: two feeds and two webhook receivers, against two general workers.
    feeds = [Trickle(head=SLOW_HEAD, host=f"127.0.0.{n}") for n in (2, 3)]
    receivers = [Trickle(head=SLOW_HEAD, host=f"127.0.0.{n}") for n in (4, 5)]
    try:
        server = start_server(tmp_path / "data", env={
            "RENTALCOMPLY_POLICE_ALLOGGIATI_URL": double.url,
            "RENTALCOMPLY_POLICE_TIMEOUT_SECONDS": "5",
            "RENTALCOMPLY_SYNC_ALLOW_PRIVATE_ADDRESSES": "true",
            "RENTALCOMPLY_SYNC_TIMEOUT_SECONDS": str(TIMEOUT),
            "RENTALCOMPLY_WEBHOOKS_ALLOW_HTTP": "true",
            "RENTALCOMPLY_WEBHOOKS_ALLOW_PRIVATE_ADDRESSES": "true",
            "RENTALCOMPLY_WEBHOOKS_TIMEOUT_SECONDS": str(TIMEOUT),
            "RENTALCOMPLY_QUEUE_WORKERS": "2",
            "RENTALCOMPLY_RATE_LIMIT_PER_MINUTE": "100000"})
        usual_report = generate_report(server, "2026-09")  # before any hostile peer is known

        hooks = [api(server, "POST", "/webhooks", {
            "url": f"http://127.0.0.{n}:{peer.port}/hook", "events": ["*"]}, 201)
            for n, peer in zip((4, 5), receivers)]
        prop = api(server, "POST", "/properties", {"name": "Casa Limone", "address": "Via Roma 1",
                                                    "country": "IT"}, 201)
        api(server, "PATCH", f"/properties/{prop['id']}",
            {"police_connector": "alloggiati", "police_credentials": CREDENTIALS}, 200)
        for n, peer in zip((2, 3), feeds):
            api(server, "POST", f"/properties/{prop['id']}/channels", {
                "provider": "other", "ical_url": f"http://127.0.0.{n}:{peer.port}/feed.ics"}, 201)
        triggered = time.monotonic()
        api(server, "POST", "/sync/trigger", None, 202)

        # The storm is on: the feeds are being trickled, the receivers too (every write above
        # queued deliveries to both). Now a guest completes an Italian check-in.
        arrival = clock.today()
        booking = api(server, "POST", "/bookings", {
            "property_id": prop["id"], "guest_name": "Giulia Bianchi",
            "arrival_date": arrival.isoformat(),
            "departure_date": (arrival + dt.timedelta(days=2)).isoformat(), "guest_count": 2}, 201)
        completed = time.monotonic()
        api(server, "PUT", f"/bookings/{booking['id']}/guests", {"guests": family()}, 200)
        wait_until(lambda: api(server, "GET", f"/bookings/{booking['id']}")["report_status"]
                   == "SUBMITTED", 15, every=0.05)
        filed_after = time.monotonic() - completed
        cut_before_filed = sum(len(peer.exchanges) for peer in feeds + receivers)
        assert [line[:2] for line in double.sent] == ["17", "19"]
        busy_report = generate_report(server, "2026-10")
        cut_before_report = sum(len(peer.exchanges) for peer in feeds + receivers)

        # The feeds: cut at their timeout (within 2 s of it), the true reason recorded.
        def feeds_failed():
            connections = api(server, "GET", "/sync/status")["connections"]
            return all(c["status"] == "error" for c in connections) and connections
        connections = wait_until(feeds_failed, 3 * TIMEOUT + 10, every=0.05)
        feeds_done_after = time.monotonic() - triggered
        assert {c["last_error"] for c in connections} == {
            f"the peer sent too slowly: not finished within {TIMEOUT} s (sync.timeout_seconds)"}

        # The receivers: each attempt cut at the timeout, the reason in the delivery log.
        def first_attempts():
            logs = [api(server, "GET", f"/webhooks/{hook['id']}/deliveries") for hook in hooks]
            attempts = [d["attempt_log"][0] for log in logs for d in log if d["attempt_log"]]
            return attempts if len(attempts) >= 2 else None
        attempts = wait_until(first_attempts, 3 * TIMEOUT + 10, every=0.2)
        assert {a["error"] for a in attempts} == {
            f"the peer sent too slowly: not finished within {TIMEOUT} s"}
        longest_attempt = max(a["duration_ms"] for a in attempts) / 1000
        feed_held = [seconds for peer in feeds for seconds in peer.held()]
        receiver_held = [seconds for peer in receivers for seconds in peer.held()]
    finally:
        for peer in feeds + receivers:
            peer.close()
        double.down()
    print(f"\ntimeout {TIMEOUT} s: feeds held {_seconds(feed_held)} (both in error "
          f"{feeds_done_after:.2f} s after the trigger), receivers held {_seconds(receiver_held)} "
          f"(longest attempt logged {longest_attempt:.2f} s); Italian check-in filed "
          f"{filed_after:.2f} s after completion; report {busy_report:.2f} s during the storm "
          f"(usual {usual_report:.2f} s)")
    # Each peer was held from its connection to the hang-up for the timeout: cut, since it
    # trickles for ever; three timeouts leave room for a loaded machine.
    assert len(feed_held) >= 2 and len(receiver_held) >= 2
    assert all(TIMEOUT - 0.5 <= seconds < 3 * TIMEOUT for seconds in feed_held + receiver_held)
    assert TIMEOUT <= longest_attempt < 3 * TIMEOUT
    # The filing and the report went on beside the storm: both were done before any hostile
    # peer had been cut, so neither waited for a worker a peer held.
    assert (cut_before_filed, cut_before_report) == (0, 0)
