"""backup, restore and doctor."""

from __future__ import annotations

import datetime as dt
import io
import json
import sqlite3
import tarfile

import pytest

from rentalcomply.config import load_settings
from rentalcomply.ops.backup import BackupError, create_backup, restore_backup
from tests.cli.conftest import Cli, keys_in
from tests.cli.test_commands import key_works


@pytest.fixture
def initialised(cli):
    """A data directory after `init`, with a second account; returns the first key."""
    key = keys_in(cli("init").stdout)[0]
    cli("accounts", "create", "Second Agency")
    return key


def other_cli(cli, tmp_path, name="restored") -> Cli:
    return Cli(tmp_path / name, cli.env)


def write_archive(path, members: dict[str, bytes]):
    with tarfile.open(path, "w:gz") as archive:
        for name, body in members.items():
            info = tarfile.TarInfo(name)
            info.size = len(body)
            archive.addfile(info, io.BytesIO(body))


# --- backup and restore -------------------------------------------------------------------------

def test_a_backup_restored_into_an_empty_directory_brings_back_accounts_and_keys(
        cli, initialised, tmp_path):
    archive = tmp_path / "site.tar.gz"
    assert "Backup written" in cli("backup", "--output", str(archive)).stdout
    with tarfile.open(archive) as opened:
        names = set(opened.getnames())
    assert {"manifest.json", "rentalcomply.db", "secret.key"} <= names
    assert oct(archive.stat().st_mode & 0o777) == oct(0o600)

    elsewhere = other_cli(cli, tmp_path)
    assert "Restored" in elsewhere("restore", str(archive)).stdout
    names = {a["name"] for a in elsewhere.json("accounts", "list")["data"]}
    assert names == {"default", "Second Agency"}
    assert key_works(elsewhere, initialised)
    assert "FAIL" not in elsewhere("doctor").stdout


def test_a_restore_moves_the_current_files_aside_first(cli, initialised, tmp_path):
    archive = tmp_path / "site.tar.gz"
    cli("backup", "--output", str(archive))
    cli("accounts", "create", "Made after the backup")
    result = cli("restore", str(archive))
    assert "previous files are in" in result.stdout
    names = {a["name"] for a in cli.json("accounts", "list")["data"]}
    assert "Made after the backup" not in names
    [aside] = cli.data_dir.glob("before-restore-*")
    with sqlite3.connect(aside / "rentalcomply.db") as connection:
        rows = connection.execute("SELECT name FROM account").fetchall()
    assert ("Made after the backup",) in rows


def test_backups_in_the_backup_directory_are_pruned_to_backup_keep(cli, initialised):
    settings = load_settings(cli.data_dir, env={**cli.env, "RENTALCOMPLY_BACKUP_KEEP": "2"})
    start = dt.datetime(2026, 11, 1, 3, 0, tzinfo=dt.timezone.utc)
    made = [create_backup(settings, now=start + dt.timedelta(days=i))[0] for i in range(4)]
    remaining = sorted((cli.data_dir / "backups").iterdir())
    assert remaining == made[2:]


def test_the_backup_command_writes_a_dated_file_in_the_backup_directory(cli, initialised):
    cli("backup")
    [archive] = (cli.data_dir / "backups").glob("rentalcomply-backup-*.tar.gz")
    manifest = json.load(tarfile.open(archive).extractfile("manifest.json"))
    assert manifest["secret_included"] is True
    assert "rentalcomply.db" in manifest["files"]


def test_a_backup_without_a_database_says_so(cli):
    result = cli("backup", expect=1)
    assert "no database" in result.stderr


def test_a_backup_of_a_postgresql_database_points_at_its_own_tools(cli, tmp_path):
    settings = load_settings(tmp_path, env={"RENTALCOMPLY_DATABASE_URL": "postgresql://x@y/z"})
    with pytest.raises(BackupError, match="pg_dump"):
        create_backup(settings)


