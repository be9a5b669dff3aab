"""`rentalcomply reports generate` and `reports list`."""

import json

from tests.cli.conftest import cli  # noqa: F401 - the fixture


def setup_account(cli):  # noqa: F811
    cli("init")
    account = cli.json("accounts", "create", "Agency C")
    cli("properties", "create", "--account", account["id"], "--name", "Studio", "--address",
        "Athens", "--aade-property-id", "00000000009")
    return account["id"]


def test_generate_prints_the_report_as_json(cli):  # noqa: F811
    account = setup_account(cli)
    report = cli.json("reports", "generate", "--account", account, "--period", "2026-03")
    assert report["id"] == "rep_2026_03" and report["status"] == "completed"
    assert report["booking_count"] == 0 and report["due_date"] == "2026-04-20"
    assert set(report["files"]) == {"pdf", "xml", "csv"}


def test_generate_tells_a_person_what_it_made_and_where(cli):  # noqa: F811
    account = setup_account(cli)
    result = cli("reports", "generate", "--account", "Agency C", "--period", "2026")
    assert "Report rep_2026: completed" in result.output
    assert "files (sealed, in the database): rep_2026.pdf" in result.output
    assert f"reports export --account {account} --period 2026" in result.output


def test_a_bad_period_is_an_error_naming_it(cli):  # noqa: F811
    setup_account(cli)
    result = cli("reports", "generate", "--account", "Agency C", "--period", "2026-13", expect=1)
    assert "period" in result.output


def test_list_shows_the_generated_reports(cli):  # noqa: F811
    account = setup_account(cli)
    cli("reports", "generate", "--account", account, "--period", "2026-03")
    listed = json.loads(cli("reports", "list", "--account", account, "--json").stdout)
    assert [r["id"] for r in listed["data"]] == ["rep_2026_03"]
    assert "rep_2026_03" in cli("reports", "list", "--account", account).output


def test_export_writes_a_file_opened_while_the_stored_one_is_sealed(cli, tmp_path):  # noqa: F811
    account = setup_account(cli)
    cli("reports", "generate", "--account", account, "--period", "2026-03")
    target = tmp_path / "out.csv"
    result = cli("reports", "export", "--account", account, "--period", "2026-03", "--format",
                 "csv", "--output", str(target))
    assert "wrote" in result.output
    assert target.read_bytes().startswith(b'\xef\xbb\xbf"ama","arrival_date"')
    import sqlite3
    with sqlite3.connect(cli.data_dir / "rentalcomply.db") as connection:
        [(stored,)] = connection.execute("SELECT content FROM report_file WHERE format = 'csv'")
    assert "arrival_date" not in stored and stored.isascii()  # sealed


def test_export_of_a_report_never_generated_is_an_error(cli):  # noqa: F811
    account = setup_account(cli)
    result = cli("reports", "export", "--account", account, "--period", "2026-03", "--output",
                 "x.pdf", expect=1)
    assert "report" in result.output.lower()


def generated(cli):  # noqa: F811
    account = setup_account(cli)
    cli("reports", "generate", "--account", account, "--period", "2026-03")
    return account


def test_download_into_a_folder_that_does_not_exist_is_a_message_not_a_traceback(cli, tmp_path):  # noqa: F811,E501
    account = generated(cli)
    missing = tmp_path / "nonexistent" / "dir" / "x.csv"
    for command in (["download", "rep_2026_03"], ["export", "--period", "2026-03"]):
        result = cli("reports", *command, "--account", account, "--format", "csv", "--output",
                     str(missing), expect=1)
        assert f"cannot write {missing}: there is no folder {missing.parent}" in result.output
        assert "Traceback" not in result.output
    assert not (tmp_path / "nonexistent").exists()


def test_download_to_a_place_the_system_refuses_is_a_message(cli):  # noqa: F811
    account = generated(cli)
    for command in (["download", "rep_2026_03"], ["export", "--period", "2026-03"]):
        result = cli("reports", *command, "--account", account, "--output", "/proc/x.pdf",
                     expect=1)
        assert "cannot write /proc/x.pdf:" in result.output and "Traceback" not in result.output


def test_download_into_a_folder_writes_the_reports_own_file_name_inside(cli, tmp_path,  # noqa: F811
                                                                        monkeypatch):
    account = generated(cli)
    monkeypatch.chdir(tmp_path)
    written = cli.json("reports", "download", "rep_2026_03", "--account", account, "--format",
                       "xml", "--output", "newdir/")
    assert written["path"] == "newdir/rep_2026_03.xml"
    assert (tmp_path / "newdir" / "rep_2026_03.xml").read_bytes().startswith(b"<?xml")
    (tmp_path / "existing").mkdir()
    cli("reports", "export", "--account", account, "--period", "2026-03", "--output", "existing")
    assert (tmp_path / "existing" / "rep_2026_03.pdf").read_bytes().startswith(b"%PDF")


def test_download_to_standard_output_writes_the_file_there(cli):  # noqa: F811
    account = generated(cli)
    result = cli("reports", "download", "rep_2026_03", "--account", account, "--format", "csv",
                 "--output", "-")
    assert result.stdout_bytes.startswith(b'\xef\xbb\xbf"ama","arrival_date"')


def test_download_of_a_report_that_never_existed_says_there_is_none(cli):  # noqa: F811
    account = generated(cli)
    result = cli("reports", "download", "rep_2099_01", "--account", account, expect=1)
    assert "There is no report rep_2099_01" in result.output
    assert "no longer" not in result.output
