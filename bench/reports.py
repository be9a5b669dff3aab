"""Tax report generation: a month of 5,000 stays over 200 properties, PDF, XML and CSV.

    python bench/reports.py [--stays 5000] [--properties 200] [--language el]

Seeds a fresh data directory (SQLite, as shipped) with one account, `--properties` Greek
properties (every tenth a detached house) and `--stays` stays departing in March 2026, a few
with a missing price so the needs-attention list is not empty. Then, in this process:

1. Baseline: read the period's bookings with the query `build_report` makes, rows turned into
   Python dicts: the floor any generation of this report pays.
2. The whole generation, as `rentalcomply reports generate` runs it: build, PDF, XML (validated
   against the XSD), CSV, files stored, row updated, event written.

Printed: wall time of each (timed without tracemalloc, which slows Python down) and the peak
Python memory of a second, traced run; the report's processor time (steadier than its wall time
on a machine shared with other work); each step's time; the ratio against the baseline; the
peak resident set size of the whole process (getrusage); and the targets (under 5 s and under
200 MB on the 2-core reference machine).
"""

from __future__ import annotations

import argparse
import datetime as dt
import random
import resource
import shutil
import sys
import tempfile
import time
import tracemalloc
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

TARGET_SECONDS = 5.0
TARGET_MB = 200.0
FIRST_NAMES = ["Maria", "Eleni", "Giorgos", "Nikos", "Anna", "John", "Sophie", "Lukas",
               "Γιώργος", "Ελένη", "Δημήτρης", "Κατερίνα"]
LAST_NAMES = ["Papadopoulou", "Georgiou", "Smith", "Müller", "Rossi", "Ιωάννου", "Παππάς",
              "Νικολάου", "Dubois", "García"]


