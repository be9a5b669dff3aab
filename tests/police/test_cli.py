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


PUBLISHED_PARENTESCO = (
    '<ns3:catalogoResponse xmlns:ns3="http://www.soap.servicios.hospedajes.mir.es/comunicacion">'
    "<resultado><codigo>0</codigo><descripcion>Ok</descripcion></resultado><respuesta><resultado>"
    "<tupla><codigo>PM</codigo><descripcion>Padre o madre</descripcion></tupla>"
    "<tupla><codigo>TU</codigo><descripcion>Tutor/a</descripcion></tupla>"
    "<tupla><codigo>AB</codigo><descripcion>Abuelo/a</descripcion></tupla>"
    "<tupla><codigo>HR</codigo><descripcion>Hermano/a</descripcion></tupla>"
    "<tupla><codigo>OT</codigo><descripcion>Otro</descripcion></tupla>"
    "</resultado></respuesta></ns3:catalogoResponse>")


def test_refresh_codes_loads_a_spanish_catalogue_into_the_data_directory(cli, tmp_path):  # noqa: F811
    setup_property(cli)
    published = tmp_path / "parentesco.xml"
    published.write_text(PUBLISHED_PARENTESCO, "utf-8")
    result = cli("police", "refresh-codes", "--country", "es", str(published))
    assert "ES catalogue saved" in result.output and "parentesco 5" in result.output
    from rentalcomply.police import codes
    from rentalcomply.police.codes import es
    codes.configure(cli.data_dir)
    es.use_directory(None)
    try:
        assert set(es.catalogue()["parentesco"]) == {"PM", "TU", "AB", "HR", "OT"}
        assert "CY" not in es.catalogue()["parentesco"]  # the shipped list is replaced
        assert es.catalogue()["municipios"]["28079"] == "Madrid"  # the other lists are kept
    finally:
        codes.configure(None)
        es.use_directory(None)


def test_refresh_codes_refuses_a_spanish_file_it_cannot_read(cli, tmp_path):  # noqa: F811
    setup_property(cli)
    unknown = tmp_path / "colores.xml"
    unknown.write_text(PUBLISHED_PARENTESCO, "utf-8")
    result = cli("police", "refresh-codes", "--country", "ES", str(unknown), expect=1)
    assert "say which catalogue" in result.output
    result = cli("police", "refresh-codes", "--country", "ES", "--table", "colores", str(unknown),
                 expect=2)
    result = cli("police", "refresh-codes", "--country", "ES", "--table", "parentesco",
                 str(unknown))
    assert "parentesco 5" in result.output
