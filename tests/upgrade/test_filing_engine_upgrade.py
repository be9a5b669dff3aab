"""Upgrading a data directory of the release that kept police filings in `police_filing`
(previous_release/, made by make_previous_release.py with that release running): the current
code starts on it, its migrations move every filing into `filing`, and a client sees the same
answers, files and receipts as before.

With RENTALCOMPLY_TEST_ON_POSTGRES=1 the previous release's rows are loaded into a PostgreSQL
database holding that release's schema (the migrations it had), and the upgrade runs there.
"""

from __future__ import annotations

import contextlib
import dataclasses
import datetime as dt
import hashlib
import json
import shutil
import sqlite3
from pathlib import Path

import pytest
from playhouse.migrations import Runner

from rentalcomply.accounts import service as accounts
from rentalcomply.config import load_settings
from rentalcomply.core import clock
from rentalcomply.core import db as database
from rentalcomply.core.db import db
from rentalcomply.runtime import bootstrap
from rentalcomply.web.app import create_app
from tests.conftest import ON_POSTGRES, make_actor, make_settings, scratch_postgres_database

PREVIOUS = Path(__file__).resolve().parent / "previous_release"
ANSWERS = json.loads((PREVIOUS / "answers.json").read_text(encoding="utf-8"))
MIGRATION = "0026_filing_engine"
KINDS = ("arrival", "departure", "cancellation", "reservation", "rh_cancellation")
STATUSES = ("waiting", "queued", "sending", "polling", "ready", "submitted", "rejected", "failed",
            "held")
# The columns police_filing had; `filing` has them too, `connector` renamed `authority`.
POLICE_FILING_COLUMNS = (
    "id", "account_id", "booking_id", "kind", "connector", "status", "deadline", "attempts",
    "next_attempt_at", "sending_since", "remote_id", "reference", "guests", "error",
    "receipt_sealed", "receipt_type", "file_sealed", "file_name", "file_type", "at_risk_at",
    "submitted_at", "version", "created_at", "updated_at")
FILING_COLUMNS = tuple("authority" if name == "connector" else name
                       for name in POLICE_FILING_COLUMNS) + ("property_id", "period", "held_reason")


# --- the previous release's data ------------------------------------------------------------------

def restore_sqlite(path: Path) -> None:
    """The previous release's database, from its SQL text."""
    connection = sqlite3.connect(path)
    try:
        connection.executescript((PREVIOUS / "rentalcomply.sql").read_text(encoding="utf-8"))
    finally:
        connection.close()


def plain(value):
    """A value as SQLite keeps it, whichever database gave it: timestamps as peewee writes them
    to SQLite, booleans as 0 or 1."""
    if isinstance(value, bool):
        return int(value)
    if isinstance(value, (dt.datetime, dt.date)):
        return str(value)
    return value


def sqlite_rows(path: Path, table: str) -> dict:
    """The rows of `table` by their first column (the key), each a dict by column."""
    connection = sqlite3.connect(path)
    try:
        cursor = connection.execute(f'SELECT * FROM "{table}"')
        names = [column[0] for column in cursor.description]
        return {row[0]: dict(zip(names, map(plain, row))) for row in cursor.fetchall()}
    finally:
        connection.close()


def current_rows(table: str) -> dict:
    cursor = db.execute_sql(f'SELECT * FROM "{table}"')
    names = [column[0] for column in cursor.description]
    return {row[0]: dict(zip(names, map(plain, row))) for row in cursor.fetchall()}


def _tables_in_dependency_order(connection: sqlite3.Connection) -> list[str]:
    """The data tables, each after the tables it points at (PostgreSQL checks every foreign key
    as the row goes in)."""
    tables = [name for (name,) in connection.execute(
        "SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%' "
        "AND name != 'schema_migration' ORDER BY name")]
    needs = {table: {row[2] for row in connection.execute(f'PRAGMA foreign_key_list("{table}")')
                     if row[2] != table} for table in tables}
    ordered: list[str] = []
    while needs:
        ready = sorted(table for table, targets in needs.items() if targets <= set(ordered))
        assert ready, f"foreign keys in a circle: {needs}"
        ordered.extend(ready)
        for table in ready:
            del needs[table]
    return ordered