def seed(account_id: str, properties_count: int, stays: int) -> None:
    from rentalcomply.core.db import db
    from rentalcomply.core.ids import new_id
    from rentalcomply.core.models import Booking, Property
    rng = random.Random(8)
    now = dt.datetime(2026, 4, 1)
    props = [{"id": new_id("prop"), "account": account_id, "name": f"Apartment {i:03d}",
              "address": f"Odos {i}, Athens", "aade_property_id": f"{10_000_000_000 + i}",
              "country": "GR", "timezone": "Europe/Athens",
              "climate_fee_category": "detached_over_80m2" if i % 10 == 0 else "standard",
              "police_connector": "none", "status": "active", "created_at": now,
              "updated_at": now} for i in range(properties_count)]
    rows = []
    # Each property's stays follow one another through March without overlapping.
    per_property = -(-stays // properties_count)
    for index in range(stays):
        prop = props[index % properties_count]
        slot = index // properties_count
        departure = dt.date(2026, 3, 1) + dt.timedelta(days=int(slot * 30 / per_property) + 1)
        nights = rng.randint(1, 6)
        channel = rng.choice(["manual", "airbnb", "booking", "vrbo"])
        price = None if index % 97 == 0 else rng.randint(80, 1500) * 100
        rows.append({
            "id": new_id("book"), "account": account_id, "property": prop["id"],
            "guest_name": f"{rng.choice(FIRST_NAMES)} {rng.choice(LAST_NAMES)}",
            "arrival_date": departure - dt.timedelta(days=nights), "departure_date": departure,
            "guest_count": 2, "channel": channel, "status": "confirmed",
            "checkin_status": "COMPLETED", "report_status": "NOT_REQUIRED",
            "total_price_cents": price,
            "payment_method": "platform" if channel != "manual" else "bank_transfer",
            "external_ref": None if channel == "manual" else f"HM{index:08d}",
            "climate_fee_cents": 0, "is_block": False, "created_at": now, "updated_at": now})
    with db.atomic():
        Property.insert_many(props).execute()
        for start in range(0, len(rows), 500):
            Booking.insert_many(rows[start:start + 500]).execute()


def timed(function):
    started = time.perf_counter()
    result = function()
    return result, time.perf_counter() - started


def traced(function) -> float:
    """Peak Python memory of a second run, in MB (tracemalloc slows the run, so it is not timed)."""
    tracemalloc.start()
    function()
    _, peak = tracemalloc.get_traced_memory()
    tracemalloc.stop()
    return peak / 1e6


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--stays", type=int, default=5000)
    parser.add_argument("--properties", type=int, default=200)
    parser.add_argument("--language", choices=("el", "en"), default="el")
    args = parser.parse_args()

    from rentalcomply.accounts import service as accounts
    from rentalcomply.authorities.aade.building import _period_bookings
    from rentalcomply.config import load_settings
    from rentalcomply.core.db import db
    from rentalcomply.core.models import Booking
    from rentalcomply.reports import generation
    from rentalcomply.runtime import bootstrap

    data_dir = Path(tempfile.mkdtemp(prefix="rc-bench-reports-"))
    try:
        settings = load_settings(data_dir=data_dir, env={"RENTALCOMPLY_QUEUE_URL": "memory://",
                                                         "RENTALCOMPLY_REPORTS_LANGUAGE": args.language})
        bootstrap(settings)
        account_id = accounts.create_account("Bench Agency").id
        seed(account_id, args.properties, args.stays)
        print(f"seeded {Booking.select().count()} stays over {args.properties} properties "
              f"departing in March 2026")
        start, end = dt.date(2026, 3, 1), dt.date(2026, 4, 1)
        ids = [p[0] for p in db.execute_sql("SELECT id FROM property").fetchall()]

        def baseline():
            return len(list(_period_bookings(account_id, ids, start, end)))

        baseline()  # warm the page cache and peewee's query machinery alike for both runs
        count, base_seconds = timed(baseline)
        base_mb = traced(baseline)

        steps: list[tuple[str, float]] = []

        def progress(name):
            steps.append((name, time.perf_counter()))

        def generate():
            generation.request_generation(account_id, 2026, 3)
            return generation.generate(settings, account_id, 2026, 3, progress=progress)

        # A server imports the PDF and sealing libraries once, with its first report (they are
        # deferred to keep its start light): loaded here first, so that the figure is a report's
        # work on either side of a comparison, not a process's first import.
        import cryptography.hazmat.primitives.ciphers.aead  # noqa: F401
        import fpdf  # noqa: F401
        cpu_started = time.process_time()
        report, seconds = timed(generate)
        cpu_seconds = time.process_time() - cpu_started
        finished = time.perf_counter()
        marks = steps + [("done", finished)]
        step_times = [(name, following - at) for (name, at), (_, following) in zip(marks, marks[1:])]
        peak_mb = traced(generate)
        rss_mb = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
        files = report.files

        print(f"\nbaseline: read {count} bookings of the period   {base_seconds:6.3f} s   "
              f"peak {base_mb:6.1f} MB")
        print(f"report:   build + PDF + XML + CSV + store       {seconds:6.3f} s   "
              f"peak {peak_mb:6.1f} MB   ({seconds / base_seconds:.0f}x the baseline)")
        # Steadier than the wall time on a machine shared with other work.
        print(f"report processor time:                          {cpu_seconds:6.3f} s")
        for name, spent in step_times:
            print(f"    {name:<22} {spent:6.3f} s")
        print(f"files: PDF {files['pdf']['size'] / 1e6:.2f} MB, XML "
              f"{files['xml']['size'] / 1e6:.2f} MB, CSV {files['csv']['size'] / 1e6:.2f} MB; "
              f"{report.booking_count} stays, {report.needs_attention_count} needing attention")
        print(f"process peak resident set: {rss_mb:.0f} MB (interpreter and libraries included)")
        ok = seconds < TARGET_SECONDS and peak_mb < TARGET_MB and rss_mb < TARGET_MB
        print(f"targets: under {TARGET_SECONDS:.0f} s and under {TARGET_MB:.0f} MB: "
              f"{'met' if ok else 'MISSED'}")
        sys.exit(0 if ok else 1)
    finally:
        db.close()
        shutil.rmtree(data_dir, ignore_errors=True)


if __name__ == "__main__":
    main()
