"""docs/webhooks.md stays true: its complete receiver runs, verifies deliveries and handles each
event once; the documented settings exist with the documented defaults."""

import http.client
import re
import subprocess
import sys
from pathlib import Path

import pytest

from rentalcomply.config import SETTINGS_BY_NAME
from rentalcomply.core.events import EVENT_TYPES
from tests.e2e.conftest import free_port
from tests.moved_clock import with_moved_clock
from tests.webhooks.conftest import register

ROOT = Path(__file__).resolve().parents[2]
DOC = (ROOT / "docs" / "webhooks.md").read_text(encoding="utf-8")


def receiver_example() -> str:
    section = DOC.split("### A complete receiver", 1)[1]
    return re.search(r"```python\n(.*?)```", section, re.S).group(1)


@pytest.fixture
def documented_receiver(tmp_path):
    started = []

    def start(secret: str):
        port = free_port()
        script = tmp_path / "receiver.py"
        script.write_text(receiver_example())
        process = subprocess.Popen(
            [sys.executable, str(script)], cwd=tmp_path, text=True,
            stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
            env=with_moved_clock({"PYTHONPATH": str(ROOT), "RENTALCOMPLY_WEBHOOK_SECRET": secret,
                                  "PORT": str(port), "SEEN_DB": str(tmp_path / "seen.db")}))
        started.append(process)
        assert process.stdout.readline().strip() == f"receiving on port {port}"
        return process, port

    yield start
    for process in started:
        process.kill()
        process.wait(timeout=10)


def post(port: int, body: bytes, headers: dict) -> int:
    connection = http.client.HTTPConnection("127.0.0.1", port, timeout=10)
    try:
        connection.request("POST", "/", body=body, headers=headers)
        return connection.getresponse().status
    finally:
        connection.close()


def test_the_documented_receiver_verifies_and_handles_each_event_once(
        owner, tasks, emit, documented_receiver, receiver):
    # Register the documentation's receiver; capture one delivery with the test receiver as well,
    # to replay it by hand.
    hook = register(owner, "http://127.0.0.1:1/placeholder")
    process, port = documented_receiver(hook["secret"])
    owner.patch_json(f"/api/v1/webhooks/{hook['id']}", {"url": f"http://127.0.0.1:{port}/"})
    emit(owner.account_id, "booking.created", {"id": "book_1", "guest_name": "Maria"})
    tasks.run()
    logs = owner.get(f"/api/v1/webhooks/{hook['id']}/deliveries").json["data"]
    assert logs[0]["status"] == "succeeded" and logs[0]["last_status_code"] == 204

    owner.patch_json(f"/api/v1/webhooks/{hook['id']}", {"url": receiver.url})
    emit(owner.account_id, "booking.cancelled", {"id": "book_1"})
    tasks.run()
    [captured] = receiver.requests
    assert post(port, captured.body, captured.headers) == 204
    assert post(port, captured.body, captured.headers) == 204  # a repeat: handled once
    altered = captured.body.replace(b"book_1", b"book_2")
    assert post(port, altered, captured.headers) == 401

    process.kill()
    output = process.communicate(timeout=10)[0]
    assert output.count("new booking book_1 for Maria") == 1
    assert output.count("booking.cancelled") == 1
    assert "refused a delivery: no signature matches this secret" in output


def test_every_event_name_is_documented():
    for name in EVENT_TYPES:
        assert f"`{name}`" in DOC, name


def test_the_documented_settings_exist_with_their_defaults():
    rows = re.findall(r"^\| `([a-z_]+\.[a-z_]+)` \| `([^`]+)` \|", DOC, re.M)
    assert len(rows) == 6
    for name, default in rows:
        assert str(SETTINGS_BY_NAME[name].default).lower() == default, name


def test_the_documented_upsert_keeps_the_highest_version_whatever_the_order():
    import sqlite3
    section = DOC.split("### Keep the newest state", 1)[1]
    create, upsert = re.search(r"```sql\n(.*?)```", section, re.S).group(1).split("\n\n")
    database = sqlite3.connect(":memory:")
    database.execute(create)
    for version, status in ((1, "confirmed"), (3, "cancelled"), (2, "confirmed"), (1, "confirmed")):
        database.execute(upsert, {"id": "book_1", "version": version, "status": status, "body": "{}"})
    assert database.execute("SELECT version, status FROM booking").fetchall() == [(3, "cancelled")]
