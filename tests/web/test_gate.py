"""The gate: HTTPS rule, API keys and the rate limit, in the decided order."""

import datetime as dt

import pytest
import webtest

from rentalcomply.accounts import service as accounts
from rentalcomply.core import clock
from rentalcomply.core.models import ApiKey
from rentalcomply.web.app import create_app
from tests.conftest import make_settings
from tests.helpers import assert_error


@pytest.fixture
def probe(wsgi_app):
    """A read-scoped route that only reports who is asking."""
    @wsgi_app.api.get("/probe", scope="read", summary="probe",
                      response={"type": "object", "required": ["account_id"]})
    def probe_route(ctx):
        return {"account_id": ctx.account_id}
    return wsgi_app


def client(wsgi_app, key=None, **environ):
    app = webtest.TestApp(wsgi_app, extra_environ=environ)
    if key:
        app.authorization = ("Bearer", key)
    return app


def test_health_answers_without_a_key_even_over_plain_http(wsgi_app):
    response = client(wsgi_app, REMOTE_ADDR="198.51.100.9").get("/healthz")
    assert response.json["data"]["status"] == "ok"
    assert response.headers["X-Request-Id"].startswith("req_")


def test_it_asks_for_a_key(anonymous):
    response = anonymous.get("/api/v1/properties", status=401)
    assert_error(response, 401, "UNAUTHENTICATED")
    assert response.headers["WWW-Authenticate"].startswith("Bearer")


def test_it_asks_for_a_key_before_telling_whether_a_route_exists(anonymous):
    assert_error(anonymous.get("/api/v1/no-such-thing", status=401), 401, "UNAUTHENTICATED")


def test_it_rejects_a_key_with_a_typo_before_any_lookup(probe, owner):
    typo = owner.key[:-1] + ("A" if owner.key[-1] != "A" else "B")
    response = client(probe, typo, **{"wsgi.url_scheme": "https"}).get("/api/v1/probe", status=401)
    assert_error(response, 401, "INVALID_API_KEY")
    assert "malformed" in response.json["error"]["message"]


def test_it_rejects_an_unknown_well_formed_key(probe):
    unknown = accounts.generate_key()
    response = client(probe, unknown, **{"wsgi.url_scheme": "https"}).get("/api/v1/probe", status=401)
    assert_error(response, 401, "INVALID_API_KEY")


def test_it_rejects_a_revoked_key(probe, owner):
    owner.get("/api/v1/probe", status=200)
    accounts.revoke_key(owner.key_id)
    assert_error(owner.get("/api/v1/probe", status=401), 401, "INVALID_API_KEY")


def test_it_rejects_an_expired_key(probe, account_a):
    record, key = accounts.create_key(account_a, ["read"], expires_in_days=1)
    app = client(probe, key, **{"wsgi.url_scheme": "https"})
    app.get("/api/v1/probe", status=200)
    clock.travel(dt.timedelta(days=1, seconds=1))
    accounts.forget_cached_keys()
    assert_error(app.get("/api/v1/probe", status=401), 401, "INVALID_API_KEY")


def test_a_rotated_key_keeps_working_through_its_grace_period(probe, owner):
    new_record, new_key = accounts.rotate_key(owner.key_id, grace_hours=2)
    owner.get("/api/v1/probe", status=200)
    client(probe, new_key, **{"wsgi.url_scheme": "https"}).get("/api/v1/probe", status=200)
    clock.travel(dt.timedelta(hours=2, seconds=1))
    assert_error(owner.get("/api/v1/probe", status=401), 401, "INVALID_API_KEY")
    client(probe, new_key, **{"wsgi.url_scheme": "https"}).get("/api/v1/probe", status=200)
    assert new_record.scopes == ApiKey.get_by_id(owner.key_id).scopes


def test_it_records_when_a_key_was_last_used(probe, owner):
    assert ApiKey.get_by_id(owner.key_id).last_used_at is None
    owner.get("/api/v1/probe")
    assert ApiKey.get_by_id(owner.key_id).last_used_at is not None


def test_it_enforces_the_scope_after_authentication(probe, hooker):
    response = hooker.get("/api/v1/probe", status=403)
    assert_error(response, 403, "INSUFFICIENT_SCOPE")
    assert "'read'" in response.json["error"]["message"]


# --- HTTPS -------------------------------------------------------------------------------------

def test_plain_http_from_loopback_is_accepted_by_default(probe, owner):
    app = client(probe, owner.key, REMOTE_ADDR="127.0.0.1")
    assert app.get("/api/v1/probe").json == {"data": {"account_id": owner.account_id}}


def test_plain_http_from_another_machine_is_refused_before_authentication(probe):
    response = client(probe, REMOTE_ADDR="198.51.100.9").get("/api/v1/probe", status=403)
    assert_error(response, 403, "HTTPS_REQUIRED")


def test_plain_http_from_loopback_is_refused_when_loopback_http_is_disabled(tmp_path, account_a):
    settings = make_settings(tmp_path, RENTALCOMPLY_SERVER_ALLOW_LOOPBACK_HTTP="false")
    _, key = accounts.create_key(account_a, ["read"])
    app = client(create_app(settings), key, REMOTE_ADDR="127.0.0.1")
    assert_error(app.get("/api/v1/openapi.json", status=403), 403, "HTTPS_REQUIRED")


