"""The daily backup the worker makes, archives whose members must match their checksums, and the
doctor's word on the newest backup."""

from __future__ import annotations

import datetime as dt
import io
import json
import os
import tarfile
import time

from rentalcomply.config import load_settings
from rentalcomply.ops import backup, sealed_archive
from rentalcomply.ops import tasks as ops_tasks


def settings_of(cli, **env):
    return load_settings(data_dir=cli.data_dir, env={**cli.env, **env})


def test_the_daily_backup_is_due_once_a_day_at_its_hour(cli):
    cli("init")
    ops_tasks.configure(settings_of(cli, RENTALCOMPLY_BACKUP_DAILY_HOUR_UTC="3"))
    due = [hour for hour in range(24) for minute in range(60)
           if ops_tasks._due(dt.datetime(2026, 11, 23, hour, minute))]
    assert due == [3]
    ops_tasks.configure(settings_of(cli, RENTALCOMPLY_BACKUP_DAILY="false"))
    assert not ops_tasks._due(dt.datetime(2026, 11, 23, 2, 41))


def test_the_daily_backup_is_encrypted_private_and_keeps_the_newest(cli, tmp_path):
    cli("init")
    (tmp_path / "passphrase").write_text("daily secret\n")
    settings = settings_of(cli, RENTALCOMPLY_BACKUP_PASSPHRASE_FILE=str(tmp_path / "passphrase"),
                           RENTALCOMPLY_BACKUP_KEEP="2")
    old_umask = os.umask(0o022)
    try:
        made = [backup.daily_backup(settings, now=dt.datetime(2026, 11, day, 2, 41,
                                                              tzinfo=dt.timezone.utc))
                for day in (20, 21, 22)]
    finally:
        os.umask(old_umask)
    directory = backup.backup_directory(settings)
    assert sorted(p.name for p in directory.iterdir()) == [p.name for p in made[1:]]
    assert all(p.name.endswith(".tar.gz.enc") for p in made)
    assert oct(directory.stat().st_mode & 0o777) == oct(0o700)
    assert sealed_archive.is_sealed(made[-1].read_bytes())
    assert "FAIL" not in cli("doctor").stdout  # the backups folder is private too


def test_a_member_that_does_not_match_its_checksum_is_refused(cli, tmp_path):
    cli("init")
    archive = tmp_path / "site.tar.gz"
    cli("backup", "--output", str(archive))
    damaged = tmp_path / "damaged.tar.gz"
    with tarfile.open(archive) as source, tarfile.open(damaged, "w:gz") as target:
        for member in source.getmembers():
            data = source.extractfile(member).read()
            if member.name == "secret.key":
                data = data[:-2] + b"xx"
            member.size = len(data)
            target.addfile(member, io.BytesIO(data))
    result = cli("restore", str(damaged), expect=1)
    assert "secret.key does not match the checksum" in result.stderr


def test_the_manifest_names_every_member_with_its_checksum(cli, tmp_path):
    cli("init")
    archive = tmp_path / "site.tar.gz"
    cli("backup", "--output", str(archive))
    with tarfile.open(archive) as opened:
        manifest = json.load(opened.extractfile("manifest.json"))
        names = set(opened.getnames()) - {"manifest.json"}
    assert set(manifest["checksums"]) == names
    assert manifest["encrypted"] is False


def test_doctor_names_a_stale_backup_and_what_to_do(cli):
    cli("init")
    cli("backup")
    [made] = backup.backup_directory(settings_of(cli)).iterdir()
    two_days_ago = time.time() - 48 * 3600
    os.utime(made, (two_days_ago, two_days_ago))
    result = cli("doctor", expect=1)
    assert "FAIL  last backup:" in result.stdout and "48 hours old" in result.stdout
    assert "rentalcomply backup" in result.stdout
