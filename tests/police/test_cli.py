"""`rentalcomply police configure`, `police refresh-codes` and `police run`."""

import datetime as dt

from tests.cli.conftest import cli  # noqa: F401 - the fixture

PUBLISHED_LUOGHI = """Codice;Descrizione;Provincia;DataFineVal
412058091;ROMA;RM;
403015149;MONZA;MI;07/06/2009
403108033;MONZA;MB;
499999999;NUOVO COMUNE;ZZ;
"""


def setup_property(cli):  # noqa: F811
    cli("init")
    account = cli.json("accounts", "create", "Agenzia Roma")
    prop = cli.json("properties", "create", "--account", account["id"], "--name", "Casa",
                    "--address", "Roma", "--country", "IT", "--json")
    return account["id"], prop["id"]


def test_configure_sets_the_connector_and_seals_the_credentials(cli, tmp_path):  # noqa: F811
    account, prop = setup_property(cli)
    wskey = tmp_path / "wskey"
    wskey.write_text("KEY-FROM-FILE\n")
    view = cli.json("police", "configure", "--account", account, "--property", prop,
                    "--connector", "alloggiati", "--set", "apartment_id=000123",
                    "--secret", "user=RM012345", "--secret", "password=segreto",
                    "--secret-file", f"wskey={wskey}", "--json")
    assert view["police_connector"] == "alloggiati"
    assert view["police_settings"] == {"apartment_id": "000123"}
    assert view["police_credentials_set"] == ["password", "user", "wskey"]
    result = cli("police", "configure", "--account", account, "--property", prop)
    assert "segreto" not in result.output and "KEY-FROM-FILE" not in result.output
    assert "credentials set: password, user, wskey" in result.output


def test_configure_refuses_unknown_settings_and_bad_pairs(cli):  # noqa: F811
    account, prop = setup_property(cli)
    result = cli("police", "configure", "--account", account, "--property", prop,
                 "--connector", "alloggiati", "--set", "color=blue", expect=1)
    assert "police_settings.color" in result.output
    cli("police", "configure", "--account", account, "--property", prop, "--secret", "novalue",
        expect=2)


def test_refresh_codes_loads_the_published_table_and_it_takes_precedence(cli, tmp_path):  # noqa: F811
    setup_property(cli)
    published = tmp_path / "luoghi.csv"
    published.write_text(PUBLISHED_LUOGHI, encoding="latin-1")
    result = cli("police", "refresh-codes", "--country", "IT", str(published))
    assert "IT luoghi: 4 codes loaded" in result.output
    from rentalcomply.police import codes
    codes.configure(cli.data_dir)
    try:
        assert codes.it_municipality("Nuovo Comune").code == "499999999"
        assert codes.it_municipality("Monza", "MB", dt.date(1990, 1, 1)).code == "403015149"
        assert codes.it_municipality("Milano") is None  # not in the refreshed table
    finally:
        codes.configure(None)


def test_refresh_codes_refuses_a_file_that_is_not_a_table(cli, tmp_path):  # noqa: F811
    setup_property(cli)
    bad = tmp_path / "bad.csv"
    bad.write_text("name,value\nx,y\n")
    result = cli("police", "refresh-codes", "--country", "IT", str(bad), expect=1)
    assert "Codice" in result.output


def test_run_files_what_is_due(cli):  # noqa: F811
    setup_property(cli)
    result = cli("police", "run")
    assert "queued: 0" in result.output
