"""A host's writes beside the bulk jobs: how long a booking waits while a sync, an import, a
retention purge or a report build runs on the same account.

    python bench/writes_beside_bulk.py [--only sync,import,purge,report]
        [--database-url postgresql://...] [--events 5000] [--rows 8000]
        [--purge-rows 100000] [--stays 5000]

Issue 41's goal: bulk work commits in batches short enough that a write on another property
answers within 0.3 s throughout (p100), on SQLite and on PostgreSQL. On SQLite a transaction
holds the whole database's write lock, so a job that commits 5,000 rows at once keeps every
writer waiting (past the busy timeout: a 503); on PostgreSQL rows are locked, but a job's
processor time still competes with the writes in the same process (the embedded worker).

Each job runs in a process of its own, on a fresh data directory (SQLite, as shipped) or, with
`--database-url`, on a fresh PostgreSQL database created beside the one named and dropped after.
One account; the job works on its own properties while a writer thread creates a one-night booking
on ANOTHER property of that account every 100 ms, through `bookings.service.create_booking` (what
POST /bookings calls; each write its own transaction, on the thread's kept connection, as a server
thread keeps its own). The jobs:

- sync: the first sync of one channel connection whose feed, served over HTTP on loopback (the
  address guard allows it, as in bench/sync.py), lists EVENTS future stays: as many bookings made;
- import: an Airbnb CSV of ROWS reservations through `imports.service.import_export`;
- purge: PURGE_ROWS activity lines and a fifth as many delivered events, past their retention,
  forgotten by the hourly purges (`ops.retention.purge_past_retention`, `purge_old_events`);
- report: the AADE report of March 2026 over STAYS stays (bench/reports.py's seeding), built
  whole (`reports.generation.generate`: PDF, XML, CSV); the writer's stays are in that month.

Printed per job: its time; the writes made while it ran, their p50, p99 and p100 (longest) wait,
how far into the job the longest began, and how many failed (SQLite busy or a PostgreSQL lock
timeout: the API's 503); the number of the job's own transactions and the longest (from BEGIN to
COMMIT: on SQLite, the longest hold of the write lock); and whether the goal was met. Waits
include the machine's load: read `uptime` too.
"""

from __future__ import annotations

import argparse
import contextlib
import datetime as dt
import http.server
import json
import math
import os
import shutil
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from bench.imports import airbnb_csv  # noqa: E402 - after the path is set
from bench.reports import seed as seed_report_stays  # noqa: E402
from bench.scale_out import scratch_database  # noqa: E402

JOBS = ("sync", "import", "purge", "report")
GOAL_SECONDS = 0.3
WRITE_EVERY_SECONDS = 0.1
REPORT_YEAR, REPORT_MONTH = 2026, 3


# -- the writer beside the job --------------------------------------------------------------------

class Writer(threading.Thread):
    """Creates a one-night booking on `property_id` every 100 ms (on a fixed beat: a slow write
    is followed at once by the next) until stopped; the waits of those begun while `measuring`."""

    def __init__(self, account_id: str, property_id: str, rates, first_day: dt.date):
        super().__init__(daemon=True)
        self.account_id, self.property_id, self.rates = account_id, property_id, rates
        self.day = first_day
        self.measuring = threading.Event()
        self.stopping = threading.Event()
        self.waits: list[tuple[float, float]] = []  # (began, seconds waited)
        self.failures: list[str] = []

    def run(self) -> None:
        from rentalcomply.bookings.service import create_booking
        from rentalcomply.core.db import db
        beat = time.perf_counter()
        try:
            while not self.stopping.is_set():
                measured = self.measuring.is_set()
                started = time.perf_counter()
                try:
                    create_booking(self.account_id, rates=self.rates,
                                   property_id=self.property_id, guest_name="Writer",
                                   arrival_date=self.day,
                                   departure_date=self.day + dt.timedelta(days=1), guest_count=1)
                except Exception as error:  # busy past the timeout: the API's 503
                    if measured:
                        self.failures.append(f"{type(error).__name__}: {error}")
                if measured:
                    self.waits.append((started, time.perf_counter() - started))
                self.day += dt.timedelta(days=1)
                beat += WRITE_EVERY_SECONDS
                time.sleep(max(0.0, beat - time.perf_counter()))
                beat = max(beat, time.perf_counter() - WRITE_EVERY_SECONDS)
        finally:
            db.close()


