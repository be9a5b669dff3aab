"""The dashboard's defences: CSRF, tenant isolation, throttled sign-in, cookie flags, secrets
shown once, session expiry, the HTTPS rule."""

from __future__ import annotations

import datetime as dt
import logging


from rentalcomply.accounts import service as accounts
from rentalcomply.bookings import service as bookings
from rentalcomply.bookings.fees import FeeRates
from rentalcomply.core import clock
from rentalcomply.core.models import ApiKey
from rentalcomply.dashboard import users
from rentalcomply.properties import service as properties
from rentalcomply.webhooks import service as webhooks
from tests.conftest import SHIPPED_SCRYPT_N, TEST_SCRYPT_N
from tests.dashboard.conftest import PASSWORD, make_user, new_browser, sign_in


def _booking(settings, account_id):
    prop = properties.create_property(account_id, name="Sea View", address="Akti 1, Piraeus")
    arrival = clock.today() + dt.timedelta(days=3)
    from rentalcomply.core.db import atomic
    with atomic():
        return bookings.create_booking(account_id, rates=FeeRates.from_settings(settings),
                                       property_id=prop.id, guest_name="Maria Rossi",
                                       arrival_date=arrival,
                                       departure_date=arrival + dt.timedelta(days=4),
                                       guest_count=2)


# --- CSRF -----------------------------------------------------------------------------------------

def test_a_form_without_its_csrf_token_is_refused_and_changes_nothing(anna, key_of_a):
    record, _ = key_of_a
    response = anna.post(f"/dashboard/settings/keys/{record.id}/revoke", {}, status=403)
    assert "This form has expired" in response.text
    assert ApiKey.get_by_id(record.id).revoked_at is None


def test_a_form_with_another_sessions_csrf_token_is_refused(anna, browser_for, account_a, key_of_a):
    record, _ = key_of_a
    colleague = browser_for(account_a)  # same account, another session
    response = anna.post(f"/dashboard/settings/keys/{record.id}/revoke",
                         {"csrf": colleague.csrf()}, status=403)
    assert response.status_int == 403
    assert ApiKey.get_by_id(record.id).revoked_at is None


def test_the_same_form_with_its_own_token_goes_through(anna, key_of_a):
    record, _ = key_of_a
    anna.get("/dashboard/settings/keys")
    anna.post(f"/dashboard/settings/keys/{record.id}/revoke", {"csrf": anna.csrf(), "confirm": "yes"},
              status=303)
    assert ApiKey.get_by_id(record.id).revoked_at is not None


def test_the_sign_in_form_needs_its_token_too(wsgi_app, account_a):
    make_user(account_a, "ann@example.com")
    browser = new_browser(wsgi_app)
    browser.get("/dashboard/sign-in")
    browser.post("/dashboard/sign-in", {"email": "ann@example.com", "password": PASSWORD},
                 status=403)


# --- another account's ids ---------------------------------------------------------------------

def test_a_user_of_account_a_opening_bs_things_by_url_gets_404(settings, anna, account_b):
    booking = _booking(settings, account_b)
    key, _ = accounts.create_key(account_b, ["read"], name="B's key")
    endpoint, _ = webhooks.create_endpoint(account_b, "https://hooks.example.org/b", ["*"])
    for path in (f"/dashboard/bookings/{booking.id}", f"/dashboard/properties/{booking.property_id}",
                 f"/dashboard/settings/webhooks/{endpoint.id}",
                 f"/dashboard/calendar?property={booking.property_id}"):
        assert anna.get(path, status=404).status_int == 404, path
    csrf = anna.csrf(anna.get("/dashboard/settings/keys"))
    for path in (f"/dashboard/settings/keys/{key.id}/revoke", f"/dashboard/settings/keys/{key.id}/rotate",
                 f"/dashboard/bookings/{booking.id}/cancel",
                 f"/dashboard/settings/webhooks/{endpoint.id}/rotate",
                 f"/dashboard/settings/webhooks/{endpoint.id}/test",
                 f"/dashboard/settings/webhooks/{endpoint.id}/delete",
                 f"/dashboard/properties/{booking.property_id}"):
        assert anna.post(path, {"csrf": csrf, "name": "x", "address": "y"},
                         status=404).status_int == 404, path
    assert ApiKey.get_by_id(key.id).revoked_at is None
    assert bookings.get_booking(account_b, booking.id).status == "confirmed"
    assert webhooks.get_endpoint(account_b, endpoint.id).status == "active"


