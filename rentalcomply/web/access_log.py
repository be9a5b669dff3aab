"""The access log: one line per request, naming what an operator needs to find it again.

An operator holding a client's request id (`X-Request-Id`, or the error body's) finds the line
of that request: its method, route, status, duration, request id and the id of the API key that
made it. It never holds what could be used or read: not the key, not a token, not a guest's link
or data. So the route is the matched pattern (`/checkin/<token>`), not the path; a request that
matched no route logs its path only where paths carry no credential (the API's, whose ids are
not secrets), and the first segment elsewhere; the query string never.

Lines go to the `rentalcomply.access` logger at INFO, text or JSON as `log.format` says (the
JSON line has the fields as keys); `log.access = false` turns them off. The line is written when
the answer has been handed to the server (a streamed file's once it is sent).
"""

from __future__ import annotations

import logging
import time

from rentalcomply.core import logs

log = logging.getLogger("rentalcomply.access")

# Paths, outside a matched route, whose segments are only names and ids.
LOGGED_PATH_PREFIXES = ("/api/", "/healthz", "/static/")


class AccessLog:
    """WSGI middleware around the gate (outermost, so that refusals are logged too)."""

    def __init__(self, app):
        self.app = app

    def __getattr__(self, name):  # the gate's attributes (api, bottle_app...) stay reachable
        return getattr(self.app, name)

    def __call__(self, environ, start_response):
        started = time.perf_counter()
        status = ["-"]

        def start(line, headers, exc_info=None):
            status[0] = line[:3]
            return start_response(line, headers, exc_info)

        try:
            body = self.app(environ, start)
        except BaseException:
            _write(environ, "500", started)
            raise
        if isinstance(body, (list, tuple)):
            _write(environ, status[0], started)
            return body
        return _LoggedBody(body, environ, status, started)


class _LoggedBody:
    """A streamed answer (a file): logged once the server has closed it."""

    def __init__(self, body, environ, status, started):
        self.body, self.environ, self.status, self.started = body, environ, status, started
        # Waitress sends a file wrapper straight from its file: keep that path open to it.
        for name in ("filelike", "block_size"):
            if hasattr(body, name):
                setattr(self, name, getattr(body, name))

    def __iter__(self):
        return iter(self.body)

    def close(self):
        try:
            if hasattr(self.body, "close"):
                self.body.close()
        finally:
            _write(self.environ, self.status[0], self.started)


def route_of(environ) -> str:
    """The matched route's pattern, else the path where it is safe to log, else its first
    segment: never a token that a path carries (/checkin/..., /files/..., password links)."""
    route = environ.get("bottle.route")
    if route is not None:
        return route.rule
    path = environ.get("PATH_INFO", "") or "/"
    if path.startswith(LOGGED_PATH_PREFIXES) or path == "/":
        return path
    first = path.split("/", 2)[1]
    return f"/{first}/…" if path.count("/") > 1 or path.endswith("/") else f"/{first}"


def _write(environ, status: str, started: float) -> None:
    if not log.isEnabledFor(logging.INFO):
        return
    duration_ms = (time.perf_counter() - started) * 1000
    key = environ.get("rentalcomply.api_key")
    fields = {"method": environ.get("REQUEST_METHOD", "-"), "route": route_of(environ),
              "status": int(status) if status.isdigit() else status,
              "duration_ms": round(duration_ms, 1),
              "request_id": environ.get("rentalcomply.request_id", "-"),
              "key_id": key.id if key is not None else None}
    arguments = (fields["method"], fields["route"], status, duration_ms, fields["key_id"] or "-")
    # Straight into our handler where that is all logging would do with the line (logs.py).
    if not logs.direct_line(log, MESSAGE % arguments, fields["request_id"], fields):
        log.info(MESSAGE, *arguments, extra={"access": fields})


MESSAGE = "%s %s %s %.1f ms key=%s"
