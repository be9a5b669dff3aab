"""Throughput and latency of an authenticated GET /bookings against bare Bottle on Waitress.

    python bench/api_throughput.py [--seconds 10] [--connections 16] [--threads 4]

Seeds a fresh data directory (20 properties, 20,000 bookings), starts the real server on a loopback
port (Waitress, the API, the gate, peewee on SQLite; no worker), loads it with wrk asking for a
page of 50 bookings of one property, then does the same against a bare Bottle app on Waitress
returning a small JSON document, and prints both with their ratio. Both run on this machine in the
same session, so the ratio is what to compare between runs, not the absolute figures.

Needs `wrk` (Debian: apt-get install wrk).
"""

from __future__ import annotations

import argparse
import datetime as dt
import os
import random
import re
import shutil
import subprocess
import sys
import tempfile
import time
import urllib.request
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from bench.servers import free_port, start  # noqa: E402 - after the path is set

PROPERTIES = 20
BOOKINGS = 20_000
PAGE = 50




def bench_env(data_dir: Path) -> dict:
    env = dict(os.environ)
    env.update({
        "RENTALCOMPLY_DATA_DIR": str(data_dir),
        # The general limit (100/min) would turn the run into a measurement of 429s.
        "RENTALCOMPLY_RATE_LIMIT_PER_MINUTE": "1000000",
        "RENTALCOMPLY_SERVER_LOG_LEVEL": "warning",
    })
    return env


def seed(data_dir: Path) -> tuple[str, str]:
    """Create the account, a read key, the properties and the bookings. Returns (key, property)."""
    os.environ.update(bench_env(data_dir))
    from rentalcomply.accounts import service as accounts
    from rentalcomply.config import load_settings
    from rentalcomply.core import clock
    from rentalcomply.core.db import db
    from rentalcomply.core.ids import new_id
    from rentalcomply.core.models import Booking, Property
    from rentalcomply.runtime import bootstrap

    settings = load_settings(data_dir=data_dir)
    bootstrap(settings)
    account = accounts.create_account("Benchmark agency")
    _, key = accounts.create_key(account.id, ["read"])
    now = clock.utcnow()
    rng = random.Random(7)
    with db.atomic():
        property_ids = []
        for number in range(PROPERTIES):
            property_ids.append(Property.create(
                id=new_id("prop"), account=account.id, name=f"Flat {number}",
                address=f"Odos {number}, Athens", aade_property_id=f"{10000000 + number}",
                created_at=now, updated_at=now).id)
        rows = []
        start = dt.date(2020, 1, 1)
        per_property = BOOKINGS // PROPERTIES
        for property_id in property_ids:
            day = start
            for _ in range(per_property):
                nights = rng.randint(1, 5)
                rows.append(dict(
                    id=new_id("book"), account=account.id, property=property_id,
                    guest_name=f"Guest {rng.randint(1, 10**6)}", guest_email="guest@example.com",
                    arrival_date=day, departure_date=day + dt.timedelta(days=nights),
                    guest_count=rng.randint(1, 4), channel="airbnb", status="confirmed",
                    total_price_cents=rng.randint(5000, 90000), payment_method="platform",
                    created_at=now, updated_at=now))
                day += dt.timedelta(days=nights)
        for offset in range(0, len(rows), 500):
            Booking.insert_many(rows[offset:offset + 500]).execute()
    db.close()
    return key, property_ids[0]


def serve_bare(port: int, threads: int) -> None:
    import logging

    import bottle
    import waitress

    logging.getLogger("waitress.queue").setLevel(logging.ERROR)
    app = bottle.Bottle()

    @app.get("/hello")
    def hello():
        bottle.response.content_type = "application/json"
        return b'{"data":{"hello":"world"}}'

    waitress.serve(app, host="127.0.0.1", port=port, threads=threads, _quiet=True)


def serve_api(data_dir: Path, port: int, threads: int) -> None:
    import logging

    import waitress

    from rentalcomply.config import load_settings
    from rentalcomply.runtime import bootstrap
    from rentalcomply.web.app import create_app

    logging.getLogger("waitress.queue").setLevel(logging.ERROR)
    settings = load_settings(data_dir=data_dir)
    bootstrap(settings)
    waitress.serve(create_app(settings), host="127.0.0.1", port=port, threads=threads, _quiet=True)




