"""Two queues: work with a legal deadline (police filings, reports) has workers of its own, so a
general queue full of slow work never delays it."""

from __future__ import annotations

import sys
import threading
import time

import pytest

from rentalcomply.core import queue
from tests.conftest import bootstrapped_settings, task_queue_url

released = threading.Event()
holding: list[str] = []  # the general workers held now (their threads' names)
done: list[tuple[str, list[str], bool]] = []


@queue.huey.task()
def hold_a_general_worker() -> None:
    holding.append(threading.current_thread().name)
    try:
        released.wait(60)
    finally:
        holding.remove(threading.current_thread().name)


@queue.urgent.task()
def urgent_mark(name: str) -> None:
    # What the general queue was doing meanwhile: which workers were held, and whether they
    # had been let go.
    done.append((name, sorted(holding), released.is_set()))


def wait_until(check, what: str, timeout: float = 30.0):
    """A failure's bound, not a measure: the condition is usually met within milliseconds."""
    deadline = time.monotonic() + timeout
    while not check():
        assert time.monotonic() < deadline, f"{what}: not within {timeout:.0f} s"
        time.sleep(0.02)


@pytest.fixture
def settings(tmp_path):
    with bootstrapped_settings(tmp_path,
                               RENTALCOMPLY_QUEUE_URL=task_queue_url(tmp_path)) as s:
        yield s


def test_filings_and_reports_are_declared_on_the_urgent_queue(settings):
    from rentalcomply.filings import tasks as police
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
    holding.clear()
    done.clear()
    consumers = queue.start_embedded_consumer(workers=2, urgent_workers=1)
    try:
        for _ in range(4):  # more slow work than general workers
            hold_a_general_worker()
        wait_until(lambda: len(holding) >= 2, "both general workers held")
        urgent_mark("filed")
        wait_until(lambda: done, "the urgent task run")
    finally:
        released.set()
        consumers.stop(graceful=True)
    # It ran while both general workers were still held by slow work.
    [(name, held, let_go)] = done
    assert (name, len(set(held)), let_go) == ("filed", 2, False)


def test_pending_tasks_of_both_queues_run_the_urgent_first(settings):
    done.clear()
    queue.huey.enqueue(hold_a_general_worker.s())
    urgent_mark("a")
    released.set()
    assert queue.run_pending_tasks() == 2
    assert [name for name, _, _ in done] == ["a"]


def test_a_redis_url_without_the_redis_package_says_how_to_install_it(tmp_path, monkeypatch):
    from tests.conftest import make_settings
    monkeypatch.setitem(sys.modules, "redis", None)  # as in the one-file binary
    settings = make_settings(tmp_path, RENTALCOMPLY_QUEUE_URL="redis://127.0.0.1:6379/0")
    with pytest.raises(ValueError, match=r"pip install 'rentalcomply\[redis\]'"):
        queue.configure_queue(settings)


ran: list[str] = []


@queue.huey.task()
def note_ran(name: str) -> None:
    ran.append(name)


def test_a_task_queued_by_this_process_wakes_an_idle_worker_at_once(settings, monkeypatch):
    if queue.huey.storage.blocking:
        pytest.skip("a blocking queue (Redis) hands a task to a waiting worker itself")
    # Idle workers that would look at the queue only every 60 seconds: the task runs long
    # before that, because queuing it woke one.
    monkeypatch.setattr(queue, "IDLE_POLL_FIRST_SECONDS", 60)
    monkeypatch.setattr(queue, "IDLE_POLL_MAX_SECONDS", 60)
    ran.clear()
    consumers = queue.start_embedded_consumer(workers=1, urgent_workers=1)
    try:
        time.sleep(0.5)  # the worker has looked, found nothing, and waits
        note_ran("woken")
        wait_until(lambda: ran, "the task run", timeout=20)
    finally:
        consumers.stop(graceful=True)
    assert ran == ["woken"]
