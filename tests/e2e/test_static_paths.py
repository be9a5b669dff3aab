"""`/static/` on the real server: only the files of the public folders, however a path is spelt.

The requests go out as raw bytes on a socket, so no client folds a dot segment or decodes an
escape on the way: the server sees each spelling exactly as written here.
"""

from __future__ import annotations

import socket

import pytest

from tests.e2e.test_limits import read_raw_response

TEMPLATE = b"% rebase("  # the first bytes of a SimpleTemplate file that includes the layout

TRAVERSALS = [
    "/static/css/../templates/checkin.tpl",
    "/static/templates/checkin.tpl",
    "/static/css/%2e%2e/templates/checkin.tpl",
    "/static/css/%2E%2E/templates/layout.tpl",
    "/static/css/..%2ftemplates/checkin.tpl",
    "/static/css/..%2Ftemplates%2Fmessage.tpl",
    "/static/css%2f..%2ftemplates%2fcheckin.tpl",
    "/static/css/%252e%252e/templates/checkin.tpl",
    "/static/css/%252e%252e%252ftemplates%252fcheckin.tpl",
    "/static/css/%25252e%25252e/templates/checkin.tpl",
    "/static/css\\..\\templates\\checkin.tpl",
    "/static/css/..\\templates/checkin.tpl",
    "/static/css/%5c..%5ctemplates%5ccheckin.tpl",
    "/static/css/./../templates/checkin_done.tpl",
    "/static/css/.%2e/templates/checkin.tpl",
    "/static/./templates/checkin.tpl",
    "/static/js/../../web/pages.py",
    "/static/js/%2e%2e/%2e%2e/web/pages.py",
    "/static/css/../../../pyproject.toml",
    "/static/README.md",
]
PUBLIC = [
    "/static/css/rentalcomply.css",
    "/static/js/checkin.js",
    "/static/css/./rentalcomply.css",  # a dot segment inside a public folder names a public file
]


def get_raw(port: int, path: str) -> tuple[int, bytes]:
    with socket.create_connection(("127.0.0.1", port), timeout=10) as sock:
        sock.sendall(b"GET " + path.encode("latin-1") + b" HTTP/1.1\r\nHost: 127.0.0.1\r\n"
                     b"Connection: close\r\n\r\n")
        status, _, body = read_raw_response(sock)
    return status, body


@pytest.fixture(scope="module")
def server_port(tmp_path_factory):
    from tests.e2e.conftest import ServerProcess, clean_environment, free_port
    data_dir = tmp_path_factory.mktemp("static") / "data"
    port = free_port()
    server = ServerProcess(["--data-dir", str(data_dir), "serve", "--port", str(port)],
                           clean_environment(), port)
    try:
        server.wait_for("RentalComply listening on")
        yield port
    finally:
        server.kill()


def test_twenty_spellings_of_a_way_out_of_the_public_folders_are_all_404(server_port):
    assert len(TRAVERSALS) == 20
    answers = {path: get_raw(server_port, path) for path in TRAVERSALS}
    assert {path: status for path, (status, _) in answers.items()} == \
        {path: 404 for path in TRAVERSALS}
    assert not any(TEMPLATE in body or b"import" in body for _, body in answers.values())


def test_the_public_assets_are_served(server_port):
    for path in PUBLIC:
        status, body = get_raw(server_port, path)
        assert status == 200, path
        assert body
