"""The real server: start-up, the first-run key, requests over a socket, and a clean shutdown."""

from __future__ import annotations

import json
import signal
import socket
import sqlite3
import subprocess
import sys
import time

import pytest

from tests.e2e.conftest import ROOT, KEY_PATTERN, ServerProcess, clean_environment, free_port

pytestmark = pytest.mark.server


def test_the_server_answers_health_checks_without_a_key(start_server):
    server = start_server()
    status, body, response = server.request("GET", "/healthz", key="")
    assert status == 200
    assert body["data"]["status"] == "ok"
    assert response.getheader("Server") == "RentalComply"


def test_the_first_start_prints_a_key_once_that_authenticates(start_server):
    server = start_server()
    assert server.key is not None
    assert any("shown once" in line for line in server.lines)
    status, body, response = server.request("GET", "/api/v1/properties")
    assert status == 200, body
    assert body["data"] == []
    assert response.getheader("RateLimit-Limit") == "100"
    status, body, _ = server.request("GET", "/api/v1/properties", key="rc_" + "x" * 40)
    assert status == 401


def test_a_second_start_on_the_same_data_prints_no_key(start_server, tmp_path):
    first = start_server(tmp_path / "data")
    assert first.stop(signal.SIGTERM) == 0
    second = start_server(tmp_path / "data")
    assert second.key is None
    status, _, _ = second.request("GET", "/api/v1/properties", key=first.key)
    assert status == 200


def test_sigterm_stops_the_server_cleanly_with_exit_code_0(start_server):
    server = start_server()
    assert server.stop(signal.SIGTERM) == 0
    assert "RentalComply stopped." in server.rest_of_output()
    assert "Traceback" not in "".join(server.stderr_lines)
    with pytest.raises(OSError):
        socket.create_connection(("127.0.0.1", server.port), timeout=1).close()


def test_ctrl_c_stops_the_server_cleanly_with_exit_code_0(start_server):
    server = start_server()
    assert server.stop(signal.SIGINT) == 0
    assert "RentalComply stopped." in server.rest_of_output()
    assert "Traceback" not in "".join(server.stderr_lines)


def test_the_server_stops_cleanly_without_the_embedded_worker_too(start_server):
    server = start_server(None, "--no-worker")
    assert server.request("GET", "/healthz")[0] == 200
    assert server.stop(signal.SIGTERM) == 0


def test_serve_works_with_no_configuration_at_all(tmp_path):
    home = tmp_path / "home"
    env = clean_environment(HOME=str(home))
    for name in ("XDG_DATA_HOME", "XDG_CONFIG_HOME"):
        env.pop(name, None)
    port = free_port()
    server = ServerProcess(["serve", "--port", str(port)], env, port)
    try:
        server.wait_for("RentalComply listening on")
        assert server.key is not None
        assert server.request("GET", "/healthz")[0] == 200
        data_dir = home / ".local" / "share" / "rentalcomply"
        assert (data_dir / "rentalcomply.db").is_file()
        assert (data_dir / "secret.key").is_file()
        assert server.stop(signal.SIGTERM) == 0
    finally:
        server.kill()


def test_a_port_already_in_use_stops_start_up_with_a_message(tmp_path):
    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen()
        port = taken.getsockname()[1]
        server = ServerProcess(["--data-dir", str(tmp_path / "d"), "serve", "--port", str(port)],
                               clean_environment(), port)
        assert server.process.wait(timeout=30) == 1
    assert f"cannot listen on 127.0.0.1:{port}" in finished_stderr(server)


def finished_stderr(server: ServerProcess) -> str:
    server.process.wait(timeout=10)
    server.rest_of_output()  # stdout closed: the process is gone; stderr is read to its end too
    server.stderr_done.wait(10)
    return "".join(server.stderr_lines)


def test_a_wrong_setting_stops_the_real_server_with_exit_code_2(tmp_path):
    port = free_port()
    env = clean_environment(RENTALCOMPLY_SERVER_ALLOW_LOOPBACK_HTTP="yes please")
    server = ServerProcess(["--data-dir", str(tmp_path / "d"), "serve", "--port", str(port)],
                           env, port)
    assert server.process.wait(timeout=30) == 2
    assert "server.allow_loopback_http" in finished_stderr(server)


