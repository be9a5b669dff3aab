"""Nothing of a guest in the system's temporary folder: the real server, with TMPDIR pointed at a
fresh folder, leaves it empty after a document scan and an import, and after a `kill -9` in the
middle of an upload (the body half sent) or of a scan (the body read, the photo being decoded)."""

from __future__ import annotations

import datetime as dt
import http.client
import os
import socket
import time
import uuid

import pytest

from rentalcomply.core import clock
from tests.imports.conftest import airbnb_english
from tests.scan.conftest import document_photo, needs_scanner, passport_values

pytestmark = [pytest.mark.server, needs_scanner]


@pytest.fixture
def temporary_folder(tmp_path):
    folder = tmp_path / "system-tmp"
    folder.mkdir()
    return folder


@pytest.fixture
def server(start_server, tmp_path, temporary_folder):
    return start_server(tmp_path / "data", env={"TMPDIR": str(temporary_folder),
                                                "RENTALCOMPLY_SERVER_PUBLIC_URL":
                                                    "https://stay.example.org"})


def guest_link_path(server) -> str:
    status, prop, _ = server.request("POST", "/api/v1/properties", {
        "name": "Villa Anemoi", "address": "Oia", "aade_property_id": "00012345678"})
    assert status == 201, prop
    arrival = clock.today() + dt.timedelta(days=10)
    status, booking, _ = server.request("POST", "/api/v1/bookings", {
        "property_id": prop["data"]["id"], "guest_name": "Maria Papadopoulou",
        "arrival_date": arrival.isoformat(),
        "departure_date": (arrival + dt.timedelta(days=3)).isoformat(), "guest_count": 2})
    assert status == 201, booking
    status, shared, _ = server.request("POST", f"/api/v1/bookings/{booking['data']['id']}"
                                               "/checkin/shared")
    assert status == 200, shared
    return "/checkin/" + shared["data"]["checkin_url"].rsplit("/", 1)[1]


def multipart(field: str, filename: str, content: bytes) -> tuple[bytes, str]:
    boundary = uuid.uuid4().hex
    body = (f"--{boundary}\r\nContent-Disposition: form-data; name=\"g0.email\"\r\n\r\n"
            f"maria@example.com\r\n--{boundary}\r\nContent-Disposition: form-data; "
            f"name=\"{field}\"; filename=\"{filename}\"\r\nContent-Type: image/jpeg\r\n\r\n"
            ).encode() + content + f"\r\n--{boundary}--\r\n".encode()
    return body, f"multipart/form-data; boundary={boundary}"


def photo() -> bytes:
    # A phone photo: well over Bottle's 100 KB in-memory limit, under the scan's own.
    content = document_photo(passport_values(), degraded=True)
    assert len(content) > 150_000
    return content


def raw_connection(server, path: str, body: bytes, content_type: str) -> socket.socket:
    connection = socket.create_connection(("127.0.0.1", server.port), timeout=10)
    connection.sendall(f"POST {path}?lang=en HTTP/1.1\r\nHost: 127.0.0.1\r\n"
                       f"Content-Type: {content_type}\r\nContent-Length: {len(body)}\r\n"
                       "Accept: application/json\r\n\r\n".encode())
    return connection


def test_a_scan_and_an_import_leave_the_temporary_folder_empty(server, temporary_folder):
    path = guest_link_path(server)
    body, content_type = multipart("scan-0", "passport.jpg", photo())
    connection = http.client.HTTPConnection("127.0.0.1", server.port, timeout=60)
    connection.request("POST", f"{path}/scan/0?lang=en", body=body,
                       headers={"Content-Type": content_type, "Accept": "application/json"})
    answer = connection.getresponse()
    assert answer.status == 200, answer.read()
    answer.read()
    connection.close()

    connection = http.client.HTTPConnection("127.0.0.1", server.port, timeout=60)
    connection.request("POST", "/api/v1/imports?dry_run=true", body=airbnb_english(),
                       headers={"Content-Type": "text/csv", "Authorization": f"Bearer {server.key}"})
    answer = connection.getresponse()
    assert answer.status in (200, 422), answer.read()
    answer.read()
    connection.close()

    assert os.listdir(temporary_folder) == []


def test_a_kill_during_an_upload_or_a_scan_leaves_nothing(server, temporary_folder):
    path = guest_link_path(server)
    body, content_type = multipart("scan-0", "passport.jpg", photo())
    # One upload half sent (Waitress holds it: past 512 KB in a file of its own), one sent whole
    # (the route is decoding it, Bottle's spools open).
    large, large_type = multipart("scan-0", "passport.jpg", b"\xff\xd8" + os.urandom(1_000_000))
    half = raw_connection(server, f"{path}/scan/0", large, large_type)
    half.sendall(large[:700_000])
    whole = raw_connection(server, f"{path}/scan/0", body, content_type)
    whole.sendall(body)
    time.sleep(1.0)  # the whole one is read and spooled; its scan takes longer than this
    server.kill()  # SIGKILL: no clean-up of any kind runs
    half.close()
    whole.close()
    assert os.listdir(temporary_folder) == []
