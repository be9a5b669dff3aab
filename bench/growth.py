"""How much the database grows per 1,000 bookings, table by table (the README's table).

    python bench/growth.py [--bookings 1000]

A fresh data directory (SQLite, as shipped; tasks run in this process, memory://) with one
account, one API key, ten properties and a webhook endpoint subscribed to every event (a loopback
receiver answering 200). Then, through the API as a client would use it: `--bookings` bookings
created with an Idempotency-Key, each edited once, every fifth cancelled. Every write leaves what
it leaves in production: the booking, its events, their deliveries and attempts, the activity
log's lines, the idempotency records.

Printed: the bytes each table (with its indexes) gained, from SQLite's dbstat, per 1,000 bookings,
largest first, and the total; these are the figures the retention settings act on.
"""

from __future__ import annotations

import argparse
import datetime as dt
import http.server
import shutil
import sqlite3
import sys
import tempfile
import threading
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

SIZES = ("SELECT COALESCE(m.tbl_name, s.name), SUM(s.pgsize) FROM dbstat AS s "
         "LEFT JOIN sqlite_master AS m ON m.name = s.name GROUP BY 1")


def table_sizes(path: Path) -> dict[str, int]:
    with sqlite3.connect(path) as connection:
        connection.execute("PRAGMA wal_checkpoint(TRUNCATE)")
        return dict(connection.execute(SIZES).fetchall())


def receiver() -> str:
    class Handler(http.server.BaseHTTPRequestHandler):
        def do_POST(self):
            self.rfile.read(int(self.headers["Content-Length"]))
            self.send_response(200)
            self.send_header("Content-Length", "0")
            self.end_headers()

        def log_message(self, *args):
            pass

    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), Handler)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    return f"http://127.0.0.1:{server.server_address[1]}/hook"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--bookings", type=int, default=1000)
    args = parser.parse_args()
    import webtest

    from rentalcomply.accounts import service as accounts
    from rentalcomply.config import load_settings
    from rentalcomply.core import clock
    from rentalcomply.core.db import sqlite_path
    from rentalcomply.runtime import bootstrap
    from rentalcomply.web.app import create_app

    folder = Path(tempfile.mkdtemp(prefix="rentalcomply-growth-"))
    try:
        settings = load_settings(data_dir=folder, env={
            "RENTALCOMPLY_QUEUE_URL": "memory://", "RENTALCOMPLY_WEBHOOKS_ALLOW_HTTP": "true",
            "RENTALCOMPLY_WEBHOOKS_ALLOW_PRIVATE_ADDRESSES": "true",
            "RENTALCOMPLY_RATE_LIMIT_PER_MINUTE": "1000000"})
        bootstrap(settings)
        account = accounts.create_account("Growth").id
        _, key = accounts.create_key(account, ["read", "write", "webhooks"], name="channel tool")
        app = webtest.TestApp(create_app(settings), extra_environ={
            "wsgi.url_scheme": "https", "HTTP_HOST": "api.example.org",
            "REMOTE_ADDR": "127.0.0.1"})
        app.authorization = ("Bearer", key)
        app.post_json("/api/v1/webhooks", {"url": receiver(), "events": ["*"]}, status=201)
        props = [app.post_json("/api/v1/properties", {"name": f"Flat {i}", "address": f"Odos {i}"},
                               status=201).json["data"]["id"] for i in range(10)]
        path = sqlite_path(settings)
        before = table_sizes(path)
        start = clock.today() + dt.timedelta(days=30)
        for number in range(args.bookings):
            arrival = start + dt.timedelta(days=4 * (number // len(props)))
            booking = app.post_json("/api/v1/bookings", {
                "property_id": props[number % len(props)], "guest_name": f"Guest {number}",
                "guest_email": f"guest{number}@example.com", "guest_count": 2,
                "arrival_date": arrival.isoformat(),
                "departure_date": (arrival + dt.timedelta(days=3)).isoformat(),
                "total_price": 240}, headers={"Idempotency-Key": f"create-{number}"},
                status=201).json["data"]
            app.patch_json(f"/api/v1/bookings/{booking['id']}", {"guest_count": 3}, status=200)
            if number % 5 == 0:
                app.post(f"/api/v1/bookings/{booking['id']}/cancel", status=200)
        after = table_sizes(path)
    finally:
        shutil.rmtree(folder, ignore_errors=True)
    scale = 1000 / args.bookings
    grown = {name: (after.get(name, 0) - before.get(name, 0)) * scale for name in after}
    print(f"growth per 1,000 bookings (each edited once, every fifth cancelled), "
          f"from {args.bookings} bookings:")
    for name, size in sorted(grown.items(), key=lambda item: -item[1]):
        if size > 0:
            print(f"  {name:28s} {size / 1000:9.0f} kB")
    print(f"  {'total':28s} {sum(grown.values()) / 1000:9.0f} kB")


if __name__ == "__main__":
    main()
