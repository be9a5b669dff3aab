"""Periodic tasks run once per tick however many workers schedule them; workers leave heartbeats;
tasks outlast the database going away for a moment."""

import datetime as dt
import threading

import peewee
import pytest
from huey import crontab
from huey.storage import MemoryStorage

from rentalcomply.core import clock, scheduling
from rentalcomply.core.scheduling import OncePerTickHuey
from tests.conftest import bootstrapped_settings, scratch_postgres_database

TICK = dt.datetime(2026, 11, 23, 12, 3, 7)  # five ticks from here pass minute 5


def worker_scheduler():
    """What each worker process has: its own Huey, the same periodic tasks, the shared database."""
    huey = OncePerTickHuey("test", immediate=False, storage_class=MemoryStorage, utc=True)

    @huey.periodic_task(crontab(minute="*"), name="sync_due_feeds")
    def sync_due_feeds():
        pass

    @huey.periodic_task(crontab(minute="5"), name="make_monthly_reports")
    def make_monthly_reports():
        pass

    return huey


def names(tasks):
    return sorted(task.name for task in tasks)


def test_of_two_workers_only_one_enqueues_a_tick(settings):
    first, second = worker_scheduler(), worker_scheduler()
    assert names(first.read_periodic(TICK)) == ["sync_due_feeds"]
    assert names(second.read_periodic(TICK + dt.timedelta(seconds=20))) == []


def test_every_tick_is_run_once(settings):
    workers = [worker_scheduler() for _ in range(3)]
    runs = []
    for minute in range(5):
        for worker in workers:
            runs += names(worker.read_periodic(TICK + dt.timedelta(minutes=minute)))
    assert runs.count("sync_due_feeds") == 5
    assert runs.count("make_monthly_reports") == 1


def test_a_worker_that_schedules_leaves_a_heartbeat(settings):
    worker_scheduler().read_periodic(TICK)
    beats = scheduling.heartbeats()
    assert [beat.worker for beat in beats] == [scheduling.WORKER_ID]


def test_workers_racing_on_postgresql_claim_each_tick_once(tmp_path):
    with scratch_postgres_database() as url:
        with bootstrapped_settings(tmp_path, RENTALCOMPLY_DATABASE_URL=url):
            workers = [worker_scheduler() for _ in range(4)]
            runs, start = [], threading.Barrier(4)

            def schedule(worker):
                start.wait()
                for minute in range(5):
                    runs.extend(names(worker.read_periodic(TICK + dt.timedelta(minutes=minute))))

            threads = [threading.Thread(target=schedule, args=(w,)) for w in workers]
            for thread in threads:
                thread.start()
            for thread in threads:
                thread.join()
            assert runs.count("sync_due_feeds") == 5
            assert runs.count("make_monthly_reports") == 1


def cut_once(error: str):
    """A task function that fails with the database error `error` on its first run only."""
    runs = []

    def write():
        runs.append(1)
        if len(runs) == 1:
            raise peewee.OperationalError(error)
        return "written"
    return write, runs


def test_a_task_cut_by_the_database_going_away_runs_again_a_few_seconds_later(caplog):
    huey = OncePerTickHuey("test", immediate=False, storage_class=MemoryStorage, utc=True)
    write, runs = cut_once("server closed the connection unexpectedly")
    huey.task(name="write")(write)()
    huey.execute(huey.dequeue())
    assert len(runs) == 1 and huey.scheduled_count() == 1
    assert huey.read_schedule(dt.datetime.utcnow()) == []
    later = dt.datetime.utcnow() + dt.timedelta(seconds=scheduling.RETRY_WHEN_AWAY_SECONDS + 1)
    [again] = huey.read_schedule(later)
    assert huey.execute(again, later) == "written" and len(runs) == 2
    assert "the database does not answer (server closed the connection unexpectedly)" in caplog.text
    assert "Traceback" not in caplog.text


def test_a_task_that_met_a_lock_timeout_fails_as_any_error_does(caplog):
    huey = OncePerTickHuey("test", immediate=False, storage_class=MemoryStorage, utc=True)
    write, runs = cut_once("canceling statement due to lock timeout")
    huey.task(name="write")(write)()
    huey.execute(huey.dequeue())
    # Run again, it would wait behind the same lock: the periodic sweeps take it up.
    assert len(runs) == 1 and huey.scheduled_count() == 0
    assert "Unhandled exception in task" in caplog.text