def copy_into_postgres(sqlite_path: Path, url: str) -> None:
    """The previous release's database on PostgreSQL: its schema made by the migrations it had
    applied, then every row of every table."""
    connection = sqlite3.connect(sqlite_path)
    engine = database.make_database(load_settings(
        data_dir=None, env={"RENTALCOMPLY_DATABASE_URL": url}))
    try:
        applied = [name for (name,) in connection.execute(
            "SELECT name FROM schema_migration ORDER BY name")]
        tables = _tables_in_dependency_order(connection)
        with engine.connection_context():
            Runner(engine, str(database.MIGRATIONS_DIR)).up(target=applied[-1])
            with engine.atomic():
                for table in reversed(tables):  # rows the migrations wrote (api_key_change's)
                    engine.execute_sql(f'DELETE FROM "{table}"')
                for table in tables:
                    _copy_table(connection, engine, table)
            # The copy's commit ran the triggers that count each account's changes: the counts
            # as the previous release left them.
            with engine.atomic():
                engine.execute_sql('DELETE FROM "account_change"')
                _copy_table(connection, engine, "account_change")
    finally:
        connection.close()
        engine.close()


def _copy_table(connection: sqlite3.Connection, engine, table: str) -> None:
    cursor = connection.execute(f'SELECT * FROM "{table}"')
    names = [column[0] for column in cursor.description]
    rows = cursor.fetchall()
    types = dict(engine.execute_sql(
        "SELECT column_name, data_type FROM information_schema.columns "
        "WHERE table_schema = current_schema() AND table_name = %s", (table,)).fetchall())
    booleans = [index for index, name in enumerate(names) if types[name] == "boolean"]
    if rows:
        for index in booleans:
            rows = [row[:index] + (None if row[index] is None else bool(row[index]),)
                    + row[index + 1:] for row in rows]
        columns = ", ".join(f'"{name}"' for name in names)
        marks = ", ".join(["%s"] * len(names))
        engine.cursor().executemany(f'INSERT INTO "{table}" ({columns}) VALUES ({marks})', rows)
    # A serial key continues after the rows copied, as it did on the previous database.
    for (column,) in engine.execute_sql(
            "SELECT column_name FROM information_schema.columns WHERE table_schema = "
            "current_schema() AND table_name = %s AND column_default LIKE 'nextval(%%'",
            (table,)).fetchall():
        engine.execute_sql(f"SELECT setval(pg_get_serial_sequence('\"{table}\"', '{column}'), "
                           f'COALESCE((SELECT MAX("{column}") FROM "{table}"), 0) + 1, false)')


def schema_of(engine, table: str) -> dict:
    """The columns of `table` (type, nullable, key) by name, and its indexes."""
    return {"columns": {column.name: (column.data_type.lower(), column.null, column.primary_key)
                        for column in engine.get_columns(table)},
            "indexes": sorted((index.name, tuple(index.columns), index.unique)
                              for index in engine.get_indexes(table)),
            "foreign_keys": sorted((key.column, key.dest_table, key.dest_column)
                                   for key in engine.get_foreign_keys(table))}


@dataclasses.dataclass
class Upgraded:
    settings: object
    before: dict  # table -> the previous release's rows, by key
    police_filing_schema: dict  # police_filing as the previous release left it

    def client(self):
        """The previous release's account, through a key of the current code."""
        return make_actor(create_app(self.settings), ANSWERS["account_id"], ["read"],
                          name="upgrade check")


@pytest.fixture
def upgraded(tmp_path):
    """The current code started on the previous release's data: its migrations have run."""
    previous = tmp_path / "previous-release.db"
    restore_sqlite(previous)
    before = {table: sqlite_rows(previous, table)
              for table in ("police_filing", "booking", "report", "report_file")}
    data_dir = tmp_path / "data"
    data_dir.mkdir(mode=0o700)
    shutil.copyfile(PREVIOUS / "secret.key", data_dir / "secret.key")
    (data_dir / "secret.key").chmod(0o600)
    env = {"RENTALCOMPLY_SERVER_PUBLIC_URL": ANSWERS["public_url"],
           "RENTALCOMPLY_RATE_LIMIT_PER_MINUTE": 1_000_000}
    with contextlib.ExitStack() as stack:
        if ON_POSTGRES:
            url = stack.enter_context(scratch_postgres_database(migrated=False))
            copy_into_postgres(previous, url)
            env["RENTALCOMPLY_DATABASE_URL"] = url
        else:
            shutil.copyfile(previous, data_dir / "rentalcomply.db")
        settings = make_settings(tmp_path, **env)
        engine = database.make_database(settings)
        pending = database.pending_migrations(engine)
        # This migration first; those written since (0029 and on) come after it.
        assert pending[:1] == [MIGRATION] and pending == sorted(pending), \
            "the previous release's data should miss this migration and the newer ones only"
        with engine.connection_context():
            police_filing_schema = schema_of(engine, "police_filing")
        engine.close()
        bootstrap(settings)
        yield Upgraded(settings, before, police_filing_schema)
        clock.reset()
        accounts.forget_cached_keys()
        db.close()


