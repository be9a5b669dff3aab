"""Secrets shown once, on the real server: an Idempotency-Key keeps no webhook secret and no
guest link anywhere in the data directory (database, write-ahead log, queue), nor in the logs, and
its replay withholds them, before and after the resource is deleted."""

from __future__ import annotations

import datetime as dt
import signal
from pathlib import Path

import pytest

from rentalcomply.core import clock
from tests.checkin.conftest import smtp_server  # noqa: F401 - the fixture


@pytest.fixture
def server(start_server, smtp_server, tmp_path):  # noqa: F811
    return start_server(tmp_path / "data", env={
        "RENTALCOMPLY_WEBHOOKS_ALLOW_HTTP": "true",
        "RENTALCOMPLY_WEBHOOKS_ALLOW_PRIVATE_ADDRESSES": "true",
        "RENTALCOMPLY_SMTP_HOST": "127.0.0.1",
        "RENTALCOMPLY_SMTP_PORT": str(smtp_server.port),
        "RENTALCOMPLY_SERVER_PUBLIC_URL": "https://stay.example.org",
        "RENTALCOMPLY_SERVER_LOG_LEVEL": "debug"})


def files_holding(data_dir: Path, needles: list[bytes]) -> list[str]:
    """Every file under `data_dir` in which one of `needles` appears, byte for byte."""
    found = []
    for path in sorted(data_dir.rglob("*")):
        if path.is_file():
            content = path.read_bytes()
            found += [f"{path.name}: {needle!r}" for needle in needles if needle in content]
    return found


def everywhere_the_server_wrote(server, data_dir: Path, needles: list[bytes]) -> list[str]:
    logs = ("".join(server.lines) + "".join(server.stderr_lines)).encode()
    return files_holding(data_dir, needles) + [f"log: {n!r}" for n in needles if n in logs]


def webhook_secret_forms(secret: str) -> list[bytes]:
    return [secret.encode(), secret.removeprefix("whsec_").encode()]


def test_a_webhook_secret_is_shown_once_and_kept_nowhere(server, tmp_path):
    data_dir = tmp_path / "data"
    key = {"Idempotency-Key": "register-front-desk"}
    body = {"url": "http://127.0.0.1:9/hook", "events": ["report.ready"]}
    status, first, response = server.request("POST", "/api/v1/webhooks", body, headers=key)
    assert status == 201, first
    secret = first["data"]["secret"]
    assert secret.startswith("whsec_") and response.getheader("Idempotent-Withheld") is None
    hook_id = first["data"]["id"]
    rotation_key = {"Idempotency-Key": "rotate-front-desk"}
    status, rotated, _ = server.request("POST", f"/api/v1/webhooks/{hook_id}/rotate-secret",
                                        headers=rotation_key)
    assert status == 200 and rotated["data"]["secret"].startswith("whsec_")
    needles = webhook_secret_forms(secret) + webhook_secret_forms(rotated["data"]["secret"])

    for path, sent, headers, answer in (("/api/v1/webhooks", body, key, first),
                                        (f"/api/v1/webhooks/{hook_id}/rotate-secret", None,
                                         rotation_key, rotated)):
        status, replay, response = server.request("POST", path, sent, headers=headers)
        assert status == answer_status(answer, path)
        assert replay["data"] == {**answer["data"], "secret": None}
        assert response.getheader("Idempotent-Replayed") == "true"
        assert response.getheader("Idempotent-Withheld") == "secret"

    assert everywhere_the_server_wrote(server, data_dir, needles) == []  # WAL included, live

    assert server.request("DELETE", f"/api/v1/webhooks/{hook_id}")[0] == 204
    for path, sent, headers in (("/api/v1/webhooks", body, key),
                                (f"/api/v1/webhooks/{hook_id}/rotate-secret", None, rotation_key)):
        status, replay, _ = server.request("POST", path, sent, headers=headers)
        assert status == 404 and replay["error"]["code"] == "NOT_FOUND"
        assert secret not in str(replay)

    assert server.stop(signal.SIGTERM) == 0
    assert everywhere_the_server_wrote(server, data_dir, needles) == []


def answer_status(answer: dict, path: str) -> int:
    return 201 if path == "/api/v1/webhooks" else 200


def test_a_guest_link_sent_with_an_idempotency_key_is_shown_once_and_kept_nowhere(
        server, smtp_server, tmp_path):  # noqa: F811
    data_dir = tmp_path / "data"
    status, prop, _ = server.request("POST", "/api/v1/properties", {
        "name": "Villa Anemoi", "address": "Oia", "aade_property_id": "00012345678"})
    assert status == 201, prop
    arrival = clock.today() + dt.timedelta(days=10)
    status, booking, _ = server.request("POST", "/api/v1/bookings", {
        "property_id": prop["data"]["id"], "guest_name": "Maria Papadopoulou",
        "guest_email": "maria@example.com", "arrival_date": arrival.isoformat(),
        "departure_date": (arrival + dt.timedelta(days=3)).isoformat(), "guest_count": 2})
    assert status == 201, booking
    booking_id = booking["data"]["id"]
    key = {"Idempotency-Key": "invite-maria"}
    status, first, _ = server.request("POST", "/api/v1/checkins/resend",
                                      {"booking_id": booking_id}, headers=key)
    assert status == 202, first
    link = first["data"]["checkin_url"]
    token = link.rsplit("/", 1)[1]
    smtp_server.wait(1)

    status, replay, response = server.request("POST", "/api/v1/checkins/resend",
                                              {"booking_id": booking_id}, headers=key)
    assert status == 202
    assert replay["data"] == {**first["data"], "checkin_url": None}
    assert response.getheader("Idempotent-Withheld") == "checkin_url"
    assert len(smtp_server.messages) == 1  # a replay sends nothing

    needles = [token.encode(), link.encode()]
    assert everywhere_the_server_wrote(server, data_dir, needles) == []

    # Cancelled, the booking is still there: the replay is the same answer, still without the link.
    assert server.request("POST", f"/api/v1/bookings/{booking_id}/cancel")[0] == 200
    status, replay, _ = server.request("POST", "/api/v1/checkins/resend",
                                       {"booking_id": booking_id}, headers=key)
    assert status == 202 and replay["data"]["checkin_url"] is None

    assert server.stop(signal.SIGTERM) == 0
    assert everywhere_the_server_wrote(server, data_dir, needles) == []
