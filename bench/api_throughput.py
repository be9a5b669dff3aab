"""Throughput and latency of the API's everyday paths against bare Bottle on Waitress.

    python bench/api_throughput.py [--seconds 10] [--connections 16] [--threads 4] [--posts 5]

Seeds a fresh data directory (20 properties, 20,000 bookings), starts the real server on a loopback
port (Waitress, the API, the gate, peewee on SQLite; no worker), and measures, each beside its
baseline in the same run:

- GET /bookings (a page of 50 of one property), GET /bookings/{id} and GET /properties, loaded
  with wrk, beside a bare Bottle app on Waitress returning a small JSON document;
- POST /bookings one at a time over one keep-alive connection for --posts seconds, beside the bare
  app taking a JSON POST the same way;
- in-process (the WSGI call alone, less noisy on a shared machine): the median time of each.

The ratios are what to compare between runs, not the absolute figures. The API server logs as
`rentalcomply serve` does, an access line per request included (`log.access`): send stderr to a
file (`2> access.log`), as the journal takes it in production, rather than to a terminal.

Needs `wrk` (Debian: apt-get install wrk).
"""

from __future__ import annotations

import argparse
import datetime as dt
import http.client
import io
import json
import os
import random
import re
import shutil
import statistics
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
    _, key = accounts.create_key(account.id, ["read", "write"])
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

    @app.post("/hello")
    def hello_post():
        body = json.loads(bottle.request.body.read())
        bottle.response.status = 201
        bottle.response.content_type = "application/json"
        return json.dumps({"data": body}).encode()

    waitress.serve(app, host="127.0.0.1", port=port, threads=threads, _quiet=True)


def serve_api(data_dir: Path, port: int, threads: int) -> None:
    import logging

    import waitress

    from rentalcomply.config import load_settings
    from rentalcomply.runtime import bootstrap, configure_logging
    from rentalcomply.web.app import create_app

    logging.getLogger("waitress.queue").setLevel(logging.ERROR)
    from rentalcomply.server import settle_start_up

    from rentalcomply.core import wal

    settings = load_settings(data_dir=data_dir)
    # Logging as `rentalcomply serve` sets it up: the access log writes its line per request.
    configure_logging(settings.server.log_level, settings.log.format, settings.log.access)
    bootstrap(settings)
    wal.checkpoints_in_background()  # as `rentalcomply serve` does, before the requests' threads
    app = create_app(settings)
    settle_start_up()  # as `rentalcomply serve` does before its first request
    waitress.serve(app, host="127.0.0.1", port=port, threads=threads, _quiet=True)




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


def post_one_at_a_time(port: int, path: str, headers: dict, bodies, seconds: float) -> dict:
    """POSTs one after the other over one keep-alive connection; each must answer 201."""
    connection = http.client.HTTPConnection("127.0.0.1", port, timeout=30)
    times = []
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        body = json.dumps(next(bodies)).encode()
        started = time.perf_counter()
        connection.request("POST", path, body=body, headers={"Content-Type": "application/json",
                                                             **headers})
        response = connection.getresponse()
        answer = response.read()
        times.append((time.perf_counter() - started) * 1000)
        assert response.status == 201, answer
    connection.close()
    return {"rps": len(times) / sum(t / 1000 for t in times), "p50": statistics.median(times),
            "p99": sorted(times)[int(0.99 * (len(times) - 1))], "errors": 0}


def booking_bodies(property_id: str, first: dt.date):
    day = first
    while True:
        yield {"property_id": property_id, "guest_name": "Bench guest",
               "arrival_date": day.isoformat(),
               "departure_date": (day + dt.timedelta(days=1)).isoformat(), "guest_count": 2}
        day += dt.timedelta(days=1)


def wsgi_call(app, key: str, method: str, path: str, query: str = "", body: bytes = b"") -> str:
    """One request to the WSGI `app` in this process, as the key `key`: its status line."""
    environ = {"REQUEST_METHOD": method, "PATH_INFO": path, "QUERY_STRING": query,
               "SERVER_NAME": "127.0.0.1", "SERVER_PORT": "80", "REMOTE_ADDR": "127.0.0.1",
               "wsgi.url_scheme": "http", "wsgi.input": io.BytesIO(body),
               "CONTENT_LENGTH": str(len(body)), "CONTENT_TYPE": "application/json",
               "HTTP_AUTHORIZATION": f"Bearer {key}", "wsgi.errors": sys.stderr}
    status = []
    b"".join(app(environ, lambda line, headers, exc_info=None: status.append(line)))
    return status[0]


