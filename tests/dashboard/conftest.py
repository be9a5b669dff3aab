"""Fixtures of the dashboard tests: users who have set their password, and browsers signed in.

- `settings` here allows http:// and loopback webhook destinations (a receiver on 127.0.0.1).
- `browser_for(account_id)`: a WebTest app speaking HTTPS, signed in through the sign-in form as a
  new user of that account; `.user`, `.csrf()` (the token of its last page), `.email`.
- `anna` (account A) and `boris` (account B): two such browsers.
"""

from __future__ import annotations

import itertools
import re

import pytest
from webtest import TestApp

from rentalcomply.accounts import service as accounts
from rentalcomply.core.activity import Activity
from rentalcomply.dashboard import users
from tests.conftest import bootstrapped_settings

PASSWORD = "correct horse battery staple"
DASHBOARD_ENV = {"RENTALCOMPLY_WEBHOOKS_ALLOW_HTTP": "true",
                 "RENTALCOMPLY_WEBHOOKS_ALLOW_PRIVATE_ADDRESSES": "true",
                 # The accounts' own mail servers in the tests are aiosmtpd on loopback.
                 "RENTALCOMPLY_SMTP_ALLOW_PRIVATE_ADDRESSES": "true"}
HTTPS = {"wsgi.url_scheme": "https", "HTTP_HOST": "rentals.example.org"}
_addresses = itertools.count(10)


@pytest.fixture
def settings(tmp_path, mail_server):
    # E-mails go to the session's loopback SMTP server: a check-in link is sent within the request.
    with bootstrapped_settings(tmp_path, **DASHBOARD_ENV, **mail_server.env) as settings:
        users.configure(settings)
        users.forget_failures()
        yield settings
        users.forget_failures()


class Browser(TestApp):
    user = None
    email = None

    def csrf(self, response=None) -> str:
        page = response if response is not None else self.last
        return re.search(r'name="csrf" value="([^"]+)"', page.text).group(1)

    def do_request(self, *args, **kwargs):
        response = super().do_request(*args, **kwargs)
        self.last = response
        return response


def new_browser(wsgi_app, **environ) -> Browser:
    return Browser(wsgi_app, extra_environ={**HTTPS, "REMOTE_ADDR": f"203.0.113.{next(_addresses)}",
                                            **environ})


def make_user(account_id: str, email: str):
    user, token = users.create_user(account_id, email)
    users.set_password(token, PASSWORD, PASSWORD)
    return user


def sign_in(browser: Browser, email: str, password: str = PASSWORD, status=303):
    page = browser.get("/dashboard/sign-in")
    return browser.post("/dashboard/sign-in", {"csrf": browser.csrf(page), "email": email,
                                               "password": password, "next": "/dashboard/today"},
                        status=status)


@pytest.fixture
def browser_for(wsgi_app):
    made = itertools.count(1)

    def make(account_id: str, email: str | None = None) -> Browser:
        email = email or f"user{next(made)}.{account_id}@example.com".lower()
        user = make_user(account_id, email)
        browser = new_browser(wsgi_app)
        sign_in(browser, email)
        browser.user, browser.email = user, email
        browser.get("/dashboard/today")
        # The sign-in is in the log (test_activity_pages.py checks it); the tests of changes
        # start from a log that holds only what they do.
        Activity.delete().where(Activity.action.startswith("session.")).execute()
        return browser
    return make


@pytest.fixture
def anna(browser_for, account_a):
    return browser_for(account_a)


@pytest.fixture
def boris(browser_for, account_b):
    return browser_for(account_b)


@pytest.fixture
def key_of_a(account_a):
    record, key = accounts.create_key(account_a, ["read", "write", "webhooks"], name="agency tool")
    return record, key
