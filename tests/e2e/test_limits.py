"""Limits the real server enforces before a request costs it anything: bodies over 1 MiB."""

from __future__ import annotations

import http.client
import json
import os
import socket
import time

import pytest

MIB = 1024 * 1024


def spooled_files(pid: int) -> list[str]:
    """The server's open temporary files (Waitress spools a large body to a deleted tempfile)."""
    found = []
    for fd in os.listdir(f"/proc/{pid}/fd"):
        try:
            target = os.readlink(f"/proc/{pid}/fd/{fd}")
        except OSError:
            continue
        if target.endswith("(deleted)"):
            found.append(target)
    return found


def read_response(sock: socket.socket) -> tuple[int, dict, dict]:
    status, headers, body = read_raw_response(sock)
    return status, headers, json.loads(body) if body else {}


def read_raw_response(sock: socket.socket) -> tuple[int, dict, bytes]:
    raw = b""
    while b"\r\n\r\n" not in raw:
        chunk = sock.recv(65536)
        if not chunk:
            break
        raw += chunk
    head, _, rest = raw.partition(b"\r\n\r\n")
    lines = head.decode("latin-1").split("\r\n")
    headers = {k.strip().lower(): v.strip() for k, _, v in (line.partition(":") for line in lines[1:])}
    length = int(headers.get("content-length", "0"))
    while len(rest) < length:
        chunk = sock.recv(65536)
        if not chunk:
            break
        rest += chunk
    if "content-length" not in headers:  # no length: the body runs to the close
        while chunk := sock.recv(65536):
            rest += chunk
        length = len(rest)
    return int(lines[0].split()[1]), headers, rest[:length]


def test_a_2_mib_body_is_refused_before_it_is_read(start_server):
    server = start_server()
    before = spooled_files(server.process.pid)
    for key in (None, server.key):  # refused even without a key: nothing is read first
        with socket.create_connection(("127.0.0.1", server.port), timeout=5) as sock:
            auth = f"Authorization: Bearer {key}\r\n" if key else ""
            sock.sendall((f"POST /api/v1/bookings HTTP/1.1\r\nHost: 127.0.0.1\r\n{auth}"
                          f"Content-Type: application/json\r\nContent-Length: {2 * MIB}\r\n\r\n"
                          ).encode())
            started = time.monotonic()
            # No byte of the body is sent: the answer comes from the headers alone.
            status, headers, body = read_response(sock)
            assert time.monotonic() - started < 5
            assert status == 413
            assert headers["content-type"] == "application/json"
            assert body["error"]["code"] == "PAYLOAD_TOO_LARGE"
            assert body["error"]["request_id"] == headers["x-request-id"]
            try:  # what the client sends now is read and thrown away, or finds the connection closed
                for _ in range(16):
                    sock.sendall(b"x" * (128 * 1024))
            except OSError:
                pass
            assert spooled_files(server.process.pid) == before


def test_a_chunked_body_over_the_limit_is_cut_with_the_json_413(start_server):
    server = start_server()
    with socket.create_connection(("127.0.0.1", server.port), timeout=10) as sock:
        sock.sendall((f"POST /api/v1/bookings HTTP/1.1\r\nHost: 127.0.0.1\r\n"
                      f"Authorization: Bearer {server.key}\r\nContent-Type: application/json\r\n"
                      f"Transfer-Encoding: chunked\r\n\r\n").encode())
        chunk = b"%x\r\n%s\r\n" % (64 * 1024, b" " * 64 * 1024)
        try:
            for _ in range(32):  # 2 MiB, unless the server stops listening first
                sock.sendall(chunk)
        except OSError:
            pass
        status, headers, body = read_response(sock)
    assert status == 413 and body["error"]["code"] == "PAYLOAD_TOO_LARGE"


def test_a_body_just_over_1_mib_gets_the_same_json_413_from_the_route(start_server):
    server = start_server()
    payload = b'{"guest_name": "' + b"x" * MIB + b'"}'
    connection = http.client.HTTPConnection("127.0.0.1", server.port, timeout=10)
    connection.request("POST", "/api/v1/bookings", body=payload,
                       headers={"Authorization": f"Bearer {server.key}",
                                "Content-Type": "application/json"})
    response = connection.getresponse()
    assert response.status == 413
    assert json.loads(response.read())["error"]["code"] == "PAYLOAD_TOO_LARGE"
    connection.close()


def test_twenty_2_mib_bodies_through_urllib_and_requests_all_read_the_413(start_server):
    """The client sends its whole body before it reads an answer: the server reads the refused
    body and throws it away, so the 413 is there to read, never a reset connection."""
    import urllib.error
    import urllib.request

    import requests

    server = start_server()
    payload = b'{"guest_name": "' + b"x" * (2 * MIB) + b'"}'
    headers = {"Authorization": f"Bearer {server.key}", "Content-Type": "application/json"}
    url = server.base + "/api/v1/bookings"
    answers = []
    for _ in range(20):
        request = urllib.request.Request(url, data=payload, headers=headers, method="POST")
        try:
            urllib.request.urlopen(request, timeout=30)
        except urllib.error.HTTPError as refusal:
            answers.append(("urllib", refusal.code, json.loads(refusal.read())["error"]["code"],
                            refusal.headers.get("Connection")))
    with requests.Session() as session:
        for _ in range(20):
            response = session.post(url, data=payload, headers=headers, timeout=30)
            answers.append(("requests", response.status_code, response.json()["error"]["code"],
                            response.headers.get("Connection")))
    assert answers == [("urllib", 413, "PAYLOAD_TOO_LARGE", "close")] * 20 \
        + [("requests", 413, "PAYLOAD_TOO_LARGE", "close")] * 20


def test_a_body_past_the_drain_bound_is_cut_off(start_server):
    """Past 8 MiB of refused body the server stops reading and closes."""
    server = start_server()
    with socket.create_connection(("127.0.0.1", server.port), timeout=10) as sock:
        sock.sendall((f"POST /api/v1/bookings HTTP/1.1\r\nHost: 127.0.0.1\r\n"
                      f"Content-Type: application/json\r\nContent-Length: {64 * MIB}\r\n\r\n"
                      ).encode())
        status, headers, _ = read_response(sock)
        assert status == 413 and headers["connection"] == "close"
        sent = 0
        with pytest.raises(OSError):
            while sent < 64 * MIB:  # the server closes at 8 MiB; the kernel's buffers take a little more
                sock.sendall(b"x" * (256 * 1024))
                sent += 256 * 1024
        assert sent < 32 * MIB
