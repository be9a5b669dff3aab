"""init, accounts and keys from the command line."""

from __future__ import annotations

import datetime as dt

from rentalcomply.accounts import service as accounts
from rentalcomply.config import load_settings
from rentalcomply.core import clock
from rentalcomply.core.db import db
from rentalcomply.runtime import bootstrap
from tests.cli.conftest import keys_in


def open_data_dir(cli):
    """Point this process at the CLI's data directory, to look at what a command did."""
    settings = load_settings(cli.data_dir, env=dict(cli.env))
    bootstrap(settings)
    return settings


def key_works(cli, key: str) -> bool:
    open_data_dir(cli)
    accounts.forget_cached_keys()
    try:
        return accounts.find_key(key) is not None
    finally:
        db.close()


# --- init ---------------------------------------------------------------------------------------

def test_init_creates_the_data_directory_secret_and_database_and_prints_a_working_key(cli):
    result = cli("init")
    assert (cli.data_dir / "rentalcomply.db").is_file()
    assert (cli.data_dir / "secret.key").is_file()
    assert "0001_initial" in result.stdout
    printed = keys_in(result.stdout)
    assert len(printed) == 1
    assert "shown once" in result.stdout
    assert key_works(cli, printed[0])


def test_init_gives_the_first_key_every_scope_on_an_account_named_default(cli):
    cli("init")
    listed = cli.json("keys", "list")["data"]
    assert len(listed) == 1
    assert listed[0]["scopes"] == ["read", "write", "webhooks"]
    names = [a["name"] for a in cli.json("accounts", "list")["data"]]
    assert names == ["default"]


def test_init_a_second_time_changes_nothing_and_prints_no_key(cli):
    cli("init")
    secret = (cli.data_dir / "secret.key").read_text()
    again = cli("init")
    assert keys_in(again.stdout) == []
    assert "up to date" in again.stdout
    assert (cli.data_dir / "secret.key").read_text() == secret
    assert len(cli.json("accounts", "list")["data"]) == 1


def test_init_writes_no_config_file_unless_asked(cli):
    cli("init")
    assert not (cli.data_dir / "config.toml").exists()


def test_init_write_config_writes_every_setting_commented_out_so_it_loads_to_the_defaults(cli):
    result = cli("init", "--write-config")
    path = cli.data_dir / "config.toml"
    assert "written" in result.stdout
    text = path.read_text()
    assert "# port = 8080" in text and "[server]" in text
    assert load_settings(cli.data_dir, env={}).server.port == 8080
    path.write_text("[server]\nport = 9001\n")
    assert "left as it is" in cli("init", "--write-config").stdout
    assert path.read_text() == "[server]\nport = 9001\n"


def test_commands_refuse_a_config_file_that_does_not_exist(cli, tmp_path):
    result = cli("accounts", "list", expect=2,
                 global_args=["--data-dir", str(cli.data_dir), "--config",
                              str(tmp_path / "nope.toml")])
    assert "nope.toml" in result.stderr
    assert "Traceback" not in result.output


# --- accounts -----------------------------------------------------------------------------------

def test_accounts_create_json_prints_the_account_as_one_object(cli):
    account = cli.json("accounts", "create", "Sunny Stays")
    assert account["id"].startswith("acc_")
    assert account["name"] == "Sunny Stays"
    assert account["created_at"].endswith("Z")


def test_accounts_list_json_wraps_the_accounts_in_data(cli):
    first = cli.json("accounts", "create", "One")
    second = cli.json("accounts", "create", "Two")
    listed = cli.json("accounts", "list")
    assert list(listed) == ["data"]
    assert {a["id"] for a in listed["data"]} == {first["id"], second["id"]}


def test_accounts_list_prints_a_table_without_json(cli):
    account = cli.json("accounts", "create", "Villa Group")
    text = cli("accounts", "list").stdout
    assert account["id"] in text and "Villa Group" in text


def test_accounts_create_refuses_a_blank_name_without_a_traceback(cli):
    result = cli("accounts", "create", "   ", expect=1)
    assert "name" in result.stderr
    assert "Traceback" not in result.output


# --- keys ---------------------------------------------------------------------------------------

def test_keys_create_json_has_the_id_the_key_the_account_and_the_scopes(cli):
    account = cli.json("accounts", "create", "Agency")
    created = cli.json("keys", "create", "--account", account["id"], "--scope", "read",
                       "--scope", "write", "--name", "channel manager")
    assert created["id"].startswith("key_")
    assert created["account_id"] == account["id"]
    assert created["scopes"] == ["read", "write"]
    assert created["name"] == "channel manager"
    assert key_works(cli, created["key"])


def test_keys_create_prints_the_key_once_in_text(cli):
    account = cli.json("accounts", "create", "Agency")
    result = cli("keys", "create", "--account", account["id"], "--scope", "read")
    assert len(keys_in(result.stdout)) == 1
    assert "shown once" in result.stdout


def test_keys_create_accepts_an_account_name_when_it_is_unique(cli):
    account = cli.json("accounts", "create", "Agency")
    created = cli.json("keys", "create", "--account", "Agency", "--scope", "read")
    assert created["account_id"] == account["id"]


def test_accounts_create_refuses_a_name_another_account_has(cli):
    first = cli.json("accounts", "create", "Twin")
    result = cli("accounts", "create", " twin ", expect=1)
    assert f"an account named 'Twin' exists already ({first['id']}); choose another name" \
        in result.stderr
    created = cli.json("keys", "create", "--account", "Twin", "--scope", "read")
    assert created["account_id"] == first["id"]