@contextlib.contextmanager
def timed_transactions(holds: list[float]):
    """Every transaction THIS thread (the job's) runs, timed from its BEGIN's return (on SQLite,
    the write lock taken) to its COMMIT or ROLLBACK: the database's own begin, commit and
    rollback are wrapped, which every `atomic()` calls whatever the module that opens it."""
    from rentalcomply.core.db import db
    database, job_thread = db.obj, threading.get_ident()
    opened = {name: getattr(database, name) for name in ("begin", "commit", "rollback")}
    began: list[float] = []

    def begin(*args, **kwargs):
        result = opened["begin"](*args, **kwargs)
        if threading.get_ident() == job_thread:
            began[:] = [time.perf_counter()]
        return result

    def ending(name):
        def end(*args, **kwargs):
            try:
                return opened[name](*args, **kwargs)
            finally:
                if threading.get_ident() == job_thread and began:
                    holds.append(time.perf_counter() - began.pop())
        return end

    database.begin, database.commit, database.rollback = begin, ending("commit"), ending("rollback")
    try:
        yield
    finally:
        del database.begin, database.commit, database.rollback


# -- the jobs: each seeds what it needs, then returns the work to time and what it did -------------

def sync_job(account_id: str, sizes: dict):
    from rentalcomply.core.models import Booking
    from rentalcomply.properties import service as properties
    from rentalcomply.sync.one_connection import sync_connection

    body = feed_of(sizes["events"])
    server = feed_server(body)
    prop = properties.create_property(account_id, name="Synced villa", address="Oia")
    url = f"http://127.0.0.1:{server.server_address[1]}/feed.ics"
    connection = properties.add_channel(account_id, prop.id, provider="other", ical_url=url,
                                        allow_private_addresses=True)

    def run() -> str:
        try:
            result = sync_connection(connection.id)
        finally:
            server.shutdown()
        if result.status != "ok":
            raise RuntimeError(f"the sync failed: {result.error}")
        made = Booking.select().where(Booking.connection == connection.id).count()
        return f"{sizes['events']} events, {made} bookings made"
    return run


def feed_of(events: int) -> bytes:
    """A feed of `events` one-night stays, one a day from 2027 on (no two overlap)."""
    lines = ["BEGIN:VCALENDAR", "VERSION:2.0", "PRODID:-//Bench//EN"]
    for number in range(events):
        day = dt.date(2027, 1, 1) + dt.timedelta(days=number)
        lines += ["BEGIN:VEVENT", f"UID:bench-{number}@example.org",
                  f"DTSTART;VALUE=DATE:{day:%Y%m%d}",
                  f"DTEND;VALUE=DATE:{day + dt.timedelta(days=1):%Y%m%d}",
                  f"SUMMARY:Reserved - Guest {number}", "END:VEVENT"]
    lines.append("END:VCALENDAR")
    return ("\r\n".join(lines) + "\r\n").encode()


def feed_server(body: bytes) -> http.server.ThreadingHTTPServer:
    class Handler(http.server.BaseHTTPRequestHandler):
        protocol_version = "HTTP/1.1"

        def log_message(self, *args):
            pass

        def do_GET(self):
            self.send_response(200)
            self.send_header("Content-Type", "text/calendar; charset=utf-8")
            self.send_header("Content-Length", str(len(body)))
            self.end_headers()
            self.wfile.write(body)

    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), Handler)
    server.daemon_threads = True
    threading.Thread(target=server.serve_forever, daemon=True).start()
    return server


def import_job(account_id: str, sizes: dict, rates):
    from rentalcomply.imports.service import import_export
    from rentalcomply.properties import service as properties

    properties.create_property(account_id, name="Villa", address="Oia", max_guests=6)
    content = airbnb_csv(sizes["rows"])

    def run() -> str:
        totals = import_export(account_id, content, rates=rates).totals
        return f"{sizes['rows']} rows ({len(content) / 1024:.0f} KB), {totals['created']} created"
    return run


