"""Server time of the dashboard's Today, Bookings and Calendar pages in a busy account.

    python bench/dashboard.py [--properties 200] [--bookings 5000] [--repeat 20]

Seeds a fresh data directory (an account with 200 properties and 5,000 bookings around today,
some arriving, leaving, awaiting check-in or with a failed police filing), signs a user in and
times each page in-process (the WSGI call: gate, session, queries, template; the header's search
too, after the first search that makes every booking's terms, timed once), printing the
median and the slowest beside the 100 ms target and beside the sign-in page (a page with no
account data: the cost of the page machinery itself, measured in the same run).
"""

from __future__ import annotations

import argparse
import datetime as dt
import os
import random
import re
import shutil
import statistics
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

TARGET_MS = 100.0


def seed(data_dir: Path, properties: int, bookings: int):
    os.environ.update({"RENTALCOMPLY_DATA_DIR": str(data_dir), "RENTALCOMPLY_QUEUE_URL": "memory://"})
    from rentalcomply.accounts import service as accounts
    from rentalcomply.config import load_settings
    from rentalcomply.core import clock
    from rentalcomply.core.db import db
    from rentalcomply.core.ids import new_id
    from rentalcomply.core.models import Booking, Property
    from rentalcomply.dashboard import users
    from rentalcomply.runtime import bootstrap

    settings = load_settings(data_dir=data_dir, env={"RENTALCOMPLY_QUEUE_URL": "memory://"})
    bootstrap(settings)
    users.configure(settings)
    account = accounts.create_account("Benchmark agency")
    now = clock.utcnow()
    today = now.date()
    rng = random.Random(11)
    with db.atomic():
        ids = [Property.create(id=new_id("prop"), account=account.id, name=f"Flat {n:03d}",
                               address=f"Odos {n}, Athens", aade_property_id=f"{10000000 + n}",
                               created_at=now, updated_at=now).id for n in range(properties)]
        rows = []
        per = bookings // properties
        for property_id in ids:
            day = today - dt.timedelta(days=per * 2)  # about half past, half to come
            for _ in range(per):
                nights = rng.randint(1, 4)
                rows.append(dict(
                    id=new_id("book"), account=account.id, property=property_id,
                    guest_name=f"Guest {rng.randint(1, 10**6)}", guest_email="guest@example.com",
                    arrival_date=day, departure_date=day + dt.timedelta(days=nights),
                    guest_count=2, channel="airbnb", status="confirmed",
                    checkin_status=rng.choice(["NOT_STARTED", "INVITED", "COMPLETED"]),
                    report_status=rng.choice(["NOT_REQUIRED"] * 30 + ["FAILED"]),
                    total_price_cents=rng.randint(5000, 90000), payment_method="platform",
                    created_at=now, updated_at=now))
                day += dt.timedelta(days=nights + rng.randint(0, 1))
        for offset in range(0, len(rows), 500):
            Booking.insert_many(rows[offset:offset + 500]).execute()
    user, token = users.create_user(account.id, "bench@example.com")
    users.set_password(token, "correct horse battery staple", "correct horse battery staple")
    return settings, ids


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--properties", type=int, default=200)
    parser.add_argument("--bookings", type=int, default=5000)
    parser.add_argument("--repeat", type=int, default=20)
    args = parser.parse_args()
    data_dir = Path(tempfile.mkdtemp(prefix="rentalcomply-bench-dash-"))
    try:
        settings, property_ids = seed(data_dir, args.properties, args.bookings)
        from webtest import TestApp

        from rentalcomply.server import settle_start_up
        from rentalcomply.web.app import create_app
        app = create_app(settings)
        settle_start_up()  # as `rentalcomply serve` does before its first request
        browser = TestApp(app, extra_environ={
            "wsgi.url_scheme": "https", "HTTP_HOST": "rentals.example.org",
            "REMOTE_ADDR": "127.0.0.1"})
        page = browser.get("/dashboard/sign-in")
        csrf = re.search(r'name="csrf" value="([^"]+)"', page.text).group(1)
        browser.post("/dashboard/sign-in", {"csrf": csrf, "email": "bench@example.com",
                                            "password": "correct horse battery staple",
                                            "next": "/dashboard/today"}, status=303)
        # The header's search makes every booking's terms at its first use (dashboard/search.py).
        started = time.perf_counter()
        browser.get("/dashboard/search?q=guest")
        first_search = (time.perf_counter() - started) * 1000
        month = dt.date.today().strftime("%Y-%m")
        pages = [("sign-in page (no data)", "/dashboard/sign-in"),
                 ("Today", "/dashboard/today"),
                 ("Bookings", "/dashboard/bookings"),
                 ("Bookings, one guest searched", "/dashboard/bookings?guest=Guest+12"),
                 ("Search, a guest's name", "/dashboard/search?q=guest+12"),
                 ("Search, a phone number", "/dashboard/search?q=%2B30+210+123+4567"),
                 ("Calendar, every property, 2 weeks", "/dashboard/calendar"),
                 ("Calendar, every property, a month", "/dashboard/calendar?span=month"),
                 ("Calendar, one property's month",
                  f"/dashboard/calendar?property={property_ids[0]}&month={month}")]
        results = []
        for name, path in pages:
            browser.get(path)  # warm
            times = []
            for _ in range(args.repeat):
                started = time.perf_counter()
                browser.get(path)
                times.append((time.perf_counter() - started) * 1000)
            results.append((name, statistics.median(times), max(times)))
    finally:
        shutil.rmtree(data_dir, ignore_errors=True)
    print(f"dashboard pages, {args.properties} properties and {args.bookings} bookings in the "
          f"account, in-process server time over {args.repeat} requests:")
    print(f"{'':36} {'median ms':>10} {'max ms':>8}   target")
    for name, median, slowest in results:
        mark = "" if name.startswith("sign-in") else \
            ("   under 100 ms" if median < TARGET_MS else "   OVER 100 ms")
        print(f"{name:36} {median:10.1f} {slowest:8.1f}{mark}")
    print(f"the first search, making the terms of every booking: {first_search:.0f} ms (once)")


if __name__ == "__main__":
    main()
