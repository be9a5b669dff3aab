"""A backup taken while eight clients write bookings into the real server: restored into a fresh
data directory (plain and encrypted), it holds every booking acknowledged before the backup began,
passes its integrity check, and answers the API as the original did, request by request."""

from __future__ import annotations

import signal
import sqlite3
import threading
import time

import pytest

from tests.conftest import days_ahead
from tests.e2e.test_backup_files import api
from tests.e2e.test_restore import cli

pytestmark = pytest.mark.server

CLIENTS = 8


class Writers:
    """Eight clients, each writing bookings one after another; every 201 is recorded with the
    moment its answer arrived."""

    def __init__(self, server, property_id: str):
        self.server, self.property_id = server, property_id
        self.acknowledged: list[tuple[float, str]] = []
        self.errors: list[object] = []
        self.stop = threading.Event()
        self.lock = threading.Lock()
        self.threads = [threading.Thread(target=self.write, args=(n,)) for n in range(CLIENTS)]

    def write(self, client: int):
        night = 0
        while not self.stop.is_set():
            night += 1
            # Each client its own nights far ahead, so that no two bookings overlap: 3,000 each,
            # more than a client books in the seconds this runs (400 were passed on a fast machine).
            day = 1 + client * 3000 + night % 3000
            arrival, departure = days_ahead(day), days_ahead(day + 1)
            status, body, _ = self.server.request("POST", "/api/v1/bookings", {
                "property_id": self.property_id, "guest_name": f"Guest {client}-{night}",
                "guest_count": 1, "arrival_date": arrival, "departure_date": departure})
            if status == 201:
                with self.lock:
                    self.acknowledged.append((time.monotonic(), body["data"]["id"]))
            elif status != 503:  # a busy database may answer 503; anything else is a fault
                self.errors.append((status, body))

    def __enter__(self):
        for thread in self.threads:
            thread.start()
        return self

    def __exit__(self, *exc):
        self.stop.set()
        for thread in self.threads:
            thread.join()


def booking_ids(data_dir) -> set[str]:
    with sqlite3.connect(data_dir / "rentalcomply.db") as connection:
        return {row[0] for row in connection.execute("SELECT id FROM booking")}


@pytest.mark.parametrize("encrypted", [False, True], ids=["plain", "encrypted"])
def test_a_backup_under_load_holds_every_booking_acknowledged_before_it(
        start_server, tmp_path, encrypted, mail_server):
    data = tmp_path / "data"
    server = start_server(data, env={"RENTALCOMPLY_RATE_LIMIT_PER_MINUTE": "1000000"})
    home = api(server, "POST", "/properties", {"name": "Villa Oia", "address": "Oia, Santorini",
                                               "aade_property_id": "00012345",
                                               "max_guests": 4}, 201)
    passphrase = []
    if encrypted:
        (tmp_path / "passphrase").write_text("a long passphrase for the tests\n")
        passphrase = ["--passphrase-file", str(tmp_path / "passphrase")]
    archive = tmp_path / ("site.tar.gz.enc" if encrypted else "site.tar.gz")
    with Writers(server, home["id"]) as writers:
        time.sleep(1.5)  # the writers under way
        began = time.monotonic()
        made = cli(data, "backup", "--output", str(archive), *passphrase)
        time.sleep(0.5)  # and still writing after it
    assert made.returncode == 0, made.stderr
    assert not writers.errors, writers.errors[:3]
    before = {booking for moment, booking in writers.acknowledged if moment < began}
    assert len(before) >= CLIENTS  # the load was real
    if encrypted:
        assert b"SQLite format 3" not in archive.read_bytes()

    fresh = tmp_path / "fresh"
    restored = cli(fresh, "restore", str(archive), *passphrase)
    assert restored.returncode == 0, restored.stderr
    assert before <= booking_ids(fresh)
    with sqlite3.connect(fresh / "rentalcomply.db") as connection:
        assert connection.execute("PRAGMA integrity_check").fetchone() == ("ok",)
    assert "FAIL  database integrity" not in cli(fresh, "doctor", env=mail_server.env).stdout
    assert server.stop(signal.SIGTERM) == 0


def test_an_encrypted_backup_with_a_wrong_passphrase_is_refused_and_changes_nothing(tmp_path):
    data = tmp_path / "data"
    assert cli(data, "init").returncode == 0
    (tmp_path / "right").write_text("the right one\n")
    (tmp_path / "wrong").write_text("not the right one\n")
    archive = tmp_path / "site.tar.gz.enc"
    assert cli(data, "backup", "--output", str(archive), "--passphrase-file",
               str(tmp_path / "right")).returncode == 0
    fresh = tmp_path / "fresh"
    refused = cli(fresh, "restore", str(archive), "--passphrase-file", str(tmp_path / "wrong"))
    assert refused.returncode == 1
    assert "the passphrase does not open this backup" in refused.stderr
    assert not (fresh / "rentalcomply.db").exists()
    unasked = cli(fresh, "restore", str(archive))
    assert unasked.returncode == 1 and "is encrypted: give its passphrase" in unasked.stderr


def same_data(answer):
    """An answer without what every request makes anew: a download link's nonce, expiry and
    signature (its path must be the same)."""
    if isinstance(answer, dict):
        return {key: (value.split("?")[0] if key == "download_url" and value else same_data(value))
                for key, value in answer.items()}
    if isinstance(answer, list):
        return [same_data(item) for item in answer]
    return answer


READS = ["/properties", "/bookings?limit=100", "/reports?period=2026-03", "/webhooks",
         "/reports/rep_2026_03"]


def test_a_restore_onto_a_fresh_data_directory_answers_the_api_with_the_same_data(
        start_server, tmp_path):
    data = tmp_path / "data"
    # One public address for both servers: the answers name it (feed and download links).
    env = {"RENTALCOMPLY_SERVER_PUBLIC_URL": "https://rentals.example.org"}
    server = start_server(data, env=env)
    home = api(server, "POST", "/properties", {"name": "Villa Oia", "address": "Oia, Santorini",
                                               "aade_property_id": "00012345"}, 201)
    for day in (3, 10, 17):
        api(server, "POST", "/bookings", {
            "property_id": home["id"], "guest_name": f"Guest {day}", "guest_count": 2,
            "arrival_date": f"2026-03-{day:02d}", "departure_date": f"2026-03-{day + 3:02d}",
            "total_price": 300.0}, 201)
    api(server, "POST", "/reports", {"period": "2026-03"}, 202)
    deadline = time.monotonic() + 30
    while api(server, "GET", "/reports/rep_2026_03")["status"] != "completed":
        assert time.monotonic() < deadline
        time.sleep(0.2)
    archive = tmp_path / "site.tar.gz"
    assert cli(data, "backup", "--output", str(archive)).returncode == 0
    original = {path: server.request("GET", "/api/v1" + path)[1] for path in READS}
    assert server.stop(signal.SIGTERM) == 0

    fresh = tmp_path / "fresh"
    assert cli(fresh, "restore", str(archive)).returncode == 0
    again = start_server(fresh, env=env)
    again.key = server.key
    for path in READS:
        assert same_data(again.request("GET", "/api/v1" + path)[1]) == same_data(original[path]), path
