"""Logging: text or JSON lines on stderr, each line of a request carrying its request id.

The request id is the one the client sees in `X-Request-Id` (set by the gate for each request),
so an operator can go from a complaint to its lines. Start-up is quiet at the default level: the
migrations applied and the task worker's banner are debug lines, and so is each task run; what
goes wrong is still logged (warnings and errors of every logger).
"""

from __future__ import annotations

import contextvars
import datetime as dt
import io
import json
import logging
import sys
import threading
import time

request_id: contextvars.ContextVar[str | None] = contextvars.ContextVar("request_id", default=None)

# Loggers whose INFO lines are routine: shown at debug level only.
CHATTY = ("peewee.migrations", "huey", "huey.consumer", "huey.consumer.Scheduler")
# Loggers of libraries whose INFO lines tell us nothing at any level: fontTools' subsetter
# writes some 75 lines for each PDF it embeds a font into.
LIBRARY_NOISE = ("fontTools",)


class _RequestId(logging.Filter):
    def filter(self, record: logging.LogRecord) -> bool:
        access = getattr(record, "access", None)  # written after its request, which it names
        record.request_id = (access["request_id"] if access else None) or request_id.get() or "-"
        return True


class JsonLines(logging.Formatter):
    def format(self, record: logging.LogRecord) -> str:
        exception = self.formatException(record.exc_info) if record.exc_info else None
        return json_line(record.created, record.levelname, record.name, record.getMessage(),
                         getattr(record, "request_id", "-"), getattr(record, "access", None),
                         exception)


def json_line(created: float, level: str, logger: str, message: str, request_id: str,
              access: dict | None = None, exception: str | None = None) -> str:
    line = {
        "time": dt.datetime.fromtimestamp(created, dt.timezone.utc)
                  .isoformat(timespec="milliseconds").replace("+00:00", "Z"),
        "level": level.lower(),
        "logger": logger,
        "message": message,
    }
    if request_id != "-":
        line["request_id"] = request_id
    if access is not None:  # an access line's fields, each a key of its own
        line.update(access)
    if exception:
        line["exception"] = exception
    return json.dumps(line, ensure_ascii=False)


class TextLines(logging.Formatter):
    """TEXT_FORMAT, its time written out once a second rather than once a line."""

    def __init__(self):
        super().__init__(TEXT_FORMAT)
        self._second: tuple[int, str] = (-1, "")

    def formatTime(self, record: logging.LogRecord, datefmt: str | None = None) -> str:
        return self.time_of(record.created) if datefmt is None else super().formatTime(record, datefmt)

    def time_of(self, created: float) -> str:
        """As logging writes it: local time to the second, a comma and the milliseconds."""
        second = int(created)
        kept = self._second
        if kept[0] != second:
            kept = self._second = (second, time.strftime(self.default_time_format,
                                                         self.converter(created)))
        return f"{kept[1]},{int((created - second) * 1000):03d}"

    def line(self, created: float, level: str, logger: str, message: str, request_id: str) -> str:
        return f"{self.time_of(created)} {level} {logger} [{request_id}]: {message}"


class LinesInBlocks(logging.StreamHandler):
    """Lines on a stream, the routine ones written together a moment later.

    A warning or worse is written at once, after whatever waits before it. A routine line (the
    access log's, one per request) waits up to BLOCK_SECONDS for the lines that follow it, and
    they go in one write: written one by one to a pipe or to the journal's socket, each cost a
    request a system call (a third of an API read's time, bench/api_throughput.py), made while
    holding the handler's lock that every other request's line queued for. A line is formatted
    before that lock is taken, in its own thread.

    Only a stream on a file descriptor is written in blocks. Any other (a test's captured
    stderr) is written line by line, as a plain StreamHandler would. At exit, logging's shutdown
    flushes what waits; `flush_all()` does so before an immediate exit.
    """

    BLOCK_SECONDS = 0.05
    BLOCK_LINES = 500

    def __init__(self, stream):
        super().__init__(stream)
        self._waiting: list[str] = []
        self._in_blocks = _has_descriptor(stream)
        self._wake = threading.Event()
        self._closed = False
        if self._in_blocks:
            threading.Thread(target=self._write_later, name="log-writer", daemon=True).start()

    def handle(self, record: logging.LogRecord) -> bool:
        kept = self.filter(record)
        if isinstance(kept, logging.LogRecord):  # Python 3.12: a filter may give another record
            record = kept
        if not kept:
            return False
        try:
            line = self.format(record) + self.terminator
        except Exception:
            self.handleError(record)
            return True
        urgent = not self._in_blocks or record.levelno >= logging.WARNING
        with self.lock:
            self._waiting.append(line)
            if urgent or len(self._waiting) >= self.BLOCK_LINES:
                self._write_waiting()
                return True
        self._wake.set()
        return True

    def emit(self, record: logging.LogRecord) -> None:  # handle() does the work
        self.handle(record)

    def add_routine_line(self, line: str) -> None:
        """A routine INFO line written in blocks (`direct_line`), as `handle` would a record's."""
        with self.lock:
            self._waiting.append(line + self.terminator)
            if len(self._waiting) >= self.BLOCK_LINES:
                self._write_waiting()
                return
        self._wake.set()

    def flush(self) -> None:
        with self.lock:
            self._write_waiting()

    def _write_waiting(self) -> None:
        """Under the lock: the waiting lines in one write."""
        if not self._waiting:
            return
        text, self._waiting = "".join(self._waiting), []
        try:
            self.stream.write(text)
            self.stream.flush()
        except Exception:  # a closed stream; the lines are lost, the process goes on
            pass

    def close(self) -> None:
        self.flush()
        self._closed = True
        self._wake.set()
        super().close()

    def _write_later(self) -> None:
        while not self._closed:
            self._wake.wait()
            self._wake.clear()
            time.sleep(self.BLOCK_SECONDS)
            self.flush()


