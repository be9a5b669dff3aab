"""Backup and restore of a SQLite installation: the database, the task queue, the secret, the
config, and the files a host must keep.

A backup is a .tar.gz holding a consistent copy of each SQLite file, made with SQLite's online backup
API (so the server may keep running and writing), the server secret (without it no API key, check-in
link or download link works after a restore) and the config file, plus a manifest. It also holds the
files a host must keep beside the database, under `files/` (paths as in the data directory):

    manifest.json  rentalcomply.db  queue.db  secret.key  config.toml
    files/reports/<account>/<folder>/<code>.pdf|xml|csv   the report files the database names
    files/police-codes/<country>/<table>.csv              code tables refreshed by the host

A report filed with AADE is a record: it is kept as it was made, not made again (a regeneration
would read today's data). Police files and the authorities' receipts (those kept on a filing,
and the daily ones of filings/receipts.py) are sealed inside the database, so its snapshot holds
them. The report folders are those the database snapshot names:
a folder is written completely and renamed into place before the row names it, and removed only
after a later generation replaced it, so copying the named folders just after the snapshot gives
files that match it; should a generation finishing at that moment remove one first, the snapshot
is taken again. A named file that is gone for good (deleted by hand) is left out, named in the
manifest (`missing_files`) and in a warning of `rentalcomply backup`: the backup still runs.

On PostgreSQL the database is backed up with its own tool (`rentalcomply backup` says how:
pg_dump, pg_restore); the archive then holds the secret, the config and the refreshed code tables,
and its manifest says `"database": "postgresql"`. A restore puts those in place and never mixes
engines: an archive with a SQLite database is refused where database.url names PostgreSQL, and
one without a database where it names SQLite.

The manifest holds the SHA-256 of every other member. With a passphrase (`--passphrase-file`) the
whole archive is encrypted (ops/sealed_archive.py: AES-256-GCM, the key derived with scrypt) and
named `.tar.gz.enc`.

A restore checks the archive before touching anything (the passphrase opens it, known members
only, each member matches its checksum, each database passes `PRAGMA integrity_check`), moves the current files aside into `before-restore-<time>/` in the data
directory, puts the archive's files in place and applies any migration the backup predates. It is
refused while a server or worker uses the data directory (`ops/datalock.py`): a running server keeps
its open database and would go on writing into the file moved aside. Whatever the umask, the
restored files are 0600 and the directories 0700: the data is guests' personal data.
"""

from __future__ import annotations

import datetime as dt
import hashlib
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
from rentalcomply.ops import sealed_archive

MANIFEST = "manifest.json"
DATABASE_FILE = "rentalcomply.db"
QUEUE_FILE = "queue.db"
SECRET_FILE = "secret.key"
CONFIG_FILE = "config.toml"
MEMBERS = {MANIFEST, DATABASE_FILE, QUEUE_FILE, SECRET_FILE, CONFIG_FILE}
FILES_PREFIX = "files/"
REPORTS_DIR = "reports"
POLICE_CODES_DIR = "police-codes"
# What may stand under files/ in an archive: a report file, or a code table.
FILE_MEMBER = re.compile(r"^files/(reports/[A-Za-z0-9_]+/[A-Za-z0-9_-]+/[A-Za-z0-9_]+\.(pdf|xml|csv)"
                         r"|police-codes/[a-z]{2}/[A-Za-z0-9_-]+\.(csv|json))$")
SNAPSHOT_ATTEMPTS = 3
NAME_PATTERN = re.compile(r"^rentalcomply-backup-\d{8}T\d{6}Z\.tar\.gz(\.enc)?$")


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


def external_database(settings) -> str | None:
    """The engine's name where the database is not a SQLite file of ours (PostgreSQL), else None."""
    try:
        sqlite_database_path(settings)
    except BackupError:
        return "PostgreSQL"
    return None


def database_advice(settings) -> str:
    """How to back up an external database with its own tool (the password never shown)."""
    from urllib.parse import urlsplit
    url = urlsplit(settings.database.url)
    host = url.hostname or "localhost"
    netloc = (f"{url.username}@" if url.username else "") + host + (f":{url.port}" if url.port else "")
    shown = url._replace(netloc=netloc).geturl()
    return (f"the database is PostgreSQL: back it up with its own tool, e.g. `pg_dump "
            f"--format=custom --file=rentalcomply.pgdump '{shown}'` (and `pg_restore` to bring it "
            "back); this archive holds the server secret, the config and the files")


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


STEPS = ("database", "task queue", "files", "archive", "encryption")


