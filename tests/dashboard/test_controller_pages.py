"""The data controller on the Account page: until the account has a legal name the page warns the
owner; saved, the guests' privacy notice names it; a refused form says why beside each field, in
Greek too; a member cannot change it."""

from __future__ import annotations

from rentalcomply.accounts import controller
from rentalcomply.core.activity import Activity
from rentalcomply.dashboard import users

ACCOUNT = "/dashboard/settings/account"
PAGE = ACCOUNT + "/controller"
FILLED = {"legal_name": "Anemoi Stays I.K.E.", "address": "Oia 847 02, Santorini",
          "email": "privacy@anemoi.example", "phone": "+30 22860 71234"}


def _post(browser, status=303, **fields):
    page = browser.get(ACCOUNT)
    return browser.post(PAGE, {"csrf": browser.csrf(page), **fields}, status=status)


def test_the_account_page_warns_until_a_legal_name_is_given_then_keeps_it(anna, account_a):
    page = anna.get(ACCOUNT).text
    assert 'id="controller-missing"' in page and "names no data controller yet" in page
    _post(anna, **FILLED)
    page = anna.get(ACCOUNT + "?done=controller_saved").text
    assert 'id="controller-missing"' not in page
    assert "privacy notice names this controller from now on" in page
    assert 'value="Anemoi Stays I.K.E."' in page
    assert controller.controller_of(account_a) == FILLED
    assert [a.action for a in Activity.select()] == ["account.controller"]


def test_a_legal_name_without_an_address_or_contact_is_refused_beside_its_fields(anna, account_a):
    refused = _post(anna, status=400, legal_name="Anemoi Stays", address="", email="", phone="").text
    assert "is needed with a legal name" in refused
    assert "give an e-mail address or a phone number" in refused
    assert 'value="Anemoi Stays"' in refused  # as typed
    assert not controller.is_named(account_a)
    greek = anna.get(PAGE + "?lang=el").text
    assert "Ενημέρωση απορρήτου για τους επισκέπτες" in greek


def test_a_member_cannot_change_the_controller(anna, browser_for, account_a):
    member = browser_for(account_a)
    users.change_role(account_a, member.user.id, "member")
    assert member.get(PAGE, expect_errors=True).status_int in (403, 404)
