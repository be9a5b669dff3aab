"""Two servers and two workers on one PostgreSQL database and one Redis queue, as several machines
run them: a worker killed with -9 in the middle of a report loses nothing, and each periodic tick
fetches every due feed once, whatever the number of workers.

Runs in the pass of the whole suite on PostgreSQL and Redis (RENTALCOMPLY_TEST_ON_POSTGRES=1, CI's
second pass), and is skipped elsewhere. The feed part spans three scheduler ticks, which are real
minutes: about four minutes in all (three ticks give the two workers three chances to fetch a
feed twice; five cost two more minutes of each CI run).
"""

from __future__ import annotations

import collections
import signal
import time

import pytest

from tests.conftest import ON_POSTGRES
from tests.e2e.conftest import ServerProcess, clean_environment
from tests.e2e.test_scale_out import redis_queue, scale_out_env, two_servers  # noqa: F401
from tests.sync.conftest import FeedServer, fixture

pytestmark = [pytest.mark.server, pytest.mark.long(minutes=4),
              pytest.mark.skipif(not ON_POSTGRES, reason="the scale-out pass only: PostgreSQL and "
                                                          "Redis (RENTALCOMPLY_TEST_ON_POSTGRES=1)")]

STAYS = 20_000
FEEDS = 20
TICKS = 3


@pytest.fixture
def env(scale_out_env):  # noqa: F811
    return {**scale_out_env,
            "RENTALCOMPLY_SYNC_ALLOW_PRIVATE_ADDRESSES": "true",
            # A dead worker's report is taken over soon: short leases, frequent sweeps.
            "RENTALCOMPLY_REPORTS_LEASE_SECONDS": "6",
            "RENTALCOMPLY_REPORTS_SWEEP_INTERVAL_SECONDS": "2"}


@pytest.fixture
def servers(tmp_path, start_server, env):
    first = start_server(tmp_path / "web1", "--no-worker", env=env)
    second = start_server(tmp_path / "web2", "--no-worker", env=env)
    second.key = first.key
    return first, second


@pytest.fixture
def workers(tmp_path, env):
    """Start a worker (each with its own data directory, as on its own machine); all are killed
    at the end."""
    started: list[ServerProcess] = []

    def start(name: str) -> ServerProcess:
        process = ServerProcess(["--data-dir", str(tmp_path / name), "worker"],
                                clean_environment(**env), 0)
        process.wait_for("worker running")
        started.append(process)
        return process

    yield start
    for process in started:
        process.kill()


@pytest.fixture
def database(env):
    psycopg2 = pytest.importorskip("psycopg2")
    connection = psycopg2.connect(env["RENTALCOMPLY_DATABASE_URL"])
    connection.autocommit = True
    yield connection
    connection.close()


def sql(database, query: str, *args):
    with database.cursor() as cursor:
        cursor.execute(query, args)
        return cursor.fetchall() if cursor.description else None


def copy_stays(database, template_id: str, count: int) -> None:
    """`count` one-night October stays copied from the template booking in one statement."""
    columns = [row[0] for row in sql(database, "SELECT column_name FROM information_schema.columns "
                                               "WHERE table_name = 'booking' ORDER BY ordinal_position")]
    made = {"id": "'bkg_copy' || lpad(g::text, 7, '0')",
            "guest_name": "'Guest ' || g",
            "arrival_date": "DATE '2026-10-01' + mod(g, 29)",
            "departure_date": "DATE '2026-10-02' + mod(g, 29)"}
    chosen = ", ".join(made.get(name, f'b."{name}"') for name in columns)
    names = ", ".join(f'"{name}"' for name in columns)
    sql(database, f"INSERT INTO booking ({names}) SELECT {chosen} FROM booking b, "
                  f"generate_series(1, %s) g WHERE b.id = %s", count, template_id)