def test_the_previous_release_left_a_filing_of_every_kind_in_every_status(tmp_path):
    previous = tmp_path / "previous-release.db"
    restore_sqlite(previous)
    rows = sqlite_rows(previous, "police_filing")
    present = {(row["kind"], row["status"]) for row in rows.values()}
    assert [(k, s) for k in KINDS for s in STATUSES if (k, s) not in present] == []
    assert {row["connector"] for row in rows.values()} == {"file", "alloggiati",
                                                            "ses_hospedajes", "siba"}
    assert ANSWERS["police_files"] and ANSWERS["police_receipts"] and ANSWERS["report_files"]


# --- the rows -------------------------------------------------------------------------------------

def expected_filing(old: dict, bookings: dict) -> dict:
    """What a police_filing row becomes in `filing`."""
    new = {("authority" if name == "connector" else name): value for name, value in old.items()}
    held = old["status"] == "held"
    new.update(property_id=bookings[old["booking_id"]]["property_id"], period=None,
               error=None if held else old["error"], held_reason=old["error"] if held else None)
    return new


def test_every_police_filing_is_in_filing_with_the_same_values(upgraded):
    before = upgraded.before["police_filing"]
    after = current_rows("filing")
    assert sorted(after) == sorted(before)
    for filing_id, old in before.items():
        assert after[filing_id] == expected_filing(old, upgraded.before["booking"]), filing_id


def test_a_held_filing_keeps_its_reason_as_held_reason_and_no_error(upgraded):
    held = {i: row for i, row in upgraded.before["police_filing"].items()
            if row["status"] == "held"}
    assert len(held) >= len(KINDS)
    after = current_rows("filing")
    for filing_id, old in held.items():
        assert old["error"], filing_id
        assert after[filing_id]["held_reason"] == old["error"]
        assert after[filing_id]["error"] is None
    others = [row for row in after.values() if row["status"] != "held"]
    assert all(row["held_reason"] is None for row in others)
    # An error of a row that is not held stays where it was.
    assert any(row["error"] for row in others)


def test_police_filing_is_gone_and_filing_has_its_columns_and_indexes(upgraded):
    assert not db.table_exists("police_filing")
    schema = schema_of(db.obj, "filing")
    columns = schema["columns"]
    assert sorted(columns) == sorted(FILING_COLUMNS)
    # Each column as police_filing had it (`booking_id` now nullable), `authority` as `connector`.
    old = upgraded.police_filing_schema["columns"]
    for name in POLICE_FILING_COLUMNS:
        data_type, null, key = old[name]
        new_name = "authority" if name == "connector" else name
        assert columns[new_name] == (data_type, null or name == "booking_id", key), name
    assert columns["property_id"][:2] == (old["booking_id"][0], True)
    assert columns["held_reason"][:2] == (old["error"][0], True)
    assert columns["period"][1] is True
    indexes = {(index_columns, unique) for _, index_columns, unique in schema["indexes"]}
    for wanted in [(("booking_id", "kind"), True), (("status", "deadline"), False),
                   (("next_attempt_at",), False), (("account_id", "period"), False)]:
        assert wanted in indexes, (wanted, indexes)
    assert {(column, table) for column, table, _ in schema["foreign_keys"]} == {
        ("account_id", "account"), ("booking_id", "booking"), ("property_id", "property")}


def test_reports_and_their_files_are_untouched(upgraded):
    assert current_rows("report") == upgraded.before["report"]
    assert current_rows("report_file") == upgraded.before["report_file"]


# Later migrations whose tables point at `filing` (a foreign key PostgreSQL will not leave
# dangling): taken down before this one's down, and brought back after its up.
LATER_DEPENDENTS = ("0044_receipts", "0046_obligations")


