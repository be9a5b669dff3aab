"""The scale-out path measured: the API on PostgreSQL beside SQLite, and webhook deliveries with
two worker processes beside one, on PostgreSQL and Redis.

    python bench/scale_out.py --postgres postgresql://postgres@127.0.0.1:5432/test \
        --redis redis://127.0.0.1:6379/15 [--seconds 6] [--events 2000]

1. API: the same 20,000 bookings seeded into a fresh SQLite file and into a fresh PostgreSQL
   database (created beside the one named, and dropped after), the same server (Waitress, the API,
   no worker) started on each, and the same load: wrk on a page of 50 bookings and on one booking,
   then POST /bookings one at a time over one keep-alive connection. SQLite is the baseline.
2. Webhooks: one fresh PostgreSQL database, a Redis database (emptied), a fast receiver in its own
   process; 2,000 events written into the outbox at once and the dispatcher woken, delivered by
   one `rentalcomply worker` process, then by two. One worker is the baseline.

Needs wrk (Debian: apt-get install wrk), psycopg2 and redis (pip install -e '.[postgres,redis]').
The ratios are what to compare between runs; the absolute figures depend on the machine.
"""

from __future__ import annotations

import argparse
import contextlib
import datetime as dt
import json
import os
import secrets
import shutil
import subprocess
import sys
import tempfile
import time
import urllib.parse
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from bench import api_throughput, webhooks  # noqa: E402 - after the path is set
from bench.servers import free_port, start  # noqa: E402


@contextlib.contextmanager
def scratch_database(url: str):
    """A new PostgreSQL database on the server of `url`, dropped at the end; its URL."""
    import psycopg2
    name = "rentalcomply_bench_" + secrets.token_hex(4)
    admin = psycopg2.connect(url)
    admin.autocommit = True
    admin.cursor().execute(f"CREATE DATABASE {name}")
    try:
        yield urllib.parse.urlunsplit(urllib.parse.urlsplit(url)._replace(path="/" + name))
    finally:
        admin.cursor().execute(f"DROP DATABASE {name} WITH (FORCE)")
        admin.close()


def run_json(args: list[str], env: dict) -> dict:
    """`python bench/scale_out.py ARGS` in its own process (each seed opens its own database)."""
    output = subprocess.run([sys.executable, __file__, *args], env=env, cwd=ROOT,
                            capture_output=True, text=True, check=True).stdout
    return json.loads(output.strip().splitlines()[-1])


# -- 1. the API on each engine ----------------------------------------------------------------------

def measure_api(database_url: str | None, seconds: int, connections: int) -> dict:
    data_dir = Path(tempfile.mkdtemp(prefix="rentalcomply-bench-"))
    try:
        env = api_throughput.bench_env(data_dir)
        env.pop("RENTALCOMPLY_DATABASE_URL", None)
        if database_url:
            env["RENTALCOMPLY_DATABASE_URL"] = database_url
        seeded = run_json(["--seed-api", str(data_dir)], env)
        key, property_id = seeded["key"], seeded["property_id"]
        port = free_port()
        server = start([api_throughput.__file__, "--threads", "4", "--serve-api", str(data_dir),
                        str(port)], env, port)
        try:
            base = f"http://127.0.0.1:{port}/api/v1"
            auth = [f"Authorization: Bearer {key}"]
            page_url = f"{base}/bookings?property_id={property_id}&limit={api_throughput.PAGE}"
            api_throughput.wrk(page_url, 2, connections, auth)  # warm-up
            page = api_throughput.wrk(page_url, seconds, connections, auth)
            status, body = webhooks.call(base.removesuffix("/api/v1"), key, "GET",
                                         f"/api/v1/bookings?property_id={property_id}&limit=1")
            one = api_throughput.wrk(f"{base}/bookings/{body['data'][0]['id']}", seconds,
                                     connections, auth)
            post = api_throughput.post_one_at_a_time(
                port, "/api/v1/bookings", {"Authorization": f"Bearer {key}"},
                api_throughput.booking_bodies(property_id, dt.date(2040, 1, 1)), seconds)
        finally:
            server.terminate()
            server.wait()
        return {"page": page, "one": one, "post": post}
    finally:
        shutil.rmtree(data_dir, ignore_errors=True)


# -- 2. deliveries with one and two workers ---------------------------------------------------------

