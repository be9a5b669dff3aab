"""The account's name: first "default" (or what `accounts create` was given), changed on the
Account page by an owner or with `accounts rename`, and what the e-mails call the account."""

from __future__ import annotations

import pytest

from rentalcomply.accounts import service as accounts
from rentalcomply.core.activity import Activity
from rentalcomply.core.models import Account
from rentalcomply.dashboard import users
from tests.checkin.conftest import smtp_server  # noqa: F401 - the fixture
from tests.conftest import bootstrapped_settings
from tests.dashboard.conftest import DASHBOARD_ENV


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


def _rename(browser, name, status=303):
    page = browser.get("/dashboard/settings/account")
    return browser.post("/dashboard/settings/account/name",
                        {"csrf": browser.csrf(page), "name": name}, status=status)


def test_an_owner_renames_the_account_and_the_invitation_e_mail_says_the_new_name(
        anna, account_a, smtp_server):  # noqa: F811
    page = _rename(anna, "  Oltrarno   Stays  ").follow()
    assert "Saved: e-mails call the account by this name" in page.text
    assert 'value="Oltrarno Stays"' in page.text
    assert Account.get_by_id(account_a).name == "Oltrarno Stays"
    assert "account.name" in {a.action for a in Activity.select()}
    anna.post("/dashboard/settings/account/people",
              {"csrf": anna.csrf(page), "email": "colleague@agency.example", "role": "member"},
              status=303)
    [message] = smtp_server.wait(1)
    assert "Oltrarno Stays" in message["Subject"]
    assert "default" not in message["Subject"]


def test_a_refused_name_is_said_beside_the_field_and_keeps_what_was_typed(anna, account_a,
                                                                          account_b):
    other = Account.get_by_id(account_b).name
    page = _rename(anna, other.upper(), status=400)
    assert "is another account&#039;s name already" in page.text \
        or "is another account's name already" in page.text
    assert f'value="{other.upper()}"' in page.text
    assert 'aria-invalid="true"' in page.text
    page = _rename(anna, "   ", status=400)
    assert "must not be empty" in page.text
    assert Account.get_by_id(account_a).name != other.upper()


def test_the_greek_page_says_the_name_field_and_its_errors_in_greek(anna):
    page = anna.get("/dashboard/settings/account?lang=el")
    assert "Όνομα λογαριασμού" in page.text
    page = anna.post("/dashboard/settings/account/name",
                     {"csrf": anna.csrf(page), "name": ""}, status=400)
    assert "δεν πρέπει να είναι κενό" in page.text


def test_a_member_cannot_rename_the_account(browser_for, account_a):
    owner = browser_for(account_a)
    member = browser_for(account_a)
    users.change_role(account_a, member.user.id, "member")
    page = member.get("/dashboard/today")
    member.post("/dashboard/settings/account/name", {"csrf": member.csrf(page), "name": "Mine"},
                status=403)
    assert Account.get_by_id(account_a).name != "Mine"
    assert owner.user.id != member.user.id


def test_renaming_to_its_own_name_in_another_letter_case_is_allowed(account_a):
    name = Account.get_by_id(account_a).name
    assert accounts.rename_account(account_a, name.upper()).name == name.upper()
