"""A key revoked or rotated away by the command line, another process, is refused by the very
next request to the running server: on SQLite and on PostgreSQL."""

from __future__ import annotations

import contextlib
import json
import subprocess
import sys

import pytest

from tests.conftest import scratch_postgres_database
from tests.e2e.conftest import ROOT, clean_environment

pytestmark = pytest.mark.server


@pytest.fixture(params=["sqlite", "postgresql"])
def database_env(request):
    with contextlib.ExitStack() as stack:
        if request.param == "postgresql":
            url = stack.enter_context(scratch_postgres_database())
            yield {"RENTALCOMPLY_DATABASE_URL": url}
        else:
            yield {}


def cli(data_dir, env: dict, *args: str) -> str:
    """`rentalcomply --data-dir D ...` in its own process; its output once it has returned."""
    done = subprocess.run([sys.executable, "-m", "rentalcomply", "--data-dir", str(data_dir), *args],
                          cwd=ROOT, env=clean_environment(**env), capture_output=True, text=True,
                          timeout=60)
    assert done.returncode == 0, done.stdout + done.stderr
    return done.stdout


def warm(server, key: str) -> None:
    """Requests that put the key in the server's cache (both threads, a few times over)."""
    for _ in range(6):
        status, body, _ = server.request("GET", "/api/v1/properties", key=key)
        assert status == 200, body


def test_revoke_from_the_command_line_refuses_the_next_request(start_server, tmp_path, database_env):
    data_dir = tmp_path / "data"
    server = start_server(data_dir, env=database_env)
    [account] = json.loads(cli(data_dir, database_env, "accounts", "list", "--json"))["data"]
    made = json.loads(cli(data_dir, database_env, "keys", "create", "--account", account["id"],
                          "--scope", "read", "--json"))
    warm(server, made["key"])
    warm(server, server.key)

    cli(data_dir, database_env, "keys", "revoke", made["id"])
    status, body, response = server.request("GET", "/api/v1/properties", key=made["key"])
    assert status == 401 and body["error"]["code"] == "INVALID_API_KEY"
    assert server.request("GET", "/api/v1/properties", key=server.key)[0] == 200  # others still work


def test_rotate_with_no_grace_refuses_the_old_key_at_once_and_takes_the_new(
        start_server, tmp_path, database_env):
    data_dir = tmp_path / "data"
    server = start_server(data_dir, env=database_env)
    [first] = json.loads(cli(data_dir, database_env, "keys", "list", "--json"))["data"]
    warm(server, server.key)

    rotated = json.loads(cli(data_dir, database_env, "keys", "rotate", first["id"],
                             "--grace-hours", "0", "--json"))
    status, body, _ = server.request("GET", "/api/v1/properties", key=server.key)
    assert status == 401 and body["error"]["code"] == "INVALID_API_KEY"
    assert server.request("GET", "/api/v1/properties", key=rotated["key"])[0] == 200
