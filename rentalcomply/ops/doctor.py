"""`rentalcomply doctor`: what an operator checks first when something looks wrong.

Each check answers (name, ok, detail). It never changes anything: no migration is applied, no
secret created, no file written.
"""

from __future__ import annotations

import dataclasses
import datetime as dt
import os
import sqlite3
import stat
from pathlib import Path

import peewee

# Importing the authorities registers them with the filing engine: `doctor` runs without the
# start-up (runtime.bootstrap) that does it in the server and worker, and asking an authority it
# has not registered was the credentials check's KeyError.
from rentalcomply import authorities  # noqa: F401
from rentalcomply.core import db as database
from rentalcomply.core import secrets
from rentalcomply.ops import listening
from rentalcomply.ops.backup import BackupError, sqlite_database_path, sqlite_queue_path


@dataclasses.dataclass
class Check:
    name: str
    ok: bool
    detail: str


def run_checks(settings) -> list[Check]:
    checks = [_data_directory(settings), _modes(settings), _secret(settings)]
    checks += _database(settings)
    checks.append(_database_size(settings))
    queue = _queue(settings)
    checks += [queue, _workers(settings, queue)]
    checks += _police_codes(settings)
    checks += _police_credentials(settings)
    checks += [_stuck_work(settings)]
    checks += [_free_disk(settings), _last_backup(settings), *_smtp_servers(settings), _public_url(settings)]
    checks.append(_scanning())
    return checks


def _scanning() -> Check:
    """Guests scanning their documents: an optional part, so never a failure when it is off."""
    from rentalcomply.scan import reader
    on, why = reader.available()
    return Check("document scanning", True, why if on else f"off: {why}; guests type their "
                 "document details (README, \"Scanning documents\")")


# What a worker should have finished long since: a report generating, a filing being sent.
STUCK_AFTER = dt.timedelta(minutes=30)


def _stuck_work(settings) -> Check:
    """Work that is stuck or failing, counted from the database: reports generating for over
    30 minutes or failed, police filings failed or rejected (or sending for over 30 minutes),
    webhook endpoints disabled, channel feeds in error."""
    now = dt.datetime.now(dt.timezone.utc).replace(tzinfo=None)
    cutoff = (now - STUCK_AFTER).strftime("%Y-%m-%d %H:%M:%S")
    queries = {
        "reports generating for over 30 minutes":
            f"SELECT count(*) FROM report WHERE job IS NOT NULL AND updated_at < '{cutoff}'",
        "reports failed": "SELECT count(*) FROM report WHERE status = 'failed'",
        "police filings sending for over 30 minutes":
            f"SELECT count(*) FROM filing WHERE status = 'sending' "
            f"AND sending_since < '{cutoff}'",
        "police filings failed or rejected":
            "SELECT count(*) FROM filing WHERE status IN ('failed', 'rejected')",
        "webhook endpoints disabled after failing":
            "SELECT count(*) FROM webhook_endpoint WHERE status = 'disabled'",
        "channel feeds in error": "SELECT count(*) FROM channel_connection WHERE status = 'error'",
    }
    found = []
    for what, sql in queries.items():
        rows = _read_rows(settings, sql)
        if rows is None:
            return Check("stuck or failing work", True, "not checked (the database does not answer)")
        if rows[0][0]:
            found.append(f"{rows[0][0]} {what}")
    if found:
        return Check("stuck or failing work", False, "; ".join(found) + " (the dashboard's Today "
                     "names each with its reason: fix the data or the peer, then file, generate or "
                     "sync again; work stuck for 30 minutes means no worker took it over: restart "
                     "rentalcomply serve)")
    return Check("stuck or failing work", True, "none")