def purge_job(account_id: str, sizes: dict, settings):
    from rentalcomply.core import clock
    from rentalcomply.core.activity import Activity
    from rentalcomply.core.db import db, insert_rows
    from rentalcomply.core.ids import new_id
    from rentalcomply.core.models import Event
    from rentalcomply.ops import retention
    from rentalcomply.webhooks import service as webhooks

    days = max(settings.retention.activity_days, settings.retention.events_days) + 1
    old = clock.utcnow_precise() - dt.timedelta(days=days)
    activity_rows, event_rows = sizes["purge_rows"], sizes["purge_rows"] // 5
    for start in range(0, activity_rows, 5000):
        with db.atomic():
            insert_rows(Activity, [{"id": new_id("act"), "account": account_id,
                                    "actor_type": "key", "actor_id": "key_1",
                                    "actor_label": "agency tool", "action": "POST /bookings",
                                    "resource_id": "book_1", "created_at": old}
                                   for _ in range(min(5000, activity_rows - start))])
    for start in range(0, event_rows, 5000):
        with db.atomic():
            insert_rows(Event, [{"id": new_id("evt"), "account": account_id,
                                 "type": "booking.created", "data": {}, "created_at": old,
                                 "dispatched_at": old}
                                for _ in range(min(5000, event_rows - start))])

    def run() -> str:
        activity = retention.purge_past_retention(settings)["activity"]
        events = webhooks.purge_old_events()
        return f"{activity} activity lines and {events} delivered events forgotten"
    return run


def report_job(account_id: str, sizes: dict, settings):
    # The PDF and sealing libraries are loaded by a server's first report: here beforehand, so the
    # job is a report's work, not a first import (as bench/reports.py does).
    import cryptography.hazmat.primitives.ciphers.aead  # noqa: F401
    import fpdf  # noqa: F401

    from rentalcomply.reports import generation

    seed_report_stays(account_id, 200, sizes["stays"])

    def run() -> str:
        report = generation.generate(settings, account_id, REPORT_YEAR, REPORT_MONTH)
        if report.status != "completed":
            raise RuntimeError(f"the report failed: {report.error}")
        return f"{report.booking_count} stays in {REPORT_YEAR}-{REPORT_MONTH:02d}, PDF+XML+CSV"
    return run


# -- one job, in this process ----------------------------------------------------------------

def measure(job: str, sizes: dict) -> dict:
    from rentalcomply.accounts import service as accounts
    from rentalcomply.bookings.fees import FeeRates
    from rentalcomply.config import load_settings
    from rentalcomply.core.db import db
    from rentalcomply.properties import service as properties
    from rentalcomply.runtime import bootstrap

    folder = Path(tempfile.mkdtemp(prefix="bench-writes-"))
    try:
        # The queue as shipped (its SQLite file): what the job queues waits there, not run inline.
        env = {"RENTALCOMPLY_SYNC_ALLOW_PRIVATE_ADDRESSES": "true"}
        if os.environ.get("RENTALCOMPLY_DATABASE_URL"):
            env["RENTALCOMPLY_DATABASE_URL"] = os.environ["RENTALCOMPLY_DATABASE_URL"]
        settings = load_settings(data_dir=folder, env=env)
        bootstrap(settings)
        rates = FeeRates.from_settings(settings)
        account_id = accounts.create_account("Bench agency").id
        writer_property = properties.create_property(account_id, name="Casa Blu",
                                                     address="Naxos").id
        run = {"sync": lambda: sync_job(account_id, sizes),
               "import": lambda: import_job(account_id, sizes, rates),
               "purge": lambda: purge_job(account_id, sizes, settings),
               "report": lambda: report_job(account_id, sizes, settings)}[job]()
        writer = Writer(account_id, writer_property, rates, dt.date(REPORT_YEAR, REPORT_MONTH, 1))
        writer.start()
        time.sleep(0.5)  # the writer's connection open and its first writes made
        holds: list[float] = []
        writer.measuring.set()
        started = time.perf_counter()
        try:
            with timed_transactions(holds):
                what = run()
        finally:
            seconds = time.perf_counter() - started
            writer.measuring.clear()
            writer.stopping.set()
            writer.join()
        waits = sorted(wait for _, wait in writer.waits)
        longest_began = max(writer.waits, key=lambda write: write[1], default=(started, 0))[0]
        return {"job": job, "what": what, "job_s": seconds, "writes": len(waits),
                "failed": len(writer.failures), "first_failure": next(iter(writer.failures), ""),
                "p50_s": percentile(waits, 50), "p99_s": percentile(waits, 99),
                "p100_s": waits[-1] if waits else 0.0, "p100_at_s": longest_began - started,
                "transactions": len(holds),
                "longest_transaction_s": max(holds, default=0.0)}
    finally:
        db.close()
        shutil.rmtree(folder, ignore_errors=True)


