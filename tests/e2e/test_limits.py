"""Limits the real server enforces before a request costs it anything: bodies over 1 MiB."""

from __future__ import annotations

import http.client
import json
import os
import socket
import time

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
            try:  # the server has closed: whatever the client sends now goes nowhere
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
