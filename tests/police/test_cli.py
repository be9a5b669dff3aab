"""`rentalcomply police configure`, `police refresh-codes` and `police run`."""

import datetime as dt
from pathlib import Path

from rentalcomply.core import clock
from tests.cli.conftest import cli  # noqa: F401 - the fixture

TABLES = Path(__file__).parent / "alloggiati_tables"  # the authority's files (see README there)


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


def test_refresh_codes_loads_the_four_files_of_the_portal_in_one_call(cli):  # noqa: F811
    setup_property(cli)
    result = cli("police", "refresh-codes", "--country", "IT",
                 *[str(TABLES / name) for name in ("tipo_alloggiato.csv", "documenti.csv",
                                                   "stati.csv", "comuni.csv")])
    assert result.output.splitlines() == [
        "IT comuni: 11284 codes loaded from comuni.csv",
        "IT stati: 236 codes loaded from stati.csv",
        "IT documenti: 95 codes loaded from documenti.csv",
        "IT tipo_alloggiato: 5 codes loaded from tipo_alloggiato.csv"]
    from rentalcomply import codes
    info = {t.name: t for t in codes.status("IT")}
    assert not any(t.shipped for t in info.values()) and codes.it_full()
    assert info["comuni"].source == ("Alloggiati Web files (comuni.csv, stati.csv, documenti.csv, "
                                     "tipo_alloggiato.csv)")
    assert codes.it_municipality("Abano Terme").code == "405028001"
    assert codes.it_municipality("Monza", "MB", dt.date(2009, 6, 15)).code == "403015149"
    assert codes.it_document_type("passport") == "PASOR"
    assert "PORM1" in codes.table("IT", "documenti").by_code
    again = cli("police", "refresh-codes", "--country", "IT", str(TABLES / "documenti.csv"))
    assert again.output == "IT documenti: 95 codes loaded from documenti.csv\n"
    assert codes.table_info("IT", "documenti").version == 2
    assert codes.table_info("IT", "comuni").version == 1


def test_refresh_codes_loads_nothing_when_one_file_is_bad(cli, tmp_path):  # noqa: F811
    setup_property(cli)
    bad = tmp_path / "comuni.csv"
    bad.write_text("Codice,Descrizione,Provincia,DataFineVal\n405028001,ABANO TERME,PD,\n"
                   "40502800X,BROKEN,PD,\n")
    result = cli("police", "refresh-codes", "--country", "IT", str(TABLES / "stati.csv"),
                 str(bad), expect=1)
    assert "comuni.csv line 3: '40502800X' is not a code of the comuni table" in result.output
    from rentalcomply import codes
    assert all(t.shipped for t in codes.status("IT"))
    twice = cli("police", "refresh-codes", "--country", "IT", str(TABLES / "stati.csv"),
                str(TABLES / "stati.csv"), expect=1)
    assert "both hold the stati table" in twice.output


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
    assert result.output == "ES catalogue loaded from parentesco.xml: parentesco 5\n"
    from rentalcomply.codes import es
    assert set(es.catalogue()["parentesco"]) == {"PM", "TU", "AB", "HR", "OT"}
    assert "CY" not in es.catalogue()["parentesco"]  # the shipped list is replaced
    assert es.catalogue()["municipios"]["28079"] == "Madrid"  # the other lists are kept


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