def test_a_periodic_task_cut_by_the_database_going_away_waits_for_its_next_tick(caplog):
    huey = OncePerTickHuey("test", immediate=False, storage_class=MemoryStorage, utc=True)
    write, runs = cut_once("connection already closed")
    sweep = huey.periodic_task(crontab(minute="*"), name="sweep")(write)
    assert huey.execute(sweep.s()) is None
    assert len(runs) == 1 and huey.scheduled_count() == 0
    assert "its next run tries again" in caplog.text and "Traceback" not in caplog.text


def test_an_hourly_task_whose_minute_falls_in_a_queue_outage_runs_when_the_queue_is_back(
        tmp_path, frozen_clock):
    """On Redis (a private server, stopped and started again) and the database of the pass
    (PostgreSQL when configured): the tick is left open while nothing could be queued, and the
    first minute that finds the queue answering queues it, once."""
    pytest.importorskip("redis")
    from rentalcomply.core import outage
    from tests.conftest import POSTGRES_URL
    from tests.e2e.test_queue_outage import PrivateRedis
    import contextlib
    redis_server = PrivateRedis()
    redis_server.start()
    with contextlib.ExitStack() as stack:
        stack.callback(redis_server.stop)
        stack.callback(outage.watch.forget)
        env = {}
        if POSTGRES_URL:
            env["RENTALCOMPLY_DATABASE_URL"] = stack.enter_context(scratch_postgres_database())
        stack.enter_context(bootstrapped_settings(tmp_path, **env))
        from huey.storage import RedisStorage
        huey = OncePerTickHuey("hourly-test", immediate=False, storage_class=RedisStorage,
                               url=redis_server.url, utc=True)

        @huey.periodic_task(crontab(minute="5"), name="make_monthly_reports")
        def make_monthly_reports():
            pass

        minute_5 = clock.utcnow().replace(minute=5, second=0)
        redis_server.stop()
        assert huey.enqueue_periodic(minute_5) == []  # not queued, and not recorded as run
        assert huey.enqueue_periodic(minute_5 + dt.timedelta(minutes=1)) == []
        redis_server.start()
        huey.dequeue()  # a worker finds the queue answering again
        clock.travel(dt.timedelta(minutes=2))
        assert huey.enqueue_periodic(minute_5 + dt.timedelta(minutes=2)) == \
            ["make_monthly_reports"]
        assert [task.name for task in huey.pending()] == ["make_monthly_reports"]
        # Done now: neither this scheduler nor another queues it again.
        assert huey.enqueue_periodic(minute_5 + dt.timedelta(minutes=3)) == []
        assert "make_monthly_reports" not in worker_scheduler().enqueue_periodic(
            minute_5 + dt.timedelta(minutes=3))
        assert len(huey.pending()) == 1


def test_a_tick_whose_task_is_queued_is_recorded_done(settings):
    worker = worker_scheduler()
    assert worker.enqueue_periodic(TICK) == ["sync_due_feeds"]
    [tick] = scheduling.PeriodicTick.select()
    assert tick.queued_at is not None


def test_a_losing_claim_of_a_tick_is_no_error_on_postgresql(tmp_path):
    # A plain INSERT caught as IntegrityError worked, but PostgreSQL logged each loser's
    # duplicate key as an ERROR and rolled its transaction back (232 in 47 minutes of a soak);
    # INSERT … ON CONFLICT DO NOTHING loses without either.
    from rentalcomply.core.db import db
    with scratch_postgres_database() as url:
        with bootstrapped_settings(tmp_path, RENTALCOMPLY_DATABASE_URL=url):
            def rolled_back() -> int:
                """Transactions rolled back in this database (aborted by an error, or asked)."""
                if db.server_version >= 150000:  # this connection's counts, flushed now
                    db.execute_sql("SELECT pg_stat_force_next_flush()")
                else:  # older servers send them to the collector within half a second
                    db.execute_sql("SELECT pg_sleep(1)")
                db.execute_sql("SELECT pg_stat_clear_snapshot()")
                return db.execute_sql("SELECT xact_rollback FROM pg_stat_database "
                                      "WHERE datname = current_database()").fetchone()[0]

            before = rolled_back()
            assert scheduling.claim_tick("sync_due_feeds", TICK) is True
            assert scheduling.claim_tick("sync_due_feeds", TICK + dt.timedelta(seconds=20)) is False
            with db.atomic():  # as a scheduler's claim inside a transaction: no savepoint undone
                assert scheduling.claim_tick("sync_due_feeds", TICK) is False
                assert db.execute_sql("SELECT 1").fetchone() == (1,)  # the transaction lives
            assert rolled_back() == before
            claims = list(scheduling.PeriodicTick.select())
            assert [(c.name, c.worker) for c in claims] == [("sync_due_feeds",
                                                             scheduling.WORKER_ID)]
