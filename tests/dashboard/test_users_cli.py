"""`rentalcomply users ...` and the first start's link to the dashboard."""

from __future__ import annotations

import io
import re

from rentalcomply.config import load_settings
from rentalcomply.dashboard import users
from rentalcomply.dashboard.models import DashboardUser, PasswordLink
from tests.cli.conftest import cli  # noqa: F401 - the fixture
from rentalcomply.runtime import bootstrap
from tests.conftest import bootstrapped_settings

LINK = re.compile(r"https?://\S+/dashboard/password/([A-Za-z0-9]{43})")


def test_users_create_prints_a_one_time_link_and_stores_only_its_hash(cli):
    cli("init")
    result = cli("users", "create", "--account", "default", "--email", "Ann@Example.com")
    [token] = LINK.findall(result.output)
    assert "24 hours" in result.output
    bootstrap(load_settings(data_dir=cli.data_dir, env={"RENTALCOMPLY_QUEUE_URL": "memory://"}))
    stored = [link.token_hash for link in PasswordLink.select()]
    assert token not in stored and len(stored) == 2  # the first start's link and this one
    assert DashboardUser.get(DashboardUser.email == "ann@example.com")
    _, user = users.open_link(token)
    assert user.email == "ann@example.com"


def test_users_create_refuses_a_second_user_with_the_same_address_and_a_bad_one(cli):
    cli("init")
    cli("users", "create", "--account", "default", "--email", "ann@example.com")
    assert "exists already in account" in cli("users", "create", "--account", "default",
                                              "--email", "ANN@example.com", expect=1).output
    assert "not an e-mail address" in cli("users", "create", "--account", "default",
                                          "--email", "ann", expect=1).output
    assert "no account" in cli("users", "create", "--account", "nope", "--email",
                               "bob@example.com", expect=1).output


def test_users_list_and_disable(cli):
    cli("init")
    created = cli.json("users", "create", "--account", "default", "--email", "ann@example.com")
    assert created["password_link"].startswith("http://127.0.0.1:8080/dashboard/password/")
    listed = cli.json("users", "list", "--account", "default")["data"]
    assert {u["email"] for u in listed} == {None, "ann@example.com"}
    assert "ann@example.com" in cli("users", "list").output
    assert "Disabled" in cli("users", "disable", created["id"]).output
    [ann] = [u for u in cli.json("users", "list")["data"] if u["id"] == created["id"]]
    assert ann["status"] == "disabled"
    assert "no dashboard user" in cli("users", "disable", "usr_nope", expect=1).output


def test_users_link_issues_a_new_link_and_retires_the_old(cli):
    cli("init")
    created = cli.json("users", "create", "--account", "default", "--email", "ann@example.com")
    first = LINK.search(created["password_link"]).group(1)
    second = LINK.search(cli("users", "link", created["id"]).output).group(1)
    assert first != second


def test_the_first_start_prints_a_dashboard_link_beside_the_key(tmp_path):
    from rentalcomply.server import announce_first_key
    with bootstrapped_settings(tmp_path) as settings:
        out = io.StringIO()
        assert announce_first_key(out, settings)
        text = out.getvalue()
        assert "rc_" in text
        assert "E-mail (check-in links, reminders, password links) is set up in the dashboard " \
               "under Account → E-mail, or in config.toml's [smtp]." in text
        [token] = LINK.findall(text)
        _, user = users.open_link(token)
        assert user.email is None  # chosen on the page
        user = users.set_password(token, "a long enough password", "a long enough password",
                                  email="owner@example.com")
        assert user.email == "owner@example.com"
        assert users.sign_in("owner@example.com", "a long enough password", "127.0.0.1")


def test_users_create_makes_a_user_of_another_account_with_an_address_used_in_one(cli):
    cli("init")
    other = cli.json("accounts", "create", "Second agency")
    first = cli.json("users", "create", "--account", "default", "--email", "ann@example.com")
    second = cli.json("users", "create", "--account", other["id"], "--email", "Ann@example.com")
    assert second["account_id"] == other["id"] and second["email"] == "ann@example.com"
    assert second["id"] != first["id"]
    listed = cli.json("users", "list", "--account", other["id"])["data"]
    assert [u["id"] for u in listed] == [second["id"]]


def test_users_create_takes_a_role_and_users_list_shows_it(cli):
    cli("init")
    member = cli.json("users", "create", "--account", "default", "--email", "mo@example.com",
                      "--role", "member")
    assert member["role"] == "member"
    assert cli.json("users", "create", "--account", "default", "--email",
                    "ow@example.com")["role"] == "owner"
    listed = cli("users", "list", "--account", "default").output.splitlines()
    assert listed[0].split()[:5] == ["ID", "ACCOUNT", "EMAIL", "ROLE", "STATUS"]
    [row] = [line for line in listed if "mo@example.com" in line]
    assert row.split()[3] == "member"
    refused = cli("users", "create", "--account", "default", "--email", "x@example.com",
                  "--role", "admin", expect=2)
    assert "'admin' is not one of 'owner', 'member'" in refused.output


def test_a_link_lifetime_of_one_hour_is_said_in_the_singular(cli):
    cli("init")
    printed = cli("users", "create", "--account", "default", "--email", "ann@example.com",
                  env={"RENTALCOMPLY_DASHBOARD_PASSWORD_LINK_HOURS": "1"}).output
    assert "open within 1 hour:" in printed
    created = cli("demo", env={"RENTALCOMPLY_DASHBOARD_PASSWORD_LINK_HOURS": "1"}).output
    assert "within 1 hour at" in created and "1 hours" not in created
