"""`doctor` on the database itself: its size and largest tables, and which workers are alive."""

from __future__ import annotations

import datetime as dt
import re

from rentalcomply.core.scheduling import WorkerHeartbeat
from rentalcomply.ops.doctor import run_checks


def checks_of(settings) -> dict:
    return {check.name: check for check in run_checks(settings)}


def test_doctor_marks_which_workers_are_alive_and_which_are_stale(settings):
    now = dt.datetime.now(dt.timezone.utc).replace(tzinfo=None, microsecond=0)
    WorkerHeartbeat.create(worker="host:101:0900", started_at=now, seen_at=now)
    WorkerHeartbeat.create(worker="host:102:0800", started_at=now - dt.timedelta(hours=1),
                           seen_at=now - dt.timedelta(minutes=20))
    workers = checks_of(settings)["workers"]
    assert workers.ok
    assert workers.detail.startswith("1 alive, 0 stopped, 1 stale: ")
    assert "host:101:0900 alive (seen" in workers.detail
    seen = re.search(r"host:102:0800 stale \(last seen (\d+) s ago\)", workers.detail)
    assert seen and 1200 <= int(seen.group(1)) < 1260, workers.detail  # however slow the machine


def test_doctor_names_the_database_size_and_its_largest_tables(settings):
    size = checks_of(settings)["database size"]
    assert size.ok and "largest: " in size.detail
    assert size.detail.split(";")[0].endswith(("kB", "MB"))
    assert len(size.detail.split("largest: ")[1].split(", ")) == 5


def test_a_worker_that_stopped_cleanly_counts_as_stopped_at_once(settings):
    from rentalcomply.core import scheduling
    scheduling.beat()
    assert checks_of(settings)["workers"].detail.startswith("1 alive, 0 stopped, 0 stale: ")
    scheduling.record_stop()
    workers = checks_of(settings)["workers"]
    assert workers.detail.startswith("0 alive, 1 stopped, 0 stale: ")
    assert f"{scheduling.WORKER_ID} stopped (" in workers.detail
    scheduling.beat()  # the same process's worker started again
    assert checks_of(settings)["workers"].detail.startswith("1 alive, 0 stopped, 0 stale: ")