def test_bs_things_do_not_appear_in_as_lists(settings, anna, account_b):
    booking = _booking(settings, account_b)
    accounts.create_key(account_b, ["read"], name="Bs secret tool")
    for path in ("/dashboard/bookings", "/dashboard/today", "/dashboard/properties",
                 "/dashboard/settings/keys", "/dashboard/activity"):
        text = anna.get(path).text
        assert "Maria Rossi" not in text and "Sea View" not in text and "Bs secret tool" not in text
    assert booking.id not in anna.get("/dashboard/bookings?guest=Maria").text


# --- sign-in ------------------------------------------------------------------------------------

def test_the_sixth_wrong_password_in_a_minute_is_throttled_even_when_right(wsgi_app, account_a):
    make_user(account_a, "ann@example.com")
    browser = new_browser(wsgi_app)
    for _ in range(5):
        response = sign_in(browser, "ann@example.com", "wrong password!", status=401)
        assert "wrong" in response.text
    throttled = sign_in(browser, "ann@example.com", "wrong password!", status=429)
    assert int(throttled.headers["Retry-After"]) >= 1
    assert sign_in(browser, "ann@example.com", PASSWORD, status=429).status_int == 429
    # from another address too: the count is per user as well as per address
    assert sign_in(new_browser(wsgi_app), "ann@example.com", PASSWORD, status=429)


def test_wrong_passwords_from_one_address_are_throttled_across_users(wsgi_app, account_a, settings):
    browser = new_browser(wsgi_app)
    limit = settings.dashboard.signin_failures_per_address
    for number in range(limit):
        sign_in(browser, f"nobody{number}@example.com", "wrong password!", status=401)
    sign_in(browser, "someone.else@example.com", "wrong password!", status=429)


def test_a_throttled_user_may_sign_in_again_after_the_minute(wsgi_app, account_a):
    make_user(account_a, "ann@example.com")
    browser = new_browser(wsgi_app)
    for _ in range(5):
        sign_in(browser, "ann@example.com", "wrong password!", status=401)
    users._user_failures.clock = lambda: 10 ** 9  # a minute (and more) later
    users._address_failures.clock = lambda: 10 ** 9
    sign_in(browser, "ann@example.com", PASSWORD, status=303)


def test_an_unknown_address_and_a_wrong_password_get_the_same_answer(wsgi_app, account_a):
    make_user(account_a, "ann@example.com")
    wrong_password = sign_in(new_browser(wsgi_app), "ann@example.com", "not it at all", status=401)
    no_such_user = sign_in(new_browser(wsgi_app), "nobody@example.com", "not it at all", status=401)
    assert "The e-mail address or the password is wrong." in wrong_password.text
    assert "The e-mail address or the password is wrong." in no_such_user.text


def test_a_disabled_user_cannot_sign_in_and_loses_open_sessions(anna, wsgi_app):
    users.disable_user(anna.user.id)
    assert anna.get("/dashboard/today", status=303).headers["Location"].startswith(
        "/dashboard/sign-in")
    sign_in(new_browser(wsgi_app), anna.email, status=401)


def test_sign_out_ends_the_session_on_the_server(anna):
    cookie = anna.cookies["rc_session"]
    anna.post("/dashboard/sign-out", {"csrf": anna.csrf()}, status=303)
    anna.set_cookie("rc_session", cookie)  # replaying the old cookie
    assert anna.get("/dashboard/today", status=303).status_int == 303


def test_after_sign_in_only_pages_of_the_dashboard_are_followed(wsgi_app, account_a):
    make_user(account_a, "ann@example.com")
    for target in ("//evil.example.com/x", "https://evil.example.com/", "/dashboard//evil.com",
                   "/dashboard/\\evil.com"):
        browser = new_browser(wsgi_app)
        page = browser.get("/dashboard/sign-in")
        response = browser.post("/dashboard/sign-in", {"csrf": browser.csrf(page),
                                                       "email": "ann@example.com",
                                                       "password": PASSWORD, "next": target})
        assert response.headers["Location"] == "/dashboard/today", target


# --- sessions -------------------------------------------------------------------------------------

def test_a_session_unused_for_the_idle_time_ends(anna, settings):
    clock.travel(dt.timedelta(minutes=settings.dashboard.session_idle_minutes - 1))
    anna.get("/dashboard/today", status=200)
    clock.travel(dt.timedelta(minutes=settings.dashboard.session_idle_minutes + 1))
    assert anna.get("/dashboard/today", status=303).status_int == 303


