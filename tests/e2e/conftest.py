"""The real server in a subprocess on a free loopback port, driven over HTTP.

`server = start_server(data_dir)` runs `python -m rentalcomply --data-dir D serve --port P`, waits for
the "listening" line and reads the first-run key from its output.
"""

from __future__ import annotations

import http.client
import json
import os
import queue
import re
import socket
import signal
import subprocess
import sys
import threading
import time
from pathlib import Path

import pytest

from tests.moved_clock.sitecustomize import SHIFT_VARIABLE


ROOT = Path(__file__).resolve().parents[2]
KEY_PATTERN = re.compile(r"\brc_[A-Za-z0-9]{40}\b")
START_TIMEOUT = 30


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


def clean_environment(**extra) -> dict:
    # The run's moved clock (tests/moved_clock) is kept: it is the run's date, not a setting.
    env = {name: value for name, value in os.environ.items()
           if not name.startswith("RENTALCOMPLY_") or name == SHIFT_VARIABLE}
    env["PYTHONUNBUFFERED"] = "1"
    env.update(extra)
    return env


class ServerProcess:
    def __init__(self, args: list[str], env: dict, port: int):
        self.port = port
        self.base = f"http://127.0.0.1:{port}"
        self.lines: list[str] = []
        self._lines: queue.Queue = queue.Queue()
        self.process = subprocess.Popen(
            [sys.executable, "-m", "rentalcomply", *args], cwd=ROOT, env=env,
            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
        self.stderr_lines: list[str] = []
        self.stderr_done = threading.Event()
        threading.Thread(target=self._read, args=(self.process.stdout, self._lines), daemon=True).start()
        threading.Thread(target=self._collect_stderr, daemon=True).start()
        self.key = None

    def _read(self, stream, sink):
        for line in stream:
            sink.put(line)
        sink.put(None)

    def _collect_stderr(self):
        for line in self.process.stderr:
            self.stderr_lines.append(line)
        self.stderr_done.set()

    def wait_for(self, text: str, timeout: float = START_TIMEOUT) -> str:
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            try:
                line = self._lines.get(timeout=0.2)
            except queue.Empty:
                continue
            if line is None:
                raise AssertionError(f"the server ended before printing {text!r}:\n"
                                     + "".join(self.lines) + "".join(self.stderr_lines))
            self.lines.append(line)
            if self.key is None and KEY_PATTERN.search(line):
                self.key = KEY_PATTERN.search(line).group(0)
            if text in line:
                return line
        raise AssertionError(f"no {text!r} within {timeout} s:\n" + "".join(self.lines)
                             + "".join(self.stderr_lines))

    def rest_of_output(self) -> str:
        while True:
            line = self._lines.get(timeout=10)
            if line is None:
                return "".join(self.lines)
            self.lines.append(line)

    def request(self, method: str, path: str, body=None, key: str | None = None,
                headers: dict | None = None, timeout: float = 10):
        connection = http.client.HTTPConnection("127.0.0.1", self.port, timeout=timeout)
        sent = dict(headers or {})
        if key or self.key:
            sent.setdefault("Authorization", f"Bearer {key or self.key}")
        payload = None
        if body is not None:
            payload = json.dumps(body).encode()
            sent["Content-Type"] = "application/json"
        try:
            connection.request(method, path, body=payload, headers=sent)
            response = connection.getresponse()
            raw = response.read()
            parsed = json.loads(raw) if raw and "json" in response.getheader("Content-Type", "") else None
            return response.status, parsed, response
        finally:
            connection.close()

    def stop(self, signum, timeout: float = 30) -> int:
        self.process.send_signal(signum)
        try:
            return self.process.wait(timeout=timeout)
        except subprocess.TimeoutExpired:  # say what it was doing, for whoever reads the failure
            self.process.send_signal(signal.SIGUSR1)  # every thread's stack, to stderr
            time.sleep(2)
            self.process.kill()
            self.process.wait(timeout=10)
            self.stderr_done.wait(timeout=5)
            stdout = []
            while not self._lines.empty():
                stdout.append(self._lines.get() or "")
            raise AssertionError(f"still running {timeout:.0f} s after signal {signum}; its "
                                 "stdout:\n" + "".join(self.lines + stdout)[-1500:]
                                 + "\nits stderr:\n" + "".join(self.stderr_lines)[-6000:]) from None

    def kill(self):
        if self.process.poll() is None:
            self.process.kill()
            self.process.wait(timeout=10)


@pytest.fixture
def start_server(tmp_path):
    started: list[ServerProcess] = []

    def start(data_dir: Path | None = None, *extra_args: str, env: dict | None = None,
              wait: bool = True) -> ServerProcess:
        port = free_port()
        data_dir = data_dir or tmp_path / "data"
        args = ["--data-dir", str(data_dir), "serve", "--port", str(port), *extra_args]
        server = ServerProcess(args, clean_environment(**(env or {})), port)
        started.append(server)
        if wait:
            server.wait_for("RentalComply listening on")
        return server

    yield start
    for server in started:
        server.kill()
