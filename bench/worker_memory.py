"""A worker's memory over a long run of load: flat after its first minutes, or growing.

    python bench/worker_memory.py --postgres postgresql://postgres@127.0.0.1:5432/test \
        --redis redis://127.0.0.1:6379/7 [--minutes 60] [--rate 2] [--trace]

The scale-out set-up the soak ran (PostgreSQL + Redis): a fresh PostgreSQL database (created beside
the one named, dropped after), the real server without its worker (`rentalcomply serve
--no-worker`), one `rentalcomply worker` process, and a loopback receiver answering 200 to every
webhook. An account with an Italian property on the `file` connector (each completed check-in is a
police file built by the worker's urgent queue) and a webhook endpoint subscribed to every event
(each write is deliveries on the general queue). The load, `--rate` stays a second, as a channel
and an agency's app would send them: POST /bookings, PUT its guests (a party of two), PATCH it;
every fifth cancelled. The periodic tasks run as they do in production, each minute.

Every `--sample` seconds the worker's RSS (/proc) is printed beside the baseline measured in this
same run: its RSS once the first `--warm-up` minutes have passed (imports, connection pools,
caches and huey's threads all started). The figure to compare between runs is the ratio; growth
is also given per 10 minutes over the second half of the run, where a plateau shows ~0.

`--outages M` runs the queue on a Redis server of the bench's own (redis-server on a free port)
and stops it for 20 seconds every M minutes, as the soak that saw a worker grow did (Redis
stopped twice): the worker's outage handling under the same load.

`--trace` runs the worker under tracemalloc and writes, every 5 minutes, the 15 allocation sites
that grew most since the warm-up's snapshot to trace.txt in the work folder (printed at the end).
The Redis database named must be empty (its queues are the bench's own); it is emptied after.
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
import threading
import time
import urllib.error
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from bench import webhooks  # noqa: E402 - after the path is set
from bench.scale_out import scratch_database  # noqa: E402
from bench.servers import free_port, start  # noqa: E402


def run_json(args: list[str], env: dict) -> dict:
    """`python bench/worker_memory.py ARGS` in its own process: its last line, as JSON."""
    output = subprocess.run([sys.executable, __file__, *args], env=env, cwd=ROOT,
                            capture_output=True, text=True, check=True).stdout
    return json.loads(output.strip().splitlines()[-1])


class PrivateRedis:
    """A redis-server of the bench's own on a free port, to stop and start again (an outage)."""

    def __init__(self):
        self.port = free_port()
        self.url = f"redis://127.0.0.1:{self.port}/0"
        self.process: subprocess.Popen | None = None

    def start(self) -> None:
        import redis
        self.process = subprocess.Popen(
            [shutil.which("redis-server") or "redis-server", "--port", str(self.port), "--bind",
             "127.0.0.1", "--save", "", "--appendonly", "no"],
            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        deadline = time.monotonic() + 10
        while time.monotonic() < deadline:
            try:
                redis.Redis.from_url(self.url, socket_connect_timeout=0.2).ping()
                return
            except redis.RedisError:
                time.sleep(0.05)
        raise RuntimeError("redis-server did not start")

    def stop(self) -> None:
        if self.process is not None and self.process.poll() is None:
            self.process.kill()
            self.process.wait(timeout=10)


def outages(server: PrivateRedis, every: float, stop: threading.Event, counts: dict) -> None:
    while not stop.wait(every * 60):
        server.stop()
        counts["outages"] += 1
        if stop.wait(20):
            break
        server.start()


def rss_mb(pid: int) -> float:
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1]) / 1024
    raise RuntimeError(f"no VmRSS for {pid}")