def test_restore_refuses_a_file_that_is_not_a_backup_and_changes_nothing(cli, initialised,
                                                                         tmp_path):
    bogus = tmp_path / "bogus.tar.gz"
    bogus.write_bytes(b"not a tarball")
    result = cli("restore", str(bogus), expect=1)
    assert "not a RentalComply backup" in result.stderr
    assert key_works(cli, initialised)
    assert not list(cli.data_dir.glob("before-restore-*"))


def test_restore_refuses_an_archive_with_a_path_outside_the_data_directory(cli, initialised,
                                                                         tmp_path):
    evil = tmp_path / "evil.tar.gz"
    write_archive(evil, {"manifest.json": b"{}", "rentalcomply.db": b"",
                         "../../etc/cron.d/x": b"boom"})
    result = cli("restore", str(evil), expect=1)
    assert "not a RentalComply backup" in result.stderr
    assert not (tmp_path / "etc").exists()


def test_restore_refuses_a_damaged_database_before_touching_anything(cli, initialised, tmp_path):
    damaged = tmp_path / "damaged.tar.gz"
    write_archive(damaged, {"manifest.json": b"{}", "rentalcomply.db": b"x" * 4096})
    result = cli("restore", str(damaged), expect=1)
    assert "integrity" in result.stderr
    assert key_works(cli, initialised)


def test_restore_of_a_missing_file_says_so(cli, tmp_path):
    settings = load_settings(cli.data_dir, env=dict(cli.env))
    with pytest.raises(BackupError, match="no backup file"):
        restore_backup(settings, tmp_path / "missing.tar.gz")


# --- doctor -------------------------------------------------------------------------------------

def test_doctor_passes_on_a_fresh_installation(cli, initialised):
    result = cli("doctor")
    assert "FAIL" not in result.stdout
    checks = {c["name"]: c for c in cli.json("doctor")["data"]}
    assert checks["database integrity"]["ok"] and checks["migrations"]["ok"]
    assert checks["server secret"]["ok"]


def test_doctor_fails_when_the_secret_is_missing(cli, initialised):
    (cli.data_dir / "secret.key").unlink()
    result = cli("doctor", expect=1)
    assert "FAIL  server secret" in result.stdout


def test_doctor_fails_when_the_secret_is_readable_by_others(cli, initialised):
    (cli.data_dir / "secret.key").chmod(0o644)
    assert "chmod 600" in cli("doctor", expect=1).stdout


def test_doctor_reports_pending_migrations_without_applying_them(cli):
    cli.data_dir.mkdir(parents=True)
    (cli.data_dir / "secret.key").write_text("s" * 64)
    (cli.data_dir / "secret.key").chmod(0o600)
    with sqlite3.connect(cli.data_dir / "rentalcomply.db") as connection:
        connection.execute("CREATE TABLE unrelated (a)")
    result = cli("doctor", expect=1)
    assert "pending: 0001_initial" in result.stdout
    with sqlite3.connect(cli.data_dir / "rentalcomply.db") as connection:
        tables = {r[0] for r in connection.execute("SELECT name FROM sqlite_master")}
    assert "account" not in tables


def test_doctor_fails_on_a_damaged_database(cli, initialised):
    path = cli.data_dir / "rentalcomply.db"
    for suffix in ("-wal", "-shm"):
        (cli.data_dir / f"rentalcomply.db{suffix}").unlink(missing_ok=True)
    path.write_bytes(b"garbage" * 1000)
    result = cli("doctor", expect=1)
    assert "FAIL  database integrity" in result.stdout


def test_doctor_says_what_to_do_on_an_empty_data_directory(cli):
    result = cli("doctor", expect=1)
    assert "run rentalcomply init" in result.stdout


def test_doctor_fails_when_the_data_directory_is_open_to_others(cli, initialised):
    cli.data_dir.chmod(0o755)
    (cli.data_dir / "rentalcomply.db").chmod(0o644)
    result = cli("doctor", expect=1)
    assert "FAIL  data directory modes" in result.stdout
    assert "(0755)" in result.stdout and "rentalcomply.db (0644)" in result.stdout
    cli.data_dir.chmod(0o700)
    for path in cli.data_dir.iterdir():  # SQLite gave the -wal and -shm files the 0644 too
        path.chmod(0o600)
    assert "ok    data directory modes" in cli("doctor").stdout
