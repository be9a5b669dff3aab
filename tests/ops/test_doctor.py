"""`doctor` on the database itself: its size and largest tables, and which workers are alive."""

from __future__ import annotations

import copy
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


def with_forget_hours(settings, hours: str):
    """The test's settings (its database, whichever engine) with the setting read as an operator
    sets it, from the environment."""
    from rentalcomply.config import load_settings
    read = load_settings(data_dir=settings.data_dir, env={
        "RENTALCOMPLY_QUEUE_URL": "memory://",
        "RENTALCOMPLY_QUEUE_FORGET_WORKERS_AFTER_HOURS": hours})
    changed = copy.copy(settings)
    changed.queue = copy.copy(settings.queue)
    changed.queue.forget_workers_after_hours = read.queue.forget_workers_after_hours
    changed.queue.url = "memory://"  # configure_queue below must not open the test's queue
    return changed


def test_a_worker_gone_for_longer_than_the_setting_is_forgotten(settings, monkeypatch):
    # A worker killed with kill -9 never records its stop: stale for a while, then forgotten,
    # both by doctor at once and by the hourly housekeeping, which deletes its heartbeat.
    from rentalcomply.core import scheduling
    now = dt.datetime.now(dt.timezone.utc).replace(tzinfo=None, microsecond=0)
    WorkerHeartbeat.create(worker="host:201:0900", started_at=now, seen_at=now)
    WorkerHeartbeat.create(worker="host:202:0800", started_at=now - dt.timedelta(hours=5),
                           seen_at=now - dt.timedelta(hours=2))  # killed two hours ago
    WorkerHeartbeat.create(worker="host:203:0700", started_at=now - dt.timedelta(hours=9),
                           seen_at=now - dt.timedelta(hours=7), stopped_at=now)
    workers = checks_of(settings)["workers"]
    assert workers.detail.startswith("1 alive, 1 stopped, 1 stale: "), workers.detail

    three_hours = with_forget_hours(settings, "3")
    assert three_hours.queue.forget_workers_after_hours == 3
    workers = checks_of(three_hours)["workers"]
    assert workers.detail.startswith("1 alive, 0 stopped, 1 stale: "), workers.detail
    assert "host:203:0700" not in workers.detail

    one_hour = with_forget_hours(settings, "1")
    workers = checks_of(one_hour)["workers"]
    assert workers.detail.startswith("1 alive, 0 stopped, 0 stale: "), workers.detail
    assert "host:202:0800" not in workers.detail

    from rentalcomply.core.queue import configure_queue
    monkeypatch.setattr(scheduling, "forget_workers_after", scheduling.forget_workers_after)
    configure_queue(one_hour)
    scheduling.forget_old(now)
    assert [w.worker for w in WorkerHeartbeat.select()] == ["host:201:0900"]
