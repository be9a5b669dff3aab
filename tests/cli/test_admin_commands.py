"""The administrator's commands beside the dashboard: bookings list|cancel, webhooks list|delete,
properties update, reports download|mark-filed, users enable; each with --json."""

from __future__ import annotations

from pathlib import Path

from rentalcomply.core.db import atomic, db
from tests.cli.test_commands import open_data_dir

ACC = "Demo Agency"


def test_bookings_are_listed_and_one_is_cancelled_after_asking(cli):
    cli("demo")
    listed = cli.json("bookings", "list", "--account", ACC)["data"]
    assert len(listed) == 10 and all(b["status"] == "confirmed" for b in listed)
    one = listed[0]["id"]
    refused = cli("bookings", "cancel", one, "--account", ACC, env=None, expect=1)
    assert "Aborted" in refused.output  # no answer to "Cancel ...?": nothing changes
    assert cli.json("bookings", "list", "--account", ACC, "--status", "cancelled")["data"] == []
    cancelled = cli.json("bookings", "cancel", one, "--account", ACC, "--yes",
                         "--amount-kept", "40")
    assert cancelled["status"] == "cancelled" and cancelled["amount_kept"] == 40
    assert cli("bookings", "cancel", "book_nope", "--account", ACC, "--yes", expect=1)
    assert "date like" in cli("bookings", "list", "--account", ACC, "--from", "soon",
                              expect=2).output


def test_webhooks_are_listed_and_deleted(cli):
    cli("demo")
    open_data_dir(cli)
    from rentalcomply.core.models import Account
    from rentalcomply.webhooks import service
    try:
        account = Account.get(Account.name == ACC)
        with atomic():
            endpoint, _ = service.create_endpoint(account.id, "https://hooks.example.org/a", ["*"])
    finally:
        db.close()
    [listed] = cli.json("webhooks", "list", "--account", ACC)["data"]
    assert listed["id"] == endpoint.id and "secret" not in listed
    assert cli.json("webhooks", "delete", endpoint.id, "--account", ACC, "--yes") == {
        "deleted": endpoint.id}
    assert cli.json("webhooks", "list", "--account", ACC)["data"] == []


def test_a_property_is_updated(cli):
    cli("demo")
    prop = cli.json("properties", "list", "--account", ACC)["data"][0]
    updated = cli.json("properties", "update", prop["id"], "--account", ACC, "--name",
                       "Renamed", "--max-guests", "4")
    assert updated["name"] == "Renamed" and updated["max_guests"] == 4
    bad = cli("properties", "update", prop["id"], "--account", ACC, "--timezone", "Mars/X",
              expect=1)
    assert "timezone" in bad.output


def test_a_report_is_downloaded_and_marked_filed(cli, tmp_path):
    account = cli.json("accounts", "create", "Sunny Stays")
    import datetime as dt

    from rentalcomply.core import clock
    # Last month: a report of the running month is provisional, and never filed.
    period = (clock.today().replace(day=1) - dt.timedelta(days=1)).strftime("%Y-%m")
    code = "rep_" + period.replace("-", "_")
    cli("reports", "generate", "--account", account["id"], "--period", period)
    written = cli.json("reports", "download", code, "--account", account["id"], "--output",
                       str(tmp_path))
    assert Path(written["path"]).read_bytes().startswith(b"%PDF")
    csv = cli.json("reports", "download", code, "--account", account["id"], "--format", "csv",
                   "--output", str(tmp_path / "out.csv"))
    assert csv["path"].endswith("out.csv") and csv["bytes"] > 0
    filed = cli.json("reports", "mark-filed", code, "--account", account["id"], "--reference",
                     "AADE-1")
    assert filed["status"] == "submitted"
    assert cli("reports", "download", "rep_1999_01", "--account", account["id"], expect=1)


def test_a_disabled_user_is_enabled_again(cli):
    account = cli.json("accounts", "create", "Sunny Stays")
    user = cli.json("users", "create", "--account", account["id"], "--email", "a@example.com")
    cli("users", "disable", user["id"])
    enabled = cli.json("users", "enable", user["id"])
    assert enabled["status"] == "active"
    cli("users", "enable", "usr_nope", expect=1)


def test_an_italian_propertys_cin_is_set_and_cleared_from_the_command_line(cli):
    cli("demo")
    prop = cli.json("properties", "list", "--account", ACC)["data"][0]
    made_italian = cli.json("properties", "update", prop["id"], "--account", ACC, "--country",
                            "IT", "--timezone", "Europe/Rome", "--cin", " IT058091C2ABCDEFGH ")
    assert made_italian["cin"] == "IT058091C2ABCDEFGH"
    refused = cli("properties", "update", prop["id"], "--account", ACC, "--country", "GR",
                  "--timezone", "Europe/Athens", expect=1)
    assert "cin" in refused.output and "Italian properties only" in refused.output
    cleared = cli.json("properties", "update", prop["id"], "--account", ACC, "--cin", "")
    assert cleared["cin"] is None
