"""A backup taken while the real server runs holds the files a host must keep: restored into a
fresh data directory, every report file and police file downloads byte for byte the same."""

from __future__ import annotations

import datetime as dt
import http.client
import signal
import stat
import urllib.parse

import pytest

from rentalcomply.core import clock
from tests.e2e.test_restore import cli
from tests.helpers import poll
from tests.police.conftest import family

pytestmark = pytest.mark.server

FORMATS = ("pdf", "xml", "csv")


def api(server, method, path, body=None, expect=200):
    status, data, _ = server.request(method, "/api/v1" + path, body)
    assert status == expect, (status, data)
    return data["data"] if data else None


def report_files(server, code: str) -> dict[str, bytes]:
    files = {}
    for fmt in FORMATS:
        link = api(server, "GET", f"/reports/{code}/download?format={fmt}")
        files[fmt] = fetch_body(server, link["download_url"])
    return files


def police_file(server, booking_id: str) -> bytes:
    return fetch_body(server, api(server, "GET", f"/bookings/{booking_id}/police/file")["download_url"])


def fetch_body(server, url: str) -> bytes:
    parts = urllib.parse.urlsplit(url)
    connection = http.client.HTTPConnection("127.0.0.1", server.port, timeout=10)
    try:
        connection.request("GET", parts.path + "?" + parts.query)
        response = connection.getresponse()
        body = response.read()
        assert response.status == 200, (response.status, body[:200])
        return body
    finally:
        connection.close()


def test_a_backup_while_serving_restores_every_report_and_police_file_byte_for_byte(
        start_server, tmp_path):
    data = tmp_path / "data"
    server = start_server(data)
    greek = api(server, "POST", "/properties", {"name": "Villa Oia", "address": "Oia, Santorini",
                                                "aade_property_id": "00012345"}, 201)
    api(server, "POST", "/bookings", {"property_id": greek["id"], "guest_name": "Maria",
                                      "guest_count": 2, "arrival_date": "2026-09-10",
                                      "departure_date": "2026-09-14", "total_price": 480.0}, 201)
    italian = api(server, "POST", "/properties", {"name": "Casa Limone", "address": "Via Roma 1",
                                                  "country": "IT", "max_guests": 4}, 201)
    api(server, "PATCH", f"/properties/{italian['id']}",
        {"police_connector": "file", "police_settings": {"apartment_id": "000777"}})
    arrival = clock.today() + dt.timedelta(days=1)
    stay = api(server, "POST", "/bookings", {
        "property_id": italian["id"], "guest_name": "Giulia Bianchi", "guest_count": 2,
        "arrival_date": arrival.isoformat(),
        "departure_date": (arrival + dt.timedelta(days=2)).isoformat()}, 201)
    api(server, "PUT", f"/bookings/{stay['id']}/guests", {"guests": family()})
    for period in ("2026-09", "2026"):
        api(server, "POST", "/reports", {"period": period}, 202)

    codes = ("rep_2026_09", "rep_2026")
    # Asked under the API's limit however long the worker takes (tests/helpers.py).
    for code in codes:
        poll(lambda code=code: server.request("GET", f"/api/v1/reports/{code}"),
             lambda answer: answer[0] == 200 and answer[1]["data"]["status"] == "completed",
             what=f"{code} completed")
    poll(lambda: server.request("GET", f"/api/v1/bookings/{stay['id']}/police/file"),
         lambda answer: answer[0] == 200, what="the police file written")
    before = {code: report_files(server, code) for code in codes}
    before_police = police_file(server, stay["id"])

    archive = tmp_path / "site.tar.gz"
    made = cli(data, "backup", "--output", str(archive))  # the server keeps running meanwhile
    assert made.returncode == 0, made.stderr
    assert server.stop(signal.SIGTERM) == 0

    fresh = tmp_path / "fresh"
    restored = cli(fresh, "restore", str(archive))
    assert restored.returncode == 0, restored.stderr
    for path in fresh.rglob("*"):
        assert stat.S_IMODE(path.stat().st_mode) == (0o700 if path.is_dir() else 0o600), path

    again = start_server(fresh)
    again.key = server.key  # the secret came back with the database: the same key works
    for code in codes:
        assert api(again, "GET", f"/reports/{code}")["status"] == "completed"
        assert report_files(again, code) == before[code]
    assert police_file(again, stay["id"]) == before_police
