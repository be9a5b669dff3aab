"""Two queues: work with a legal deadline (police filings, reports) has workers of its own, so a
general queue full of slow work never delays it."""

from __future__ import annotations

import threading
import time

import pytest

from rentalcomply.core import queue
from tests.conftest import bootstrapped_settings, task_queue_url

released = threading.Event()
done: list[str] = []


@queue.huey.task()
def hold_a_general_worker() -> None:
    released.wait(10)


@queue.urgent.task()
def urgent_mark(name: str) -> None:
    done.append(name)


@pytest.fixture
def settings(tmp_path):
    with bootstrapped_settings(tmp_path,
                               RENTALCOMPLY_QUEUE_URL=task_queue_url(tmp_path)) as s:
        yield s


def test_filings_and_reports_are_declared_on_the_urgent_queue(settings):
    from rentalcomply.police import tasks as police
    from rentalcomply.reports import tasks as reports
    from rentalcomply.sync import tasks as sync
    from rentalcomply.webhooks import tasks as webhooks
    for task in (police.file_now, police.run_due, reports.generate_report,
                 reports.schedule_reports):
        assert task.huey is queue.urgent, task
    # Within the urgent queue a filing goes before a report.
    assert police.file_now.s().priority > reports.generate_report.s("acc", 2026, 1).priority
    for task in (webhooks.deliver, sync.sync_account_task, sync.sync_due_connections):
        assert task.huey is queue.huey, task
    assert settings.queue.urgent_workers == 2


def test_urgent_work_runs_while_every_general_worker_is_busy(settings):
    released.clear()
    done.clear()
    consumers = queue.start_embedded_consumer(workers=2, urgent_workers=1)
    try:
        for _ in range(4):  # more slow work than general workers
            hold_a_general_worker()
        time.sleep(0.5)  # both general workers are held now
        started = time.monotonic()
        urgent_mark("filed")
        while not done and time.monotonic() - started < 5:
            time.sleep(0.02)
        waited = time.monotonic() - started
    finally:
        released.set()
        consumers.stop(graceful=True)
    assert done == ["filed"]
    assert waited < 1.0, waited


def test_pending_tasks_of_both_queues_run_the_urgent_first(settings):
    done.clear()
    queue.huey.enqueue(hold_a_general_worker.s())
    urgent_mark("a")
    released.set()
    assert queue.run_pending_tasks() == 2
    assert done == ["a"]