def test_doctor_shows_each_tables_source_date_and_rows_and_fails_when_the_refresh_stopped(cli):  # noqa: F811
    import sqlite3
    account, prop = setup_property(cli)
    cli("police", "configure", "--account", account, "--property", prop,
        "--connector", "alloggiati")
    checks = {c["name"]: c for c in cli.json("doctor", expect=1)["data"]}
    italy = checks["police code tables IT"]
    assert italy["ok"]  # the shipped tables are the authority's own, even where a property files
    assert italy["detail"] == (
        "comuni 11284 rows, stati 236 rows, documenti 95 rows, tipo_alloggiato 5 rows (Alloggiati "
        "Web, the portal's Tabelle page (shipped with rentalcomply), published 2025-04)")
    cli("police", "refresh-codes", "--country", "IT", *[str(TABLES / name) for name in (
        "comuni.csv", "stati.csv", "documenti.csv", "tipo_alloggiato.csv")])
    result = cli("doctor", expect=1)  # the property has no credentials yet
    today = clock.utcnow().strftime("%Y-%m-%d")  # the product's clock, moved as the CLI's is
    assert (f"ok    police code tables IT: comuni 11284 rows, stati 236 rows, documenti 95 rows, "
            f"tipo_alloggiato 5 rows (Alloggiati Web files (comuni.csv, stati.csv, documenti.csv, "
            f"tipo_alloggiato.csv), loaded {today})") in result.stdout
    with sqlite3.connect(cli.data_dir / "rentalcomply.db") as connection:
        connection.execute("UPDATE police_code_table SET loaded_at = '2020-01-01 00:00:00' "
                           "WHERE id = 'IT/stati'")
    assert "FAIL  police code tables IT: older than 30 days: stati (the weekly refresh from " \
           "alloggiati has not loaded them" in cli("doctor", expect=1).stdout


def test_doctor_asks_each_authority_whether_it_accepts_the_credentials(cli):  # noqa: F811
    from tests.police.soap_double import AlloggiatiDouble
    from tests.police.soap_doubles_es_pt import SesDouble
    alloggiati = AlloggiatiDouble()
    try:
        with SesDouble() as ses:
            env = {"RENTALCOMPLY_POLICE_ALLOGGIATI_URL": alloggiati.url,
                   "RENTALCOMPLY_POLICE_SES_URL": ses.url}
            account, italian = setup_property(cli)
            spanish = cli.json("properties", "create", "--account", account, "--name", "Casa Sol",
                               "--address", "Madrid", "--country", "ES", "--timezone",
                               "Europe/Madrid", "--json")["id"]
            cli("police", "configure", "--account", account, "--property", italian,
                "--connector", "alloggiati", "--secret", "user=RM012345", "--secret",
                "password=segreto", "--secret", "wskey=WSKEY1")
            cli("police", "configure", "--account", account, "--property", spanish,
                "--connector", "ses_hospedajes", "--secret", "user=ses-user", "--secret",
                "password=ses-pass")
            checks = {c["name"]: c for c in cli.json("doctor", env=env, expect=None)["data"]}
            assert checks["police credentials Alloggiati Web (Casa)"] == {
                "name": "police credentials Alloggiati Web (Casa)", "ok": True,
                "detail": "Alloggiati Web gave a token (GenerateToken)"}
            assert checks["police credentials SES.Hospedajes (Casa Sol)"]["ok"]
            assert alloggiati.calls == ["GenerateToken"] and ses.received == []  # nothing filed

            cli("police", "configure", "--account", account, "--property", italian,
                "--secret", "password=sbagliata")
            ses.password = "changed-at-the-ministry"
            result = cli("doctor", env=env, expect=1)
            assert "FAIL  police credentials Alloggiati Web (Casa): Alloggiati Web refused the " \
                   "credentials: Utente o password non validi" in result.stdout
            assert "FAIL  police credentials SES.Hospedajes (Casa Sol): SES.Hospedajes refused " \
                   "the credentials (HTTP 401)" in result.stdout
            assert "rentalcomply police configure" in result.stdout
            assert "sbagliata" not in result.output and "ses-pass" not in result.output
    finally:
        alloggiati.down()


