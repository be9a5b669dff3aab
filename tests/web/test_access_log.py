"""The access log: one line per request that names it, and never a key, token or guest link."""

from __future__ import annotations

import json
import logging
import re
import sys
import time

import pytest
from webtest import TestApp

from rentalcomply.core import logs
from rentalcomply.web import access_log
from rentalcomply.web.app import create_app
from tests.conftest import HTTPS_ENVIRON, bootstrapped_settings


def access_lines(capsys) -> list[str]:
    return [line for line in capsys.readouterr().err.splitlines() if "rentalcomply.access" in line]


def test_a_request_logs_one_line_with_its_route_status_duration_request_id_and_key_id(
        owner, capsys, restore_logging):
    logs.configure("warning", "text")  # on whatever the level
    answer = owner.get("/api/v1/properties/prop_nothere", status=404)
    listed = owner.get("/api/v1/properties?limit=17")
    first, second = access_lines(capsys)
    request_id = answer.headers["X-Request-Id"]
    assert f"INFO rentalcomply.access [{request_id}]: GET /api/v1/properties/<property_id> 404 " \
        in first
    assert first.endswith(f" ms key={owner.key_id}") and owner.key not in first
    assert f"[{listed.headers['X-Request-Id']}]: GET /api/v1/properties 200 " in second
    assert "limit" not in second and "?" not in second


def test_a_json_line_has_the_fields_as_keys(owner, capsys, restore_logging):
    logs.configure("info", "json")
    answer = owner.post_json("/api/v1/properties", {"name": "Studio", "address": "Athens"},
                             status=201)
    [line] = [json.loads(line) for line in access_lines(capsys)]
    assert line["logger"] == "rentalcomply.access" and line["level"] == "info"
    assert (line["method"], line["route"], line["status"]) == ("POST", "/api/v1/properties", 201)
    assert line["request_id"] == answer.headers["X-Request-Id"]
    assert line["key_id"] == owner.key_id and isinstance(line["duration_ms"], float)
    assert "Studio" not in json.dumps(line)


def test_a_refused_key_is_logged_without_the_key(wsgi_app, capsys, restore_logging):
    logs.configure("info", "text")
    app = TestApp(wsgi_app, extra_environ=dict(HTTPS_ENVIRON))
    presented = "rc_" + "x" * 40
    answer = app.get("/api/v1/bookings", headers={"Authorization": f"Bearer {presented}"},
                     status=401)
    [line] = access_lines(capsys)
    assert "GET /api/v1/bookings 401 " in line and line.endswith("key=-")
    assert answer.headers["X-Request-Id"] in line and presented not in line


def test_guest_links_and_signed_downloads_are_logged_by_their_pattern_only(
        wsgi_app, capsys, restore_logging):
    logs.configure("info", "text")
    app = TestApp(wsgi_app, extra_environ=dict(HTTPS_ENVIRON))
    token = "guestLinkToken1234567890"
    app.get(f"/checkin/{token}", status="*")
    app.get(f"/files/reports/acc_x/rep_2026_03.pdf?expires=1&signature={token}", status="*")
    app.get(f"/dashboard/password/{token}", status="*")
    app.get(f"/no-such-page/{token}", status=404)
    lines = access_lines(capsys)
    assert len(lines) == 4
    assert not [line for line in lines if token in line]
    assert " GET /checkin/<token> " in lines[0]
    assert " GET /no-such-page/… 404 " in lines[3]


def test_log_access_false_writes_no_access_line(tmp_path, capsys, restore_logging):
    with bootstrapped_settings(tmp_path, RENTALCOMPLY_LOG_ACCESS="false") as settings:
        logs.configure("info", "text", access=settings.log.access)
        app = TestApp(create_app(settings), extra_environ=dict(HTTPS_ENVIRON))
        app.get("/healthz")
        assert access_lines(capsys) == []


def lines_written(path, *requests) -> list[str]:
    """The access lines of these requests (environs), in a file as `rentalcomply serve` writes its
    stderr to the journal: the first straight into the handler, the second through logging (a
    filter on the access logger makes it take logging's way)."""
    through_logging = logging.Filter()
    access = logging.getLogger(logs.ACCESS_LOGGER)
    for number, environ in enumerate(requests):
        if number:
            access.addFilter(through_logging)
        try:
            access_log._write(environ, "201", time.perf_counter())
        finally:
            access.removeFilter(through_logging)
    logs.flush_all()
    return path.read_text().splitlines()


def same_but_times(line: str) -> str:
    line = re.sub(r"^\d{4}-\d\d-\d\d \d\d:\d\d:\d\d,\d{3} ", "TIME ", line)
    line = re.sub(r'"time": "[^"]+"', '"time": "TIME"', line)
    return re.sub(r"(\d+\.\d)( ms|,)", r"D\2", line)


@pytest.mark.parametrize("fmt", ["text", "json"])
def test_a_line_written_straight_into_the_handler_reads_as_logging_writes_it(
        fmt, tmp_path, monkeypatch, restore_logging):
    path = tmp_path / "stderr.log"
    with path.open("w") as stream:
        monkeypatch.setattr(sys, "stderr", stream)
        logs.configure("info", fmt)
        # As in `rentalcomply serve`: our handler alone (pytest's capturing ones set aside here).
        root = logging.getLogger()
        monkeypatch.setattr(root, "handlers",
                            [handler for handler in root.handlers if type(handler) is logs.LinesInBlocks])
        key = type("Key", (), {"id": "key_abc"})()
        environ = {"REQUEST_METHOD": "POST", "PATH_INFO": "/api/v1/bookings",
                   "rentalcomply.request_id": "req_0123456789abcdef0123",
                   "rentalcomply.api_key": key}
        added = []
        monkeypatch.setattr(logs.LinesInBlocks, "add_routine_line",
                            lambda handler, line, add=logs.LinesInBlocks.add_routine_line:
                            added.append(line) or add(handler, line))
        straight, through_logging = lines_written(path, environ, dict(environ))
    assert len(added) == 1  # the first line went straight into the handler, the second did not
    assert same_but_times(straight) == same_but_times(through_logging)
    assert "POST /api/v1/bookings 201 " in straight and "req_0123456789abcdef0123" in straight
    if fmt == "json":
        assert json.loads(straight)["key_id"] == "key_abc"
    else:
        assert re.match(r"\d{4}-\d\d-\d\d \d\d:\d\d:\d\d,\d{3} INFO rentalcomply.access "
                        r"\[req_0123456789abcdef0123\]: POST /api/v1/bookings 201 \d+\.\d ms "
                        r"key=key_abc$", straight)
