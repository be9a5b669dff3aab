"""What a backup keeps beside the database (files/), and what a restore takes from an archive."""

from __future__ import annotations

import json
import tarfile

from tests.cli.conftest import keys_in
from tests.cli.test_ops import write_archive


def test_a_report_file_path_that_climbs_out_is_refused(cli, tmp_path):
    cli("init")
    database = (cli.data_dir / "rentalcomply.db").read_bytes()
    evil = tmp_path / "evil.tar.gz"
    write_archive(evil, {"manifest.json": b'{"format": 2}', "rentalcomply.db": database,
                         "files/reports/acc_x/../../../evil.pdf": b"boom"})
    result = cli("restore", str(evil), expect=1)
    assert "not a RentalComply backup" in result.stderr
    assert not (tmp_path / "evil.pdf").exists()


def legacy_report_on_disk(cli, account_id: str) -> list:
    """A report as an earlier version kept it: its files in a folder of the data directory,
    the row naming the folder."""
    import sqlite3
    cli("reports", "generate", "--account", account_id, "--period", "2026-09")
    folder = cli.data_dir / "reports" / account_id / "rep_2026_09-0123456789ab"
    folder.mkdir(parents=True)
    files = {"dir": folder.name}
    for fmt in ("pdf", "xml", "csv"):
        (folder / f"rep_2026_09.{fmt}").write_bytes(f"{fmt} of an earlier version".encode())
        files[fmt] = {"name": f"rep_2026_09.{fmt}", "size": 24}
    with sqlite3.connect(cli.data_dir / "rentalcomply.db") as connection:
        connection.execute("UPDATE report SET files = ? WHERE code = 'rep_2026_09'",
                           (json.dumps(files),))
        connection.execute("DELETE FROM report_file")
    return sorted(folder.iterdir())


def test_a_backup_keeps_report_files_an_earlier_version_left_on_disk(cli, tmp_path):
    assert keys_in(cli("init").stdout)
    [account] = cli.json("accounts", "list")["data"]
    legacy_report_on_disk(cli, account["id"])
    archive = tmp_path / "site.tar.gz"
    cli("backup", "--output", str(archive))
    with tarfile.open(archive) as opened:
        names = opened.getnames()
    reports = sorted(n for n in names if n.startswith("files/reports/"))
    assert [n.rsplit(".", 1)[1] for n in reports] == ["csv", "pdf", "xml"]

    elsewhere = type(cli)(tmp_path / "restored", cli.env)
    elsewhere("restore", str(archive))
    for name in reports:
        restored = elsewhere.data_dir / name.removeprefix("files/")
        assert restored.read_bytes() == (cli.data_dir / name.removeprefix("files/")).read_bytes()
    exported = tmp_path / "out.csv"
    elsewhere("reports", "export", "--account", account["id"], "--period", "2026-09",
              "--format", "csv", "--output", str(exported))
    assert exported.read_bytes() == b"csv of an earlier version"


def test_a_report_made_now_is_kept_in_the_database_and_comes_back_with_it(cli, tmp_path):
    cli("init")
    [account] = cli.json("accounts", "list")["data"]
    cli("reports", "generate", "--account", account["id"], "--period", "2026-09")
    assert not (cli.data_dir / "reports").exists()
    archive = tmp_path / "site.tar.gz"
    cli("backup", "--output", str(archive))
    elsewhere = type(cli)(tmp_path / "restored", cli.env)
    elsewhere("restore", str(archive))
    for where in (cli, elsewhere):
        where("reports", "export", "--account", account["id"], "--period", "2026-09",
              "--format", "csv", "--output", str(tmp_path / f"{where.data_dir.name}.csv"))
    assert (tmp_path / "data.csv").read_bytes() == (tmp_path / "restored.csv").read_bytes()


def test_a_report_file_deleted_by_hand_is_named_and_the_backup_still_runs(cli, tmp_path):
    cli("init")
    [account] = cli.json("accounts", "list")["data"]
    pdf = [path for path in legacy_report_on_disk(cli, account["id"]) if path.suffix == ".pdf"][0]
    pdf.unlink()
    archive = tmp_path / "site.tar.gz"
    result = cli("backup", "--output", str(archive))
    assert "Backup written" in result.stdout
    assert f"{pdf.name} is missing" in result.stderr
    with tarfile.open(archive) as opened:
        manifest = json.load(opened.extractfile("manifest.json"))
        names = opened.getnames()
    assert [name.rsplit("/", 1)[1] for name in manifest["missing_files"]] == [pdf.name]
    assert sum(name.startswith("files/reports/") for name in names) == 2


def test_on_postgresql_a_backup_keeps_the_secret_and_config_and_names_pg_dump(cli, tmp_path):
    from tests.conftest import scratch_postgres_database
    with scratch_postgres_database() as url:
        on_postgres = {"RENTALCOMPLY_DATABASE_URL": url}
        config = tmp_path / "config.toml"
        config.write_text("[server]\nthreads = 3\n")
        cli("init", env=on_postgres)
        account = cli.json("accounts", "create", "Agency", env=on_postgres)
        archive = tmp_path / "files-and-key.tar.gz"
        result = cli("--config", str(config), "backup", "--output", str(archive), env=on_postgres,
                     global_args=["--data-dir", str(cli.data_dir)])
        assert "the database is PostgreSQL: back it up with its own tool, e.g. `pg_dump " \
               "--format=custom" in result.stderr
        with tarfile.open(archive) as opened:
            names = opened.getnames()
            manifest = json.load(opened.extractfile("manifest.json"))
        assert "rentalcomply.db" not in names and {"secret.key", "config.toml"} <= set(names)
        assert manifest["database"] == "postgresql"

        # Onto a new machine's data directory, on the same database: the secret comes back, so
        # the keys made before work there.
        secret = (cli.data_dir / "secret.key").read_text()
        (cli.data_dir / "secret.key").unlink()
        cli("restore", str(archive), env=on_postgres)
        assert (cli.data_dir / "secret.key").read_text() == secret
        assert account["id"] in {a["id"] for a in cli.json("accounts", "list", env=on_postgres)["data"]}

        # An archive without a database is never restored over a SQLite one, nor the reverse.
        refused = cli("restore", str(archive), expect=1)
        assert "holds no database (it was made on postgresql)" in refused.stderr
    cli("init")
    cli("backup", "--output", str(tmp_path / "sqlite.tar.gz"))
    refused = cli("restore", str(tmp_path / "sqlite.tar.gz"),
                  env={"RENTALCOMPLY_DATABASE_URL": "postgresql://postgres@127.0.0.1:1/none"},
                  expect=1)
    assert "holds a SQLite database, and database.url names PostgreSQL" in refused.stderr


def test_a_backup_to_a_place_that_cannot_be_written_is_a_message_not_a_traceback(cli, tmp_path):
    cli("init")
    result = cli("backup", "--output", "/proc/x.tgz", expect=1)
    assert "cannot write the backup to /proc/x.tgz:" in result.output
    assert "Traceback" not in result.output
    assert not list(tmp_path.glob("*.partial"))


def test_a_backup_into_a_folder_writes_a_dated_archive_there(cli, tmp_path):
    cli("init")
    folder = tmp_path / "backups"
    folder.mkdir()
    cli("backup", "--output", str(folder))
    [archive] = folder.iterdir()
    assert archive.name.startswith("rentalcomply-backup-") and archive.name.endswith(".tar.gz")