def test_a_busy_session_still_ends_at_the_absolute_limit(anna, settings):
    steps = settings.dashboard.session_absolute_hours * 60 // 20
    for _ in range(steps - 1):
        clock.travel(dt.timedelta(minutes=20))
        anna.get("/dashboard/today", status=200)
    clock.travel(dt.timedelta(minutes=21))
    assert anna.get("/dashboard/today", status=303).status_int == 303


def test_the_session_id_is_stored_only_as_a_hash(anna):
    from rentalcomply.dashboard.models import DashboardSession
    cookie = anna.cookies["rc_session"]
    stored = [s.id_hash for s in DashboardSession.select()]
    assert cookie not in stored and len(stored) == 1


# --- cookies and headers ------------------------------------------------------------------------

def _set_cookie_of(response, name):
    return next(v for v in response.headers.getall("Set-Cookie") if v.startswith(name + "="))


def test_the_session_cookie_is_httponly_samesite_strict_and_secure_over_https(wsgi_app, account_a):
    make_user(account_a, "ann@example.com")
    response = sign_in(new_browser(wsgi_app), "ann@example.com")
    cookie = _set_cookie_of(response, "rc_session")
    assert "HttpOnly" in cookie and "SameSite=strict" in cookie.replace("Strict", "strict")
    assert "; Secure" in cookie and "Path=/dashboard" in cookie


def test_behind_a_trusted_proxy_saying_https_the_cookie_is_secure(wsgi_app, account_a):
    make_user(account_a, "ann@example.com")
    browser = new_browser(wsgi_app, **{"wsgi.url_scheme": "http", "REMOTE_ADDR": "127.0.0.1",
                                       "HTTP_X_FORWARDED_PROTO": "https"})
    page = browser.get("/dashboard/sign-in")
    anon = _set_cookie_of(page, "rc_anon")
    assert "; Secure" in anon
    # The browser is on HTTPS (the proxy's side) and sends the Secure cookie back; WebTest,
    # seeing http, would not: hand it over.
    response = browser.post("/dashboard/sign-in",
                            {"csrf": browser.csrf(page), "email": "ann@example.com",
                             "password": PASSWORD, "next": "/dashboard/today"},
                            headers={"Cookie": anon.split(";")[0]}, status=303)
    cookie = _set_cookie_of(response, "rc_session")
    assert "; Secure" in cookie and "HttpOnly" in cookie


def test_on_plain_http_from_the_machine_itself_the_cookie_is_not_marked_secure(wsgi_app, account_a):
    make_user(account_a, "ann@example.com")
    browser = new_browser(wsgi_app, **{"wsgi.url_scheme": "http", "REMOTE_ADDR": "127.0.0.1"})
    cookie = _set_cookie_of(sign_in(browser, "ann@example.com"), "rc_session")
    assert "Secure" not in cookie and "HttpOnly" in cookie


def test_plain_http_from_another_machine_is_refused_like_the_api(wsgi_app):
    browser = new_browser(wsgi_app, **{"wsgi.url_scheme": "http", "REMOTE_ADDR": "198.51.100.4"})
    response = browser.get("/dashboard/sign-in", status=403)
    assert response.json["error"]["code"] == "HTTPS_REQUIRED"


def test_pages_carry_a_strict_content_security_policy_and_are_not_cached(anna):
    response = anna.get("/dashboard/today")
    policy = response.headers["Content-Security-Policy"]
    assert "default-src 'none'" in policy and "script-src 'self'" in policy
    assert "unsafe-inline" not in policy and "frame-ancestors 'none'" in policy
    assert response.headers["Cache-Control"] == "no-store"
    assert response.headers["Referrer-Policy"] == "no-referrer"
    assert "<script>" not in response.text and " style=" not in response.text


# --- secrets shown once -------------------------------------------------------------------------

def test_a_new_key_is_shown_on_its_creation_page_and_never_again(anna, caplog):
    caplog.set_level(logging.DEBUG)
    page = anna.get("/dashboard/settings/keys")
    created = anna.post("/dashboard/settings/keys", {"csrf": anna.csrf(page), "name": "export",
                                                     "scopes": ["read"], "expires_in_days": ""},
                        status=201)
    [key] = set(__import__("re").findall(r"rc_[A-Za-z0-9]{40}", created.text))
    assert accounts.find_key(key) is not None
    for path in ("/dashboard/settings/keys", "/dashboard/activity", "/dashboard/today"):
        assert key not in anna.get(path).text
    assert key not in caplog.text
    assert key[:8] in anna.get("/dashboard/settings/keys").text  # the hint, to tell keys apart


