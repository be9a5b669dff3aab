"""One address, several accounts: an owner invites an address that is a user of another account
and learns nothing of it (the same answer, the same pending entry as for a new address); the
invitee gets a user of the new account with a password of its own and signs in to either; the
same password in both asks which account, only once the password is proven; a forgotten password
sends one link per account; the throttle counts per address; no account sees another's data."""

from __future__ import annotations

import datetime as dt
import re

import pytest

from rentalcomply.core import clock
from rentalcomply.core.activity import Activity
from rentalcomply.core.db import atomic
from rentalcomply.core.models import Account
from rentalcomply.dashboard import users
from rentalcomply.dashboard.models import DashboardUser
from rentalcomply.properties import service as properties
from tests.checkin.conftest import smtp_server  # noqa: F401 - the fixture
from tests.dashboard.conftest import PASSWORD, new_browser, sign_in
# The same set-up as the people pages: mail to a loopback server, links on a public URL.
from tests.dashboard.test_people_pages import _choose_password, _link_path, settings  # noqa: F401

OTHER_PASSWORD = "another long passphrase"


def _invite(owner, email):
    page = owner.get("/dashboard/settings/account")
    return owner.post("/dashboard/settings/account/people",
                      {"csrf": owner.csrf(page), "email": email, "role": "member"})


def _pending_row(owner, email) -> str:
    """The person's row on the Account page, with its address and id made neutral."""
    page = owner.get("/dashboard/settings/account").text
    user = DashboardUser.get((DashboardUser.account == owner.user.account_id)
                             & (DashboardUser.email == email))
    row = re.search(rf'<tr id="{user.id}">.*?</tr>', page, re.S).group(0)
    return row.replace(user.id, "ID").replace(email, "ADDRESS")


def _accepted_in_a(anna, boris, smtp_server, password):  # noqa: F811
    """Boris (account B) invited to account A, his password chosen on the e-mailed link."""
    _invite(anna, boris.email)
    [message] = smtp_server.wait(1)
    _choose_password(new_browser(anna.app), _link_path(message), password)
    return DashboardUser.get((DashboardUser.account == anna.user.account_id)
                             & (DashboardUser.email == boris.email))


def test_the_inviter_gets_the_same_answer_for_another_accounts_address_as_for_a_new_one(
        anna, boris, smtp_server):  # noqa: F811
    new = _invite(anna, "newcomer@example.com")
    elsewhere = _invite(anna, boris.email)
    assert (new.status_int, new.location) == (elsewhere.status_int, elsewhere.location) \
        == (303, "/dashboard/settings/account?done=invited_colleague")
    shown_new = anna.get(new.location).text.replace("newcomer@example.com", "ADDRESS")
    shown_elsewhere = anna.get(elsewhere.location).text.replace(boris.email, "ADDRESS")
    assert "The invitation is on its way" in shown_new
    assert _pending_row(anna, "newcomer@example.com") == _pending_row(anna, boris.email)
    assert "invited, no password yet" in _pending_row(anna, boris.email)
    # the whole notice of the page is the same (the rows differ only by address and id)
    notice = re.compile(r'<p class="notice[^>]*>.*?</p>', re.S)
    assert notice.findall(shown_new) == notice.findall(shown_elsewhere)
    # and both invitees get an invitation naming account A
    messages = smtp_server.wait(2)
    assert sorted(m["To"] for m in messages) == sorted(["newcomer@example.com", boris.email])
    assert all("Agency A" in m["Subject"] for m in messages)
    # Boris stays a user of B, untouched
    assert DashboardUser.get_by_id(boris.user.id).password_hash is not None


def test_inviting_an_address_that_is_one_of_this_accounts_people_says_so(anna, browser_for,
                                                                        account_a):
    colleague = browser_for(account_a)
    page = anna.get("/dashboard/settings/account")
    refused = anna.post("/dashboard/settings/account/people",
                        {"csrf": anna.csrf(page), "email": colleague.email.upper(),
                         "role": "member"}, status=400)
    assert "is one of this account&#039;s people already" in refused.text