def test_the_database_is_intact_after_a_clean_stop(start_server, tmp_path):
    server = start_server(tmp_path / "data")
    assert server.stop(signal.SIGTERM) == 0
    with sqlite3.connect(tmp_path / "data" / "rentalcomply.db") as connection:
        assert connection.execute("PRAGMA integrity_check").fetchone()[0] == "ok"
        assert connection.execute("SELECT count(*) FROM account").fetchone()[0] == 1


def test_the_key_line_is_on_stdout_and_nothing_else_looks_like_a_key(start_server):
    server = start_server()
    printed = [line for line in server.lines if KEY_PATTERN.search(line)]
    assert len(printed) == 1
    assert not any(KEY_PATTERN.search(line) for line in server.stderr_lines)


def test_the_worker_alone_runs_until_sigterm_and_exits_0(tmp_path):
    server = ServerProcess(["--data-dir", str(tmp_path / "d"), "worker"], clean_environment(), 0)
    try:
        server.wait_for("RentalComply worker running")
        # A graceful stop lets a running task finish (a periodic one may have just started): on
        # a loaded machine that takes more than the half-second it takes here.
        assert server.stop(signal.SIGTERM, timeout=90) == 0
        assert "RentalComply worker stopped." in server.rest_of_output()
        assert (tmp_path / "d" / "queue.db").is_file()
    finally:
        server.kill()


def test_sigusr1_prints_every_threads_stack_and_the_worker_runs_on(tmp_path):
    server = ServerProcess(["--data-dir", str(tmp_path / "d"), "worker"], clean_environment(), 0)
    try:
        server.wait_for("RentalComply worker running")
        server.process.send_signal(signal.SIGUSR1)
        deadline = time.monotonic() + 20
        while time.monotonic() < deadline and "most recent call first" not in "".join(
                server.stderr_lines):
            time.sleep(0.1)
        stacks = "".join(server.stderr_lines)
        assert "most recent call first" in stacks and "Thread" in stacks
        assert server.process.poll() is None
        assert server.stop(signal.SIGTERM, timeout=90) == 0
    finally:
        server.kill()


def test_the_worker_refuses_a_queue_that_runs_tasks_in_the_caller(tmp_path):
    server = ServerProcess(["--data-dir", str(tmp_path / "d"), "worker"],
                           clean_environment(RENTALCOMPLY_QUEUE_URL="memory://"), 0)
    assert server.process.wait(timeout=30) == 2
    assert "memory://" in finished_stderr(server)


def test_the_first_start_shows_the_key_and_the_dashboard_link_alone_after_a_quiet_start_up(
        start_server, tmp_path):
    server = start_server(tmp_path / "fresh")
    status, _, _ = server.request("GET", "/api/v1/properties")
    assert status == 200
    assert server.stop(signal.SIGTERM) == 0
    printed = server.rest_of_output()
    block = printed.split("RentalComply listening on")[0]
    assert block.startswith("Created account \"default\"")
    assert server.key in block and "/dashboard/password/" in block
    server.stderr_done.wait(10)
    # At the default level nothing routine is logged while starting: no migrations, no worker
    # banner. The only lines are the request's access line and the worker's stop.
    [access] = [line for line in server.stderr_lines if "rentalcomply.access" in line]
    assert " GET /api/v1/properties 200 " in access
    start_up = [line for line in server.stderr_lines
                if "stopping the task worker" not in line and line != access]
    assert start_up == []


def test_doctor_counts_a_cleanly_stopped_server_as_stopped_at_once(start_server, tmp_path):
    server = start_server(tmp_path / "data")
    server.request("GET", "/healthz", key="")

    def workers() -> str:
        done = subprocess.run([sys.executable, "-m", "rentalcomply", "--data-dir",
                               str(tmp_path / "data"), "doctor", "--json"], cwd=ROOT,
                              env=clean_environment(), capture_output=True, text=True, timeout=120)
        [check] = [c for c in json.loads(done.stdout)["data"] if c["name"] == "workers"]
        return check["detail"]
    # The heartbeat is the scheduler's first minute: wait for it before stopping.
    deadline = time.monotonic() + 120
    while "1 alive" not in workers():
        assert time.monotonic() < deadline, workers()
        time.sleep(1)
    assert server.stop(signal.SIGTERM) == 0
    assert workers().startswith("0 alive, 1 stopped, 0 stale: ")