def test_a_webhook_secret_is_shown_once(anna):
    page = anna.get("/dashboard/settings/webhooks")
    created = anna.post("/dashboard/settings/webhooks",
                        {"csrf": anna.csrf(page), "url": "https://hooks.example.org/in",
                         "events": ["*"]}, status=201)
    [secret] = set(__import__("re").findall(r"whsec_[A-Za-z0-9+/]{43}=", created.text))
    endpoint_id = __import__("re").search(r"/dashboard/settings/webhooks/(wh_[A-Za-z0-9]+)",
                                          created.text).group(1)
    assert secret not in anna.get(f"/dashboard/settings/webhooks/{endpoint_id}").text
    assert secret not in anna.get("/dashboard/settings/webhooks").text


# --- one-time links -------------------------------------------------------------------------------

def test_a_password_link_works_once(wsgi_app, account_a):
    _, token = users.create_user(account_a, "ann@example.com")
    browser = new_browser(wsgi_app)
    page = browser.get(f"/dashboard/password/{token}")
    browser.post(f"/dashboard/password/{token}", {"csrf": browser.csrf(page), "password": PASSWORD,
                                                  "confirmation": PASSWORD}, status=303)
    gone = browser.get(f"/dashboard/password/{token}", status=410)
    # The page names the ways to a new link, the administrator's command among them.
    assert "rentalcomply users link" in gone.text and "Forgot your password?" in gone.text


def test_a_password_link_expires_after_its_lifetime(wsgi_app, account_a, settings):
    _, token = users.create_user(account_a, "ann@example.com")
    clock.travel(dt.timedelta(hours=settings.dashboard.password_link_hours, seconds=1))
    assert new_browser(wsgi_app).get(f"/dashboard/password/{token}", status=410)


def test_an_unknown_link_is_404(wsgi_app):
    assert new_browser(wsgi_app).get("/dashboard/password/" + "a" * 43, status=404)


def test_a_short_password_or_a_mismatch_is_refused_with_the_reason(wsgi_app, account_a):
    _, token = users.create_user(account_a, "ann@example.com")
    browser = new_browser(wsgi_app)
    page = browser.get(f"/dashboard/password/{token}")
    short = browser.post(f"/dashboard/password/{token}", {"csrf": browser.csrf(page),
                                                          "password": "short", "confirmation": "short"},
                         status=400)
    assert "at least 10 characters" in short.text
    mismatch = browser.post(f"/dashboard/password/{token}",
                            {"csrf": browser.csrf(page), "password": PASSWORD,
                             "confirmation": PASSWORD + "!"}, status=400)
    assert "does not match" in mismatch.text


def test_passwords_are_stored_as_scrypt_hashes(account_a):
    user = make_user(account_a, "ann@example.com")
    from rentalcomply.dashboard.models import DashboardUser
    stored = DashboardUser.get_by_id(user.id).password_hash
    assert stored.startswith("scrypt$") and PASSWORD not in stored
    assert users.password_matches(PASSWORD, stored) and not users.password_matches("nope", stored)


def test_the_shipped_cost_is_scrypt_n_2_15_and_its_hashes_are_checked_at_it(monkeypatch):
    # The test processes hash at a lower cost (tests/conftest.py); the product's own is this one.
    assert SHIPPED_SCRYPT_N == 2 ** 15 and (users.SCRYPT_R, users.SCRYPT_P) == (8, 1)
    monkeypatch.setattr(users, "SCRYPT_N", SHIPPED_SCRYPT_N)
    stored = users.hash_password(PASSWORD)
    assert stored.startswith("scrypt$32768$8$1$")
    monkeypatch.setattr(users, "SCRYPT_N", TEST_SCRYPT_N)  # a check reads the cost from the hash
    assert users.password_matches(PASSWORD, stored) and not users.password_matches("nope", stored)


# --- the API document ---------------------------------------------------------------------------

def test_dashboard_pages_stay_out_of_the_api_document(wsgi_app):
    document = wsgi_app.bottle_app  # the routes exist on the app ...
    assert any(route.rule.startswith("/dashboard") for route in document.routes)
    paths = new_browser(wsgi_app).get("/api/v1/openapi.json").json["paths"]
    assert not [path for path in paths if "dashboard" in path or path.startswith("/static")]


def test_ended_sessions_are_purged_by_the_worker(anna, settings):
    from rentalcomply.dashboard.models import DashboardSession
    from rentalcomply.ops.tasks import purge_past_retention
    assert purge_past_retention.call_local()["dashboard_session"] == 0
    clock.travel(dt.timedelta(minutes=settings.dashboard.session_idle_minutes + 1))
    assert purge_past_retention.call_local()["dashboard_session"] >= 1
    assert DashboardSession.select().count() == 0