def italian_party() -> list[dict]:
    """A lead guest and a family member (no document), as the guest page's tests send them."""
    return [
        {"first_name": "Giulia", "last_name": "Bianchi", "sex": "F", "birth_date": "1979-03-12",
         "birth_country": "IT", "birth_municipality": "Roma", "birth_province": "RM",
         "nationality": "IT", "relationship": "head_of_family", "document_type": "passport",
         "document_number": "YA1234567", "document_country": "IT",
         "document_issue_place": "Roma", "phone": "+39 333 123 4567",
         "residence_country": "IT", "residence_comune": "Roma", "residence_province": "RM"},
        {"first_name": "Marco", "last_name": "Bianchi", "sex": "M", "birth_date": "1978-07-30",
         "birth_country": "DE", "nationality": "IT", "relationship": "family_member",
         "residence_country": "DE", "residence_place": "Berlin"},
    ]


# -- the steps run in their own process -----------------------------------------------------------

def seed(data_dir: Path, hook_url: str) -> dict:
    account_id, key = webhooks.seed(data_dir, dict(os.environ, RENTALCOMPLY_DATA_DIR=str(data_dir)))
    from rentalcomply.config import load_settings
    from rentalcomply.core.db import db
    from rentalcomply.properties import service as properties
    from rentalcomply.runtime import bootstrap
    from rentalcomply.webhooks import service
    bootstrap(load_settings(data_dir=data_dir))
    service.create_endpoint(account_id, hook_url, ["*"], allow_http=True, allow_private=True)
    prop = properties.create_property(account_id, name="Casa Limone", address="Via Roma 1",
                                      country="IT", max_guests=6, police_connector="file")
    db.close()
    return {"key": key, "property_id": prop.id}


def traced_worker(data_dir: str, report: str) -> None:
    """`rentalcomply worker` under tracemalloc, writing the allocation sites that grew."""
    import tracemalloc
    tracemalloc.start(10)

    def watch():
        time.sleep(WARM_UP_SECONDS)
        first = tracemalloc.take_snapshot()
        while True:
            time.sleep(300)
            now = tracemalloc.take_snapshot()
            top = now.compare_to(first, "traceback")[:15]
            lines = [f"--- {dt.datetime.now(dt.timezone.utc):%H:%M:%S} UTC, traced "
                     f"{tracemalloc.get_traced_memory()[0] / 1e6:.1f} MB"]
            for stat in top:
                lines.append(f"{stat.size_diff / 1024:+9.0f} kB {stat.count_diff:+7d} blocks")
                lines.extend("      " + line for line in stat.traceback.format()[-6:])
            with open(report, "a") as out:
                out.write("\n".join(lines) + "\n")

    threading.Thread(target=watch, daemon=True).start()
    from rentalcomply.cli import main
    main(["--data-dir", data_dir, "worker"])


WARM_UP_SECONDS = 180


# -- the load -------------------------------------------------------------------------------------

def load(base: str, key: str, property_id: str, rate: float, stop: threading.Event,
         counts: dict) -> None:
    first = dt.date.today() + dt.timedelta(days=30)
    number = 0
    while not stop.is_set():
        started = time.monotonic()
        # Stays never overlap on a property, within two years ahead (later arrivals are refused:
        # a first run's load stopped at its 55th minute): a new property every 140 stays.
        if number and number % 140 == 0:
            try:
                _, made = webhooks.call(base, key, "POST", "/api/v1/properties", {
                    "name": f"Casa {number}", "address": "Via Roma 1", "country": "IT",
                    "max_guests": 6, "police_connector": "file"})
                property_id = made["data"]["id"]
            except (urllib.error.URLError, OSError, KeyError) as exc:
                counts["errors"] += 1
                counts["last_error"] = str(exc)
        arrival = first + dt.timedelta(days=5 * (number % 140))
        try:
            _, body = webhooks.call(base, key, "POST", "/api/v1/bookings", {
                "property_id": property_id, "guest_name": "Giulia Bianchi",
                "guest_email": f"guest{number}@example.com", "guest_count": 2,
                "arrival_date": arrival.isoformat(),
                "departure_date": (arrival + dt.timedelta(days=3)).isoformat()})
            booking = body["data"]["id"]
            webhooks.call(base, key, "PUT", f"/api/v1/bookings/{booking}/guests",
                          {"guests": italian_party()})
            webhooks.call(base, key, "PATCH", f"/api/v1/bookings/{booking}",
                          {"guest_phone": "+39 333 765 4321"})
            if number % 5 == 0:
                webhooks.call(base, key, "POST", f"/api/v1/bookings/{booking}/cancel")
            counts["stays"] += 1
        except (urllib.error.URLError, OSError, KeyError) as exc:
            counts["errors"] += 1
            counts["last_error"] = str(exc)
        number += 1
        stop.wait(max(0.0, 1 / rate - (time.monotonic() - started)))