def test_refresh_codes_without_files_loads_the_tables_from_the_authority_now(cli):  # noqa: F811
    from tests.police.ine_double import IneDouble
    from tests.police.soap_double import AlloggiatiDouble
    alloggiati = AlloggiatiDouble()
    try:
        with IneDouble() as ine:
            env = {"RENTALCOMPLY_POLICE_ALLOGGIATI_URL": alloggiati.url,
                   "RENTALCOMPLY_POLICE_INE_MUNICIPALITIES_URL": ine.url}
            account, prop = setup_property(cli)
            result = cli("police", "refresh-codes", "--country", "IT", env=env, expect=1)
            assert result.output.splitlines()[0] == (
                "IT: not refreshed: no property files with Alloggiati Web with its credentials")
            assert "IT comuni: 11284 rows, Alloggiati Web, the portal's Tabelle page (shipped " \
                   "with rentalcomply), published 2025-04" in result.output
            cli("police", "configure", "--account", account, "--property", prop,
                "--connector", "alloggiati", "--secret", "user=RM012345", "--secret",
                "password=segreto", "--secret", "wskey=WSKEY1")
            result = cli("police", "refresh-codes", "--country", "IT", env=env)
            assert result.output.splitlines()[0] == "IT: refreshed from Alloggiati Web"
            assert "IT comuni: 11284 rows, Alloggiati Web, operation Tabella, loaded " \
                   in result.output and "Tabella" in alloggiati.calls
            result = cli("police", "refresh-codes", "--country", "ES", env=env)
            assert result.output.splitlines()[:2] == [
                "ES: not refreshed: no property files with SES.Hospedajes with its credentials",
                "INE: refreshed from INE"]
            assert "ES municipios: 8112 rows, INE, diccionario26.xlsx, loaded " in result.output
    finally:
        alloggiati.down()


def test_doctor_in_its_own_process_checks_the_credentials_of_every_authority(cli):  # noqa: F811
    # `doctor` runs without the server's start-up, which is what registers the authorities: run
    # as an operator runs it (a fresh process), it once failed the SES check with a KeyError.
    import os
    import subprocess
    import sys

    from tests.police.soap_double import AlloggiatiDouble
    from tests.police.soap_doubles_es_pt import SesDouble
    alloggiati = AlloggiatiDouble()
    try:
        with SesDouble() as ses:
            account, italian = setup_property(cli)
            made = {country: cli.json("properties", "create", "--account", account, "--name",
                                      name, "--address", "Somewhere", "--country", country,
                                      *extra, "--json")["id"]
                    for country, name, extra in (
                        ("ES", "Casa Sol", ["--timezone", "Europe/Madrid"]),
                        ("PT", "Casa Azul", ["--timezone", "Europe/Lisbon"]),
                        ("GR", "Villa Anemoi", ["--aade-property-id", "00001234567"]))}
            for prop, connector, secrets in (
                    (italian, "alloggiati", ["user=RM012345", "password=segreto", "wskey=WSKEY1"]),
                    (made["ES"], "ses_hospedajes", ["user=ses-user", "password=ses-pass"]),
                    (made["PT"], "siba", ["chave_acesso=999999999"])):
                cli("police", "configure", "--account", account, "--property", prop,
                    "--connector", connector, *[a for s in secrets for a in ("--secret", s)])
            env = {**os.environ, **cli.env, "PYTHONPATH": str(Path(__file__).parents[2]),
                   "RENTALCOMPLY_POLICE_ALLOGGIATI_URL": alloggiati.url,
                   "RENTALCOMPLY_POLICE_SES_URL": ses.url}
            result = subprocess.run(
                [sys.executable, "-m", "rentalcomply", "--data-dir", str(cli.data_dir), "doctor",
                 "--json"], env=env, capture_output=True, text=True, timeout=120)
    finally:
        alloggiati.down()
    import json
    checks = {c["name"]: c for c in json.loads(result.stdout)["data"]}
    credentials = {name: c for name, c in checks.items() if name.startswith("police credentials")}
    assert set(credentials) == {"police credentials Alloggiati Web (Casa)",
                                "police credentials SES.Hospedajes (Casa Sol)",
                                "police credentials SIBA (Casa Azul)"}, credentials
    assert credentials["police credentials Alloggiati Web (Casa)"]["ok"]
    assert credentials["police credentials SES.Hospedajes (Casa Sol)"] == {
        "name": "police credentials SES.Hospedajes (Casa Sol)", "ok": True,
        "detail": "SES.Hospedajes accepted the user and password (catalogo)"}
    # SIBA offers no call that files nothing; Greece's AADE reports are uploaded by the host, so
    # no AADE credential is kept to check (its property has no line here, and no error).
    assert credentials["police credentials SIBA (Casa Azul)"] == {
        "name": "police credentials SIBA (Casa Azul)", "ok": True,
        "detail": "SIBA offers no check that files nothing; the first filing checks them"}
    assert "KeyError" not in result.stdout + result.stderr
