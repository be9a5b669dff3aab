"""Running the suite on another date: see sitecustomize.py."""

from __future__ import annotations

import datetime
import os
from pathlib import Path

from tests.moved_clock.sitecustomize import SHIFT_VARIABLE, apply

TODAY_VARIABLE = "RENTALCOMPLY_TEST_TODAY"
FOLDER = Path(__file__).resolve().parent


def with_moved_clock(env: dict) -> dict:
    """`env`, for a process a test starts with an environment of its own, with the run's moved
    clock added when the run is moved: every process of the run reads the same day."""
    env = {**machine_clock_environment(), **env}
    if SHIFT_VARIABLE not in os.environ:
        return env
    path = env.get("PYTHONPATH")
    return {**env, SHIFT_VARIABLE: os.environ[SHIFT_VARIABLE],
            "PYTHONPATH": str(FOLDER) + (os.pathsep + path if path else "")}


def machine_clock_environment() -> dict:
    """On a machine whose clock libfaketime moves (LD_PRELOAD and its FAKETIME settings), what
    a process needs to share it, as every process on such a machine would; else nothing."""
    return {name: value for name, value in os.environ.items()
            if name == "LD_PRELOAD" or name.startswith("FAKETIME") or name == "NO_FAKE_STAT"}


def shift_to(today: str, now: datetime.datetime) -> datetime.timedelta:
    """How far `today` ("2027-03-01", or "+365" days) is from `now`, the time of day kept."""
    if today.startswith("+"):
        return datetime.timedelta(days=int(today[1:]))
    target = datetime.date.fromisoformat(today)
    return datetime.timedelta(days=(target - now.date()).days)


def move_this_run() -> str | None:
    """Called once by tests/conftest.py: move this process and every process it starts. The
    first process of a run (pytest-xdist's controller) fixes the shift; the test processes and
    their children inherit it, so that all of them agree to the second. Returns the moved date."""
    today = os.environ.get(TODAY_VARIABLE)
    if not today:
        return None
    if SHIFT_VARIABLE not in os.environ:
        shift = shift_to(today, datetime.datetime.now(datetime.timezone.utc))
        os.environ[SHIFT_VARIABLE] = str(int(shift.total_seconds()))
        path = os.environ.get("PYTHONPATH")
        os.environ["PYTHONPATH"] = str(FOLDER) + (os.pathsep + path if path else "")
    apply()
    from rentalcomply.core import clock
    return clock.today().isoformat()
