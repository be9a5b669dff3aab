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


def _agency_by_cli(cli) -> dict[str, str]:
    from tests.imports.conftest import AGENCY_CITIES
    from tests.imports.make_listing_files import AIRBNB_LISTINGS
    cli.json("accounts", "create", "Agency")
    made = {}
    for name, city, _ in AIRBNB_LISTINGS.values():
        country, zone = AGENCY_CITIES[city]
        made[name] = cli.json("properties", "create", "--account", "Agency", "--name", name,
                              "--address", city, "--country", country, "--timezone", zone)["id"]
    return made


def test_sync_import_maps_each_listing_with_map_and_remembers_it(cli):
    from tests.imports.conftest import FILES
    from tests.imports.make_listing_files import BOOKING_PROPERTIES
    agency = _agency_by_cli(cli)
    path = str(FILES / "agency_booking.xls")
    asked = cli("sync", "import", path, "--account", "Agency", "--dry-run", "--no-ask")
    assert 'Unknown listing: "Oltrarno Bright Flat" (rows 2, 7)' in asked.stdout
    assert "0 created" in asked.stdout
    refused = cli("sync", "import", path, "--account", "Agency", "--no-ask",
                  "--property", agency["FLR Oltrarno 2BR"], expect=1)
    assert "3 listings" in refused.output
    maps = [arg for title, name in BOOKING_PROPERTIES.items()
            for arg in ("--map", f"{title}={agency[name]}")]
    done = cli.json("sync", "import", path, "--account", "Agency", *maps)["data"][0]
    assert done["totals"]["created"] == 6 and done["unknown_listings"] == []
    anna = next(row for row in done["rows"] if row["code"] == "5012345601")
    assert (anna["guest_name"], anna["property_id"]) == ("Schmidt, Anna",
                                                          agency["FLR Oltrarno 2BR"])
    listed = {b["external_ref"]: b for b in cli.json("bookings", "list", "--account",
                                                      "Agency")["data"]}
    assert listed["5012345601"]["guest_phone"] == "+49 30 901820"
    again = cli("sync", "import", path, "--account", "Agency", "--dry-run", "--no-ask")
    assert "Unknown listing" not in again.stdout and "6 unchanged" in again.stdout


def test_sync_import_asks_at_the_terminal_one_question_per_listing(cli):
    from click.testing import CliRunner

    from rentalcomply.cli import main
    from rentalcomply.core.db import close_database
    from tests.imports.conftest import FILES
    from tests.imports.make_listing_files import AIRBNB_LISTINGS
    agency = _agency_by_cli(cli)
    numbers = {name: number for number, name in enumerate(sorted(agency), start=1)}
    answers = "".join(f"{numbers[name]}\n" for name, _, _ in AIRBNB_LISTINGS.values())
    result = CliRunner().invoke(main, ["--data-dir", str(cli.data_dir), "sync", "import",
                                       str(FILES / "agency_airbnb_oct.csv"), "--account",
                                       "Agency", "--ask"], input=answers, env=cli.env,
                                catch_exceptions=False)
    close_database()
    assert result.exit_code == 0, result.output
    assert result.output.count("Which property is") == 12
    assert 'Which property is "Duomo view loft · 5 min walk to the Uffizi" (rows 3)?' in \
        result.output
    assert "14 created, 0 updated, 1 unchanged, 0 conflicts" in result.output
    second = cli("sync", "import", str(FILES / "agency_airbnb_jan.csv"), "--account", "Agency",
                 "--ask")
    assert "Which property is" not in second.stdout and "12 created" in second.stdout
    assert "FLR Duomo Loft" in second.stdout  # each row's property, by name