def _last_backup(settings) -> Check:
    """The newest archive in backup.directory, against backup.max_age_hours. An installation
    younger than that has had no chance to back up yet: not a failure."""
    import time

    from rentalcomply.ops.backup import backup_directory, newest_backup
    try:
        sqlite_database_path(settings)
    except BackupError:
        return Check("last backup", True, "the database is not SQLite: back it up with its own "
                                          "tools (pg_dump), the secret and config with your files")
    limit = settings.backup.max_age_hours
    newest = newest_backup(settings)
    now = time.time()
    if newest is None:
        installed = secrets.secret_file(settings.data_dir)
        if installed.is_file() and now - installed.stat().st_mtime < limit * 3600:
            return Check("last backup", True, "none yet (the worker writes one daily at "
                                              f"{settings.backup.daily_hour_utc:02d}:41 UTC)")
        return Check("last backup", False, f"no backup in {backup_directory(settings)}: run "
                                           "rentalcomply backup, and keep the server running so "
                                           "that the daily backup runs (backup.daily)")
    hours = (now - newest.stat().st_mtime) / 3600
    if hours > limit:
        return Check("last backup", False, f"{newest.name} is {hours:.0f} hours old, over "
                                           f"backup.max_age_hours ({limit}): is the server "
                                           "running (the worker makes the daily backup)? run "
                                           "rentalcomply backup now; the log says why one failed")
    return Check("last backup", True, f"{newest.name}, {hours:.1f} hours old")


def _free_disk(settings) -> Check:
    import shutil
    path = Path(settings.data_dir)
    if not path.is_dir():
        return Check("free disk", True, "not checked (no data directory)")
    free_mb = shutil.disk_usage(path).free // (1024 * 1024)
    wanted = settings.doctor.min_free_disk_mb
    if free_mb < wanted:
        return Check("free disk", False, f"{free_mb} MB free where {path} lives, under the "
                                         f"{wanted} MB doctor.min_free_disk_mb: free space (old "
                                         "backups, logs) or move the data directory")
    return Check("free disk", True, f"{free_mb} MB free")


def _smtp_servers(settings) -> list[Check]:
    from rentalcomply.ops import doctor_mail
    return [Check(*found) for found in doctor_mail.smtp_checks(settings)]


def _public_url(settings) -> Check:
    """The public address reaches this server, and HTTPS through the proxy arrives as HTTPS
    (the proxy sends X-Forwarded-Proto and is in server.trusted_proxies)."""
    import ipaddress
    import json
    import urllib.error
    import urllib.parse
    import urllib.request
    url = settings.server.public_url
    host = urllib.parse.urlsplit(url).hostname or ""
    try:
        local = host == "localhost" or ipaddress.ip_address(host).is_loopback
    except ValueError:
        local = False
    if not url or local:
        return _local_url(settings, url)
    if url.startswith("http://"):
        return Check("public url", False, f"{url} is plain HTTP: guests' passport data would cross "
                                          "the network in clear; put a TLS proxy in front (see "
                                          "the README's TLS in front) and set an https:// address")
    try:
        with urllib.request.urlopen(url.rstrip("/") + "/healthz", timeout=10) as answer:
            health = json.loads(answer.read())
    except (urllib.error.URLError, OSError, ValueError) as exc:
        return Check("public url", False, f"{url}/healthz does not answer ({exc}): guests' links "
                                          "and downloads lead nowhere; check the proxy and DNS")
    if url.startswith("https://") and not health.get("https"):
        return Check("public url", False,
                     f"{url} answers, but the request reached the server as plain HTTP: have the "
                     "proxy send X-Forwarded-Proto: https and list its address in "
                     "server.trusted_proxies")
    return Check("public url", True, f"{url} answers" + (" over HTTPS" if health.get("https") else ""))


def _local_url(settings, url: str) -> Check:
    """A loopback address: something must answer there for the links to lead anywhere. Nothing
    answering fails only while a server is recorded as running (it would be hung or gone); a
    server that is not running is said as such."""
    import urllib.error
    import urllib.request
    advice = "only this machine can follow the links (set server.public_url to the address " \
             "guests use)"
    try:
        with urllib.request.urlopen(url.rstrip("/") + "/healthz", timeout=5):
            pass
    except (urllib.error.URLError, OSError, ValueError):
        record = listening.recorded(settings.data_dir)
        if record is not None and record.get("running") and _process_alive(record.get("pid")):
            return Check("public url", False,
                         f"{url}: nothing answers, while the server (pid {record['pid']}) is "
                         "recorded as listening there; restart rentalcomply serve")
        return Check("public url", True, f"{url}: no server answers there now (links lead "
                                          f"there once rentalcomply serve runs); {advice}")
    return Check("public url", True, f"{url} answers; {advice}")


