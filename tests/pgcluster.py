"""A PostgreSQL cluster of the test's own, which it may stop and restart at will.

The machine's PostgreSQL serves every other test; restarting it would break them. This one is
made with `initdb` in a temporary directory, listens on a free loopback port with trust
authentication and keeps its socket in that directory:

    with private_cluster() as cluster:
        url = cluster.create_database("rentalcomply")
        cluster.restart()

The test is skipped where PostgreSQL's server programs are not installed. initdb refuses to run
as root, so as root the programs run as the `postgres` user, who owns the directory.
"""

from __future__ import annotations

import contextlib
import glob
import os
import shutil
import socket
import subprocess
import tempfile
from pathlib import Path
from typing import Iterator

import pytest


def server_programs() -> Path | None:
    """The directory of initdb and pg_ctl: on PATH, or Debian's /usr/lib/postgresql/N/bin (the
    newest version)."""
    on_path = shutil.which("pg_ctl")
    if on_path and shutil.which("initdb"):
        return Path(on_path).parent
    found = sorted(glob.glob("/usr/lib/postgresql/*/bin/pg_ctl"),
                   key=lambda path: int(Path(path).parent.parent.name)
                   if Path(path).parent.parent.name.isdigit() else 0)
    return Path(found[-1]).parent if found else None


def _free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


class PrivateCluster:
    def __init__(self, programs: Path, directory: Path):
        self.programs = programs
        self.directory = directory
        self.data = directory / "data"
        self.log = directory / "server.log"
        self.port = _free_port()
        self.user = "postgres"
        self.base_url = f"postgresql://{self.user}@127.0.0.1:{self.port}"
        # As root, every program runs as the postgres user (initdb refuses root).
        self._as = ["runuser", "-u", "postgres", "--"] if os.geteuid() == 0 else []

    def _run(self, *args: str, timeout: float = 60) -> subprocess.CompletedProcess:
        program = str(self.programs / args[0])
        done = subprocess.run([*self._as, program, *args[1:]], capture_output=True, text=True,
                              timeout=timeout, check=False)
        if done.returncode != 0:
            raise AssertionError(f"{' '.join(args[:2])} failed ({done.returncode}):\n"
                                 f"{done.stdout}{done.stderr}{self.server_log()}")
        return done

    def server_log(self) -> str:
        try:
            return self.log.read_text(errors="replace")
        except OSError:
            return ""

    def init(self) -> None:
        self._run("initdb", "-D", str(self.data), "-U", self.user, "--auth=trust",
                  "--encoding=UTF8", "--no-locale", "--no-instructions", "--no-sync")
        # fsync off only spares the disk: it matters to a crash of the machine, not to a restart
        # of the server, whose shutdown writes out every committed transaction. A commit is
        # still acknowledged only once in the server's log (synchronous_commit stays on).
        with (self.data / "postgresql.conf").open("a") as conf:
            conf.write(f"\nlisten_addresses = '127.0.0.1'\nport = {self.port}\n"
                       f"unix_socket_directories = '{self.directory}'\n"
                       "max_connections = 50\nshared_buffers = 16MB\nfsync = off\n")

    def start(self) -> None:
        self._run("pg_ctl", "start", "-D", str(self.data), "-l", str(self.log), "-w", "-t", "30")

    def restart(self) -> None:
        """Stop the server (fast: every client's connection closed, open transactions rolled
        back) and start it again; returns once it accepts connections."""
        self._run("pg_ctl", "restart", "-D", str(self.data), "-m", "fast", "-l", str(self.log),
                  "-w", "-t", "30")

    def stop(self) -> None:
        subprocess.run([*self._as, str(self.programs / "pg_ctl"), "stop", "-D", str(self.data),
                        "-m", "immediate", "-w", "-t", "30"], capture_output=True, timeout=60,
                       check=False)

    def connect(self, database: str = "postgres"):
        import psycopg2
        connection = psycopg2.connect(f"{self.base_url}/{database}", connect_timeout=5)
        connection.autocommit = True
        return connection

    def create_database(self, name: str) -> str:
        """A new empty database; its URL."""
        admin = self.connect()
        try:
            admin.cursor().execute(f"CREATE DATABASE {name}")
        finally:
            admin.close()
        return f"{self.base_url}/{name}"


@contextlib.contextmanager
def private_cluster() -> Iterator[PrivateCluster]:
    """A started private cluster, stopped and removed afterwards. Skips the test without
    PostgreSQL's server programs or psycopg2."""
    pytest.importorskip("psycopg2")
    programs = server_programs()
    if programs is None or not (programs / "initdb").exists():
        pytest.skip("PostgreSQL's server programs (initdb, pg_ctl) are not installed")
    # Under /tmp itself, not pytest's tmp_path: the postgres user must reach it, and a socket's
    # path must stay short (about 100 bytes).
    directory = Path(tempfile.mkdtemp(prefix="rc-pg-"))
    if os.geteuid() == 0:
        shutil.chown(directory, "postgres", "postgres")
    cluster = PrivateCluster(programs, directory)
    try:
        cluster.init()
        cluster.start()
        yield cluster
    finally:
        cluster.stop()
        shutil.rmtree(directory, ignore_errors=True)
