"""create_app(settings): the WSGI application — the gate around a Bottle app of all routes."""

from __future__ import annotations

import logging
import threading

import bottle

from rentalcomply import __version__
from rentalcomply.core.db import db, warn_of
from rentalcomply.core.queue import huey
from rentalcomply.core.modules import optional_modules
from rentalcomply.core.errors import MethodNotAllowed, NotFound, ServiceUnavailable
from rentalcomply.web import openapi, uploads
from rentalcomply.web.access_log import AccessLog
from rentalcomply.web.gate import Gate
from rentalcomply.web.json import error_body
from rentalcomply.web.routing import Api, Reply, internal_error

log = logging.getLogger(__name__)


# Capabilities whose routes join the API, in the order their routes are declared. A capability not
# (yet) in this build is skipped, so each one plugs in from its own folder.
CAPABILITY_MODULES = (
    "rentalcomply.properties.api", "rentalcomply.bookings.api", "rentalcomply.webhooks.api",
    "rentalcomply.checkin.api", "rentalcomply.reports.api", "rentalcomply.sync.api",
    "rentalcomply.filings.api", "rentalcomply.dashboard.api", "rentalcomply.imports.api",
    "rentalcomply.taxes.api",
)


def _capabilities():
    # Each capability's api.register(api) adds its routes. Imported here, not at module level, so
    # that importing the web package never drags every capability in.
    return list(optional_modules(CAPABILITY_MODULES))


class CompiledOnceRouter(bottle.Router):
    """Bottle's router, compiling each method's combined pattern once all routes are in.

    Bottle recompiles the pattern of every route of a method each time a route is added: for the
    API's and the dashboard's 110 routes that is some 260 regular expressions, about a third of
    a start's time (half a second or more on a small machine). Here adding a route only marks its
    method; the patterns are compiled by `compile()` at the end of create_app, or by the first
    match after a later addition. The rest (matching, building URLs) is Bottle's own.
    """

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        self._uncompiled: set[str] = set()
        self._compiling = threading.Lock()

    def _compile(self, method):
        self._uncompiled.add(method)

    def compile(self) -> None:
        with self._compiling:
            for method in sorted(self._uncompiled):
                super()._compile(method)
            self._uncompiled.clear()

    def match(self, environ):
        if self._uncompiled:
            self.compile()
        return super().match(environ)


def create_app(settings) -> Gate | AccessLog:
    app = bottle.Bottle(catchall=True)
    # Bottle's __setattr__ refuses to replace an attribute (its guard against plugins that clash);
    # the app is new and holds no route yet.
    app.__dict__["router"] = CompiledOnceRouter()
    api = Api(app, settings)
    _register_service_routes(api)
    for capability in _capabilities():
        capability.register(api)
    app.router.compile()
    _install_error_handlers(app)
    uploads.install()
    gate = Gate(uploads.ClosingUploads(app), settings)
    gate.api = api
    gate.kept_answer = api.kept_answer
    gate.bottle_app = app
    return AccessLog(gate) if settings.log.access else gate


def _register_service_routes(api: Api) -> None:
    @api.get("/healthz", scope=None, public=True, prefix="", tags=["service"],
             summary="Health check", response="Health",
             description="Answers 200 when the database and the task queue answer, 503 naming "
                         "the one that does not otherwise. No API key; also over plain HTTP, for "
                         "monitors.")
    def healthz(ctx):
        try:
            db.execute_sql("SELECT 1").fetchone()
        except Exception as exc:
            warn_of(log, exc, "health check: database does not answer")
            raise ServiceUnavailable("The database does not answer.")
        if not huey.immediate:
            # Writes still succeed without the queue (events wait in the outbox), but nothing is
            # delivered, synced, filed or reported until it is back: a monitor must know.
            try:
                huey.storage.queue_size()
            except Exception:
                log.warning("health check: the task queue does not answer", exc_info=True)
                raise ServiceUnavailable("The task queue does not answer.")
        return {"status": "ok", "version": __version__,
                "https": ctx.https}

    @api.get("/openapi.json", scope=None, public=True, tags=["service"],
             summary="This API's OpenAPI 3.1 document", response=None,
             content_type="application/json")
    def openapi_document(ctx):
        return Reply(openapi.document_bytes(api))


def _install_error_handlers(app: bottle.Bottle) -> None:
    """Bottle's own errors (no route, wrong method, a crash outside our handlers) in our shape."""

    def json_error(http_error: bottle.HTTPError) -> bytes:
        request_id = bottle.request.environ.get("rentalcomply.request_id")
        bottle.response.content_type = "application/json"
        if http_error.status_code == 405:
            allowed = [m.strip() for m in http_error.headers.get("Allow", "").split(",") if m.strip()]
            if "GET" in allowed and "HEAD" not in allowed:  # Bottle answers HEAD for every GET
                allowed.append("HEAD")
            raised = MethodNotAllowed(allowed)
        elif http_error.status_code == 404:
            raised = NotFound("No such endpoint: " + bottle.request.path)
        else:
            if http_error.exception is not None:
                log.error("unhandled error (request %s)", request_id,
                          exc_info=(type(http_error.exception), http_error.exception,
                                    http_error.exception.__traceback__))
            raised = internal_error(request_id)
        for name, value in raised.headers.items():
            bottle.response.set_header(name, value)
        return error_body(raised, request_id)

    for status in (404, 405, 500):
        app.error_handler[status] = json_error