def _process_alive(pid) -> bool:
    if not isinstance(pid, int) or pid <= 0:
        return False
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:  # another user's process
        return True
    return True


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
    if not path.is_file() and _not_initialised(settings):
        return Check("server secret", False, f"{path} does not exist yet: run rentalcomply init")
    if not path.is_file():
        return Check("server secret", False, f"{path} is missing: every API key is now invalid "
                                             "unless it is restored from a backup")
    if not path.read_text().strip():
        return Check("server secret", False, f"{path} is empty")
    if os.name == "posix" and path.stat().st_mode & 0o077:
        return Check("server secret", False, f"{path} is readable by others (chmod 600 it)")
    return Check("server secret", True, str(path))


def _not_initialised(settings) -> bool:
    """No data directory yet, or (on SQLite) no database in it: nothing was ever made here."""
    if not Path(settings.data_dir).is_dir():
        return True
    try:
        return not sqlite_database_path(settings).is_file()
    except BackupError:  # an external database: its keys may exist
        return False


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
        return _external_queue(settings)
    if not path.is_file():
        return Check("task queue", True, f"{path} not created yet (the server creates it)")
    try:
        with sqlite3.connect(f"file:{path}?mode=ro", uri=True, timeout=10) as connection:
            verdict = connection.execute("PRAGMA integrity_check").fetchone()[0]
            waiting = [row[0] for row in connection.execute(
                "SELECT data FROM task WHERE queue IN (?, ?) ORDER BY queue DESC, priority DESC, id",
                QUEUE_NAMES)]
    except sqlite3.DatabaseError as exc:
        return Check("task queue", False, f"{path}: {exc}")
    if verdict != "ok":
        return Check("task queue", False, f"{path}: {verdict}")
    return Check("task queue", True, f"{path}: ok; " + _describe_waiting(waiting))


# The general queue and the urgent one (police filings, reports): core/queue.py.
QUEUE_NAMES = ("rentalcomply", "rentalcomply-urgent")


def _external_queue(settings) -> Check:
    url = settings.queue.url
    try:
        import redis
        from huey.storage import PriorityRedisStorage
        pool = redis.ConnectionPool.from_url(url, socket_connect_timeout=3, socket_timeout=3)
        size, waiting = 0, []
        for name in reversed(QUEUE_NAMES):  # the urgent queue's next task runs first
            storage = PriorityRedisStorage(name=name, connection_pool=pool)
            count = storage.queue_size()
            size += count
            waiting += storage.enqueued_items(1) if count else []
    except Exception as exc:  # redis' errors and a missing package alike
        return Check("task queue", False,
                     f"{_without_password(url)} does not answer ({exc}): start Redis, or check "
                     "queue.url; until it answers nothing is delivered, synced, filed or reported")
    return Check("task queue", True, f"{_without_password(url)}: answers; "
                 + _describe_waiting(waiting, size))


def _without_password(url: str) -> str:
    import urllib.parse
    parts = urllib.parse.urlsplit(url)
    if parts.password:
        parts = parts._replace(netloc=parts.netloc.replace(":" + parts.password + "@", ":***@"))
    return parts.geturl()


def _describe_waiting(waiting: list, size: int | None = None) -> str:
    size = len(waiting) if size is None else size
    if not size:
        return "no task waiting"
    from rentalcomply.core.queue import huey
    try:
        message = huey.serializer.deserialize(waiting[0])
        first = f"; next to run: {message.name} ({message.id})"
    except Exception:  # a task of another version: the count still tells
        first = ""
    return f"{size} task(s) waiting{first}"


# A worker records a heartbeat every minute (core/scheduling.py); three missed ones mean it is gone.
HEARTBEAT_STALE_SECONDS = 180