def test_keys_create_refuses_an_account_name_two_accounts_share_from_before(cli):
    import sqlite3
    first = cli.json("accounts", "create", "Twin")
    # Two accounts of one name, as an earlier version let a database get them.
    with sqlite3.connect(cli.data_dir / "rentalcomply.db") as connection:
        connection.execute("INSERT INTO account (id, name, created_at) SELECT 'acc_twin2', name, "
                           "created_at FROM account WHERE id = ?", (first["id"],))
    result = cli("keys", "create", "--account", "Twin", "--scope", "read", expect=1)
    assert "2 accounts are named 'Twin'" in result.stderr


def test_keys_create_for_an_unknown_account_fails_with_a_message_and_no_traceback(cli):
    cli("init")
    result = cli("keys", "create", "--account", "acc_nobody", "--scope", "read", expect=1)
    assert "no account 'acc_nobody'" in result.stderr
    assert "Traceback" not in result.output


def test_keys_create_refuses_an_unknown_scope(cli):
    account = cli.json("accounts", "create", "Agency")
    result = cli("keys", "create", "--account", account["id"], "--scope", "admin", expect=2)
    assert "admin" in result.stderr


def test_keys_create_with_an_expiry_sets_expires_at(cli):
    account = cli.json("accounts", "create", "Agency")
    created = cli.json("keys", "create", "--account", account["id"], "--scope", "read",
                       "--expires-in-days", "30")
    expires = dt.datetime.strptime(created["expires_at"], "%Y-%m-%dT%H:%M:%SZ")
    assert abs(expires - (clock.utcnow() + dt.timedelta(days=30))) < dt.timedelta(minutes=1)


def test_keys_create_refuses_an_expiry_below_one_day(cli):
    account = cli.json("accounts", "create", "Agency")
    result = cli("keys", "create", "--account", account["id"], "--scope", "read",
                 "--expires-in-days", "0", expect=1)
    assert "expires-in-days" in result.stderr


def test_keys_list_never_shows_a_key_only_its_first_characters(cli):
    init = cli("init")
    key = keys_in(init.stdout)[0]
    listed = cli("keys", "list", "--json").stdout
    assert key not in listed
    assert key[:8] in listed
    assert key not in cli("keys", "list").stdout


def test_keys_list_filters_by_account(cli):
    cli("init")
    account = cli.json("accounts", "create", "Agency")
    created = cli.json("keys", "create", "--account", account["id"], "--scope", "read")
    listed = cli.json("keys", "list", "--account", account["id"])["data"]
    assert [k["id"] for k in listed] == [created["id"]]


def test_keys_revoke_stops_the_key_working(cli):
    account = cli.json("accounts", "create", "Agency")
    created = cli.json("keys", "create", "--account", account["id"], "--scope", "read")
    result = cli("keys", "revoke", created["id"])
    assert created["id"] in result.stdout
    assert not key_works(cli, created["key"])
    [listed] = cli.json("keys", "list", "--account", account["id"])["data"]
    assert listed["status"] == "revoked"


def test_keys_revoke_of_an_unknown_key_exits_1_with_a_message(cli):
    cli("init")
    result = cli("keys", "revoke", "key_nothing", expect=1)
    assert "no API key 'key_nothing'" in result.stderr
    assert "Traceback" not in result.output


def test_keys_rotate_json_gives_a_new_key_and_the_old_one_works_through_the_grace(cli):
    account = cli.json("accounts", "create", "Agency")
    old = cli.json("keys", "create", "--account", account["id"], "--scope", "read",
                   "--scope", "webhooks", "--name", "pms")
    new = cli.json("keys", "rotate", old["id"], "--grace-hours", "2")
    assert new["id"] != old["id"] and new["key"] != old["key"]
    assert new["replaces"] == old["id"]
    assert new["scopes"] == ["read", "webhooks"] and new["name"] == "pms"
    assert key_works(cli, new["key"])
    assert key_works(cli, old["key"])
    clock.travel(dt.timedelta(hours=2, minutes=1))
    assert not key_works(cli, old["key"])
    assert key_works(cli, new["key"])


def test_keys_rotate_with_no_grace_revokes_the_old_key_at_once(cli):
    account = cli.json("accounts", "create", "Agency")
    old = cli.json("keys", "create", "--account", account["id"], "--scope", "read")
    result = cli("keys", "rotate", old["id"], "--grace-hours", "0")
    assert len(keys_in(result.stdout)) == 1
    assert "revoked" in result.stdout
    assert not key_works(cli, old["key"])


def test_keys_rotate_refuses_a_revoked_key(cli):
    account = cli.json("accounts", "create", "Agency")
    old = cli.json("keys", "create", "--account", account["id"], "--scope", "read")
    cli("keys", "revoke", old["id"])
    result = cli("keys", "rotate", old["id"], expect=1)
    assert "revoked or expired" in result.stderr


def test_accounts_rename_changes_the_name_commands_and_e_mails_use(cli):
    account = cli.json("accounts", "create", "default")
    renamed = cli.json("accounts", "rename", "default", "Casa Firenze")
    assert (renamed["id"], renamed["name"]) == (account["id"], "Casa Firenze")
    assert cli("accounts", "rename", account["id"], "Casa Firenze 2").stdout.strip() == \
        f'Account {account["id"]} is now named "Casa Firenze 2"'
    assert [a["name"] for a in cli.json("accounts", "list")["data"]] == ["Casa Firenze 2"]
    cli.json("accounts", "create", "Other")
    refused = cli("accounts", "rename", "Casa Firenze 2", "other", expect=1)
    assert "name: is another account's name already" in refused.stderr
    assert "Traceback" not in refused.output
