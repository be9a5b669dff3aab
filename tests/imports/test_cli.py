"""`rentalcomply sync import`: the channels' files from the command line."""

from __future__ import annotations

from tests.cli.conftest import cli  # noqa: F401  (the fixture)
from tests.imports.conftest import AIRBNB_ENGLISH, AIRBNB_US_ROWS, airbnb_english, csv_bytes


def test_sync_import_previews_then_imports_then_finds_nothing_left_to_do(cli, tmp_path):
    account = cli.json("accounts", "create", "Agency")
    cli("properties", "create", "--account", account["id"], "--name", "Villa Oia",
        "--address", "Oia")
    path = tmp_path / "reservations_-_2026-07-18T080825_717.csv"
    path.write_bytes(airbnb_english())

    preview = cli("sync", "import", str(path), "--account", "Agency", "--dry-run")
    assert "Would import" in preview.stdout and "2 created" in preview.stdout
    assert "Dry run: nothing was changed." in preview.stdout
    assert cli.json("bookings", "list", "--account", "Agency")["data"] == []

    done = cli.json("sync", "import", str(path), "--account", account["id"])["data"][0]
    assert done["totals"] == {"created": 2, "updated": 0, "unchanged": 1, "conflict": 0}
    listed = {b["external_ref"]: b for b in cli.json("bookings", "list", "--account",
                                                      "Agency")["data"]}
    assert listed["HMCH8MD3BQ"]["guest_name"] == "Jane Doe"
    assert (listed["HMCH8MD3BQ"]["total_price"], listed["HMCH8MD3BQ"]["adults"]) == (1020.0, 2)

    again = cli("sync", "import", str(path), "--account", "Agency")
    assert "0 created, 0 updated, 3 unchanged, 0 conflicts" in again.stdout


def test_sync_import_refuses_a_broken_file_naming_row_and_column(cli, tmp_path):
    cli("accounts", "create", "Agency")
    rows = [list(row) for row in AIRBNB_US_ROWS]
    rows[0][7] = "soon"
    path = tmp_path / "broken.csv"
    path.write_bytes(csv_bytes(AIRBNB_ENGLISH, rows))
    result = cli("sync", "import", str(path), "--account", "Agency", expect=1)
    assert "broken.csv: Row 2, column 'Start date'" in result.stderr
    assert "Traceback" not in result.output