def settled(database, count: int, timeout: float = 90) -> None:
    """Wait until all `count` connections have been attempted and none is being synced."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        [(attempted, leased)] = sql(database, "SELECT COUNT(last_sync_attempt), COUNT(lease_until) "
                                              "FROM channel_connection")
        if attempted == count and leased == 0:
            return
        time.sleep(0.2)
    raise AssertionError(f"{attempted} of {count} connections attempted, {leased} being synced")


def queued_tasks(env, queue: str) -> int:
    """Tasks of one of the shared Redis queues ("rentalcomply", "rentalcomply-urgent"), queued or
    scheduled."""
    from huey.storage import PriorityRedisStorage
    storage = PriorityRedisStorage(name=queue, url=env["RENTALCOMPLY_QUEUE_URL"])
    try:
        return storage.queue_size() + storage.schedule_size()
    finally:
        storage.conn.close()


def wait_until(condition, what: str, timeout: float = 90) -> None:
    deadline = time.monotonic() + timeout
    while not condition():
        assert time.monotonic() < deadline, f"{what}: not within {timeout} s"
        time.sleep(0.2)


def report(server, code: str) -> dict:
    status, body, _ = server.request("GET", f"/api/v1/reports/{code}")
    assert status == 200, body
    return body["data"]


def test_a_worker_killed_mid_report_loses_nothing_and_each_tick_fetches_every_feed_once(
        servers, workers, database, env):
    first, second = servers
    status, body, _ = first.request("POST", "/api/v1/properties", {
        "name": "Studio Plaka", "address": "Adrianou 12, Athens",
        "aade_property_id": "00000000001", "country": "GR"})
    assert status == 201, body
    property_id = body["data"]["id"]
    status, body, _ = second.request("POST", "/api/v1/bookings", {
        "property_id": property_id, "guest_name": "Template Guest",
        "arrival_date": "2026-10-30", "departure_date": "2026-10-31", "guest_count": 1,
        "total_price": 100, "payment_method": "cash"})
    assert status == 201, body
    copy_stays(database, body["data"]["id"], STAYS - 1)

    # A report made through one server, on whichever worker takes it; that worker is killed.
    running = {"one": workers("worker1"), "two": workers("worker2")}
    status, body, _ = first.request("POST", "/api/v1/reports", {"period": "2026-10"})
    assert status == 202, body
    deadline = time.monotonic() + 60
    owner = None
    while owner is None and time.monotonic() < deadline:
        [(owner,)] = sql(database, "SELECT lease_owner FROM report WHERE code = 'rep_2026_10'")
        time.sleep(0.02)
    assert owner, "no worker took the report"
    pid = int(owner.split(":")[1])
    [killed] = [name for name, process in running.items() if process.process.pid == pid]
    running[killed].process.send_signal(signal.SIGKILL)
    running[killed].process.wait(timeout=10)
    killed_at = time.monotonic()
    assert report(second, "rep_2026_10")["status"] == "generating"

    # Watched in the database: the API's answers count against the key's 100 a minute.
    while time.monotonic() - killed_at < 60:
        [(status,)] = sql(database, "SELECT status FROM report WHERE code = 'rep_2026_10'")
        if status in ("completed", "failed"):
            break
        time.sleep(0.5)
    made = report(second, "rep_2026_10")
    taken_over_in = time.monotonic() - killed_at
    assert made["status"] == "completed", (made, "".join(running["one" if killed == "two" else "two"].stderr_lines[-30:]))
    print(f"the report completed on the other worker {taken_over_in:.1f} s after the kill")
    assert made["booking_count"] == STAYS and made["generation_count"] == 1
    # Once no generation can still run (no report row holds a job or a lease, which is all the
    # sweeps queue again, and no reports task is queued or scheduled): still one generation and
    # one announcement.
    wait_until(lambda: sql(database, "SELECT COUNT(*) FROM report WHERE job IS NOT NULL "
                                     "OR lease_owner IS NOT NULL OR lease_expires_at IS NOT NULL")
               == [(0,)] and queued_tasks(env, "rentalcomply-urgent") == 0,
               "no generation waiting or under way")
    assert report(second, "rep_2026_10")["generation_count"] == 1
    assert sql(database, "SELECT COUNT(*) FROM event WHERE type = 'report.ready'") == [(1,)]
    status, link, _ = first.request("GET", "/api/v1/reports/rep_2026_10/download?format=pdf")
    assert status == 200, link

    # As systemd would, the dead worker is replaced; then twenty feeds over three ticks.
    running[killed] = workers("worker3")
    feeds = FeedServer()
    try:
        for number in range(FEEDS):
            feeds.serve(f"/feed{number}.ics", fixture("airbnb.ics"))
            status, body, _ = first.request(
                "POST", f"/api/v1/properties/{property_id}/channels",
                {"provider": "other", "ical_url": feeds.url(f"/feed{number}.ics")})
            assert status == 201, body
        # The tick that finds them first may come while they are being added: counted from the
        # next, once every feed has been read and no sync is under way.
        settled(database, FEEDS)
        feeds.requests.clear()
        for tick in range(1, TICKS + 1):
            # Each connection due again at every tick, as if its interval had passed.
            sql(database, "UPDATE channel_connection SET last_sync_attempt = "
                          "last_sync_attempt - INTERVAL '1 day'")
            deadline = time.monotonic() + 90  # the next minute, and the fetches of that tick
            while len(feeds.requests) < FEEDS * tick and time.monotonic() < deadline:
                time.sleep(0.2)
            settled(database, FEEDS)
            # Nothing left that could fetch again in this tick: no sync under way (settled) and
            # no task of the general queue (syncs) queued or scheduled.
            wait_until(lambda: queued_tasks(env, "rentalcomply") == 0 and not sql(
                database, "SELECT 1 FROM channel_connection WHERE lease_until IS NOT NULL"),
                "a quiet general queue")
            counts = collections.Counter(seen.path for seen in feeds.requests)
            assert sorted(set(counts.values())) == [tick], (tick, counts)
            assert len(counts) == FEEDS
    finally:
        feeds.stop()