def measure_deliveries(database_url: str, redis_url: str, events: int) -> dict:
    import redis

    work = Path(tempfile.mkdtemp(prefix="rentalcomply-bench-"))
    processes: list[subprocess.Popen] = []
    try:
        env = webhooks.bench_env(work / "seed", workers=2)
        env.update({"RENTALCOMPLY_DATABASE_URL": database_url, "RENTALCOMPLY_QUEUE_URL": redis_url,
                    "RENTALCOMPLY_SERVER_SECRET_KEY": "bench-" + secrets.token_hex(16),
                    # Two worker processes, two threads each: up to four deliveries at once.
                    "RENTALCOMPLY_WEBHOOKS_MAX_DELIVERIES_PER_HOST": "4"})
        log_path = work / "arrivals.log"
        receiver_port = free_port()
        processes.append(start([webhooks.__file__, "--receive", str(receiver_port), str(log_path)],
                               env, receiver_port))
        seeded = run_json(["--seed-webhooks", str(work / "seed"),
                           f"http://127.0.0.1:{receiver_port}/hook"], env)
        figures = {}
        for count in (1, 2):
            redis.Redis.from_url(redis_url).flushdb()
            workers = [subprocess.Popen(
                [sys.executable, "-m", "rentalcomply", "--data-dir", str(work / f"w{count}{n}"),
                 "worker"], env=env, cwd=ROOT, stdout=subprocess.PIPE, text=True)
                for n in range(count)]
            processes += workers
            for worker in workers:
                for line in worker.stdout:
                    if "worker running" in line:
                        break
            already = len(webhooks.arrivals(log_path))
            burst = run_json(["--burst", str(work / "seed"), seeded["account_id"], str(events)], env)
            rows = webhooks.wait_for(log_path, already + events, timeout=600)[already:]
            last = max(row[0] for row in rows)
            figures[count] = events / (last - burst["committed"])
            for worker in workers:
                worker.terminate()
                worker.wait(timeout=30)
        return figures
    finally:
        for process in processes:
            if process.poll() is None:
                process.kill()
        shutil.rmtree(work, ignore_errors=True)


# -- the steps each run in their own process ------------------------------------------------------

def seed_webhooks(data_dir: Path, url: str) -> dict:
    account_id, _ = webhooks.seed(data_dir, dict(os.environ, RENTALCOMPLY_DATA_DIR=str(data_dir)))
    from rentalcomply.config import load_settings
    from rentalcomply.core.db import db
    from rentalcomply.runtime import bootstrap
    from rentalcomply.webhooks import service
    bootstrap(load_settings(data_dir=data_dir))
    service.create_endpoint(account_id, url, ["*"], allow_http=True, allow_private=True)
    db.close()
    return {"account_id": account_id}


def burst(data_dir: Path, account_id: str, count: int) -> dict:
    from rentalcomply.config import load_settings
    from rentalcomply.core import events
    from rentalcomply.core.db import db
    from rentalcomply.runtime import bootstrap
    bootstrap(load_settings(data_dir=data_dir))
    with db.atomic():
        for number in range(count):
            events.emit(account_id, "booking.updated", {"id": f"book_burst{number}",
                                                        "guest_count": 2})
    committed = time.time()
    events.notify_committed()
    db.close()
    return {"committed": committed}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--postgres", default="postgresql://postgres@127.0.0.1:5432/test")
    parser.add_argument("--redis", default="redis://127.0.0.1:6379/15")
    parser.add_argument("--seconds", type=int, default=6)
    parser.add_argument("--connections", type=int, default=16)
    parser.add_argument("--events", type=int, default=2000)
    parser.add_argument("--seed-api", help=argparse.SUPPRESS)
    parser.add_argument("--seed-webhooks", nargs=2, help=argparse.SUPPRESS)
    parser.add_argument("--burst", nargs=3, help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.seed_api:
        key, property_id = api_throughput.seed(Path(args.seed_api))
        return print(json.dumps({"key": key, "property_id": property_id}))
    if args.seed_webhooks:
        return print(json.dumps(seed_webhooks(Path(args.seed_webhooks[0]), args.seed_webhooks[1])))
    if args.burst:
        return print(json.dumps(burst(Path(args.burst[0]), args.burst[1], int(args.burst[2]))))
    if not shutil.which("wrk"):
        sys.exit("wrk is needed: apt-get install wrk")

    sqlite = measure_api(None, args.seconds, args.connections)
    with scratch_database(args.postgres) as url:
        postgres = measure_api(url, args.seconds, args.connections)
    print(f"API, {api_throughput.BOOKINGS:,} bookings, {args.seconds} s each "
          f"({args.connections} connections, 4 Waitress threads, {os.cpu_count()} cores):")
    print(f"{'':28} {'SQLite req/s':>13} {'PostgreSQL req/s':>17} {'ratio':>7} "
          f"{'p50 ms SQLite/PG':>18}")
    for name, label in (("page", "GET /bookings (50)"), ("one", "GET /bookings/{id}"),
                        ("post", "POST /bookings, one by one")):
        a, b = sqlite[name], postgres[name]
        print(f"{label:28} {a['rps']:13.0f} {b['rps']:17.0f} {b['rps'] / a['rps']:7.2f} "
              f"{a['p50']:8.2f} / {b['p50']:.2f}")

    with scratch_database(args.postgres) as url:
        delivered = measure_deliveries(url, args.redis, args.events)
    print(f"Webhooks on PostgreSQL and Redis, {args.events} events at once, 2 threads a worker:")
    print(f"  1 worker:  {delivered[1]:7.0f} deliveries/s")
    print(f"  2 workers: {delivered[2]:7.0f} deliveries/s   ratio {delivered[2] / delivered[1]:.2f}")


if __name__ == "__main__":
    main()