def in_process(data_dir: Path, key: str, property_id: str, booking_id: str) -> dict:
    """Median milliseconds of the WSGI call alone for each path, and of the bare app's."""
    import bottle

    from rentalcomply.config import load_settings
    from rentalcomply.runtime import bootstrap, configure_logging
    from rentalcomply.web.app import create_app

    settings = load_settings(data_dir=data_dir)
    configure_logging(settings.server.log_level, settings.log.format, settings.log.access)
    bootstrap(settings)
    app = create_app(settings)
    bare = bottle.Bottle()
    bare.get("/hello", callback=lambda: b'{"data":{"hello":"world"}}')

    def call(target, method, path, query="", body=b""):
        return wsgi_call(target, key, method, path, query, body)

    def median(function, count):
        function()
        times = []
        for _ in range(count):
            started = time.perf_counter()
            function()
            times.append((time.perf_counter() - started) * 1000)
        return statistics.median(times)

    page_query = f"property_id={property_id}&limit={PAGE}"
    bodies = booking_bodies(property_id, dt.date(2070, 1, 1))  # after every stay seeded or posted
    return {
        "bare": median(lambda: call(bare, "GET", "/hello"), 2000),
        "page": median(lambda: call(app, "GET", "/api/v1/bookings", page_query), 500),
        "one": median(lambda: call(app, "GET", f"/api/v1/bookings/{booking_id}"), 500),
        "post": median(lambda: call(app, "POST", "/api/v1/bookings", "",
                                    json.dumps(next(bodies)).encode()), 200),
    }


def _ms(value: str) -> float:
    number, unit = re.match(r"([\d.]+)(\w+)", value).groups()
    return float(number) * {"us": 0.001, "ms": 1.0, "s": 1000.0}[unit]


def main() -> None:  # noqa: C901 - one measurement after the other
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--seconds", type=int, default=10)
    parser.add_argument("--connections", type=int, default=16)
    parser.add_argument("--threads", type=int, default=4, help="Waitress threads, both servers")
    parser.add_argument("--posts", type=float, default=5, help="seconds of POSTs, each server")
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
        base = f"http://127.0.0.1:{api_port}/api/v1"
        auth = [f"Authorization: Bearer {key}"]
        url = f"{base}/bookings?property_id={property_id}&limit={PAGE}"
        api = {}
        try:
            request = urllib.request.Request(url, headers={"Authorization": f"Bearer {key}"})
            page = json.load(urllib.request.urlopen(request))["data"]
            assert len(page) == PAGE, f"expected {PAGE} bookings per page, got {len(page)}"
            booking_id = page[0]["id"]
            wrk(url, 2, args.connections, auth)  # warm-up
            api["page"] = wrk(url, args.seconds, args.connections, auth)
            api["one"] = wrk(f"{base}/bookings/{booking_id}", args.seconds, args.connections, auth)
            api["props"] = wrk(f"{base}/properties?limit=20", args.seconds, args.connections, auth)
            api["post"] = post_one_at_a_time(api_port, "/api/v1/bookings",
                                             {"Authorization": f"Bearer {key}"},
                                             booking_bodies(property_id, dt.date(2040, 1, 1)),
                                             args.posts)
        finally:
            server.terminate()
            server.wait()

        bare_port = free_port()
        server = start([__file__, "--threads", str(args.threads), "--serve-bare", str(bare_port)], env, bare_port)
        try:
            bare_url = f"http://127.0.0.1:{bare_port}/hello"
            wrk(bare_url, 2, args.connections, [])
            bare = wrk(bare_url, args.seconds, args.connections, [])
            bare_post = post_one_at_a_time(bare_port, "/hello", {},
                                           booking_bodies(property_id, dt.date(2040, 1, 1)),
                                           args.posts)
        finally:
            server.terminate()
            server.wait()
        inproc = in_process(data_dir, key, property_id, booking_id)
    finally:
        shutil.rmtree(data_dir, ignore_errors=True)

    def line(name, figures):
        print(f"{name:36} {figures['rps']:9.0f} {figures['p50']:8.2f} {figures['p99']:8.2f} "
              f"{figures['errors']:8d}")

    print(f"{'':36} {'req/s':>9} {'p50 ms':>8} {'p99 ms':>8} {'non-2xx':>8}")
    line("bare Bottle on Waitress, GET", bare)
    line("GET /bookings (50 of 20,000)", api["page"])
    line("GET /bookings/{id}", api["one"])
    line("GET /properties (20)", api["props"])
    for name in ("page", "one", "props"):
        print(f"  ratio {name:6} / bare: throughput {api[name]['rps'] / bare['rps']:.2f}")
    print(f"POST, one at a time over one keep-alive connection, {args.posts} s each:")
    line("bare Bottle on Waitress, POST", bare_post)
    line("POST /bookings", api["post"])
    print(f"  ratio POST /bookings / bare: {api['post']['rps'] / bare_post['rps']:.2f}")
    print("In-process, the WSGI call alone (median ms):")
    print(f"  bare Bottle GET {inproc['bare']:.3f}   GET /bookings page {inproc['page']:.3f}   "
          f"GET /bookings/{{id}} {inproc['one']:.3f}   POST /bookings {inproc['post']:.3f}")
    print(f"({args.connections} connections, {args.threads} Waitress threads, {args.seconds} s each, "
          f"{os.cpu_count()} cores)")


if __name__ == "__main__":
    main()
