"""`rentalcomply doctor`: what an operator checks first when something looks wrong.

Each check answers (name, ok, detail). It never changes anything: no migration is applied, no
secret created, no file written.
"""

from __future__ import annotations

import dataclasses
import os
import sqlite3
import stat
from pathlib import Path

import peewee

from rentalcomply.core import db as database
from rentalcomply.core import secrets
from rentalcomply.ops.backup import BackupError, sqlite_database_path, sqlite_queue_path


@dataclasses.dataclass
class Check:
    name: str
    ok: bool
    detail: str


def run_checks(settings) -> list[Check]:
    checks = [_data_directory(settings), _modes(settings), _secret(settings)]
    checks += _database(settings)
    checks.append(_queue(settings))
    return checks


def _data_directory(settings) -> Check:
    path = Path(settings.data_dir)
    if not path.is_dir():
        return Check("data directory", False, f"{path} does not exist (run rentalcomply init)")
    if not os.access(path, os.W_OK):
        return Check("data directory", False, f"{path} is not writable")
    return Check("data directory", True, str(path))


def _modes(settings) -> Check:
    """Guests' personal data and the server secret live here: nothing in the data directory may
    be open to other local users (directories 0700, files 0600)."""
    root = Path(settings.data_dir)
    if os.name != "posix" or not root.is_dir():
        return Check("data directory modes", True, "not checked")
    open_to_others = []
    for directory, subdirectories, files in os.walk(root):
        for path in [Path(directory)] + [Path(directory) / name for name in files]:
            try:
                mode = path.lstat().st_mode
            except OSError:  # gone meanwhile (a temporary file)
                continue
            if stat.S_ISLNK(mode):
                continue
            if mode & 0o077:
                open_to_others.append((path, stat.S_IMODE(mode)))
    if not open_to_others:
        return Check("data directory modes", True, f"{root}: private (0700 directories, "
                                                   "0600 files)")
    shown = ", ".join(f"{path} ({mode:04o})" for path, mode in open_to_others[:3])
    more = f" and {len(open_to_others) - 3} more" if len(open_to_others) > 3 else ""
    return Check("data directory modes", False,
                 f"open to other users: {shown}{more} (chmod -R go-rwx {root})")


def _secret(settings) -> Check:
    if settings.server.secret_key:
        return Check("server secret", True, "from server.secret_key")
    path = secrets.secret_file(settings.data_dir)
    if not path.is_file():
        return Check("server secret", False, f"{path} is missing: every API key is now invalid "
                                             "unless it is restored from a backup")
    if not path.read_text().strip():
        return Check("server secret", False, f"{path} is empty")
    if os.name == "posix" and path.stat().st_mode & 0o077:
        return Check("server secret", False, f"{path} is readable by others (chmod 600 it)")
    return Check("server secret", True, str(path))


def _database(settings) -> list[Check]:
    try:
        path = sqlite_database_path(settings)
    except BackupError:
        return _other_database(settings)
    if not path.is_file():
        return [Check("database", False, f"no database at {path} (run rentalcomply init)")]
    checks = []
    try:
        with sqlite3.connect(f"file:{path}?mode=ro", uri=True, timeout=10) as connection:
            rows = connection.execute("PRAGMA integrity_check").fetchall()
            violations = connection.execute("PRAGMA foreign_key_check").fetchall()
    except sqlite3.DatabaseError as exc:
        return [Check("database integrity", False, f"{path}: {exc}")]
    if rows == [("ok",)]:
        checks.append(Check("database integrity", True, f"{path}: ok"))
    else:
        checks.append(Check("database integrity", False,
                            f"{path}: " + "; ".join(r[0] for r in rows[:5])))
    checks.append(Check("foreign keys", not violations,
                        "ok" if not violations else f"{len(violations)} rows point at nothing"))
    # Plain connection: the server's pragmas would switch the journal mode, and the doctor
    # changes nothing.
    checks.append(_migrations(peewee.SqliteDatabase(str(path), timeout=10)))
    return checks


def _other_database(settings) -> list[Check]:
    try:
        connection = database.make_database(settings)
        connection.execute_sql("SELECT 1")
    except Exception as exc:  # any driver's error: report it, do not crash the doctor
        return [Check("database", False, f"cannot connect: {exc}")]
    return [Check("database", True, "answers"), _migrations(connection)]


def _migrations(connection) -> Check:
    try:
        pending = database.pending_migrations(connection)
    except Exception as exc:
        return Check("migrations", False, f"cannot read the migration history: {exc}")
    finally:
        connection.close()
    if pending:
        return Check("migrations", False, "pending: " + ", ".join(pending)
                     + " (rentalcomply init or serve applies them)")
    return Check("migrations", True, "up to date")


def _queue(settings) -> Check:
    if settings.queue.url == "memory://":
        return Check("task queue", True, "memory:// (tasks run in the caller)")
    path = sqlite_queue_path(settings)
    if path is None:
        return Check("task queue", True, f"external ({settings.queue.url.split(':', 1)[0]}), "
                                         "not checked here")
    if not path.is_file():
        return Check("task queue", True, f"{path} not created yet (the server creates it)")
    try:
        with sqlite3.connect(f"file:{path}?mode=ro", uri=True, timeout=10) as connection:
            verdict = connection.execute("PRAGMA integrity_check").fetchone()[0]
    except sqlite3.DatabaseError as exc:
        return Check("task queue", False, f"{path}: {exc}")
    return Check("task queue", verdict == "ok", f"{path}: {verdict}")
