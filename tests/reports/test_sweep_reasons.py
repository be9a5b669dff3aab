"""The sweep that takes over a stopped report generation says why it stopped."""

from __future__ import annotations

import datetime as dt
import logging
import socket

from rentalcomply.accounts import service as accounts
from rentalcomply.core import clock
from rentalcomply.reports import generation
from rentalcomply.reports.models import Report


def running_report(owner: str, lease_until: dt.datetime) -> None:
    account = accounts.create_account("A").id
    generation.request_generation(account, 2025, 3)
    Report.update(job="running", lease_owner=owner, lease_expires_at=lease_until).execute()


def dead_owner() -> str:
    # A pid of this machine that no process has: the highest the kernel hands out, plus one.
    return f"{socket.gethostname()}:4194305:deadbeef:abc123"


def test_a_report_whose_worker_died_with_its_lease_valid_says_its_worker_is_gone(settings,
                                                                                caplog):
    caplog.set_level(logging.WARNING)
    running_report(dead_owner(), clock.utcnow() + dt.timedelta(minutes=5))
    assert len(generation.requeue_stalled()) == 1
    assert "its worker " in caplog.text and "is no longer running" in caplog.text
    assert "lease ran out" not in caplog.text


def test_a_report_whose_lease_ran_out_says_so(settings, caplog):
    caplog.set_level(logging.WARNING)
    running_report("elsewhere:1:token:abc", clock.utcnow() - dt.timedelta(seconds=1))
    assert len(generation.requeue_stalled()) == 1
    assert "its lease ran out" in caplog.text
