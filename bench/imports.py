"""Importing a channel's export of 8,000 reservations while another account writes.

    python bench/imports.py [--rows 8000] [--baseline <git ref>] [--database-url postgresql://...]

On a fresh data directory (SQLite, as shipped): account A has one property and an Airbnb CSV of
ROWS stays (about 228 KB for 8,000, the size issue 35 measured); account B writes one small row
(a property) again and again from another thread while A's file is imported. Printed: the
import's time; the longest and 99th-percentile wait of B's writes, and how many failed (SQLite's
busy timeout, a 503 in the API) — how long the import kept the database's write lock from the
others; and how long the longest of the import's own transactions lasted (each holds the lock
from its BEGIN IMMEDIATE to its COMMIT).

`--baseline REF` also measures the code of a git ref, in the same run: the ref is exported with
`git archive` into a temporary folder (no worktree is made) and this script's measuring part runs
there in a subprocess, then here; the ratios current/baseline are printed last. Each side uses
only `import_export(account, content, rates=...)`, which both keep.
"""

from __future__ import annotations

import argparse
import contextlib
import json
import os
import shutil
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def airbnb_csv(rows: int) -> bytes:
    import csv
    import datetime as dt
    import io
    out = io.StringIO(newline="")
    writer = csv.writer(out, lineterminator="\r\n")
    writer.writerow(["Confirmation code", "Status", "Guest name", "# of adults", "# of children",
                     "Start date", "End date", "Listing", "Earnings"])
    start = dt.date(2027, 1, 1)
    for index in range(rows):
        arrival = start + dt.timedelta(days=2 * index)
        writer.writerow([f"HM{index:08d}", "Confirmed", f"Guest {index}", "2", "0",
                         f"{arrival:%m/%d/%Y}", f"{arrival + dt.timedelta(days=1):%m/%d/%Y}",
                         "Villa", f"€{100 + index % 50}.00"])
    return out.getvalue().encode()


def measure(rows: int) -> dict:
    """Run in the checkout on sys.path: one import of `rows` rows beside B's writes."""
    from rentalcomply.accounts import service as accounts
    from rentalcomply.bookings.fees import FeeRates
    from rentalcomply.config import load_settings
    from rentalcomply.core.db import db
    from rentalcomply.imports import service
    from rentalcomply.imports.service import import_export
    from rentalcomply.properties import service as properties
    from rentalcomply.runtime import bootstrap

    folder = Path(tempfile.mkdtemp(prefix="bench-imports-"))
    try:
        env = {"RENTALCOMPLY_QUEUE_URL": "memory://"}
        if os.environ.get("RENTALCOMPLY_DATABASE_URL"):  # --database-url: PostgreSQL
            env["RENTALCOMPLY_DATABASE_URL"] = os.environ["RENTALCOMPLY_DATABASE_URL"]
        settings = load_settings(data_dir=folder, env=env)
        bootstrap(settings)
        a = accounts.create_account("A").id
        b = accounts.create_account("B").id
        properties.create_property(a, name="Villa", address="Oia", max_guests=6)
        content = airbnb_csv(rows)
        waits: list[float] = []
        failures: list[str] = []
        done = threading.Event()

        def other_account() -> None:
            number = 0
            while not done.is_set():
                started = time.perf_counter()
                try:
                    properties.create_property(b, name=f"B {number}", address="Elsewhere")
                except Exception as error:  # "database is locked" after the busy timeout: a 503
                    failures.append(str(error))
                waits.append(time.perf_counter() - started)
                number += 1
                db.close()  # each write on a fresh connection, as a request does
                time.sleep(0.02)

        # Each transaction the import opens itself, timed (both sides take `atomic` into
        # imports.service by name): how long it held the write lock at a time.
        holds: list[float] = []
        opened = service.atomic

        @contextlib.contextmanager
        def timed_atomic():
            started = time.perf_counter()
            with opened():
                yield
            holds.append(time.perf_counter() - started)

        service.atomic = timed_atomic
        writer = threading.Thread(target=other_account)
        writer.start()
        time.sleep(0.2)
        started = time.perf_counter()
        report = import_export(a, content, rates=FeeRates.from_settings(settings))
        seconds = time.perf_counter() - started
        done.set()
        writer.join()
        waits.sort()
        return {"rows": rows, "bytes": len(content), "created": report.totals["created"],
                "import_s": seconds, "writes": len(waits), "failed": len(failures),
                "transactions": len(holds), "longest_hold_s": max(holds), "max_wait_s": waits[-1],
                "p99_wait_s": waits[int(len(waits) * 0.99) - 1] if len(waits) > 1 else waits[-1]}
    finally:
        db.close()
        shutil.rmtree(folder, ignore_errors=True)


def run_side(checkout: Path, rows: int) -> dict:
    env = {**os.environ, "PYTHONPATH": str(checkout)}
    done = subprocess.run([sys.executable, str(Path(__file__).resolve()), "--measure",
                           "--rows", str(rows)], cwd=checkout, env=env, capture_output=True,
                          text=True, check=True)
    return json.loads(done.stdout.strip().splitlines()[-1])


def exported(ref: str) -> Path:
    folder = Path(tempfile.mkdtemp(prefix="bench-imports-baseline-"))
    archive = subprocess.run(["git", "archive", ref], cwd=ROOT, capture_output=True, check=True)
    subprocess.run(["tar", "-x", "-C", str(folder)], input=archive.stdout, check=True)
    return folder


def show(label: str, figures: dict) -> None:
    print(f"{label:10} {figures['rows']:6d} rows ({figures['bytes'] / 1024:.0f} KB), "
          f"{figures['created']} created: import {figures['import_s']:.2f} s; other account's "
          f"{figures['writes']} writes ({figures['failed']} failed): longest wait {figures['max_wait_s'] * 1000:.0f} ms, "
          f"p99 {figures['p99_wait_s'] * 1000:.0f} ms; the import's {figures['transactions']} "
          f"transactions held the lock at most {figures['longest_hold_s'] * 1000:.0f} ms at a time")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--rows", type=int, default=8000)
    parser.add_argument("--baseline", default=None, help="a git ref to measure too")
    parser.add_argument("--database-url", default=None,
                        help="an empty PostgreSQL database to import into (default: SQLite)")
    parser.add_argument("--measure", action="store_true", help=argparse.SUPPRESS)
    options = parser.parse_args()
    if options.database_url:
        os.environ["RENTALCOMPLY_DATABASE_URL"] = options.database_url
    if options.measure:
        print(json.dumps(measure(options.rows)))
        return
    sides = {}
    if options.baseline:
        folder = exported(options.baseline)
        try:
            sides["baseline"] = run_side(folder, options.rows)
        finally:
            shutil.rmtree(folder, ignore_errors=True)
        show("baseline", sides["baseline"])
    sides["current"] = run_side(ROOT, options.rows)
    show("current", sides["current"])
    if "baseline" in sides:
        for name, label in (("import_s", "import time"), ("max_wait_s", "longest wait"),
                            ("longest_hold_s", "longest hold of the write lock"),
                            ("p99_wait_s", "p99 wait")):
            print(f"{label}: current/baseline = "
                  f"{sides['current'][name] / sides['baseline'][name]:.3f}")


if __name__ == "__main__":
    main()