def test_the_invitee_with_a_user_elsewhere_signs_in_to_either_account_by_its_password(
        anna, boris, smtp_server, wsgi_app, account_a, account_b):  # noqa: F811
    in_a = _accepted_in_a(anna, boris, smtp_server, OTHER_PASSWORD)
    assert in_a.id != boris.user.id and in_a.role == "member"
    villa_a = properties.create_property(account_a, name="Villa of A", address="Oia 1")
    villa_b = properties.create_property(account_b, name="Villa of B", address="Fira 2")

    into_b = new_browser(wsgi_app)
    sign_in(into_b, boris.email, PASSWORD)
    page = into_b.get("/dashboard/properties").text
    assert "Villa of B" in page and "Villa of A" not in page
    into_b.get(f"/dashboard/properties/{villa_a.id}", status=404)

    into_a = new_browser(wsgi_app)
    sign_in(into_a, boris.email.upper(), OTHER_PASSWORD)
    page = into_a.get("/dashboard/properties").text
    assert "Villa of A" in page and "Villa of B" not in page
    into_a.get(f"/dashboard/properties/{villa_b.id}", status=404)
    assert "API keys" not in into_a.get("/dashboard/today").text  # a member in A, an owner in B
    assert into_b.get("/dashboard/settings/keys").status_int == 200
    # each sign-in is in its own account's log only
    signed_in = Activity.select().where(Activity.action == "session.sign_in")
    assert {(a.account_id, a.actor_id) for a in signed_in} >= {(account_b, boris.user.id),
                                                               (account_a, in_a.id)}


def test_the_invitations_link_page_names_the_account_and_says_the_address_has_another(
        anna, boris, smtp_server, wsgi_app):  # noqa: F811
    _invite(anna, boris.email)
    _invite(anna, "newcomer@example.com")
    messages = smtp_server.wait(2)
    by_address = {m["To"]: m for m in messages}
    visitor = new_browser(wsgi_app)
    page = visitor.get(_link_path(by_address[boris.email])).text
    assert f"For {boris.email}, in Agency A." in page and "another account" in page
    assert "Agency B" not in page
    assert "another account" not in visitor.get(_link_path(by_address["newcomer@example.com"])).text


def test_the_same_password_in_two_accounts_asks_which_account_after_the_password(
        anna, boris, smtp_server, wsgi_app, account_a, account_b):  # noqa: F811
    in_a = _accepted_in_a(anna, boris, smtp_server, PASSWORD)
    visitor = new_browser(wsgi_app)
    wrong = sign_in(visitor, boris.email, "not the password at all", status=401)
    assert "Agency A" not in wrong.text and "Agency B" not in wrong.text
    chooser = sign_in(visitor, boris.email, PASSWORD, status=200)
    assert "Choose the account" in chooser.text
    assert "Agency A" in chooser.text and "Agency B" in chooser.text
    assert "rc_session" not in chooser.headers.get("Set-Cookie", "")
    visitor.get("/dashboard/today", status=303)  # not signed in until one is chosen
    choice = re.search(r'name="choice" value="([^"]+)"', chooser.text).group(1)
    chosen = visitor.post("/dashboard/sign-in/account",
                          {"csrf": visitor.csrf(chooser), "choice": choice, "user": in_a.id,
                           "next": "/dashboard/properties"}, status=303)
    assert chosen.location == "/dashboard/properties"
    session, user = users.find_session(visitor.cookies["rc_session"])
    assert (user.id, session.account_id) == (in_a.id, account_a)