def percentile(ordered: list[float], rank: int) -> float:
    """The nearest-rank percentile of sorted values (0 when there are none)."""
    if not ordered:
        return 0.0
    return ordered[max(0, math.ceil(len(ordered) * rank / 100) - 1)]


# -- the run: each job in its own process, on its own data directory or database -------------

def run_job(job: str, options) -> dict:
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    command = [sys.executable, str(Path(__file__).resolve()), "--measure", job,
               "--events", str(options.events), "--rows", str(options.rows),
               "--purge-rows", str(options.purge_rows), "--stays", str(options.stays)]
    with contextlib.ExitStack() as stack:
        if options.database_url:
            env["RENTALCOMPLY_DATABASE_URL"] = stack.enter_context(
                scratch_database(options.database_url))
        done = subprocess.run(command, cwd=ROOT, env=env, capture_output=True, text=True,
                              check=False)  # its stderr is shown below
    if done.returncode != 0:
        raise SystemExit(f"the {job} job failed:\n{done.stderr[-3000:]}")
    return json.loads(done.stdout.strip().splitlines()[-1])


def show(figures: dict) -> None:
    met = figures["p100_s"] < GOAL_SECONDS and not figures["failed"]
    print(f"{figures['job']:7} {figures['what']}")
    print(f"        job {figures['job_s']:6.2f} s; {figures['writes']} writes beside it "
          f"({figures['failed']} failed): p50 {figures['p50_s'] * 1000:.0f} ms, "
          f"p99 {figures['p99_s'] * 1000:.0f} ms, p100 {figures['p100_s'] * 1000:.0f} ms "
          f"(begun {figures['p100_at_s']:.1f} s in); "
          f"goal p100 < {GOAL_SECONDS * 1000:.0f} ms: {'met' if met else 'MISSED'}")
    print(f"        the job's {figures['transactions']} transactions: the longest "
          f"{figures['longest_transaction_s'] * 1000:.0f} ms")
    if figures["failed"]:
        print(f"        first failure: {figures['first_failure'][:200]}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--only", default=",".join(JOBS),
                        help="the jobs to run, comma-separated (default: all)")
    parser.add_argument("--database-url", default=None,
                        help="a PostgreSQL server's database: a fresh one is made beside it "
                             "for each job, and dropped after")
    parser.add_argument("--events", type=int, default=5000)
    parser.add_argument("--rows", type=int, default=8000)
    parser.add_argument("--purge-rows", type=int, default=100_000)
    parser.add_argument("--stays", type=int, default=5000)
    parser.add_argument("--measure", choices=JOBS, default=None, help=argparse.SUPPRESS)
    options = parser.parse_args()
    sizes = {"events": options.events, "rows": options.rows, "purge_rows": options.purge_rows,
             "stays": options.stays}
    if options.measure:
        print(json.dumps(measure(options.measure, sizes)))
        return
    jobs = [job.strip() for job in options.only.split(",") if job.strip()]
    unknown = sorted(set(jobs) - set(JOBS))
    if unknown:
        parser.error(f"unknown jobs: {', '.join(unknown)} (known: {', '.join(JOBS)})")
    engine = "PostgreSQL" if options.database_url else "SQLite"
    load = ", ".join(f"{value:.2f}" for value in os.getloadavg())
    print(f"{engine}; a booking written every {WRITE_EVERY_SECONDS * 1000:.0f} ms on another "
          f"property of the account; {os.cpu_count()} cores, load average {load}")
    for job in jobs:
        show(run_job(job, options))


if __name__ == "__main__":
    main()
