"""Staying signed in: "Keep me signed in" keeps a device signed in for 30 days whatever the idle
time, with a cookie that outlives the browser; the person lists those devices and signs one or
all of them out; choosing a password signs the person in at once."""

from __future__ import annotations

import datetime as dt

from rentalcomply.core import clock
from rentalcomply.dashboard import devices, users
from rentalcomply.dashboard.models import DashboardSession
from rentalcomply.ops import retention
from tests.dashboard.conftest import PASSWORD, make_user, new_browser

PHONE = ("Mozilla/5.0 (Linux; Android 14; Pixel 8) AppleWebKit/537.36 (KHTML, like Gecko) "
         "Chrome/126.0 Mobile Safari/537.36")


def _signed_in(wsgi_app, email, remember, **environ):
    browser = new_browser(wsgi_app, **environ)
    page = browser.get("/dashboard/sign-in")
    form = {"csrf": browser.csrf(page), "email": email, "password": PASSWORD,
            "next": "/dashboard/today"}
    if remember:
        form["remember"] = "yes"
    response = browser.post("/dashboard/sign-in", form, status=303)
    return browser, response


def test_keep_me_signed_in_outlives_the_idle_time_and_its_cookie_lasts_30_days(
        wsgi_app, account_a, settings):
    make_user(account_a, "ann@example.com")
    kept, response = _signed_in(wsgi_app, "ann@example.com", True, HTTP_USER_AGENT=PHONE)
    plain, plain_response = _signed_in(wsgi_app, "ann@example.com", False)
    cookie = next(v for k, v in response.headerlist if k == "Set-Cookie" and "rc_session=" in v)
    assert "Max-Age=2592000" in cookie  # 30 days: the browser keeps it when closed
    assert not any("rc_session=" in v and "Max-Age" in v
                   for k, v in plain_response.headerlist if k == "Set-Cookie")
    clock.travel(dt.timedelta(minutes=settings.dashboard.session_idle_minutes + 1))
    retention.purge_dashboard_sessions()  # the nightly clean-up keeps it too
    assert kept.get("/dashboard/today", status=200)
    assert plain.get("/dashboard/today", status=303)  # the idle end as before
    clock.travel(dt.timedelta(days=29))
    assert kept.get("/dashboard/today", status=200)
    clock.travel(dt.timedelta(days=1))
    assert kept.get("/dashboard/today", status=303)


def test_the_session_is_kept_only_as_a_hash_with_the_browsers_name(wsgi_app, account_a):
    make_user(account_a, "ann@example.com")
    browser, _ = _signed_in(wsgi_app, "ann@example.com", True, HTTP_USER_AGENT=PHONE)
    [row] = DashboardSession.select()
    assert row.remembered and row.device == "Chrome · Android"
    assert browser.cookies["rc_session"] not in row.id_hash


def test_a_device_is_listed_and_signed_out_from_another(wsgi_app, account_a):
    make_user(account_a, "ann@example.com")
    phone, _ = _signed_in(wsgi_app, "ann@example.com", True, HTTP_USER_AGENT=PHONE)
    laptop, _ = _signed_in(wsgi_app, "ann@example.com", True,
                           HTTP_USER_AGENT="Mozilla/5.0 (Windows NT 10.0) Firefox/128.0")
    page = laptop.get("/dashboard/settings/account")
    assert "Chrome · Android" in page.text and "Firefox · Windows" in page.text
    assert page.text.count("Sign out this device") == 2
    phone_key = devices.device_key(next(s for s in DashboardSession.select()
                                      if s.device == "Chrome · Android"))
    laptop.post("/dashboard/settings/devices/sign-out",
                {"csrf": laptop.csrf(page), "device": phone_key}, status=303)
    assert phone.get("/dashboard/today", status=303)  # sent to sign in again
    assert laptop.get("/dashboard/today", status=200)
    assert "Chrome · Android" not in laptop.get("/dashboard/settings/devices").text


def test_a_member_sees_their_devices_on_their_own_page_and_signs_out_everywhere(
        wsgi_app, account_a):
    make_user(account_a, "owner@example.com")
    member, _ = users.create_user(account_a, "mia@example.com", role="member")
    users.set_password(users.issue_link(member), PASSWORD, PASSWORD)
    phone, _ = _signed_in(wsgi_app, "mia@example.com", True, HTTP_USER_AGENT=PHONE)
    desk, _ = _signed_in(wsgi_app, "mia@example.com", False)
    page = desk.get("/dashboard/settings/devices")
    assert "Chrome · Android" in page.text
    response = desk.post("/dashboard/settings/devices/sign-out-everywhere",
                         {"csrf": desk.csrf(page)}, status=303)
    assert response.headers["Location"].endswith("/sign-in?done=signed_out")
    assert phone.get("/dashboard/today", status=303) and desk.get("/dashboard/today", status=303)
    assert DashboardSession.select().count() == 0


def test_choosing_a_password_signs_the_person_in_at_once(wsgi_app, account_a):
    _, token = users.create_user(account_a, "ann@example.com")
    browser = new_browser(wsgi_app)
    page = browser.get(f"/dashboard/password/{token}")
    response = browser.post(f"/dashboard/password/{token}", {
        "csrf": browser.csrf(page), "password": PASSWORD, "confirmation": PASSWORD}, status=303)
    assert response.headers["Location"] == "/dashboard/today?done=password_set_signed_in"
    today = browser.get(response.headers["Location"], status=200)
    assert "you are signed in" in today.text
