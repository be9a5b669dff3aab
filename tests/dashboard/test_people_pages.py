"""People in the pages: an owner invites a colleague by e-mail (a one-time link through the
check-in mail code, to a loopback SMTP server), gives a role, disables and enables; a member cannot
open keys, webhooks or people (403); a forgotten password is reset through a one-time link by
e-mail, throttled, with one answer for known and unknown addresses."""

from __future__ import annotations

import re

import pytest

from rentalcomply.core.activity import Activity
from rentalcomply.core.models import Account
from rentalcomply.dashboard import users
from rentalcomply.dashboard.models import DashboardUser
from tests.checkin.conftest import smtp_server  # noqa: F401 - the fixture
from tests.conftest import bootstrapped_settings
from tests.dashboard.conftest import DASHBOARD_ENV, PASSWORD, new_browser, sign_in


@pytest.fixture
def settings(tmp_path, smtp_server):  # noqa: F811
    with bootstrapped_settings(tmp_path, RENTALCOMPLY_SMTP_HOST="127.0.0.1",
                               RENTALCOMPLY_SMTP_PORT=smtp_server.port,
                               RENTALCOMPLY_SERVER_PUBLIC_URL="https://rentals.example.org",
                               **DASHBOARD_ENV) as settings:
        users.configure(settings)
        users.forget_failures()
        yield settings
        users.forget_failures()


def _link_path(message) -> str:
    text = message.get_body(("plain",)).get_content()
    return re.search(r"https://rentals\.example\.org(/dashboard/password/\w+)", text).group(1)


def _choose_password(browser, path, password=PASSWORD):
    page = browser.get(path)
    browser.post(path, {"csrf": browser.csrf(page), "password": password,
                        "confirmation": password}, status=303)
    return page


def test_an_owner_invites_a_member_who_signs_in_and_cannot_open_the_keys(
        anna, wsgi_app, smtp_server, account_a):  # noqa: F811
    page = anna.get("/dashboard/settings/account")
    assert "Invite a colleague" in page.text
    anna.post("/dashboard/settings/account/people",
              {"csrf": anna.csrf(page), "email": "Colleague@Agency.example", "role": "member"},
              status=303)
    [message] = smtp_server.wait(1)
    assert message["To"] == "colleague@agency.example"
    assert Account.get_by_id(account_a).name in message["Subject"]
    colleague = new_browser(wsgi_app)
    _choose_password(colleague, _link_path(message))  # signed in at once
    today = colleague.get("/dashboard/today")
    assert "API keys" not in today.text and "Webhooks" not in today.text
    for path in ("/dashboard/settings/keys", "/dashboard/settings/webhooks",
                 "/dashboard/settings/account"):
        assert "Only an owner" in colleague.get(path, status=403).text
    colleague.post("/dashboard/settings/keys", {"csrf": colleague.csrf(today), "name": "x",
                                                "scopes": "read"}, status=403)
    assert colleague.get("/dashboard/bookings").status_int == 200
    assert {"user.invite"} <= {a.action for a in Activity.select()}


def test_invitation_errors_are_shown_on_the_form(anna):
    page = anna.get("/dashboard/settings/account")
    refused = anna.post("/dashboard/settings/account/people",
                        {"csrf": anna.csrf(page), "email": anna.email, "role": "member"},
                        status=400)
    assert 'id="invite-email-error"' in refused.text and "is one of this account&#039;s people already" in refused.text
    refused = anna.post("/dashboard/settings/account/people",
                        {"csrf": anna.csrf(page), "email": "no-at-sign", "role": "member"},
                        status=400)
    assert "must be an e-mail address" in refused.text


def test_an_owner_changes_a_role_disables_and_enables_a_colleague(anna, browser_for, account_a):
    colleague = browser_for(account_a)
    page = anna.get("/dashboard/settings/account")
    anna.post(f"/dashboard/settings/account/people/{colleague.user.id}/role",
              {"csrf": anna.csrf(page), "role": "member"}, status=303)
    assert DashboardUser.get_by_id(colleague.user.id).role == "member"
    colleague.get("/dashboard/settings/keys", status=403)
    anna.post(f"/dashboard/settings/account/people/{colleague.user.id}/status",
              {"csrf": anna.csrf(page), "status": "disabled"}, status=303)
    assert colleague.get("/dashboard/today", status=303).location.startswith(
        "/dashboard/sign-in")  # the session ended at once
    sign_in(colleague, colleague.email, status=401)
    anna.post(f"/dashboard/settings/account/people/{colleague.user.id}/status",
              {"csrf": anna.csrf(page), "status": "active"}, status=303)
    sign_in(colleague, colleague.email)
    # nobody disables themselves from the page
    alone = anna.post(f"/dashboard/settings/account/people/{anna.user.id}/status",
                      {"csrf": anna.csrf(page), "status": "disabled"}, status=404)
    assert alone.status_int == 404


def test_another_accounts_user_cannot_be_touched(anna, boris):
    page = anna.get("/dashboard/settings/account")
    assert boris.email not in page.text
    for action, value in (("role", {"role": "member"}), ("status", {"status": "disabled"}),
                          ("link", {})):
        anna.post(f"/dashboard/settings/account/people/{boris.user.id}/{action}",
                  {"csrf": anna.csrf(page), **value}, status=404)
    assert DashboardUser.get_by_id(boris.user.id).status == "active"


def test_a_forgotten_password_is_reset_through_a_link_by_e_mail(
        anna, wsgi_app, smtp_server):  # noqa: F811
    visitor = new_browser(wsgi_app)
    form = visitor.get("/dashboard/sign-in")
    assert 'href="/dashboard/forgot-password"' in form.text
    page = visitor.get("/dashboard/forgot-password")
    unknown = visitor.post("/dashboard/forgot-password",
                           {"csrf": visitor.csrf(page), "email": "nobody@example.com"})
    known = visitor.post("/dashboard/forgot-password",
                         {"csrf": visitor.csrf(page), "email": anna.email})
    # one answer for both: the page tells nobody which addresses are users
    assert unknown.text.replace("nobody@example.com", anna.email) == known.text
    [message] = smtp_server.wait(1)
    assert message["To"] == anna.email
    _choose_password(visitor, _link_path(message), "a brand new passphrase")
    assert anna.get("/dashboard/today", status=303)  # setting a password ended her sessions
    assert visitor.get("/dashboard/today", status=200)  # and signed in the browser that set it
    elsewhere = new_browser(wsgi_app)
    sign_in(elsewhere, anna.email, PASSWORD, status=401)
    sign_in(elsewhere, anna.email, "a brand new passphrase")
    visitor.get(_link_path(message), status=410)  # the link worked once


def test_reset_requests_are_throttled(wsgi_app, anna):
    visitor = new_browser(wsgi_app)
    page = visitor.get("/dashboard/forgot-password")
    for _ in range(3):
        visitor.post("/dashboard/forgot-password", {"csrf": visitor.csrf(page), "email": anna.email})
    refused = visitor.post("/dashboard/forgot-password",
                           {"csrf": visitor.csrf(page), "email": anna.email}, status=429)
    assert int(refused.headers["Retry-After"]) > 0
