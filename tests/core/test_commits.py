"""Reads of committed state kept in memory until anything commits: a commit by this process or
any other, through the API or raw SQL, makes the next read go to the database again."""

from __future__ import annotations

import subprocess
import sys

import pytest

from rentalcomply.core import commits
from rentalcomply.core.db import db, sqlite_path
from tests.conftest import ON_POSTGRES

on_sqlite = pytest.mark.skipif(ON_POSTGRES, reason="the WAL-index header is SQLite's")


class CountedRead:
    def __init__(self):
        self.count = 0

    def __call__(self):
        self.count += 1
        return db.execute_sql("SELECT COUNT(*) FROM account").fetchone()[0]


def another_process_runs(sql: str, path) -> None:
    subprocess.run([sys.executable, "-c",
                    "import sqlite3, sys; c = sqlite3.connect(sys.argv[1]); "
                    "c.execute(sys.argv[2]); c.commit(); c.close()", str(path), sql], check=True)


@on_sqlite
def test_a_value_is_read_once_while_nothing_is_committed(settings):
    read = CountedRead()
    assert [commits.committed_read(("accounts",), read) for _ in range(5)] == [0] * 5
    assert read.count == 1


@on_sqlite
def test_a_commit_in_this_process_is_seen_by_the_next_read(settings):
    read = CountedRead()
    commits.committed_read(("accounts",), read)
    db.execute_sql("INSERT INTO account (id, name, created_at) VALUES ('acc_1', 'A', '2026-01-01')")
    assert commits.committed_read(("accounts",), read) == 1
    assert read.count == 2


@on_sqlite
def test_a_commit_by_another_process_is_seen_by_the_next_read(settings):
    read = CountedRead()
    token = commits.commit_token()
    assert token is not None and commits.committed_read(("accounts",), read) == 0
    another_process_runs("INSERT INTO account (id, name, created_at) "
                         "VALUES ('acc_2', 'B', '2026-01-01')", sqlite_path(settings))
    assert commits.commit_token() != token
    assert commits.committed_read(("accounts",), read) == 1


@on_sqlite
def test_a_commit_is_seen_after_every_connection_of_this_thread_was_closed(settings):
    read = CountedRead()
    commits.committed_read(("accounts",), read)
    db.close()  # the process's anchor keeps the -shm file in place
    another_process_runs("INSERT INTO account (id, name, created_at) "
                         "VALUES ('acc_3', 'C', '2026-01-01')", sqlite_path(settings))
    assert commits.committed_read(("accounts",), read) == 1


@on_sqlite
def test_watching_leaves_sqlites_own_lock_on_the_shared_memory_file_in_place(settings):
    """Closing any descriptor of a file drops every POSIX lock the process holds on it: had the
    watch closed one, another process could take the -shm file for new and reset it under this
    process's mappings (a bus error inside SQLite)."""
    commits.committed_read(("accounts",), CountedRead())
    db.execute_sql("SELECT 1").fetchone()
    # SQLite's "dead man switch" byte (128): shared by every process using the file.
    taken = subprocess.run([sys.executable, "-c",
                            "import fcntl, os, sys\n"
                            "fd = os.open(sys.argv[1], os.O_RDWR)\n"
                            "try:\n"
                            "    fcntl.lockf(fd, fcntl.LOCK_EX | fcntl.LOCK_NB, 1, 128)\n"
                            "except OSError:\n"
                            "    sys.exit(1)\n",
                            f"{sqlite_path(settings)}-shm"])
    assert taken.returncode == 1, "another process could take the -shm file for new"


@on_sqlite
def test_values_are_kept_apart_by_what_they_name(settings):
    assert commits.committed_read(("a",), lambda: 1) == 1
    assert commits.committed_read(("b",), lambda: 2) == 2
    assert commits.committed_read(("a",), lambda: 3) == 1


def test_without_a_header_to_watch_every_read_goes_to_the_database(settings):
    if not ON_POSTGRES:  # SQLite out of WAL mode has no WAL-index header
        assert db.execute_sql("PRAGMA journal_mode=delete").fetchone()[0] == "delete"
    read = CountedRead()
    commits.committed_read(("accounts",), read)
    commits.committed_read(("accounts",), read)
    assert read.count == 2
