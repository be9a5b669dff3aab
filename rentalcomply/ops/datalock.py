"""Who is using a data directory: the lock that keeps `restore` from pulling files from under a
running server.

Every `serve` and `worker` process holds a shared lock (flock) on `server.lock` in the data
directory for its whole life; several may (a server and a separate worker). `restore` takes the
same lock exclusively and without waiting: while any server or worker runs, it is refused and told
which processes hold the directory, so no write a running server acknowledged can land in a file
that is being moved aside. While a restore runs, a server or worker that starts is refused in turn.

The kernel drops a flock when its process ends, however it ends (SIGKILL included), so a crashed
server never leaves a stale lock behind. The PIDs come from the lock file itself (each holder
records its own) and, on Linux, from /proc/locks, which names every holder exactly. Where there is
no flock (Windows), no lock is taken: stop the server before a restore by hand.
"""

from __future__ import annotations

import contextlib
import errno
import os
from pathlib import Path

try:
    import fcntl
except ImportError:  # Windows: no flock; the lock is not taken there (stop the server by hand)
    fcntl = None

LOCK_FILE = "server.lock"


class DataDirectoryBusy(Exception):
    """The data directory is in use; the message says by whom."""

    def __init__(self, message: str, pids: list[int] | None = None):
        super().__init__(message)
        self.pids = pids or []


def lock_path(data_dir) -> Path:
    return Path(data_dir) / LOCK_FILE


def _open(data_dir) -> int:
    path = lock_path(data_dir)
    path.parent.mkdir(parents=True, exist_ok=True, mode=0o700)
    fd = os.open(path, os.O_RDWR | os.O_CREAT, 0o600)
    os.chmod(path, 0o600)
    return fd


def _try_lock(fd: int, operation: str) -> bool:
    if fcntl is None:
        return True
    operation = fcntl.LOCK_SH if operation == "shared" else fcntl.LOCK_EX
    try:
        fcntl.flock(fd, operation | fcntl.LOCK_NB)
    except OSError as exc:
        if exc.errno in (errno.EWOULDBLOCK, errno.EAGAIN, errno.EACCES):
            return False
        raise
    return True


class Holder:
    """The shared hold of a server or worker; `release()` (or process exit) lets go of it."""

    def __init__(self, fd: int, data_dir):
        self.fd = fd
        self.data_dir = data_dir

    def release(self) -> None:
        if self.fd is not None:
            _forget_pid(self.fd, os.getpid())
            os.close(self.fd)  # closing the descriptor drops the flock
            self.fd = None


def hold(data_dir) -> Holder:
    """Hold the data directory as a server or worker. Raises DataDirectoryBusy during a restore."""
    fd = _open(data_dir)
    if not _try_lock(fd, "shared"):
        os.close(fd)
        raise DataDirectoryBusy(f"a restore is in progress in {data_dir}: start again when it "
                                "has finished")
    _record_pid(fd, os.getpid())
    return Holder(fd, data_dir)


@contextlib.contextmanager
def exclusive(data_dir):
    """Hold the data directory alone (for a restore), or raise DataDirectoryBusy naming the PIDs
    of the servers and workers using it."""
    fd = _open(data_dir)
    try:
        if not _try_lock(fd, "exclusive"):
            pids = holders(data_dir, fd)
            who = (("process " if len(pids) == 1 else "processes ")
                   + ", ".join(str(pid) for pid in pids)) if pids else "another process"
            raise DataDirectoryBusy(
                f"{data_dir} is in use by a running server or worker ({who}): stop it first, "
                "then restore", pids)
        yield
    finally:
        os.close(fd)


def holders(data_dir, fd: int | None = None) -> list[int]:
    """The PIDs holding the lock: from /proc/locks where there is one, else the recorded ones
    that are still alive."""
    path = lock_path(data_dir)
    try:
        stat = os.stat(path)
    except FileNotFoundError:
        return []
    # /proc/locks may name no one where a file system reports other inode numbers (overlayfs).
    found = _proc_locks_holders(stat) or [pid for pid in _recorded_pids(fd) if _alive(pid)]
    return sorted(set(found) - {os.getpid()})


def _proc_locks_holders(stat) -> list[int] | None:
    try:
        text = Path("/proc/locks").read_text()
    except OSError:
        return None
    pids = []
    for line in text.splitlines():
        # "1: FLOCK  ADVISORY  READ  12345 08:01:1234567 0 EOF" (a "->" line waits for a lock)
        fields = line.split()
        if len(fields) < 6 or fields[1] != "FLOCK" or "->" in fields:
            continue
        try:
            _major, _minor, inode = fields[5].split(":")
            if int(inode) == stat.st_ino:
                pids.append(int(fields[4]))
        except ValueError:
            continue
    return pids


def _recorded_pids(fd: int | None) -> list[int]:
    if fd is None:
        return []
    os.lseek(fd, 0, os.SEEK_SET)
    text = os.read(fd, 65536).decode("ascii", "replace")
    return [int(word) for word in text.split() if word.isdigit()]


def _record_pid(fd: int, pid: int) -> None:
    # Several holders may write; the list is advisory (the flock is what counts).
    _rewrite(fd, [p for p in _recorded_pids(fd) if p != pid and _alive(p)] + [pid])


def _forget_pid(fd: int, pid: int) -> None:
    try:
        _rewrite(fd, [p for p in _recorded_pids(fd) if p != pid])
    except OSError:
        pass


def _rewrite(fd: int, pids: list[int]) -> None:
    os.ftruncate(fd, 0)
    os.lseek(fd, 0, os.SEEK_SET)
    os.write(fd, "".join(f"{pid}\n" for pid in pids).encode("ascii"))


def _alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:
        return True
    return True
