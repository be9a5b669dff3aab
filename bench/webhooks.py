"""Webhook delivery: events delivered per second, and POST /bookings -> delivery latency.

    python bench/webhooks.py [--events 2000] [--bookings 300] [--workers 2]

Starts the real server (`python -m rentalcomply serve`: Waitress, the API and the embedded Huey
consumer on its SQLite queue, as shipped) on a loopback port, and a fast receiver in another
process that answers 200 at once and writes down when each delivery arrived. Then:

1. Latency: POST /bookings one at a time, a little apart, and time each from the moment the
   request is sent to the moment the signed `booking.created` delivery reaches the receiver.
   Printed beside the POST's own response time, so the queue's share is visible.
2. Throughput: write --events events into the outbox at once (one transaction, as a burst of
   writes would leave them), wake the dispatcher, and time until the last delivery arrives.
   Printed beside a baseline, measured before the burst and after it and averaged: the same
   receiver hammered with the same HTTP client
   (rentalcomply.core.netguard.fetch, signatures included) from as many threads as the consumer
   has workers, without the queue or the database. The ratio is what to compare between runs.
"""

from __future__ import annotations

import argparse
import datetime as dt
import http.server
import json
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import threading
import time
import urllib.request
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from bench.servers import free_port, start  # noqa: E402 - after the path is set




# -- the receiver (its own process) ---------------------------------------------------------------

def receive(port: int, log_path: str) -> None:
    log = open(log_path, "a", buffering=1)
    lock = threading.Lock()

    class Handler(http.server.BaseHTTPRequestHandler):
        protocol_version = "HTTP/1.1"

        def do_POST(self):
            body = self.rfile.read(int(self.headers.get("Content-Length") or 0))
            arrived = time.time()
            self.send_response(200)
            self.send_header("Content-Length", "0")
            self.end_headers()
            try:
                event = json.loads(body)
                booking = (event.get("data") or {}).get("id", "")
                line = f"{arrived:.6f} {event['id']} {booking}\n"
            except (ValueError, KeyError):
                line = f"{arrived:.6f} - -\n"
            with lock:
                log.write(line)

        def log_message(self, *args):
            pass

    server = http.server.ThreadingHTTPServer(("127.0.0.1", port), Handler)
    server.daemon_threads = True
    server.request_queue_size = 256
    server.serve_forever()


def arrivals(log_path: Path) -> list[tuple[float, str, str]]:
    if not log_path.exists():
        return []
    rows = []
    for line in log_path.read_text().splitlines():
        parts = line.split(" ")
        if len(parts) == 3:
            rows.append((float(parts[0]), parts[1], parts[2]))
    return rows


# -- set-up ---------------------------------------------------------------------------------------

def bench_env(data_dir: Path, workers: int) -> dict:
    env = dict(os.environ)
    env.update({
        "RENTALCOMPLY_DATA_DIR": str(data_dir),
        "RENTALCOMPLY_RATE_LIMIT_PER_MINUTE": "1000000",
        "RENTALCOMPLY_SERVER_LOG_LEVEL": "warning",
        "RENTALCOMPLY_WEBHOOKS_ALLOW_HTTP": "true",
        "RENTALCOMPLY_WEBHOOKS_ALLOW_PRIVATE_ADDRESSES": "true",
        "RENTALCOMPLY_QUEUE_WORKERS": str(workers),
        # One receiver host: as many deliveries to it at once as there are workers.
        "RENTALCOMPLY_WEBHOOKS_MAX_DELIVERIES_PER_HOST": str(workers),
        "PYTHONUNBUFFERED": "1",
    })
    return env


def seed(data_dir: Path, env: dict) -> tuple[str, str]:
    """The account and a key with every scope, made before the server starts."""
    os.environ.update(env)
    from rentalcomply.accounts import service as accounts
    from rentalcomply.config import load_settings
    from rentalcomply.core.db import db
    from rentalcomply.runtime import bootstrap

    bootstrap(load_settings(data_dir=data_dir))
    account = accounts.create_account("Benchmark agency")
    _, key = accounts.create_key(account.id, ["read", "write", "webhooks"])
    db.close()
    return account.id, key


def call(base: str, key: str, method: str, path: str, body: dict | None = None) -> tuple[int, dict]:
    request = urllib.request.Request(
        base + path, method=method, data=json.dumps(body).encode() if body is not None else None,
        headers={"Authorization": f"Bearer {key}", "Content-Type": "application/json"})
    with urllib.request.urlopen(request, timeout=30) as response:
        return response.status, json.loads(response.read() or b"null")




def wait_for(log_path: Path, count: int, timeout: float) -> list[tuple[float, str, str]]:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        rows = arrivals(log_path)
        if len(rows) >= count:
            return rows
        time.sleep(0.05)
    raise RuntimeError(f"only {len(arrivals(log_path))} of {count} deliveries within {timeout} s")


def percentile(values: list[float], share: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(round(share * (len(ordered) - 1))))]


# -- the measurements -----------------------------------------------------------------------------

