"""Two real servers on one PostgreSQL database and one Redis: the limits hold across them.

Skipped without RENTALCOMPLY_TEST_POSTGRES_URL or without a Redis on 127.0.0.1:6379 (CI has both).
"""

from __future__ import annotations

import http.client
import re
import secrets
import urllib.parse

import pytest

from tests.conftest import POSTGRES_URL, redis_database_url, scratch_postgres_database
from tests.e2e.conftest import ServerProcess, clean_environment
from tests.helpers import poll

pytestmark = pytest.mark.server


@pytest.fixture
def redis_queue():
    """This test process's own Redis database, emptied (tests.conftest.redis_database_url). The
    scale-out tests run where PostgreSQL is configured; there, a Redis that does not answer fails
    them."""
    if not POSTGRES_URL:
        pytest.skip("set RENTALCOMPLY_TEST_POSTGRES_URL to run on PostgreSQL")
    yield redis_database_url()


@pytest.fixture
def scale_out_env(redis_queue):
    with scratch_postgres_database() as database_url:
        yield {"RENTALCOMPLY_DATABASE_URL": database_url, "RENTALCOMPLY_QUEUE_URL": redis_queue,
               # As on several machines: each process its own data directory, one secret.
               # A new one per test: the limits counted in Redis are kept per secret.
               "RENTALCOMPLY_SERVER_SECRET_KEY": "scale-out-" + secrets.token_hex(16)}


@pytest.fixture
def two_servers(tmp_path, start_server, scale_out_env):
    """Two `serve --no-worker` processes sharing the database, the queue and the secret."""
    first = start_server(tmp_path / "web1", "--no-worker", env=scale_out_env)
    second = start_server(tmp_path / "web2", "--no-worker", env=scale_out_env)
    second.key = first.key
    yield first, second
    first.kill()
    second.kill()


@pytest.fixture
def worker(tmp_path, scale_out_env):
    process = ServerProcess(["--data-dir", str(tmp_path / "worker"), "worker"],
                            clean_environment(**scale_out_env), 0)
    process.wait_for("worker running")
    yield process
    process.kill()


def test_a_report_made_through_one_server_downloads_through_the_other(two_servers, worker):
    first, second = two_servers
    status, body, _ = first.request("POST", "/api/v1/reports", {"period": "2026-03"})
    assert status == 202, body
    # Asked under the API's limit however long the worker takes (tests/helpers.py).
    status, body, _ = poll(lambda: second.request("GET", "/api/v1/reports/rep_2026_03"),
                           lambda answer: answer[0] == 200 and answer[1]["data"]["status"]
                           in ("completed", "failed"), what="the report generated")
    assert body["data"]["status"] == "completed", body
    status, body, _ = second.request("GET", "/api/v1/reports/rep_2026_03/download?format=pdf")
    assert status == 200, body
    url = urllib.parse.urlsplit(body["data"]["download_url"])
    status, _, answer = first.request("GET", f"{url.path}?{url.query}")
    assert status == 200 and answer.getheader("Content-Type") == "application/pdf"


def test_one_keys_limit_of_100_a_minute_holds_across_two_servers(two_servers):
    first, second = two_servers
    statuses = [(first if number % 2 else second).request("GET", "/api/v1/properties")[0]
                for number in range(150)]
    assert statuses.count(200) == 100
    assert statuses.count(429) == 50
    assert statuses[:100] == [200] * 100


def sign_in_with_a_wrong_password(server, email: str) -> int:
    connection = http.client.HTTPConnection("127.0.0.1", server.port, timeout=10)
    try:
        connection.request("GET", "/dashboard/sign-in")
        page = connection.getresponse()
        html = page.read().decode()
        cookies = "; ".join(value.split(";", 1)[0] for name, value in page.getheaders()
                            if name.lower() == "set-cookie")
        csrf = re.search(r'name="csrf" value="([^"]+)"', html).group(1)
        form = urllib.parse.urlencode({"csrf": csrf, "email": email, "password": "wrong password!",
                                       "next": "/dashboard/today"})
        connection.request("POST", "/dashboard/sign-in", body=form,
                           headers={"Content-Type": "application/x-www-form-urlencoded",
                                    "Cookie": cookies})
        answer = connection.getresponse()
        answer.read()
        return answer.status
    finally:
        connection.close()


def test_wrong_passwords_are_counted_across_two_servers(two_servers):
    first, second = two_servers
    statuses = [sign_in_with_a_wrong_password(first if number % 2 else second, "ann@example.com")
                for number in range(12)]
    assert statuses[:5] == [401] * 5
    assert statuses[5:] == [429] * 7