def test_down_brings_police_filing_back_as_it_was_and_up_moves_it_again(upgraded):
    runner = Runner(db.obj, str(database.MIGRATIONS_DIR))
    loaded = {m.name: m for m in runner.migrations()}
    migration = loaded[MIGRATION].load()
    dependents = [loaded[name].load() for name in LATER_DEPENDENTS]
    after = current_rows("filing")
    with runner.migrator.migration_context():
        for dependent in reversed(dependents):
            dependent.down(runner.migrator, db.obj)
        migration.down(runner.migrator, db.obj)
    assert not db.table_exists("filing")
    assert schema_of(db.obj, "police_filing") == upgraded.police_filing_schema
    assert current_rows("police_filing") == upgraded.before["police_filing"]
    with runner.migrator.migration_context():
        migration.up(runner.migrator, db.obj)
        for dependent in dependents:
            dependent.up(runner.migrator, db.obj)
    assert not db.table_exists("police_filing")
    assert current_rows("filing") == after


def test_the_upgrade_adds_the_obligations_table_and_one_period_filing_per_period(upgraded):
    """0046: a property's obligations beside the police, and a unique index that keeps one
    filing per property, authority, kind and period; every filing of the previous release (a
    booking's, its period null) stays."""
    assert current_rows("filing").keys() == upgraded.before["police_filing"].keys()
    schema = schema_of(db.obj, "obligation_settings")
    assert sorted(schema["columns"]) == sorted(
        ["property_id", "authority", "account_id", "settings", "credentials_sealed",
         "credential_names", "created_at", "updated_at"])
    assert {(column, table) for column, table, _ in schema["foreign_keys"]} == {
        ("account_id", "account"), ("property_id", "property")}
    indexes = {(columns, unique) for _, columns, unique in schema_of(db.obj, "filing")["indexes"]}
    assert (("property_id", "authority", "kind", "period"), True) in indexes
    # The upgraded account's properties list their obligations (Greek ones owe none).
    client = upgraded.client()
    for prop in client.get("/api/v1/properties").json["data"]:
        assert isinstance(prop["obligations"], list)


# --- what a client sees ---------------------------------------------------------------------------

def test_a_client_sees_each_bookings_police_filings_as_before(upgraded):
    client = upgraded.client()
    for booking_id, before in ANSWERS["police"].items():
        response = client.get(f"/api/v1/bookings/{booking_id}/police", status="*")
        answer = {"status": response.status_int, "content_type": response.headers["Content-Type"],
                  "body": response.text}
        assert answer == before, booking_id


def test_the_police_files_and_receipts_are_the_same_bytes(upgraded):
    client = upgraded.client()
    public = ANSWERS["public_url"]
    for before in ANSWERS["police_files"]:
        link = client.get(f"/api/v1/bookings/{before['booking_id']}/police/file",
                          {"kind": before["kind"]}).json["data"]
        assert link["filename"] == before["filename"]
        assert link["download_url"].startswith(f"{public}/files/police/{ANSWERS['account_id']}/"
                                               f"{before['filing_id']}?")
        download = client.get(link["download_url"][len(public):])
        assert hashlib.sha256(download.body).hexdigest() == before["sha256"], before
        assert download.headers["Content-Type"] == before["download_content_type"]
        assert download.headers["Content-Disposition"] == before["content_disposition"]
    for before in ANSWERS["police_receipts"]:
        download = client.get(f"/api/v1/bookings/{before['booking_id']}/police/receipt",
                              {"kind": before["kind"]})
        assert hashlib.sha256(download.body).hexdigest() == before["sha256"], before
        assert download.headers["Content-Type"] == before["download_content_type"]
        assert download.headers["Content-Disposition"] == before["content_disposition"]


def test_a_client_sees_each_report_and_its_files_as_before(upgraded):
    client = upgraded.client()
    public = ANSWERS["public_url"]
    for code, before in ANSWERS["reports"].items():
        response = client.get(f"/api/v1/reports/{code}", status="*")
        answer = {"status": response.status_int, "content_type": response.headers["Content-Type"],
                  "body": response.text}
        assert answer == before, code
    for before in ANSWERS["report_files"]:
        link = client.get(f"/api/v1/reports/{before['report']}/download",
                          {"format": before["format"]}).json["data"]
        assert link["filename"] == before["filename"]
        download = client.get(link["download_url"][len(public):])
        assert hashlib.sha256(download.body).hexdigest() == before["sha256"], before
