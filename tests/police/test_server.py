"""The real server process (Waitress and its embedded Huey consumer on the SQLite queue) files a
completed check-in with the Alloggiati double on loopback."""

import datetime as dt
import time

from tests.e2e.conftest import start_server  # noqa: F401 - fixture
from tests.police.conftest import CREDENTIALS, family
from tests.police.soap_double import AlloggiatiDouble


def api(server, method, path, body=None, expect=200):
    status, data, _ = server.request(method, "/api/v1" + path, body)
    assert status == expect, (status, data)
    return data["data"] if data else None


def test_the_worker_files_a_completed_check_in(start_server, tmp_path):  # noqa: F811
    double = AlloggiatiDouble()
    try:
        server = start_server(tmp_path / "data", env={
            "RENTALCOMPLY_POLICE_ALLOGGIATI_URL": double.url,
            "RENTALCOMPLY_POLICE_TIMEOUT_SECONDS": "5"})
        prop = api(server, "POST", "/properties", {"name": "Casa Limone", "address": "Via Roma 1",
                                                    "country": "IT"}, 201)
        shown = api(server, "PATCH", f"/properties/{prop['id']}",
                    {"police_connector": "alloggiati", "police_credentials": CREDENTIALS})
        assert shown["police_credentials_set"] == ["password", "user", "wskey"]
        arrival = dt.date.today()
        booking = api(server, "POST", "/bookings", {
            "property_id": prop["id"], "guest_name": "Giulia Bianchi",
            "arrival_date": arrival.isoformat(),
            "departure_date": (arrival + dt.timedelta(days=2)).isoformat(), "guest_count": 2}, 201)
        assert booking["report_status"] == "PENDING"
        api(server, "PUT", f"/bookings/{booking['id']}/guests", {"guests": family()})
        deadline = time.monotonic() + 20
        status = None
        while time.monotonic() < deadline:
            status = api(server, "GET", f"/bookings/{booking['id']}")["report_status"]
            if status not in ("PENDING", "QUEUED"):
                break
            time.sleep(0.2)
        assert status == "SUBMITTED"
        assert [line[:2] for line in double.sent] == ["17", "19"]
        police = api(server, "GET", f"/bookings/{booking['id']}/police")
        assert police["filings"][0]["receipt_kept"] is True
    finally:
        double.down()
