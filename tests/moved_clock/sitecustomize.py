"""The run's moved clock in every Python process the tests start.

`python -m pytest` with RENTALCOMPLY_TEST_TODAY set (`2027-03-01`, or `+365` for a year ahead of
the machine's date) runs the whole suite as if that were today: tests/conftest.py computes how far
that is from now, once, exports it as RENTALCOMPLY_TEST_CLOCK_SHIFT (seconds) and puts this folder
first on PYTHONPATH. Python imports `sitecustomize` at start-up, so every server, worker and
command-line process a test starts reads the same moved clock (rentalcomply.core.clock) as the
test itself. Without the variable this module does nothing.
"""

from __future__ import annotations

import datetime
import os

SHIFT_VARIABLE = "RENTALCOMPLY_TEST_CLOCK_SHIFT"


def shift_from_environment() -> datetime.timedelta | None:
    seconds = os.environ.get(SHIFT_VARIABLE)
    return datetime.timedelta(seconds=int(seconds)) if seconds else None


def apply() -> None:
    shift = shift_from_environment()
    if shift is not None:
        from rentalcomply.core import clock
        clock.shift_everything(shift)


apply()