def direct_line(logger: logging.Logger, message: str, request_id: str, fields: dict) -> bool:
    """Write an INFO line of `logger` straight into our handler, as logging would have written
    it, without a LogRecord; False (nothing written) unless that is all logging would do with
    it: the logger on at INFO, no handler or filter on its way but ours, our handler writing in
    blocks with one of our formatters. Tests capturing records, another handler, a filter added:
    the caller logs as usual.

    For the access log's line, one per request: logging's record, filters and formatter were a
    third of the time of a kept GET in the process (bench/api_throughput.py)."""
    if not logger.isEnabledFor(logging.INFO):
        return True  # off: nothing to write, as logging would write nothing
    handler = _only_handler(logger)
    if handler is None:
        return False
    formatter = handler.formatter
    created = time.time()
    if type(formatter) is TextLines:
        handler.add_routine_line(formatter.line(created, "INFO", logger.name, message, request_id))
    elif type(formatter) is JsonLines:
        handler.add_routine_line(json_line(created, "INFO", logger.name, message, request_id,
                                           fields))
    else:
        return False
    return True


def _only_handler(logger: logging.Logger) -> "LinesInBlocks | None":
    """Our handler, if it is the only one a record of `logger` reaches and nothing filters on
    the way but its own request-id filter (logging applies the logger's own filters, then each
    handler's, up the chain of parents while they propagate)."""
    if logger.filters:
        return None
    found = None
    current = logger
    while current is not None:
        for handler in current.handlers:
            if found is not None or type(handler) is not LinesInBlocks or not handler._in_blocks \
                    or handler.level > logging.INFO \
                    or [type(each) for each in handler.filters] != [_RequestId]:
                return None
            found = handler
        current = current.parent if current.propagate else None
    return found


def _has_descriptor(stream) -> bool:
    try:
        stream.fileno()
    except (AttributeError, OSError, ValueError, io.UnsupportedOperation):
        return False
    return True


def flush_all() -> None:
    """Write what every handler of ours holds: before an exit that skips logging's shutdown."""
    for handler in logging.getLogger().handlers:
        if getattr(handler, "_rentalcomply", False):
            handler.flush()


TEXT_FORMAT = "%(asctime)s %(levelname)s %(name)s [%(request_id)s]: %(message)s"


# The access log (web/access_log.py): on or off by `log.access`, whatever the level.
ACCESS_LOGGER = "rentalcomply.access"


def configure(level: str = "info", fmt: str = "text", access: bool = True) -> None:
    # No caller, thread or process lookup for each record: no format of ours shows them (the
    # logging HOWTO's "Optimization"); the access log writes a record per request.
    logging._srcfile = None
    logging.logThreads = logging.logProcesses = logging.logMultiprocessing = False
    handler = LinesInBlocks(sys.stderr)
    handler.addFilter(_RequestId())
    handler.setFormatter(JsonLines() if fmt == "json" else TextLines())
    root = logging.getLogger()
    for old in [h for h in root.handlers if getattr(h, "_rentalcomply", False)]:
        root.removeHandler(old)
        old.close()
    handler._rentalcomply = True  # type: ignore[attr-defined]
    root.addHandler(handler)
    root.setLevel(getattr(logging, level.upper()))
    quiet = logging.DEBUG if level == "debug" else logging.WARNING
    for name in CHATTY:
        logging.getLogger(name).setLevel(quiet)
    logging.getLogger(ACCESS_LOGGER).setLevel(logging.INFO if access else logging.CRITICAL + 1)
    for name in LIBRARY_NOISE:
        logging.getLogger(name).setLevel(logging.WARNING)
    # Waitress warns "Task queue depth is N" on every small backlog.
    logging.getLogger("waitress.queue").setLevel(logging.ERROR)