def create_backup(settings, output: str | os.PathLike | None = None,
                  now: dt.datetime | None = None,
                  warnings: list[str] | None = None,
                  passphrase: bytes | None = None,
                  progress=None) -> tuple[Path, list[Path]]:
    """Write a backup archive; return its path and the old backups deleted under `backup.keep`.
    What a person should hear of (a report file missing) is added to `warnings`. With a
    passphrase the archive is encrypted. `progress(step)` is called as each of STEPS is done.

    Old backups are pruned only in the backup directory, and only when `output` is not given.
    """
    step = progress or (lambda name: None)
    now = now or dt.datetime.now(dt.timezone.utc)
    # On PostgreSQL the database is backed up with its own tool (database_advice); the archive
    # still holds what lives beside it and nowhere else: the secret, the config, the files.
    external = external_database(settings)
    db_path = None if external else sqlite_database_path(settings)
    if db_path is not None and not db_path.is_file():
        raise BackupError(f"no database at {db_path}: nothing to back up (run rentalcomply init)")
    if external and warnings is not None:
        warnings.append(database_advice(settings))
    suffix = ".tar.gz.enc" if passphrase else ".tar.gz"
    dated_name = f"rentalcomply-backup-{now:%Y%m%dT%H%M%SZ}{suffix}"
    target = Path(output) if output else backup_directory(settings) / dated_name
    if output and target.is_dir():  # a folder given: the dated file goes inside it
        target = target / dated_name
    try:
        if not target.parent.is_dir():
            # Backups hold guests' data and the server secret: private, whatever the umask.
            target.parent.mkdir(parents=True, mode=0o700)
            os.chmod(target.parent, 0o700)
    except OSError as exc:
        raise _unwritable(target, exc) from None
    return _write_backup(settings, target, db_path, external, now, warnings, passphrase, step,
                         prune=not output)


def _unwritable(target: Path, exc: OSError) -> BackupError:
    return BackupError(f"cannot write the backup to {target}: {exc.strerror or exc}")


def _write_backup(settings, target: Path, db_path, external, now, warnings, passphrase, step,
                  prune: bool) -> tuple[Path, list[Path]]:
    with tempfile.TemporaryDirectory(prefix="rentalcomply-backup-") as staging:
        staging = Path(staging)
        if db_path is not None:
            files = {DATABASE_FILE: staging / DATABASE_FILE}
            kept, missing = _snapshot_with_report_files(db_path, files[DATABASE_FILE],
                                                        Path(settings.data_dir), staging / "files")
        else:  # report files are in the database itself there (migration 0018)
            files, kept, missing = {}, [], []
        step(STEPS[0])
        if warnings is not None:
            warnings += [f"report file {name} is missing from the data directory: not in the "
                         "backup (regenerate that report)" for name in missing]
        kept += _police_code_tables(Path(settings.data_dir))
        queue_path = sqlite_queue_path(settings)
        if queue_path is not None and queue_path.is_file():
            files[QUEUE_FILE] = staging / QUEUE_FILE
            _copy_sqlite(queue_path, files[QUEUE_FILE])
        step(STEPS[1])
        secret_path = secrets.secret_file(settings.data_dir)
        if not settings.server.secret_key and secret_path.is_file():
            files[SECRET_FILE] = secret_path
        if settings.config_file:
            files[CONFIG_FILE] = Path(settings.config_file)
        step(STEPS[2])
        members = {**files, **dict(kept)}
        manifest = {
            "format": 3,
            "version": __version__,
            "created_at": now.strftime("%Y-%m-%dT%H:%M:%SZ"),
            "files": sorted(files),
            "secret_included": SECRET_FILE in files,
            "kept_files": sorted(name for name, _ in kept),
            "missing_files": missing,
            "checksums": {name: _sha256(path) for name, path in sorted(members.items())},
            "encrypted": bool(passphrase),
            # "external": the database was backed up apart, with its engine's own tool.
            "database": external.lower() if external else "included",
        }
        partial = target.with_name(target.name + ".partial")
        try:
            _write_archive(partial, manifest, files, kept, now, passphrase, step)
            os.replace(partial, target)
        except BaseException as exc:
            try:
                partial.unlink(missing_ok=True)  # nothing half-written is left behind
            except OSError:
                pass
            if isinstance(exc, OSError):
                raise _unwritable(target, exc) from None
            raise

    deleted = prune_backups(target.parent, settings.backup.keep) if prune else []
    return target, deleted


