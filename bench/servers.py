"""What both benchmarks need: a free loopback port, and a server process started and answering."""

from __future__ import annotations

import socket
import subprocess
import sys
import time
import urllib.error
import urllib.request
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


def start(args: list[str], env: dict, port: int, timeout: float = 30,
          stderr=None) -> subprocess.Popen:
    """`python ARGS` from the repository root, returned once it answers HTTP on `port`; its
    stderr to `stderr` (a file) where given."""
    process = subprocess.Popen([sys.executable, *args], env=env, cwd=ROOT,
                               stdout=subprocess.DEVNULL, stderr=stderr)
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        try:
            urllib.request.urlopen(f"http://127.0.0.1:{port}/healthz", timeout=1)
            return process
        except urllib.error.HTTPError:
            return process  # it answers, even if not with a /healthz of its own
        except OSError:
            time.sleep(0.1)
    process.kill()
    raise RuntimeError(f"{args} did not start")
