"""The real server process (Waitress and its embedded Huey consumer on the SQLite queue) files a
completed check-in with the Alloggiati double on loopback."""

import datetime as dt

from rentalcomply.core import clock
from tests.e2e.conftest import start_server  # noqa: F401 - fixture
from tests.helpers import poll
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
        arrival = clock.today()
        booking = api(server, "POST", "/bookings", {
            "property_id": prop["id"], "guest_name": "Giulia Bianchi",
            "arrival_date": arrival.isoformat(),
            "departure_date": (arrival + dt.timedelta(days=2)).isoformat(), "guest_count": 2}, 201)
        assert booking["report_status"] == "PENDING"
        api(server, "PUT", f"/bookings/{booking['id']}/guests", {"guests": family()})
        # Under the API's limit however long the worker takes (tests/helpers.py).
        _, shown, _ = poll(lambda: server.request("GET", f"/api/v1/bookings/{booking['id']}"),
                           lambda answer: answer[0] == 200 and answer[1]["data"]["report_status"]
                           not in ("PENDING", "QUEUED"), what="the filing sent")
        assert shown["data"]["report_status"] == "SUBMITTED"
        assert [line[:2] for line in double.sent] == ["17", "19"]
        police = api(server, "GET", f"/bookings/{booking['id']}/police")
        assert police["filings"][0]["receipt_kept"] is True
    finally:
        double.down()


def test_a_running_server_files_from_the_tables_another_process_loaded(start_server, tmp_path):  # noqa: F811
    import subprocess
    import sys
    from pathlib import Path

    from tests.e2e.conftest import clean_environment
    tables = Path(__file__).parent / "alloggiati_tables"
    double = AlloggiatiDouble()
    try:
        server = start_server(tmp_path / "data", env={
            "RENTALCOMPLY_POLICE_ALLOGGIATI_URL": double.url,
            "RENTALCOMPLY_POLICE_TIMEOUT_SECONDS": "5"})
        prop = api(server, "POST", "/properties", {"name": "Casa Limone", "address": "Via Roma 1",
                                                    "country": "IT"}, 201)
        api(server, "PATCH", f"/properties/{prop['id']}",
            {"police_connector": "alloggiati", "police_credentials": CREDENTIALS})

        def booking_of(party, later=0):
            arrival = clock.today() + dt.timedelta(days=later)
            booking = api(server, "POST", "/bookings", {
                "property_id": prop["id"], "guest_name": "Giulia Bianchi",
                "arrival_date": arrival.isoformat(),
                "departure_date": (arrival + dt.timedelta(days=2)).isoformat(),
                "guest_count": len(party)}, 201)
            api(server, "PUT", f"/bookings/{booking['id']}/guests", {"guests": party})
            return booking["id"]

        def status_of(booking_id, wanted, reason=""):
            # A booking is QUEUED from the start: a hold shows once the worker has looked at it.
            # Asked under the API's limit however long the worker takes (tests/helpers.py).
            def shows(answer):
                return answer[0] == 200 and answer[1]["data"]["report_status"] == wanted \
                    and reason in (answer[1]["data"]["report_error"] or "")
            return poll(lambda: server.request("GET", f"/api/v1/bookings/{booking_id}"), shows,
                        what=f"the booking {wanted} {reason}")[1]["data"]

        abano = family()
        abano[0].update(birth_municipality="Abano Terme", birth_province="PD")
        filed_at_once = booking_of(abano)   # the shipped tables code Abano: nothing loaded by hand
        assert status_of(filed_at_once, "SUBMITTED")["report_status"] == "SUBMITTED"
        # A town the shipped table does not know (one created after it was published) is
        # refused until another process loads the authority's newer table.
        newer = tmp_path / "comuni.csv"
        newer.write_text((tables / "comuni.csv").read_text("utf-8").rstrip("\r\n")
                         + "\r\n499999001,BORGO NUOVO,PD,\r\n", "utf-8")
        borgo = family()
        borgo[0].update(birth_municipality="Borgo Nuovo", birth_province="PD")
        unknown = api(server, "POST", "/bookings", {
            "property_id": prop["id"], "guest_name": "Giulia Bianchi",
            "arrival_date": (clock.today() + dt.timedelta(days=5)).isoformat(),
            "departure_date": (clock.today() + dt.timedelta(days=7)).isoformat(),
            "guest_count": 2}, 201)
        status, refused, _ = server.request("PUT", f"/api/v1/bookings/{unknown['id']}/guests",
                                            {"guests": borgo})
        assert status == 400 and "birth_municipality" in str(refused), refused
        done = subprocess.run(
            [sys.executable, "-m", "rentalcomply", "--data-dir", str(tmp_path / "data"), "police",
             "refresh-codes", "--country", "IT", str(newer), *[str(tables / name) for name in (
                 "stati.csv", "documenti.csv", "tipo_alloggiato.csv")]],
            env=clean_environment(), capture_output=True, text=True, timeout=120)
        assert done.returncode == 0, done.stderr
        filed = booking_of(borgo, later=2)  # the server's next filing: from the new tables
        assert status_of(filed, "SUBMITTED")["report_status"] == "SUBMITTED"
        born = sorted(line[105:116] for line in double.sent if line[:2] == "17")
        assert born == ["405028001PD", "499999001PD"]
    finally:
        double.down()
