"""Links printed by the commands lead to where the server listens, not to the default port."""

from __future__ import annotations

import json
import signal
import subprocess
import sys

import pytest

from tests.e2e.conftest import ROOT, clean_environment

pytestmark = pytest.mark.server


def command(data_dir, *args) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "rentalcomply", "--data-dir", str(data_dir),
                           *args], cwd=ROOT, env=clean_environment(), capture_output=True,
                          text=True, timeout=120)


def public_url_check(data_dir) -> dict:
    checks = json.loads(command(data_dir, "doctor", "--json").stdout)["data"]
    [check] = [c for c in checks if c["name"] == "public url"]
    return check


def test_after_serve_on_another_port_the_commands_print_links_on_that_port(start_server,
                                                                            tmp_path):
    data_dir = tmp_path / "data"
    server = start_server(data_dir)
    assert server.port != 8080
    expected = f"http://127.0.0.1:{server.port}/"
    created = command(data_dir, "users", "create", "--account", "default", "--email",
                      "ann@example.com")
    assert created.returncode == 0, created.stderr
    assert expected + "dashboard/password/" in created.stdout and ":8080" not in created.stdout
    demo = command(data_dir, "demo")
    assert demo.returncode == 0, demo.stderr
    assert expected + "dashboard" in demo.stdout and ":8080" not in demo.stdout
    check = public_url_check(data_dir)
    assert check["ok"] and check["detail"].startswith(f"http://127.0.0.1:{server.port} answers")

    assert server.stop(signal.SIGTERM) == 0
    # Stopped: the links still lead to where it listens when started again, and doctor says
    # that nothing answers there now instead of calling it fine.
    assert expected in command(data_dir, "users", "link",
                               json.loads(command(data_dir, "users", "list", "--json").stdout)
                               ["data"][0]["id"]).stdout
    check = public_url_check(data_dir)
    assert check["detail"].startswith(f"http://127.0.0.1:{server.port}: no server answers")


def test_serve_says_where_its_data_directory_is(start_server, tmp_path):
    server = start_server(tmp_path / "here")
    assert f"RentalComply data directory: {tmp_path / 'here'}" in "".join(server.lines)


def test_a_configured_public_url_wins_over_the_recorded_address(start_server, tmp_path):
    data_dir = tmp_path / "data"
    start_server(data_dir, env={"RENTALCOMPLY_SERVER_PUBLIC_URL": "https://rent.example.com"})
    created = subprocess.run(
        [sys.executable, "-m", "rentalcomply", "--data-dir", str(data_dir), "users", "create",
         "--account", "default", "--email", "bob@example.com"], cwd=ROOT,
        env=clean_environment(RENTALCOMPLY_SERVER_PUBLIC_URL="https://rent.example.com"),
        capture_output=True, text=True, timeout=120)
    assert "https://rent.example.com/dashboard/password/" in created.stdout
