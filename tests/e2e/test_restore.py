"""`restore` beside a running server or worker: refused, naming the PID, nothing acknowledged lost;
the modes of what a restore writes, whatever the umask."""

from __future__ import annotations

import os
import signal
import stat
import subprocess
import sys

import pytest

from rentalcomply.ops import datalock
from tests.conftest import days_ahead
from tests.e2e.conftest import ROOT, ServerProcess, clean_environment, free_port

pytestmark = pytest.mark.server


def cli(data_dir, *args, umask: int | None = None, env: dict | None = None) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "rentalcomply", "--data-dir", str(data_dir), *args],
                          cwd=ROOT, env=clean_environment(**(env or {})), capture_output=True, text=True,
                          timeout=60, umask=-1 if umask is None else umask)


def test_restore_beside_a_running_server_is_refused_and_no_acknowledged_booking_is_lost(
        start_server, tmp_path):
    data = tmp_path / "data"
    server = start_server(data)
    status, created, _ = server.request("POST", "/api/v1/properties",
                                        {"name": "Villa", "address": "Oia"})
    assert status == 201
    archive = tmp_path / "before.tar.gz"
    assert cli(data, "backup", "--output", str(archive)).returncode == 0
    status, booking, _ = server.request("POST", "/api/v1/bookings", {
        "property_id": created["data"]["id"], "guest_name": "Maria", "guest_count": 2,
        "arrival_date": days_ahead(200), "departure_date": days_ahead(204)})
    assert status == 201

    refused = cli(data, "restore", str(archive))
    assert refused.returncode == 1
    assert f"process {server.process.pid}" in refused.stderr
    assert "stop it first" in refused.stderr
    assert not list(data.glob("before-restore-*"))

    status, found, _ = server.request("GET", f"/api/v1/bookings/{booking['data']['id']}")
    assert status == 200 and found["data"]["guest_name"] == "Maria"
    # Once the server has stopped, the same restore goes ahead.
    assert server.stop(signal.SIGTERM) == 0
    assert cli(data, "restore", str(archive)).returncode == 0


def test_restore_beside_a_running_worker_is_refused(tmp_path):
    data = tmp_path / "data"
    assert cli(data, "init").returncode == 0
    archive = tmp_path / "b.tar.gz"
    assert cli(data, "backup", "--output", str(archive)).returncode == 0
    worker = ServerProcess(["--data-dir", str(data), "worker"], clean_environment(), 0)
    try:
        worker.wait_for("RentalComply worker running")
        refused = cli(data, "restore", str(archive))
        assert refused.returncode == 1 and str(worker.process.pid) in refused.stderr
    finally:
        worker.kill()


def test_a_server_does_not_start_while_a_restore_holds_the_data_directory(tmp_path):
    data = tmp_path / "data"
    with datalock.exclusive(data):
        server = ServerProcess(["--data-dir", str(data), "serve", "--port", str(free_port())],
                               clean_environment(), 0)
        try:
            assert server.process.wait(timeout=30) == 1
            server.stderr_done.wait(10)
            assert "a restore is in progress" in "".join(server.stderr_lines)
        finally:
            server.kill()


def test_a_killed_server_leaves_no_lock_behind(start_server, tmp_path):
    data = tmp_path / "data"
    server = start_server(data)
    archive = tmp_path / "b.tar.gz"
    assert cli(data, "backup", "--output", str(archive)).returncode == 0
    server.process.kill()
    server.process.wait(timeout=10)
    assert cli(data, "restore", str(archive)).returncode == 0


def test_a_restore_under_umask_022_leaves_private_files_and_directories(tmp_path, mail_server):
    data = tmp_path / "data"
    assert cli(data, "init", umask=0o022).returncode == 0
    archive = tmp_path / "b.tar.gz"
    assert cli(data, "backup", "--output", str(archive), umask=0o022).returncode == 0
    restored = cli(data, "restore", str(archive), umask=0o022)
    assert restored.returncode == 0, restored.stderr
    assert list(data.glob("before-restore-*"))
    modes = {}
    for directory, _subdirectories, files in os.walk(data):
        for path in [directory] + [os.path.join(directory, name) for name in files]:
            modes[os.path.relpath(path, data)] = stat.S_IMODE(os.lstat(path).st_mode)
    assert {path: mode for path, mode in modes.items()
            if mode != (0o700 if os.path.isdir(os.path.join(data, path)) else 0o600)} == {}
    assert "FAIL" not in cli(data, "doctor", env=mail_server.env).stdout