def test_an_account_choice_works_only_for_its_browser_its_users_and_five_minutes(
        anna, boris, smtp_server, wsgi_app, frozen_clock):  # noqa: F811
    _accepted_in_a(anna, boris, smtp_server, PASSWORD)
    visitor = new_browser(wsgi_app)
    chooser = sign_in(visitor, boris.email, PASSWORD, status=200)
    choice = re.search(r'name="choice" value="([^"]+)"', chooser.text).group(1)

    def choose(browser, user_id, token=choice, status=401):
        page = browser.get("/dashboard/sign-in")
        return browser.post("/dashboard/sign-in/account",
                            {"csrf": browser.csrf(page), "choice": token, "user": user_id,
                             "next": "/dashboard/today"}, status=status)

    assert "This choice has expired" in choose(new_browser(wsgi_app), boris.user.id).text
    choose(visitor, anna.user.id)  # a user the password was not proven for
    expires, ids, signature = choice.split(".")
    choose(visitor, anna.user.id, f"{expires}.{ids},{anna.user.id}.{signature}")
    choose(visitor, boris.user.id, f"{int(expires) + 3600}.{ids}.{signature}")
    clock.travel(users.CHOICE_LIFETIME + dt.timedelta(seconds=1))
    choose(visitor, boris.user.id)
    clock.travel(-users.CHOICE_LIFETIME - dt.timedelta(seconds=1))
    with atomic():  # a password changed since: the choice no longer holds
        DashboardUser.update(password_hash=users.hash_password(OTHER_PASSWORD)).where(
            DashboardUser.id == boris.user.id).execute()
    choose(visitor, boris.user.id)
    assert "rc_session" not in visitor.cookies


def test_a_forgotten_password_sends_one_link_for_each_account_of_the_address(
        anna, boris, smtp_server, wsgi_app, account_a):  # noqa: F811
    in_a = _accepted_in_a(anna, boris, smtp_server, OTHER_PASSWORD)
    visitor = new_browser(wsgi_app)
    page = visitor.get("/dashboard/forgot-password")
    unknown = visitor.post("/dashboard/forgot-password",
                           {"csrf": visitor.csrf(page), "email": "nobody@example.com"})
    known = visitor.post("/dashboard/forgot-password",
                         {"csrf": visitor.csrf(page), "email": boris.email})
    assert unknown.text.replace("nobody@example.com", boris.email) == known.text
    resets = smtp_server.wait(3)[1:]
    assert sorted(m["Subject"] for m in resets) == [
        "A new password for Agency A on RentalComply", "A new password for Agency B on RentalComply"]
    assert all(m["To"] == boris.email for m in resets)
    [for_b] = [m for m in resets if "Agency B" in m["Subject"]]
    assert f"for {boris.email} in Agency B" in for_b.get_body(("plain",)).get_content()
    _choose_password(visitor, _link_path(for_b), "a brand new passphrase")
    # B's password changed; A's is as it was
    assert users.password_matches("a brand new passphrase",
                                  DashboardUser.get_by_id(boris.user.id).password_hash)
    assert users.password_matches(OTHER_PASSWORD, DashboardUser.get_by_id(in_a.id).password_hash)
    assert {a.account_id for a in Activity.select().where(
        Activity.action == "user.password_reset_requested")} == {account_a, boris.user.account_id}


def test_wrong_passwords_are_counted_per_address_whatever_its_accounts(
        anna, boris, smtp_server, wsgi_app, account_a, account_b):  # noqa: F811
    _accepted_in_a(anna, boris, smtp_server, OTHER_PASSWORD)
    for _ in range(5):
        sign_in(new_browser(wsgi_app), boris.email, "not the password at all", status=401)
    refused = sign_in(new_browser(wsgi_app), boris.email, OTHER_PASSWORD, status=429)
    assert int(refused.headers["Retry-After"]) > 0
    # a failed sign-in is written in the log of each account the address is a user of
    failed = Activity.select().where(Activity.action == "session.sign_in_failed")
    assert {a.account_id for a in failed} == {account_a, account_b}


def test_one_account_holds_an_address_once_and_two_accounts_may_hold_it(account_a, account_b):
    users.create_user(account_a, "ann@example.com")
    users.create_user(account_b, "ann@example.com")
    with pytest.raises(users.UserError, match="exists already in account"):
        users.create_user(account_a, "Ann@example.com")
    # the database itself refuses a second copy in one account
    with pytest.raises(Exception, match="(?i)unique"):
        with atomic():
            DashboardUser.create(id="usr_x", account=account_a, email="ann@example.com")
    assert Account.select().count() >= 2
