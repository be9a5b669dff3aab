"""The parser processes of a large sync run end when the process that started them is killed
(kill -9 of the server in the middle of a sync), instead of lingering for minutes."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]

SCRIPT = r"""
import sys, time
from rentalcomply.sync import parser_processes
from rentalcomply.sync.parse import parse_feed
from tests.sync.test_limits import many_events

body = many_events(20000)
with parser_processes.parser_pool(parser_processes.PARSER_POOL_MIN_FEEDS) as pool:
    if pool is None:
        print("NOPOOL", flush=True)
        sys.exit(0)
    futures = [pool.submit(parse_feed, body, "other", "UTC") for _ in range(2)]
    time.sleep(1.0)  # the processes are up and parsing
    print("PIDS", *pool._processes, flush=True)
    time.sleep(60)
"""


def alive(pid: int) -> bool:
    try:
        state = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0]
    except (FileNotFoundError, ProcessLookupError, IndexError):
        return False
    return state not in ("Z", "X")  # a zombie has ended; only its parent's reaping is left


@pytest.mark.skipif(not Path("/proc").is_dir(), reason="reads /proc (Linux)")
def test_parser_processes_end_soon_after_their_parent_is_killed():
    parent = subprocess.Popen([sys.executable, "-c", SCRIPT], cwd=ROOT, stdout=subprocess.PIPE,
                              text=True, env={**os.environ, "PYTHONPATH": str(ROOT)})
    try:
        line = parent.stdout.readline().split()
        if line[:1] == ["NOPOOL"]:
            pytest.skip("parsing runs in processes only with 2 cores or more")
        assert line[:1] == ["PIDS"], line
        children = [int(pid) for pid in line[1:]]
        assert children and all(alive(pid) for pid in children)
        parent.send_signal(signal.SIGKILL)
        parent.wait(timeout=10)
        killed = time.monotonic()
        while any(alive(pid) for pid in children) and time.monotonic() - killed < 10:
            time.sleep(0.1)
        gone_after = time.monotonic() - killed
    finally:
        if parent.poll() is None:
            parent.kill()
    assert not any(alive(pid) for pid in children), "the parser processes outlived the server"
    print(f"\nparser processes gone {gone_after:.2f} s after kill -9 of their parent")
    assert gone_after < 3