def _workers(settings, queue_check: Check) -> Check:
    """Each worker's last heartbeat. Failing only when tasks wait and no worker is alive: a
    stopped appliance with nothing to do is not a fault."""
    import datetime as dt
    rows = _read_rows(settings, "SELECT worker, seen_at, stopped_at FROM worker_heartbeat "
                                "ORDER BY seen_at DESC")
    if rows is None:  # a database from before stopped_at (its migration pending)
        rows = _read_rows(settings, "SELECT worker, seen_at, NULL FROM worker_heartbeat "
                                    "ORDER BY seen_at DESC")
    if rows is None:
        return Check("workers", True, "not checked (the database does not answer)")
    now = dt.datetime.now(dt.timezone.utc).replace(tzinfo=None)
    # A worker gone for longer than the setting is forgotten here at once, not only once the
    # hourly housekeeping has deleted its row (which needs a worker running to do it).
    forget = dt.timedelta(hours=settings.queue.forget_workers_after_hours)
    seen = []
    alive = stale = stopped = 0
    for worker, seen_at, stopped_at in rows:
        if isinstance(seen_at, str):
            seen_at = dt.datetime.fromisoformat(seen_at[:19])
        if now - seen_at > forget:
            break  # the rows come newest first: every one after is older still
        if len(seen) == 10:
            break
        age = int((now - seen_at).total_seconds())
        if stopped_at is not None:
            stopped += 1
            seen.append(f"{worker} stopped ({str(stopped_at)[:19]} UTC)")
        elif age <= HEARTBEAT_STALE_SECONDS:
            alive += 1
            seen.append(f"{worker} alive (seen {age} s ago)")
        else:  # kept until queue.forget_workers_after_hours (core/scheduling.py)
            stale += 1
            seen.append(f"{worker} stale (last seen {age} s ago)")
    detail = "; ".join(seen) if seen else "no worker has run yet"
    waiting = "task(s) waiting" in queue_check.detail
    if waiting and not alive and settings.queue.url != "memory://":
        return Check("workers", False, f"tasks are waiting and no worker is running ({detail}): "
                                       "start rentalcomply serve (or rentalcomply worker)")
    if not seen:
        return Check("workers", True, detail)
    return Check("workers", True, f"{alive} alive, {stopped} stopped, {stale} stale: {detail}")


# How many of the largest tables `doctor` names.
LARGEST_TABLES = 5
# Each table with its indexes, from SQLite's dbstat (bytes of the pages each uses).
_SQLITE_SIZES = ("SELECT COALESCE(m.tbl_name, s.name), SUM(s.pgsize) FROM dbstat AS s "
                 "LEFT JOIN sqlite_master AS m ON m.name = s.name "
                 "GROUP BY 1 ORDER BY 2 DESC")
_POSTGRES_SIZES = ("SELECT c.relname, pg_total_relation_size(c.oid) FROM pg_class AS c "
                   "JOIN pg_namespace AS n ON n.oid = c.relnamespace "
                   "WHERE c.relkind = 'r' AND n.nspname = current_schema() ORDER BY 2 DESC")


def _database_size(settings) -> Check:
    """The database's size and its largest tables (indexes included): what the retention
    settings keep in check (ops/retention.py, the README's growth per 1,000 bookings)."""
    try:
        path = sqlite_database_path(settings)
    except BackupError:
        path = None
    if path is not None:
        if not path.is_file():
            return Check("database size", True, "not checked (no database yet)")
        total = sum(p.stat().st_size for p in (path, Path(f"{path}-wal")) if p.is_file())
        tables = _read_rows(settings, _SQLITE_SIZES)
    else:
        totals = _read_rows(settings, "SELECT pg_database_size(current_database())")
        total = totals[0][0] if totals else None
        tables = _read_rows(settings, _POSTGRES_SIZES)
    if total is None:
        return Check("database size", True, "not checked (the database does not answer)")
    largest = ", ".join(f"{name} {_megabytes(size)}"
                        for name, size in (tables or [])[:LARGEST_TABLES])
    return Check("database size", True,
                 _megabytes(total) + (f"; largest: {largest}" if largest else ""))


def _megabytes(size: int) -> str:
    if size < 1_000_000:
        return f"{size / 1000:.0f} kB"
    return f"{size / 1_000_000:.1f} MB"




POLICE_CODES_MAX_AGE_DAYS = 30
# Per country: its connector, its tables, and those the authority's service serves (refreshed
# weekly once a property has credentials: filings/code_refresh.py). INE's municipalities come
# from INE's file, by hand, about once a year: their age is no failure.
POLICE_CODE_TABLES = {"IT": ("alloggiati", ("comuni", "stati", "documenti", "tipo_alloggiato"),
                             ("comuni", "stati", "documenti", "tipo_alloggiato")),
                      "ES": ("ses_hospedajes", ("tipo_documento", "sexo", "parentesco",
                                                "tipo_pago", "municipios"),
                             ("tipo_documento", "sexo", "parentesco", "tipo_pago"))}