def main() -> None:  # noqa: C901 - one run, in order
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--postgres", default="postgresql://postgres@127.0.0.1:5432/test")
    parser.add_argument("--redis", default="redis://127.0.0.1:6379/7")
    parser.add_argument("--minutes", type=float, default=60)
    parser.add_argument("--rate", type=float, default=2, help="stays a second (default 2)")
    parser.add_argument("--sample", type=float, default=30, help="seconds between samples")
    parser.add_argument("--warm-up", type=float, default=3, help="minutes before the baseline")
    parser.add_argument("--trace", action="store_true")
    parser.add_argument("--outages", type=float, default=0,
                        help="minutes between 20-second stops of a Redis of the bench's own")
    parser.add_argument("--seed", nargs=2, help=argparse.SUPPRESS)
    parser.add_argument("--traced-worker", nargs=2, help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.seed:
        return print(json.dumps(seed(Path(args.seed[0]), args.seed[1])))
    if args.traced_worker:
        global WARM_UP_SECONDS
        WARM_UP_SECONDS = int(os.environ.get("BENCH_WARM_UP_SECONDS", WARM_UP_SECONDS))
        return traced_worker(*args.traced_worker)

    import redis
    private = None
    if args.outages:
        private = PrivateRedis()
        private.start()
        args.redis = private.url
    queue = redis.Redis.from_url(args.redis)
    if queue.dbsize():
        sys.exit(f"{args.redis} is not empty: name an unused Redis database")
    work = Path(tempfile.mkdtemp(prefix="rentalcomply-bench-"))
    processes: list[subprocess.Popen] = []
    stop = threading.Event()
    try:
        with scratch_database(args.postgres) as url, contextlib.ExitStack() as stack:
            if private is None:
                stack.callback(queue.flushdb)
            else:
                stack.callback(private.stop)
            # Stopped before the database is dropped (the ExitStack unwinds first).
            stack.callback(stop_all, processes)
            # The server's and the worker's logs, out of the table's way.
            logs = stack.enter_context(open(work / "logs.txt", "w"))
            env = webhooks.bench_env(work / "web", workers=2)
            env.update({"RENTALCOMPLY_DATABASE_URL": url, "RENTALCOMPLY_QUEUE_URL": args.redis,
                        "RENTALCOMPLY_SERVER_SECRET_KEY": "bench-" + secrets.token_hex(16),
                        "PYTHONPATH": str(ROOT),  # this checkout, whatever is installed
                        "BENCH_WARM_UP_SECONDS": str(int(args.warm_up * 60))})
            receiver_port = free_port()
            processes.append(start([webhooks.__file__, "--receive", str(receiver_port),
                                    str(work / "arrivals.log")], env, receiver_port))
            seeded = run_json(["--seed", str(work / "web"),
                               f"http://127.0.0.1:{receiver_port}/hook"], env)
            port = free_port()
            processes.append(start(["-m", "rentalcomply", "serve", "--no-worker", "--port",
                                    str(port)], env, port, stderr=logs))
            worker_args = (["bench/worker_memory.py", "--traced-worker", str(work / "worker"),
                            str(work / "trace.txt")] if args.trace
                           else ["-m", "rentalcomply", "--data-dir", str(work / "worker"),
                                 "worker"])
            worker = subprocess.Popen([sys.executable, *worker_args], env=env, cwd=ROOT,
                                      stdout=subprocess.PIPE, stderr=logs, text=True)
            processes.append(worker)
            for line in worker.stdout:
                if "worker running" in line:
                    break
            threading.Thread(target=lambda: [None for _ in worker.stdout], daemon=True).start()
            counts = {"stays": 0, "errors": 0, "outages": 0}
            if private is not None:
                threading.Thread(target=outages, daemon=True,
                                 args=(private, args.outages, stop, counts)).start()
            threading.Thread(target=load, daemon=True, args=(
                f"http://127.0.0.1:{port}", seeded["key"], seeded["property_id"], args.rate,
                stop, counts)).start()

            began = time.monotonic()
            samples: list[tuple[float, float]] = []
            baseline = None
            print(f"worker {worker.pid}: {args.rate} stays/s for {args.minutes} min, "
                  f"baseline at {args.warm_up} min", flush=True)
            print(f"{'min':>6} {'RSS MB':>8} {'ratio':>7} {'stays':>7} {'deliveries':>11} "
                  f"{'errors':>7} {'outages':>8}", flush=True)
            while time.monotonic() - began < args.minutes * 60:
                time.sleep(args.sample)
                if worker.poll() is not None:
                    sys.exit(f"the worker stopped (exit {worker.returncode})")
                minutes = (time.monotonic() - began) / 60
                rss = rss_mb(worker.pid)
                samples.append((minutes, rss))
                if baseline is None and minutes >= args.warm_up:
                    baseline = rss
                ratio = f"{rss / baseline:7.3f}" if baseline else f"{'-':>7}"
                print(f"{minutes:6.1f} {rss:8.1f} {ratio} {counts['stays']:7d} "
                      f"{len(webhooks.arrivals(work / 'arrivals.log')):11d} "
                      f"{counts['errors']:7d} {counts['outages']:8d}", flush=True)
            stop.set()
            report(samples, baseline, args, counts, work)
    finally:
        stop.set()
        stop_all(processes)
        shutil.rmtree(work, ignore_errors=True)


def stop_all(processes: list[subprocess.Popen]) -> None:
    for process in reversed(processes):
        if process.poll() is None:
            process.terminate()
            try:
                process.wait(timeout=30)
            except subprocess.TimeoutExpired:
                process.kill()


def report(samples, baseline, args, counts, work: Path) -> None:
    if not baseline:
        return print("the run ended before its baseline")
    later = [(m, r) for m, r in samples if m >= args.warm_up]
    half = [(m, r) for m, r in later if m >= later[-1][0] / 2] or later
    # Least squares over the second half: MB per 10 minutes.
    mean_m = sum(m for m, _ in half) / len(half)
    mean_r = sum(r for _, r in half) / len(half)
    spread = sum((m - mean_m) ** 2 for m, _ in half) or 1
    slope = sum((m - mean_m) * (r - mean_r) for m, r in half) / spread * 10
    print(f"worker RSS: {samples[0][1]:.1f} MB at {samples[0][0]:.1f} min, baseline "
          f"{baseline:.1f} MB at {args.warm_up} min, {later[-1][1]:.1f} MB at {later[-1][0]:.1f} "
          f"min (ratio {later[-1][1] / baseline:.3f}), peak {max(r for _, r in later):.1f} MB")
    last_error = f" (last: {counts.get('last_error')})" if counts["errors"] else ""
    print(f"growth over the second half: {slope:+.2f} MB per 10 min "
          f"({slope / baseline * 100:+.2f} % of the baseline); {counts['stays']} stays, "
          f"{counts['errors']} errors{last_error}")
    trace = work / "trace.txt"
    if trace.exists():
        print(trace.read_text())


if __name__ == "__main__":
    main()
