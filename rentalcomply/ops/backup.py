"""Backup and restore of a SQLite installation: the database, the task queue, the secret, the config.

A backup is a .tar.gz holding a consistent copy of each SQLite file, made with SQLite's online backup
API (so the server may keep running and writing), the server secret (without it no API key, check-in
link or download link works after a restore) and the config file, plus a manifest. Generated report
files are not included: they are made again from the database on request.

A restore checks the archive before touching anything (known members only, each database passes
`PRAGMA integrity_check`), moves the current files aside into `before-restore-<time>/` in the data
directory, puts the archive's files in place and applies any migration the backup predates. It is
refused while a server or worker uses the data directory (`ops/datalock.py`): a running server keeps
its open database and would go on writing into the file moved aside. Whatever the umask, the
restored files are 0600 and the directories 0700: the data is guests' personal data.
"""

from __future__ import annotations

import datetime as dt
import io
import json
import os
import re
import shutil
import sqlite3
import tarfile
import tempfile
from pathlib import Path

from rentalcomply import __version__
from rentalcomply.core import db as database
from rentalcomply.core import secrets

MANIFEST = "manifest.json"
DATABASE_FILE = "rentalcomply.db"
QUEUE_FILE = "queue.db"
SECRET_FILE = "secret.key"
CONFIG_FILE = "config.toml"
MEMBERS = {MANIFEST, DATABASE_FILE, QUEUE_FILE, SECRET_FILE, CONFIG_FILE}
NAME_PATTERN = re.compile(r"^rentalcomply-backup-\d{8}T\d{6}Z\.tar\.gz$")


class BackupError(Exception):
    """A backup or restore that cannot be done; the message says why."""


def sqlite_database_path(settings) -> Path:
    url = settings.database.url
    if not url:
        return database.sqlite_path(settings)
    if url.startswith("sqlite:///"):
        return Path(url[len("sqlite:///"):])
    raise BackupError("database.url is not SQLite: back the database up with its own tools "
                      "(pg_dump for PostgreSQL)")


def sqlite_queue_path(settings) -> Path | None:
    url = settings.queue.url
    if not url:
        return Path(settings.data_dir) / QUEUE_FILE
    if url.startswith("sqlite:///"):
        return Path(url[len("sqlite:///"):])
    return None  # Redis or memory: nothing of ours to copy


def backup_directory(settings) -> Path:
    return Path(settings.backup.directory) if settings.backup.directory else (
        Path(settings.data_dir) / "backups")


def _copy_sqlite(source: Path, target: Path) -> None:
    """A consistent copy of a live SQLite database (WAL included) through the backup API."""
    with sqlite3.connect(f"file:{source}?mode=ro", uri=True, timeout=30) as src, \
            sqlite3.connect(target) as dst:
        src.backup(dst)
    # The copy is a single self-contained file: no WAL beside it.
    with sqlite3.connect(target) as dst:
        dst.execute("PRAGMA journal_mode=DELETE")


def _integrity(path: Path) -> str:
    try:
        with sqlite3.connect(f"file:{path}?mode=ro", uri=True) as connection:
            rows = connection.execute("PRAGMA integrity_check").fetchall()
    except sqlite3.DatabaseError as exc:
        return str(exc)
    return "ok" if rows == [("ok",)] else "; ".join(row[0] for row in rows[:5])


