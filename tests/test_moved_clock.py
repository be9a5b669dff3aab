"""RENTALCOMPLY_TEST_TODAY moves the clock of the test process and of every process it starts
(tests/moved_clock), so that a whole run shows that no test depends on the day it runs."""

from __future__ import annotations

import datetime as dt
import os
import subprocess
import sys
from pathlib import Path

from rentalcomply.core import clock
from tests.moved_clock import (FOLDER, TODAY_VARIABLE, machine_clock_environment, shift_to,
                                with_moved_clock)
from tests.moved_clock.sitecustomize import SHIFT_VARIABLE

ROOT = Path(__file__).resolve().parents[1]
NOW = dt.datetime(2026, 11, 25, 18, 30, tzinfo=dt.timezone.utc)


def test_a_date_or_a_number_of_days_ahead_is_a_whole_number_of_days_from_now():
    assert shift_to("2027-12-01", NOW) == dt.timedelta(days=371)
    assert shift_to("+365", NOW) == dt.timedelta(days=365)
    assert shift_to("2026-11-25", NOW) == dt.timedelta(0)


def test_a_child_process_started_with_the_shift_reads_the_moved_day():
    shift = dt.timedelta(days=400)
    env = {**os.environ, SHIFT_VARIABLE: str(int(shift.total_seconds())),
           "PYTHONPATH": f"{FOLDER}{os.pathsep}{ROOT}"}
    env.pop(TODAY_VARIABLE, None)
    child = subprocess.run(
        [sys.executable, "-c", "from rentalcomply.core import clock; print(clock.today())"],
        env=env, capture_output=True, text=True, timeout=60, check=True)
    real_today = dt.datetime.now(dt.timezone.utc).date()
    assert child.stdout.strip() in {(real_today + shift).isoformat(),
                                    (real_today + shift + dt.timedelta(days=1)).isoformat()}


def test_this_run_reads_the_day_it_was_told_to():
    """In a moved run, the product's clock here reads the moved day (the run's first process
    fixed the shift, so a run that crosses midnight reads the day after)."""
    today = os.environ.get(TODAY_VARIABLE)
    if not today:
        assert SHIFT_VARIABLE not in os.environ
        assert with_moved_clock({"A": "1"}) == {**machine_clock_environment(), "A": "1"}
        return
    expected = dt.date.fromisoformat(today) if not today.startswith("+") else None
    if expected is not None:
        assert clock.today() in {expected, expected + dt.timedelta(days=1)}
    assert with_moved_clock({})[SHIFT_VARIABLE] == os.environ[SHIFT_VARIABLE]