def _police_codes(settings) -> list[Check]:
    """Each police code table in use: its source, its date (published, for the copy shipped with
    the package; loaded, for the authority's) and its rows. The shipped tables are the
    authorities' own and pass; a table the authority's service serves, loaded more than 30 days
    ago, fails where a property files with that authority (its weekly refresh stopped)."""
    from rentalcomply import codes  # the shipped tables' source, date and rows
    rows, connectors = _read_police_codes(settings)
    if rows is None:
        return []
    now = dt.datetime.utcnow()
    checks = []
    for country, (connector, tables, served) in POLICE_CODE_TABLES.items():
        described: dict[str, list[str]] = {}
        old, partial = [], []
        for table in tables:
            loaded = rows.get(f"{country}/{table}")
            if loaded is None:
                source, published, complete = codes.SHIPPED[country][table]
                count, when = codes.shipped_rows(country, table), f"published {published}"
                if not complete:
                    partial.append(table)
            else:
                loaded_at, source, count = loaded
                when = f"loaded {loaded_at:%Y-%m-%d}"
                if table in served and loaded_at < now - dt.timedelta(days=POLICE_CODES_MAX_AGE_DAYS):
                    old.append(table)
            described.setdefault(f"{source}, {when}", []).append(f"{table} {count} rows")
        detail = "; ".join(f"{', '.join(names)} ({origin})" for origin, names in described.items())
        if partial:
            detail += (f". The shipped {', '.join(partial)} is not the authority's whole list: a "
                       "town it lacks holds its filing, naming the town; load INE's current list "
                       f"with rentalcomply police refresh-codes --country {country} FILE")
        failing = bool(old) and connector in connectors
        if old:
            detail = (f"older than {POLICE_CODES_MAX_AGE_DAYS} days: {', '.join(old)} (the "
                      f"weekly refresh from {connector} has not loaded them: check its "
                      f"credentials, or rentalcomply police refresh-codes --country {country} "
                      f"FILE...); {detail}")
        checks.append(Check(f"police code tables {country}", not failing, detail))
    return checks


def _police_credentials(settings) -> list[Check]:
    """The police credentials in use, asked of each authority once (filings/health.py): a token
    from Alloggiati Web, an authenticated catalogue read from SES.Hospedajes. Nothing is filed."""
    used = _read_rows(settings, "SELECT count(*) FROM property "
                                "WHERE police_connector NOT IN ('none', 'file')")
    if not used or not used[0][0]:
        return []
    from rentalcomply.filings import health
    from rentalcomply.filings import settings as police
    previous = database.db.obj  # in-process callers (the tests) keep their own database
    engine = None
    try:
        secrets.load_server_secret(settings, create=False)
        engine = database.make_database(settings)
        database.db.initialize(engine)
        police.configure(settings)
        results = health.check_credentials(timeout=min(float(settings.police.timeout_seconds), 10.0))
    except Exception as exc:  # no secret, no database: the checks above say which
        return [Check("police credentials", False, f"could not be read ({exc.__class__.__name__})")]
    finally:
        if engine is not None:
            engine.close()
        if previous is not None:
            database.db.initialize(previous)
    checks = []
    for result in results:
        names = ", ".join(result.properties[:3]) + (
            f" and {len(result.properties) - 3} more" if len(result.properties) > 3 else "")
        checks.append(Check(f"police credentials {health.label_of(result.connector)} "
                            f"({names})", result.ok, result.detail))
    return checks


def _read_police_codes(settings):
    """({"IT/comuni": (loaded_at, source, rows)...}, {connectors in use}), or (None, None) when
    unreadable."""
    tables = _read_rows(settings, "SELECT id, loaded_at, source, row_count FROM police_code_table")
    used = _read_rows(settings, "SELECT DISTINCT police_connector FROM property")
    if tables is None or used is None:  # no such table yet (the migrations check says so)
        return None, None
    loaded = {}
    for table_id, loaded_at, source, row_count in tables:
        if isinstance(loaded_at, str):
            loaded_at = dt.datetime.fromisoformat(loaded_at)
        loaded[table_id] = (loaded_at.replace(tzinfo=None), source, row_count)
    return loaded, {row[0] for row in used}


def _read_rows(settings, sql: str) -> list | None:
    try:
        path = sqlite_database_path(settings)
    except BackupError:
        path = None
    try:
        if path is not None:
            if not path.is_file():
                return None
            with sqlite3.connect(f"file:{path}?mode=ro", uri=True, timeout=10) as connection:
                return connection.execute(sql).fetchall()
        connection = database.make_database(settings)
        try:
            return connection.execute_sql(sql).fetchall()
        finally:
            connection.close()
    except Exception:  # no such table before the migration, or no database: said elsewhere
        return None
