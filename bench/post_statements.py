"""POST /bookings statement by statement: what a booking's creation asks of the database.

    python bench/post_statements.py [--posts 500]

Seeds a fresh data directory as bench/api_throughput.py does (SQLite, as shipped; 20 properties,
20,000 bookings), then makes POST /bookings calls in this process through the WSGI app (no HTTP:
the request's own work), one at a time, each answered 201. Every statement the request sends is
timed where it leaves Python (the sqlite3 cursor's execute and executemany; BEGIN and COMMIT are
statements too), and named by its verb and table.

Printed: per statement, how many a POST sends and the median time each takes (µs), then the
request's median time and how much of it the statements take; the rest is Python (validation,
the booking's view, JSON, the HMACs of the check-in link). The baseline in the same run is the
cheapest statement there is (`SELECT 1`), timed the same way: the floor of a statement's cost.
"""

from __future__ import annotations

import argparse
import datetime as dt
import json
import os
import re
import shutil
import statistics
import sys
import tempfile
import time
from collections import defaultdict
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from bench.api_throughput import (bench_env, booking_bodies, seed,  # noqa: E402 - after the path
                                  wsgi_call)


class _TimedCursor:
    """A sqlite3 cursor whose execute and executemany record (statement name, seconds)."""

    def __init__(self, cursor, record):
        self._cursor, self._record = cursor, record

    def execute(self, sql, *args):
        return self._timed(self._cursor.execute, sql, *args)

    def executemany(self, sql, *args):
        return self._timed(self._cursor.executemany, sql, *args)

    def _timed(self, method, sql, *args):
        started = time.perf_counter()
        try:
            return method(sql, *args)
        finally:
            self._record(sql, time.perf_counter() - started)

    def __iter__(self):
        return iter(self._cursor)

    def __getattr__(self, name):
        return getattr(self._cursor, name)


def statement_name(sql: str) -> str:
    """The statement's verb and table, its savepoint's name left out."""
    sql = " ".join(sql.split())
    if sql.startswith(("SAVEPOINT", "RELEASE", "ROLLBACK TO")):
        return re.sub(r'"?s[0-9a-f]{32}"?;?', "", sql).strip()
    words = re.match(r'(\w+)\s+(?:.*?\bFROM\s+|INTO\s+|)"?(\w+)"?', sql, re.S | re.I)
    if not words:
        return sql[:40]
    verb = words[1].upper()
    table = re.search(r'\b(?:FROM|INTO|UPDATE)\s+"?(\w+)"?', sql, re.I)
    return f"{verb} {table[1]}" if table else verb


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--posts", type=int, default=500)
    args = parser.parse_args()

    data_dir = Path(tempfile.mkdtemp(prefix="rentalcomply-bench-post-"))
    try:
        key, property_id = seed(data_dir)
        os.environ.update(bench_env(data_dir))
        os.environ["RENTALCOMPLY_LOG_ACCESS"] = "false"
        from rentalcomply.config import load_settings
        from rentalcomply.core.db import db
        from rentalcomply.runtime import bootstrap
        from rentalcomply.web.app import create_app

        settings = load_settings(data_dir=data_dir)
        bootstrap(settings)
        app = create_app(settings)
        bodies = booking_bodies(property_id, dt.date(2070, 1, 1))

        def post() -> None:
            status = wsgi_call(app, key, "POST", "/api/v1/bookings",
                               body=json.dumps(next(bodies)).encode())
            assert status.startswith("201"), status

        for _ in range(50):  # warm: statement caches, the key's record, the first commit's work
            post()

        current: list[tuple[str, float]] = []
        database = db.obj
        plain_cursor = database.cursor

        def record(sql, seconds):
            current.append((statement_name(sql), seconds))

        # Every statement goes through a cursor, BEGIN and COMMIT included (core/db.py runs
        # SQLite in autocommit mode and sends them itself).
        database.cursor = lambda *a, **k: _TimedCursor(plain_cursor(*a, **k), record)
        per_statement: dict[str, list[float]] = defaultdict(list)
        counts: dict[str, list[int]] = defaultdict(list)
        requests, in_statements = [], []
        try:
            for _ in range(args.posts):
                current.clear()
                started = time.perf_counter()
                post()
                requests.append(time.perf_counter() - started)
                in_statements.append(sum(seconds for _, seconds in current))
                seen: dict[str, int] = defaultdict(int)
                for name, seconds in current:
                    per_statement[name].append(seconds)
                    seen[name] += 1
                for name in per_statement:
                    counts[name].append(seen.get(name, 0))
            floor = []
            for _ in range(500):
                current.clear()
                database.execute_sql("SELECT 1")
                floor.append(current[0][1])
        finally:
            database.cursor = plain_cursor
    finally:
        shutil.rmtree(data_dir, ignore_errors=True)

    print(f"POST /bookings in-process, {args.posts} bookings, one at a time (SQLite, 2 cores: "
          f"{os.cpu_count()})")
    print(f"{'statement':38} {'per POST':>8} {'median µs':>10}")
    order = sorted(per_statement, key=lambda name: -statistics.median(per_statement[name])
                   * statistics.mean(counts[name]))
    for name in order:
        print(f"{name:38} {statistics.mean(counts[name]):8.1f} "
              f"{statistics.median(per_statement[name]) * 1e6:10.0f}")
    statements = sum(statistics.mean(counts[name]) for name in per_statement)
    request_ms = statistics.median(requests) * 1000
    statements_ms = statistics.median(in_statements) * 1000
    print(f"statements per POST: {statements:.1f}; baseline, SELECT 1: "
          f"{statistics.median(floor) * 1e6:.0f} µs")
    print(f"request median {request_ms:.3f} ms, of which statements {statements_ms:.3f} ms "
          f"({statements_ms / request_ms:.0%}); Python {request_ms - statements_ms:.3f} ms")


if __name__ == "__main__":
    main()