def measure_latency(base: str, key: str, log_path: Path, count: int, pause: float) -> dict:
    _, prop = call(base, key, "POST", "/api/v1/properties",
                   {"name": "Bench villa", "address": "Oia", "aade_property_id": "00012345678"})
    property_id = prop["data"]["id"]
    first_day = dt.date(2031, 1, 1)
    sent: dict[str, float] = {}
    answered: list[float] = []
    for number in range(count):
        arrival = first_day + dt.timedelta(days=2 * number)
        started = time.time()
        status, body = call(base, key, "POST", "/api/v1/bookings", {
            "property_id": property_id, "guest_name": f"Guest {number}",
            "arrival_date": arrival.isoformat(),
            "departure_date": (arrival + dt.timedelta(days=1)).isoformat(), "guest_count": 2})
        answered.append((time.time() - started) * 1000)
        assert status == 201, body
        sent[body["data"]["id"]] = started
        time.sleep(pause)
    rows = wait_for(log_path, count, timeout=60)
    latencies = [(at - sent[booking]) * 1000 for at, _, booking in rows if booking in sent]
    assert len(latencies) == count, f"{len(latencies)} of {count} bookings delivered"
    return {"p50": statistics.median(latencies), "p99": percentile(latencies, 0.99),
            "max": max(latencies), "post_p50": statistics.median(answered),
            "post_p99": percentile(answered, 0.99)}


def measure_throughput(data_dir: Path, account_id: str, log_path: Path, count: int) -> dict:
    """Events written straight into the outbox by this process (the server's database, WAL mode),
    then the dispatcher woken through the shared queue, as a write in the server would."""
    from rentalcomply.core import events
    from rentalcomply.core.db import db

    already = len(arrivals(log_path))
    with db.atomic():
        for number in range(count):
            events.emit(account_id, "booking.updated", {"id": f"book_burst{number}", "guest_count": 2})
    committed = time.time()
    events.notify_committed()
    rows = wait_for(log_path, already + count, timeout=600)[already:]
    db.close()
    first, last = min(r[0] for r in rows), max(r[0] for r in rows)
    return {"per_second": count / (last - committed), "first_ms": (first - committed) * 1000,
            "seconds": last - committed}


def measure_baseline(url: str, secret: str, count: int, threads: int) -> float:
    """The receiver's own pace: signed POSTs from `threads` threads, no queue, no database."""
    from rentalcomply.core import netguard
    from rentalcomply.webhooks.signing import signature_headers

    def send(share: int):
        for number in range(share):
            stamp = int(time.time())
            body = json.dumps({"id": f"evt_base{number}", "type": "webhook.test",
                               "timestamp": stamp, "data": {}}).encode()
            headers = {"Content-Type": "application/json",
                       **signature_headers(body, f"evt_base{number}", stamp, [secret])}
            netguard.fetch(url, method="POST", body=body, headers=headers, timeout=10,
                           allow_private=True, max_bytes=500, truncate=True)

    workers = [threading.Thread(target=send, args=(count // threads,)) for _ in range(threads)]
    started = time.time()
    for worker in workers:
        worker.start()
    for worker in workers:
        worker.join()
    return (count // threads * threads) / (time.time() - started)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--events", type=int, default=2000, help="events in the throughput burst")
    parser.add_argument("--bookings", type=int, default=300, help="bookings timed for latency")
    parser.add_argument("--pause", type=float, default=0.02, help="seconds between bookings")
    parser.add_argument("--workers", type=int, default=2, help="consumer threads (queue.workers)")
    parser.add_argument("--receive", nargs=2, help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.receive:
        return receive(int(args.receive[0]), args.receive[1])

    data_dir = Path(tempfile.mkdtemp(prefix="rentalcomply-bench-hooks-"))
    processes = []
    try:
        env = bench_env(data_dir, args.workers)
        account_id, key = seed(data_dir, env)
        receiver_port, api_port = free_port(), free_port()
        log_path = data_dir / "arrivals.log"
        processes.append(start([__file__, "--receive", str(receiver_port), str(log_path)], env,
                               receiver_port))
        processes.append(start(["-m", "rentalcomply", "serve", "--port", str(api_port)], env,
                               api_port))
        base = f"http://127.0.0.1:{api_port}"
        receiver_url = f"http://127.0.0.1:{receiver_port}/hook"
        _, hook = call(base, key, "POST", "/api/v1/webhooks", {"url": receiver_url, "events": ["*"]})
        secret = hook["data"]["secret"]

        latency = measure_latency(base, key, log_path, args.bookings, args.pause)
        # The receiver's pace is measured on either side of the burst and averaged: on a shared
        # machine one short measurement swung by half from run to run, and the ratio with it.
        before = measure_baseline(receiver_url, secret, args.events, args.workers)
        burst = measure_throughput(data_dir, account_id, log_path, args.events)
        _, log = call(base, key, "GET", f"/api/v1/webhooks/{hook['data']['id']}/deliveries?limit=1")
        assert log["data"][0]["status"] == "succeeded", log
        after = measure_baseline(receiver_url, secret, args.events, args.workers)
        baseline = (before + after) / 2
    finally:
        for process in reversed(processes):
            process.terminate()
            try:
                process.wait(timeout=20)
            except subprocess.TimeoutExpired:
                process.kill()
        shutil.rmtree(data_dir, ignore_errors=True)

    print(f"POST /bookings -> delivery arrived ({args.bookings} bookings, one at a time):")
    print(f"  p50 {latency['p50']:.1f} ms   p99 {latency['p99']:.1f} ms   max {latency['max']:.1f} ms"
          f"   (the POST itself: p50 {latency['post_p50']:.1f} ms, p99 {latency['post_p99']:.1f} ms)")
    print(f"Outbox burst of {args.events} events -> all delivered in {burst['seconds']:.2f} s:")
    print(f"  {burst['per_second']:.0f} events/s delivered   first after {burst['first_ms']:.0f} ms")
    print(f"Baseline, signed POSTs straight to the receiver from {args.workers} threads: "
          f"{baseline:.0f} requests/s (before the burst {before:.0f}, after it {after:.0f})")
    print(f"ratio delivered / baseline: {burst['per_second'] / baseline:.2f}")
    print(f"({args.workers} consumer threads, SQLite queue and database, {os.cpu_count()} cores)")


if __name__ == "__main__":
    main()