def create_backup(settings, output: str | os.PathLike | None = None,
                  now: dt.datetime | None = None) -> tuple[Path, list[Path]]:
    """Write a backup archive; return its path and the old backups deleted under `backup.keep`.

    Old backups are pruned only in the backup directory, and only when `output` is not given.
    """
    now = now or dt.datetime.now(dt.timezone.utc)
    db_path = sqlite_database_path(settings)
    if not db_path.is_file():
        raise BackupError(f"no database at {db_path}: nothing to back up (run rentalcomply init)")
    if output:
        target = Path(output)
    else:
        target = backup_directory(settings) / f"rentalcomply-backup-{now:%Y%m%dT%H%M%SZ}.tar.gz"
    target.parent.mkdir(parents=True, exist_ok=True)

    with tempfile.TemporaryDirectory(prefix="rentalcomply-backup-") as staging:
        staging = Path(staging)
        files = {DATABASE_FILE: staging / DATABASE_FILE}
        _copy_sqlite(db_path, files[DATABASE_FILE])
        queue_path = sqlite_queue_path(settings)
        if queue_path is not None and queue_path.is_file():
            files[QUEUE_FILE] = staging / QUEUE_FILE
            _copy_sqlite(queue_path, files[QUEUE_FILE])
        secret_path = secrets.secret_file(settings.data_dir)
        if not settings.server.secret_key and secret_path.is_file():
            files[SECRET_FILE] = secret_path
        if settings.config_file:
            files[CONFIG_FILE] = Path(settings.config_file)
        manifest = {
            "format": 1,
            "version": __version__,
            "created_at": now.strftime("%Y-%m-%dT%H:%M:%SZ"),
            "files": sorted(files),
            "secret_included": SECRET_FILE in files,
        }
        partial = target.with_name(target.name + ".partial")
        # The archive holds the server secret: readable by its owner only.
        fd = os.open(partial, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
        with os.fdopen(fd, "wb") as raw, tarfile.open(fileobj=raw, mode="w:gz") as archive:
            body = json.dumps(manifest, indent=2).encode()
            info = tarfile.TarInfo(MANIFEST)
            info.size, info.mtime, info.mode = len(body), int(now.timestamp()), 0o600
            archive.addfile(info, io.BytesIO(body))
            for name, path in sorted(files.items()):
                archive.add(path, arcname=name, recursive=False, filter=_private)
        os.replace(partial, target)

    deleted = [] if output else prune_backups(target.parent, settings.backup.keep)
    return target, deleted


def _private(info: tarfile.TarInfo) -> tarfile.TarInfo:
    info.uid = info.gid = 0
    info.uname = info.gname = ""
    info.mode = 0o600
    return info


def prune_backups(directory: Path, keep: int) -> list[Path]:
    backups = sorted(p for p in directory.iterdir() if NAME_PATTERN.match(p.name))
    doomed = backups[:-keep] if len(backups) > keep else []
    for path in doomed:
        path.unlink()
    return doomed


def read_backup(archive_path: Path, into: Path) -> dict:
    """Extract and check an archive into `into`; return its manifest. Raises BackupError."""
    try:
        archive = tarfile.open(archive_path, mode="r:gz")
    except (OSError, tarfile.TarError) as exc:
        raise BackupError(f"{archive_path} is not a RentalComply backup: {exc}") from None
    with archive:
        members = archive.getmembers()
        names = [m.name for m in members]
        unknown = [n for n in names if n not in MEMBERS]
        if unknown or MANIFEST not in names or DATABASE_FILE not in names:
            raise BackupError(f"{archive_path} is not a RentalComply backup "
                              f"(members: {', '.join(names) or 'none'})")
        for member in members:
            if not member.isfile():
                raise BackupError(f"{archive_path}: {member.name} is not a regular file")
            source = archive.extractfile(member)
            with source, open(into / member.name, "wb") as target:
                shutil.copyfileobj(source, target)
    try:
        manifest = json.loads((into / MANIFEST).read_text())
    except ValueError:
        raise BackupError(f"{archive_path}: the manifest is not JSON") from None
    for name in (DATABASE_FILE, QUEUE_FILE):
        if (into / name).exists():
            verdict = _integrity(into / name)
            if verdict != "ok":
                raise BackupError(f"{archive_path}: {name} fails its integrity check: {verdict}")
    return manifest


def restore_backup(settings, archive_path: str | os.PathLike,
                   now: dt.datetime | None = None) -> tuple[dict, Path | None]:
    """Put a backup in place of the current data; return the manifest and where the old files went.

    The caller runs the migrations afterwards (bootstrap) so an older backup is brought up to date.
    """
    now = now or dt.datetime.now(dt.timezone.utc)
    archive_path = Path(archive_path)
    if not archive_path.is_file():
        raise BackupError(f"no backup file {archive_path}")
    db_path = sqlite_database_path(settings)
    queue_path = sqlite_queue_path(settings)
    data_dir = Path(settings.data_dir)
    data_dir.mkdir(parents=True, exist_ok=True, mode=0o700)
    os.chmod(data_dir, 0o700)
    targets = {DATABASE_FILE: db_path, QUEUE_FILE: queue_path,
               SECRET_FILE: secrets.secret_file(data_dir), CONFIG_FILE: data_dir / CONFIG_FILE}

    with tempfile.TemporaryDirectory(prefix="rentalcomply-restore-", dir=data_dir) as staging:
        staging = Path(staging)
        manifest = read_backup(archive_path, staging)
        restored = [n for n in (DATABASE_FILE, QUEUE_FILE, SECRET_FILE, CONFIG_FILE)
                    if (staging / n).exists() and targets[n] is not None]
        aside = data_dir / f"before-restore-{now:%Y%m%dT%H%M%SZ}"
        moved = False
        for name in restored:
            target = targets[name]
            for path in (target, Path(f"{target}-wal"), Path(f"{target}-shm")):
                if path.exists():
                    aside.mkdir(exist_ok=True, mode=0o700)
                    os.chmod(aside, 0o700)
                    shutil.move(str(path), aside / path.name)
                    os.chmod(aside / path.name, 0o600)
                    moved = True
            if not target.parent.is_dir():
                target.parent.mkdir(parents=True, mode=0o700)
                os.chmod(target.parent, 0o700)
            shutil.move(str(staging / name), target)
            os.chmod(target, 0o600)
    return manifest, aside if moved else None