def test_https_reported_by_a_trusted_proxy_is_accepted(tmp_path, account_a):
    settings = make_settings(tmp_path, RENTALCOMPLY_SERVER_ALLOW_LOOPBACK_HTTP="false",
                             RENTALCOMPLY_SERVER_TRUSTED_PROXIES="10.0.0.0/8")
    _, key = accounts.create_key(account_a, ["read"])
    app = client(create_app(settings), key, REMOTE_ADDR="10.1.2.3",
                 HTTP_X_FORWARDED_PROTO="https")
    assert app.get("/api/v1/openapi.json").status_int == 200


def test_a_forwarded_https_header_from_an_untrusted_peer_is_ignored(probe, owner):
    app = client(probe, owner.key, REMOTE_ADDR="198.51.100.9", HTTP_X_FORWARDED_PROTO="https")
    assert_error(app.get("/api/v1/probe", status=403), 403, "HTTPS_REQUIRED")


def test_plain_http_forwarded_by_a_trusted_proxy_is_refused(probe, owner):
    app = client(probe, owner.key, REMOTE_ADDR="127.0.0.1", HTTP_X_FORWARDED_PROTO="http")
    assert_error(app.get("/api/v1/probe", status=403), 403, "HTTPS_REQUIRED")


# --- rate limit --------------------------------------------------------------------------------

def test_the_101st_request_in_a_minute_is_refused_with_retry_after(probe, owner, reader):
    for number in range(1, 101):
        response = owner.get("/api/v1/probe")
        assert response.headers["RateLimit-Remaining"] == str(100 - number)
    assert response.headers["RateLimit-Limit"] == "100"
    refused = owner.get("/api/v1/probe", status=429)
    assert_error(refused, 429, "RATE_LIMITED")
    assert 1 <= int(refused.headers["Retry-After"]) <= 60
    assert refused.headers["RateLimit-Remaining"] == "0"
    # The limit is per key: another key of the same account is not affected.
    assert reader.get("/api/v1/probe").status_int == 200


def test_the_limit_can_count_per_account(tmp_path, account_a):
    settings = make_settings(tmp_path, RENTALCOMPLY_RATE_LIMIT_PER="account",
                             RENTALCOMPLY_RATE_LIMIT_PER_MINUTE="3")
    app = create_app(settings)
    keys = [accounts.create_key(account_a, ["read"])[1] for _ in range(2)]
    # Any authenticated request counts, even one to a route that does not exist.
    statuses = [client(app, keys[i % 2], **{"wsgi.url_scheme": "https"})
                .get("/api/v1/unknown", expect_errors=True).status_int for i in range(4)]
    assert statuses == [404, 404, 404, 429]


def test_health_is_503_when_the_database_does_not_answer(wsgi_app, tmp_path):
    from rentalcomply.core.db import db, open_sqlite

    db.close()
    db.initialize(open_sqlite(tmp_path / "no-such-directory" / "rentalcomply.db"))
    response = client(wsgi_app, REMOTE_ADDR="198.51.100.9").get("/healthz", status=503)
    assert_error(response, 503, "SERVICE_UNAVAILABLE")


def test_the_101st_request_without_a_valid_key_from_one_address_is_refused(probe, owner):
    anonymous = client(probe, REMOTE_ADDR="198.51.100.7", **{"wsgi.url_scheme": "https"})
    guessing = client(probe, accounts.generate_key(), REMOTE_ADDR="198.51.100.7",
                      **{"wsgi.url_scheme": "https"})
    for number in range(100):  # missing and wrong keys count together
        (anonymous if number % 2 else guessing).get("/api/v1/probe", status=401)
    for app in (anonymous, guessing):
        refused = app.get("/api/v1/probe", status=429)
        assert_error(refused, 429, "RATE_LIMITED")
        assert 1 <= int(refused.headers["Retry-After"]) <= 60
        assert "without a valid API key" in refused.json["error"]["message"]
    # Another address is not affected, and neither is a valid key from the same address.
    client(probe, REMOTE_ADDR="198.51.100.8", **{"wsgi.url_scheme": "https"}).get(
        "/api/v1/probe", status=401)
    assert client(probe, owner.key, REMOTE_ADDR="198.51.100.7",
                  **{"wsgi.url_scheme": "https"}).get("/api/v1/probe").status_int == 200


def test_behind_a_trusted_proxy_the_forwarded_client_address_is_counted(tmp_path, settings):
    settings = make_settings(tmp_path, RENTALCOMPLY_RATE_LIMIT_PER_MINUTE="2",
                             RENTALCOMPLY_SERVER_TRUSTED_PROXIES="10.0.0.0/8")
    app = create_app(settings)

    def anonymous(forwarded_for, peer="10.0.0.2"):
        return client(app, REMOTE_ADDR=peer, HTTP_X_FORWARDED_FOR=forwarded_for,
                      HTTP_X_FORWARDED_PROTO="https").get("/api/v1/probe", expect_errors=True)

    # The nearest untrusted hop is the client; what it wrote further left is ignored.
    assert [anonymous("1.2.3.4, 203.0.113.5, 10.0.0.9").status_int for _ in range(3)] == [
        401, 401, 429]
    assert anonymous("203.0.113.6").status_int == 401
    # From an untrusted peer the header is the client's own claim and counts for nothing.
    assert [client(app, REMOTE_ADDR="198.51.100.20", HTTP_X_FORWARDED_FOR=f"192.0.2.{n}",
                   **{"wsgi.url_scheme": "https"}).get("/api/v1/probe", expect_errors=True)
            .status_int for n in range(3)] == [401, 401, 429]
