"""Logging: text or JSON lines on stderr, each line of a request carrying its request id.

The request id is the one the client sees in `X-Request-Id` (set by the gate for each request),
so an operator can go from a complaint to its lines. Start-up is quiet at the default level: the
migrations applied and the task worker's banner are debug lines, and so is each task run; what
goes wrong is still logged (warnings and errors of every logger).
"""

from __future__ import annotations

import contextvars
import datetime as dt
import json
import logging
import sys

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
        line = {
            "time": dt.datetime.fromtimestamp(record.created, dt.timezone.utc)
                      .isoformat(timespec="milliseconds").replace("+00:00", "Z"),
            "level": record.levelname.lower(),
            "logger": record.name,
            "message": record.getMessage(),
        }
        if getattr(record, "request_id", "-") != "-":
            line["request_id"] = record.request_id
        access = getattr(record, "access", None)
        if access is not None:  # an access line's fields, each a key of its own
            line.update(access)
        if record.exc_info:
            line["exception"] = self.formatException(record.exc_info)
        return json.dumps(line, ensure_ascii=False)


TEXT_FORMAT = "%(asctime)s %(levelname)s %(name)s [%(request_id)s]: %(message)s"


# The access log (web/access_log.py): on or off by `log.access`, whatever the level.
ACCESS_LOGGER = "rentalcomply.access"


def configure(level: str = "info", fmt: str = "text", access: bool = True) -> None:
    handler = logging.StreamHandler(sys.stderr)
    handler.addFilter(_RequestId())
    handler.setFormatter(JsonLines() if fmt == "json" else logging.Formatter(TEXT_FORMAT))
    root = logging.getLogger()
    for old in [h for h in root.handlers if getattr(h, "_rentalcomply", False)]:
        root.removeHandler(old)
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
