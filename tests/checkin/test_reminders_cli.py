"""rentalcomply checkin reminders: the account's reminder schedule from the command line."""

from tests.cli.conftest import cli  # noqa: F401 - fixture


def test_the_schedule_is_shown_set_and_nonsense_refused(cli):  # noqa: F811
    account = cli.json("accounts", "create", "Agency")
    shown = cli("checkin", "reminders", "--account", account["id"])
    assert shown.stdout.strip() == "Reminders: 7, 2, 0 days before arrival"
    changed = cli("checkin", "reminders", "--account", account["id"], "--days", "5,1")
    assert changed.stdout.strip() == "Reminders: 5, 1 days before arrival"
    refused = cli("checkin", "reminders", "--account", account["id"], "--days", "soon", expect=1)
    assert "like 7, 2, 0" in refused.stderr
    off = cli("checkin", "reminders", "--account", account["id"], "--days", "")
    assert off.stdout.strip() == "Reminders: none"
