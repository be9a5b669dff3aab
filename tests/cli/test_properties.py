"""properties create and list from the command line."""

from __future__ import annotations


def test_properties_create_json_prints_the_property_as_the_api_shows_it(cli):
    account = cli.json("accounts", "create", "Agency")
    prop = cli.json("properties", "create", "--account", account["id"], "--name", "Seaside Studio",
                    "--address", "Akti Miaouli 12, Piraeus", "--aade-property-id", "00001234567")
    assert prop["id"].startswith("prop_")
    assert prop["account_id"] == account["id"]
    assert (prop["name"], prop["address"]) == ("Seaside Studio", "Akti Miaouli 12, Piraeus")
    assert prop["aade_property_id"] == "00001234567"
    assert (prop["country"], prop["status"], prop["police_connector"]) == ("GR", "active", "none")
    assert prop["channel_connections"] == []


def test_properties_create_takes_a_country_in_any_case(cli):
    account = cli.json("accounts", "create", "Agenzia")
    prop = cli.json("properties", "create", "--account", account["id"], "--name", "Casa",
                    "--address", "Via Roma 1, Firenze", "--country", "it")
    assert prop["country"] == "IT"
    assert prop["aade_property_id"] is None


def test_properties_create_refuses_invalid_fields_naming_them_without_a_traceback(cli):
    account = cli.json("accounts", "create", "Agency")
    result = cli("properties", "create", "--account", account["id"], "--name", "",
                 "--address", "Somewhere", "--country", "Greece", expect=1)
    assert "name:" in result.stderr and "country:" in result.stderr
    assert "Traceback" not in result.output
    assert cli.json("properties", "list")["data"] == []


def test_properties_create_for_an_unknown_account_fails_with_a_message(cli):
    result = cli("properties", "create", "--account", "acc_nobody", "--name", "X",
                 "--address", "Y", expect=1)
    assert "no account 'acc_nobody'" in result.stderr


def test_properties_list_shows_every_account_or_only_the_chosen_one(cli):
    first = cli.json("accounts", "create", "First")
    second = cli.json("accounts", "create", "Second")
    one = cli.json("properties", "create", "--account", first["id"], "--name", "One",
                   "--address", "A")
    two = cli.json("properties", "create", "--account", "Second", "--name", "Two",
                   "--address", "B")
    everything = cli.json("properties", "list")
    assert list(everything) == ["data"]
    assert {p["id"] for p in everything["data"]} == {one["id"], two["id"]}
    only_second = cli.json("properties", "list", "--account", second["id"])["data"]
    assert [p["id"] for p in only_second] == [two["id"]]
    assert only_second[0]["account_id"] == second["id"]


def test_properties_list_prints_a_table_without_json(cli):
    account = cli.json("accounts", "create", "Agency")
    prop = cli.json("properties", "create", "--account", account["id"], "--name", "Villa Irini",
                    "--address", "Oia, Santorini")
    text = cli("properties", "list").stdout
    assert prop["id"] in text and "Villa Irini" in text


def test_properties_create_with_an_unknown_country_says_the_country_is_unknown(cli):
    account = cli.json("accounts", "create", "Agency")
    result = cli("properties", "create", "--account", account["id"], "--name", "X",
                 "--address", "Y", "--country", "ZZ", expect=1)
    assert "country: ZZ is not a known country" in result.stderr
    assert "time zone" not in result.stderr
    result = cli("properties", "create", "--account", account["id"], "--name", "X",
                 "--address", "Y", "--country", "ZZ", "--timezone", "Europe/Athens", expect=1)
    assert "country: ZZ is not a known country" in result.stderr


def test_a_propertys_region_rooms_beds_and_closed_days_from_the_command_line(cli):
    import datetime as dt

    from rentalcomply.core import clock
    account = cli.json("accounts", "create", "Agenzia")
    prop = cli.json("properties", "create", "--account", account["id"], "--name", "Casa",
                    "--address", "Via Maggio 12, 50125 Firenze FI", "--country", "IT")
    assert (prop["region"], prop["region_source"]) == ("IT-52", "address")
    changed = cli.json("properties", "update", prop["id"], "--account", account["id"],
                       "--region", "it-25", "--rooms", "3", "--beds", "7")
    assert (changed["region"], changed["region_source"], changed["rooms"], changed["beds"]) \
        == ("IT-25", "host", 3, 7)
    back = cli.json("properties", "update", prop["id"], "--account", account["id"],
                    "--region", "", "--rooms", "")
    assert (back["region"], back["region_source"], back["rooms"]) == ("IT-52", "address", None)
    refused = cli("properties", "update", prop["id"], "--account", account["id"], "--region",
                  "ES-CT", expect=1)
    assert "region: ES-CT is not a region of IT" in refused.stderr
    first = clock.today() + dt.timedelta(days=10)
    span = f"{first.isoformat()}/{(first + dt.timedelta(days=2)).isoformat()}"
    listed = cli.json("properties", "closed-days", prop["id"], "--account", account["id"],
                      "--close", span)
    assert listed["data"] == [{"first_day": first.isoformat(),
                               "last_day": (first + dt.timedelta(days=2)).isoformat(), "days": 3}]
    said = cli("properties", "closed-days", prop["id"], "--account", account["id"], "--open",
               first.isoformat())
    assert f"closed {(first + dt.timedelta(days=1)).isoformat()}/" in said.output
