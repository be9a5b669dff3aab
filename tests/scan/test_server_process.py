"""Issue 35's H2 as it was found: two bombs at once to `POST /checkin/{token}/scan/0` of a real
`rentalcomply serve` process (then 3.46 GB at its peak), now refused from their header within a
second while the process's resident peak (VmHWM, reset through /proc/PID/clear_refs) grows by
less than 100 MB."""

from __future__ import annotations

import datetime as dt
import json
import signal
import threading
import time

import pytest

from rentalcomply.core import clock
from tests.checkin.conftest import smtp_server  # noqa: F401 - the fixture
from tests.e2e.conftest import start_server  # noqa: F401 - the fixture
from tests.scan.conftest import needs_scanner
from tests.scan.files import jpeg_declaring, png_declaring
from tests.scan.test_server_limits import post

pytestmark = [pytest.mark.server, needs_scanner]


def process_memory_mb(pid: int, field: str) -> float:
    with open(f"/proc/{pid}/status") as handle:
        for line in handle:
            if line.startswith(field + ":"):
                return int(line.split()[1]) / 1024
    raise AssertionError(field)


def test_two_bombs_at_once_to_the_serve_process_are_refused_within_a_second_under_100_mb(
        start_server, smtp_server, tmp_path):  # noqa: F811
    server = start_server(tmp_path / "data", env={
        "RENTALCOMPLY_SMTP_HOST": "127.0.0.1", "RENTALCOMPLY_SMTP_PORT": str(smtp_server.port)})
    status, prop, _ = server.request("POST", "/api/v1/properties", {
        "name": "Villa Anemoi", "address": "Oia", "aade_property_id": "00012345678"})
    assert status == 201, prop
    arrival = clock.today() + dt.timedelta(days=10)
    status, booking, _ = server.request("POST", "/api/v1/bookings", {
        "property_id": prop["data"]["id"], "guest_name": "Maria Papadopoulou",
        "guest_email": "maria@example.com", "arrival_date": arrival.isoformat(),
        "departure_date": (arrival + dt.timedelta(days=3)).isoformat(), "guest_count": 2})
    assert status == 201, booking
    status, sent, _ = server.request("POST", "/api/v1/checkins/resend",
                                     {"booking_id": booking["data"]["id"]})
    assert status == 202, sent
    path = "/checkin/" + sent["data"]["checkin_url"].rsplit("/", 1)[1] + "/scan/0?lang=en"
    pid = server.process.pid
    # The first scan loads OpenCV: not what is measured.
    assert post(server.port, path, {"scan-0": b"warm-up"}, {"Accept": "application/json"})[0] == 415
    before = process_memory_mb(pid, "VmRSS")
    with open(f"/proc/{pid}/clear_refs", "w") as handle:
        handle.write("5")
    answers = []
    threads = [threading.Thread(target=lambda bomb=bomb: answers.append(post(
        server.port, path, {"scan-0": bomb}, {"Accept": "application/json"})))
        for bomb in (jpeg_declaring(30000, 30000), png_declaring(30000, 30000))]
    started = time.monotonic()
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    elapsed = time.monotonic() - started
    grown = process_memory_mb(pid, "VmHWM") - before
    print(f"\ntwo bombs refused in {elapsed:.2f} s; the server's peak grew by {grown:.1f} MB")
    assert sorted(status for status, _, _ in answers) == [413, 413]
    for _, _, body in answers:
        assert json.loads(body)["error"]["details"][0]["setting"] == "scan.max_image_side"
    assert elapsed < 1.0
    assert grown < 100
    assert server.stop(signal.SIGTERM) == 0