def _write_archive(partial: Path, manifest: dict, files: dict, kept, now, passphrase,
                   step) -> None:
    # The archive holds the server secret: readable by its owner only.
    fd = os.open(partial, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
    with os.fdopen(fd, "wb") as raw, tarfile.open(fileobj=raw, mode="w:gz") as archive:
        body = json.dumps(manifest, indent=2).encode()
        info = tarfile.TarInfo(MANIFEST)
        info.size, info.mtime, info.mode = len(body), int(now.timestamp()), 0o600
        archive.addfile(info, io.BytesIO(body))
        for name, path in sorted(files.items()):
            archive.add(path, arcname=name, recursive=False, filter=_private)
        for name, path in sorted(kept):
            archive.add(path, arcname=name, recursive=False, filter=_private)
    step(STEPS[3])
    if passphrase:
        sealed = sealed_archive.seal(partial.read_bytes(), passphrase)
        with open(partial, "wb") as handle:
            handle.write(sealed)
    step(STEPS[4])
    with open(partial, "rb") as handle:
        os.fsync(handle.fileno())


def _named_report_folders(snapshot: Path) -> list[tuple[str, str, dict]]:
    """(account id, folder, files) of every report whose row in the snapshot names files."""
    with sqlite3.connect(f"file:{snapshot}?mode=ro", uri=True) as connection:
        try:
            rows = connection.execute(
                "SELECT account_id, files FROM report WHERE files IS NOT NULL").fetchall()
        except sqlite3.OperationalError:  # a database from before the reports existed
            return []
    found = []
    for account_id, files in rows:
        named = json.loads(files) if files else None
        if isinstance(named, dict) and named.get("dir"):
            found.append((account_id, named["dir"], named))
    return found


def _snapshot_with_report_files(db_path: Path, snapshot: Path, data_dir: Path,
                                staging: Path) -> tuple[list[tuple[str, Path]], list[str]]:
    """Snapshot the database into `snapshot` and copy the report files it names into `staging`;
    return (archive name, staged path) of each, and the named files that are missing. The
    snapshot is taken again when a named file has gone (a generation that finished meanwhile
    removed the folder it replaced); a file still missing after that (deleted by hand, or never
    restored from an older backup) is left out and named, rather than the backup refused."""
    for _ in range(SNAPSHOT_ATTEMPTS):
        _copy_sqlite(db_path, snapshot)
        shutil.rmtree(staging, ignore_errors=True)
        kept: list[tuple[str, Path]] = []
        missing: list[str] = []
        for account_id, folder, named in _named_report_folders(snapshot):
            source = data_dir / REPORTS_DIR / account_id / folder
            for fmt, entry in named.items():
                if fmt == "dir" or not isinstance(entry, dict):
                    continue
                relative = f"{REPORTS_DIR}/{account_id}/{folder}/{entry.get('name')}"
                if not FILE_MEMBER.match(FILES_PREFIX + relative):
                    missing.append(relative)
                    continue
                copy = staging / relative
                copy.parent.mkdir(parents=True, exist_ok=True)
                try:
                    shutil.copyfile(source / entry["name"], copy)
                except FileNotFoundError:
                    missing.append(relative)
                    continue
                kept.append((FILES_PREFIX + relative, copy))
        if not missing:
            break
    return kept, missing


def _police_code_tables(data_dir: Path) -> list[tuple[str, Path]]:
    """The police code tables the host refreshed (police-codes/<country>/<table>.csv)."""
    root = data_dir / POLICE_CODES_DIR
    if not root.is_dir():
        return []
    found = []
    for path in sorted(root.glob("*/*")):
        name = FILES_PREFIX + path.relative_to(data_dir).as_posix()
        if path.is_file() and FILE_MEMBER.match(name):
            found.append((name, path))
    return found


def _sha256(path: Path) -> str:
    digest = hashlib.sha256()
    with open(path, "rb") as handle:
        for chunk in iter(lambda: handle.read(1 << 20), b""):
            digest.update(chunk)
    return digest.hexdigest()


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


def read_backup(archive_path: Path, into: Path, passphrase: bytes | None = None) -> dict:
    """Extract and check an archive into `into`; return its manifest. Raises BackupError."""
    with open(archive_path, "rb") as handle:
        head = handle.read(len(sealed_archive.MAGIC))
    if sealed_archive.is_sealed(head):
        if not passphrase:
            raise BackupError(f"{archive_path} is encrypted: give its passphrase with "
                              "--passphrase-file")
        try:
            opened = sealed_archive.open_sealed(archive_path.read_bytes(), passphrase)
        except sealed_archive.WrongPassphrase as exc:
            raise BackupError(f"{archive_path}: {exc}") from None
        archive_source = {"fileobj": io.BytesIO(opened)}
    else:
        archive_source = {"name": archive_path}
    try:
        archive = tarfile.open(mode="r:gz", **archive_source)
    except (OSError, tarfile.TarError) as exc:
        raise BackupError(f"{archive_path} is not a RentalComply backup: {exc}") from None
    with archive:
        members = archive.getmembers()
        names = [m.name for m in members]
        unknown = [n for n in names if n not in MEMBERS and not FILE_MEMBER.match(n)]
        # The database is in every archive but one made on PostgreSQL (restore_backup checks
        # that the archive fits the configured engine).
        if unknown or MANIFEST not in names:
            raise BackupError(f"{archive_path} is not a RentalComply backup "
                              f"(members: {', '.join(names[:20]) or 'none'})")
        for member in members:
            if not member.isfile():
                raise BackupError(f"{archive_path}: {member.name} is not a regular file")
            target_path = into / member.name
            if target_path.parent != into:
                target_path.parent.mkdir(parents=True, exist_ok=True, mode=0o700)
            source = archive.extractfile(member)
            with source, open(target_path, "wb") as target:
                shutil.copyfileobj(source, target)
    try:
        manifest = json.loads((into / MANIFEST).read_text())
    except ValueError:
        raise BackupError(f"{archive_path}: the manifest is not JSON") from None
    checksums = manifest.get("checksums")
    if checksums is not None:  # archives of format 3 on
        for name in names:
            if name != MANIFEST and checksums.get(name) != _sha256(into / name):
                raise BackupError(f"{archive_path}: {name} does not match the checksum the "
                                  "manifest gives it: the archive is damaged")
    for name in (DATABASE_FILE, QUEUE_FILE):
        if (into / name).exists():
            verdict = _integrity(into / name)
            if verdict != "ok":
                raise BackupError(f"{archive_path}: {name} fails its integrity check: {verdict}")
    return manifest


def restore_backup(settings, archive_path: str | os.PathLike,
                   now: dt.datetime | None = None,
                   passphrase: bytes | None = None) -> tuple[dict, Path | None]:
    """Put a backup in place of the current data; return the manifest and where the old files went.

    The caller runs the migrations afterwards (bootstrap) so an older backup is brought up to date.
    """
    now = now or dt.datetime.now(dt.timezone.utc)
    archive_path = Path(archive_path)
    if not archive_path.is_file():
        raise BackupError(f"no backup file {archive_path}")
    external = external_database(settings)
    db_path = None if external else sqlite_database_path(settings)
    queue_path = sqlite_queue_path(settings)
    data_dir = Path(settings.data_dir)
    data_dir.mkdir(parents=True, exist_ok=True, mode=0o700)
    os.chmod(data_dir, 0o700)
    targets = {DATABASE_FILE: db_path, QUEUE_FILE: queue_path,
               SECRET_FILE: secrets.secret_file(data_dir), CONFIG_FILE: data_dir / CONFIG_FILE}

    with tempfile.TemporaryDirectory(prefix="rentalcomply-restore-", dir=data_dir) as staging:
        staging = Path(staging)
        manifest = read_backup(archive_path, staging, passphrase)
        holds_database = (staging / DATABASE_FILE).exists()
        if external and holds_database:
            raise BackupError(f"{archive_path} holds a SQLite database, and database.url names "
                              f"{external}: restore it where database.url is empty or sqlite:///")
        if not external and not holds_database:
            raise BackupError(f"{archive_path} holds no database (it was made on "
                              f"{manifest.get('database', 'another engine')}): restore that "
                              "database with its own tool and set database.url to it")
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
        # The kept files: each folder of files/ replaces the data directory's own (moved aside).
        for folder in (REPORTS_DIR, POLICE_CODES_DIR):
            restored_folder = staging / "files" / folder
            current = data_dir / folder
            if not restored_folder.is_dir() and (folder == POLICE_CODES_DIR
                                                 or manifest.get("format", 1) < 2):
                continue  # no refreshed tables, or an archive from before files were kept
            if current.exists():
                aside.mkdir(exist_ok=True, mode=0o700)
                os.chmod(aside, 0o700)
                shutil.move(str(current), aside / folder)
                moved = True
            if restored_folder.is_dir():
                shutil.move(str(restored_folder), current)
                _make_private(current)
    return manifest, aside if moved else None


def _make_private(root: Path) -> None:
    """Directories 0700 and files 0600 under `root`, whatever the umask was."""
    os.chmod(root, 0o700)
    for path in root.rglob("*"):
        os.chmod(path, 0o700 if path.is_dir() else 0o600)


def newest_backup(settings) -> Path | None:
    directory = backup_directory(settings)
    if not directory.is_dir():
        return None
    backups = sorted(p for p in directory.iterdir() if NAME_PATTERN.match(p.name))
    return backups[-1] if backups else None


def daily_backup(settings, now: dt.datetime | None = None) -> Path | None:
    """The worker's daily backup into backup.directory, encrypted with backup.passphrase_file
    when set, keeping backup.keep. None where the database is not SQLite."""
    try:
        sqlite_database_path(settings)
    except BackupError:
        return None
    passphrase = None
    if settings.backup.passphrase_file:
        passphrase = sealed_archive.read_passphrase_file(settings.backup.passphrase_file)
    path, _ = create_backup(settings, now=now, passphrase=passphrase)
    return path