def wrk(url: str, seconds: int, connections: int, headers: list[str]) -> dict:
    command = ["wrk", "--latency", "-t", "2", "-c", str(connections), "-d", f"{seconds}s"]
    for header in headers:
        command += ["-H", header]
    output = subprocess.run(command + [url], capture_output=True, text=True, check=True).stdout
    rps = float(re.search(r"Requests/sec:\s+([\d.]+)", output).group(1))
    non_2xx = re.search(r"Non-2xx or 3xx responses: (\d+)", output)
    latencies = dict(re.findall(r"^\s+(50|99)%\s+([\d.]+\w+)", output, re.M))
    return {"rps": rps, "p50": _ms(latencies["50"]), "p99": _ms(latencies["99"]),
            "errors": int(non_2xx.group(1)) if non_2xx else 0}


def _ms(value: str) -> float:
    number, unit = re.match(r"([\d.]+)(\w+)", value).groups()
    return float(number) * {"us": 0.001, "ms": 1.0, "s": 1000.0}[unit]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--seconds", type=int, default=10)
    parser.add_argument("--connections", type=int, default=16)
    parser.add_argument("--threads", type=int, default=4, help="Waitress threads, both servers")
    parser.add_argument("--serve-bare", type=int, help=argparse.SUPPRESS)
    parser.add_argument("--serve-api", nargs=2, help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.serve_bare:
        return serve_bare(args.serve_bare, args.threads)
    if args.serve_api:
        return serve_api(Path(args.serve_api[0]), int(args.serve_api[1]), args.threads)
    if not shutil.which("wrk"):
        sys.exit("wrk is needed: apt-get install wrk")

    data_dir = Path(tempfile.mkdtemp(prefix="rentalcomply-bench-"))
    try:
        started = time.monotonic()
        key, property_id = seed(data_dir)
        print(f"seeded {BOOKINGS} bookings over {PROPERTIES} properties in "
              f"{time.monotonic() - started:.1f} s")
        env = bench_env(data_dir)

        api_port = free_port()
        server = start([__file__, "--threads", str(args.threads), "--serve-api", str(data_dir), str(api_port)], env, api_port)
        url = f"http://127.0.0.1:{api_port}/api/v1/bookings?property_id={property_id}&limit={PAGE}"
        try:
            request = urllib.request.Request(url, headers={"Authorization": f"Bearer {key}"})
            rows = len(__import__("json").load(urllib.request.urlopen(request))["data"])
            assert rows == PAGE, f"expected {PAGE} bookings per page, got {rows}"
            wrk(url, 2, args.connections, [f"Authorization: Bearer {key}"])  # warm-up
            api = wrk(url, args.seconds, args.connections, [f"Authorization: Bearer {key}"])
        finally:
            server.terminate()
            server.wait()

        bare_port = free_port()
        server = start([__file__, "--threads", str(args.threads), "--serve-bare", str(bare_port)], env, bare_port)
        try:
            bare_url = f"http://127.0.0.1:{bare_port}/hello"
            wrk(bare_url, 2, args.connections, [])
            bare = wrk(bare_url, args.seconds, args.connections, [])
        finally:
            server.terminate()
            server.wait()
    finally:
        shutil.rmtree(data_dir, ignore_errors=True)

    print(f"{'':32} {'req/s':>9} {'p50 ms':>8} {'p99 ms':>8} {'non-2xx':>8}")
    print(f"{'bare Bottle on Waitress':32} {bare['rps']:9.0f} {bare['p50']:8.2f} {bare['p99']:8.2f} {bare['errors']:8d}")
    print(f"{'GET /bookings (50 of 20,000)':32} {api['rps']:9.0f} {api['p50']:8.2f} {api['p99']:8.2f} {api['errors']:8d}")
    print(f"ratio API / bare: throughput {api['rps'] / bare['rps']:.2f}, "
          f"p50 latency {api['p50'] / bare['p50']:.2f}x")
    print(f"({args.connections} connections, {args.threads} Waitress threads, {args.seconds} s each, "
          f"{os.cpu_count()} cores)")


if __name__ == "__main__":
    main()
