"""How a capability declares its routes, and what happens around every handler.

    @api.get("/bookings/<booking_id>", scope="read", summary="Get a booking",
             response="Booking", errors=[NotFound])
    def get_booking(ctx, booking_id):
        return bookings.get(ctx.account_id, booking_id)       # -> {"data": ...}

Around the handler, in the decided order (the gate has already done HTTPS, key and rate limit):
scope (403); body size, media type and JSON (413/415/400); validation of query and body (400);
then, for writes, one database transaction holding the handler, its events and the
Idempotency-Key record; events are handed to the dispatcher once it commits. Any ApiError becomes
the shared error shape; anything else is logged with its traceback and answered with a bare 500.
"""

from __future__ import annotations

import dataclasses
import hashlib
import logging
from typing import Any, Callable

import bottle
import peewee

from rentalcomply.core import activity, events, queue, signed_links
from rentalcomply.core import db as db_module
from rentalcomply.core.checks import control_character_problem
from rentalcomply.core.db import db
from rentalcomply.core.errors import (ApiError, InsufficientScope, InternalError, InvalidJson, NotFound,
                                      PayloadTooLarge, ServiceUnavailable, UnsupportedMediaType,
                                      ValidationError)
from rentalcomply.web import answer_cache, idempotency
from rentalcomply.web.gate import API_PREFIX
from rentalcomply.web.json import DuplicateKeys, dumps, error_body, loads_request
from rentalcomply.web.validation import Field, printable_name, validate

log = logging.getLogger(__name__)

MAX_BODY_BYTES = 1024 * 1024
JSON_TYPES = ("application/json",)
PATCH_TYPES = ("application/json", "application/merge-patch+json")


@dataclasses.dataclass
class Reply:
    """A handler's answer when it is more than `{"data": ...}` with 200."""

    data: Any
    status: int = 200
    headers: dict[str, str] = dataclasses.field(default_factory=dict)
    pagination: dict | None = None


@dataclasses.dataclass
class RouteSpec:
    method: str
    path: str  # Bottle syntax, full path
    handler: Callable
    scope: str | None
    summary: str
    description: str
    tags: tuple[str, ...]
    query: dict[str, Field]
    body: dict[str, Field] | None
    response: Any  # schema name, JSON schema, or None for no body
    status: int
    paginated: bool | str  # True, or the name of the list's own pagination schema
    errors: tuple[type[ApiError], ...]
    public: bool
    content_type: str  # of a success response
    optional_body: bool = False  # an empty body counts as {}
    # Answers 304 Not Modified to a matching If-None-Match (documented as such).
    conditional: bool = False
    # The rendered answer is kept against the account's change version (web/answer_cache.py).
    cached: bool = False
    # False: the handler commits its own steps, because it waits on a peer (a mail server) and
    # must not hold the database meanwhile; a refusal then keeps what it committed.
    transaction: bool = True
    # A POST whose answer shows a secret or a link once: what an Idempotency-Key replay withholds.
    shown_once: idempotency.ShownOnce | None = None
    # A route taking a file as its body (these media types), not JSON: the handler reads
    # ctx.raw_body; ctx.body is the file's digest and the query (what an Idempotency-Key compares).
    file_types: tuple[str, ...] = ()


class Context:
    """What a handler may know about the request, without Bottle."""

    __slots__ = ("settings", "account_id", "api_key", "query", "body", "request_id", "headers",
                 "raw_body", "https", "scopes")

    def __init__(self, settings, environ, query, body, raw_body):
        self.settings = settings
        self.account_id = environ.get("rentalcomply.account_id")
        self.api_key = environ.get("rentalcomply.api_key")
        self.request_id = environ.get("rentalcomply.request_id")
        self.https = bool(environ.get("rentalcomply.https"))  # TLS or a trusted proxy said so
        # What the key may do: a view may show more to a key that may write (check-in links).
        self.scopes = environ.get("rentalcomply.scopes", ())
        self.query = query
        self.body = body
        self.raw_body = raw_body
        self.headers = bottle.request.headers

    @property
    def public_url(self) -> str:
        return self.settings.server.public_url


class Api:
    """A registry of routes on a Bottle app; also the source of the OpenAPI document."""

    def __init__(self, app: bottle.Bottle, settings):
        self.app = app
        self.settings = settings
        self.routes: list[RouteSpec] = []
        self._cached_routes: dict[Callable, RouteSpec] = {}  # Bottle's callback -> its spec

    def route(self, method: str, path: str, *, scope: str | None, summary: str,
              description: str = "", tags: tuple[str, ...] | list[str] = (),
              query: dict[str, Field] | None = None, body: dict[str, Field] | None = None,
              response: Any = None, status: int = 200, paginated: bool | str = False,
              errors: tuple | list = (), public: bool = False, prefix: str = API_PREFIX,
              content_type: str = "application/json", optional_body: bool = False,
              conditional: bool = False, cached: bool = False, transaction: bool = True,
              shown_once: idempotency.ShownOnce | None = None,
              file_types: tuple[str, ...] = ()):
        if cached and (method != "GET" or content_type != "application/json"):
            raise ValueError("only JSON answers to GET are kept (cached=True)")

        def register(handler: Callable) -> Callable:
            spec = RouteSpec(method, prefix + path, handler, scope, summary, description,
                             tuple(tags), dict(query or {}), body, response, status, paginated,
                             tuple(errors), public, content_type, optional_body,
                             conditional or cached, cached, transaction, shown_once,
                             tuple(file_types))
            self.routes.append(spec)
            callback = self._wrap(spec)
            self.app.route(spec.path, method, callback)
            if cached:
                self._cached_routes[callback] = spec
            return handler
        return register

    def get(self, path, **options):
        return self.route("GET", path, **options)

    def post(self, path, **options):
        return self.route("POST", path, **options)

    def patch(self, path, **options):
        return self.route("PATCH", path, **options)

    def put(self, path, **options):
        return self.route("PUT", path, **options)

    def delete(self, path, **options):
        return self.route("DELETE", path, **options)

    # -- around every handler --------------------------------------------------------------------

    def _wrap(self, spec: RouteSpec):
        settings = self.settings

        def callback(**url_args):
            environ = bottle.request.environ
            request_id = environ.get("rentalcomply.request_id")
            key = environ.get("rentalcomply.api_key")
            minting = signed_links.mint_as(key.id if key is not None else None)
            try:
                return handle(environ, request_id, url_args)
            finally:
                signed_links.mint_as_before(minting)

        def handle(environ, request_id, url_args):
            try:
                if spec.scope and spec.scope not in environ.get("rentalcomply.scopes", ()):
                    raise InsufficientScope(spec.scope)
                if not all(_is_text(value) for value in url_args.values()):
                    raise NotFound()
                account_id = environ.get("rentalcomply.account_id")
                if spec.cached and account_id:
                    version, cache_key, kept = _look_up_kept(spec, environ, account_id, url_args)
                    if kept is not None:
                        return _response(*_kept_answer(environ, *kept), "application/json")
                raw_body, body = _read_body(spec)
                query = validate(_query_values(), spec.query, from_query=True)
                if body is not None and spec.body is not None:
                    body = validate(body, spec.body, partial=spec.method == "PATCH")
                ctx = Context(settings, environ, query, body, raw_body)
                if spec.method == "GET":
                    if spec.cached and account_id:
                        return _render_to_keep(spec, ctx, url_args, cache_key, version)
                    result = spec.handler(ctx, **url_args)
                    return _render(spec, result)
                return self._write(spec, ctx, url_args)
            except ApiError as error:
                return _render_error(error, request_id)
            except (peewee.OperationalError, peewee.InterfaceError) as exc:
                if db_module.is_unavailable(exc):
                    log.warning("database busy (request %s): %s", request_id, exc)
                    return _render_error(ServiceUnavailable(), request_id)
                log.exception("database error (request %s)", request_id)
                return _render_error(internal_error(request_id), request_id)
            except Exception:
                log.exception("unhandled error (request %s)", request_id)
                return _render_error(internal_error(request_id), request_id)

        callback.__name__ = spec.handler.__name__
        return callback

    def kept_answer(self, environ) -> tuple[int, bytes, dict[str, str]] | None:
        """The kept answer to a GET of a `cached` route, found from the WSGI environ alone (the
        gate has admitted the request): (status, body, headers), or None when there is none, and
        Bottle then handles the request the usual way, refusals included.

        A kept answer is most of what the API serves; going round Bottle's request and response
        objects for it halves its time in the process (bench/api_throughput.py)."""
        account_id = environ.get("rentalcomply.account_id")
        path = environ.get("PATH_INFO", "")
        # Bottle decodes a path as UTF-8 first; ids and routes are ASCII, the rest goes its way.
        if not account_id or not path.isascii():
            return None
        try:
            route, url_args = self.app.router.match(environ)
        except bottle.HTTPError:  # 404 or 405: Bottle says so in our shape
            return None
        spec = self._cached_routes.get(route.callback)
        if spec is None or (spec.scope and spec.scope not in environ.get("rentalcomply.scopes", ())) \
                or not all(_is_text(value) for value in url_args.values()):
            return None
        try:
            _, _, kept = _look_up_kept(spec, environ, account_id, url_args)
        except Exception:  # a database away: Bottle's way answers it properly (503)
            return None
        return None if kept is None else _kept_answer(environ, *kept)

    def _write(self, spec: RouteSpec, ctx: Context, url_args: dict):
        # Tasks the handler asks to queue wait for its commit (core/queue.py queue_after_commit).
        queue.forget_after_commit()
        try:
            status, body, headers = self._write_and_commit(spec, ctx, url_args)
        except BaseException:
            queue.forget_after_commit()
            raise
        if status < 400:
            queue.run_after_commit()
        else:  # a refusal rolled its changes back
            queue.forget_after_commit()
        events.notify_committed()
        return _response(status, body, headers, spec.content_type)

    def _write_and_commit(self, spec: RouteSpec, ctx: Context, url_args: dict):
        # Raw from the environ: Bottle's header dict raises on bytes that are not UTF-8.
        key = bottle.request.environ.get("HTTP_IDEMPOTENCY_KEY")
        if not spec.transaction:
            call = lambda: self._call_in_own_transactions(spec, ctx, url_args)  # noqa: E731
            if key is not None and spec.method == "POST" and ctx.account_id:
                response = idempotency.run(ctx.account_id, key, spec.method, bottle.request.path,
                                           ctx.body, call, hold_transaction=False,
                                           shown_once=spec.shown_once)
            else:
                response = call()
        elif key is not None and spec.method == "POST" and ctx.account_id:
            response = idempotency.run(ctx.account_id, key, spec.method, bottle.request.path,
                                       ctx.body, lambda: self._call_for_record(spec, ctx, url_args),
                                       shown_once=spec.shown_once)
        else:
            # Nothing to keep when the handler refuses: it runs in the transaction itself, which
            # a refusal rolls back whole (a savepoint in it cost two more statements a write).
            try:
                with db.atomic():
                    response = self._call_and_record(spec, ctx, url_args)
            except ApiError as error:
                response = error.status, error_body(error, ctx.request_id), dict(error.headers)
        return response

    def _call_for_record(self, spec, ctx, url_args) -> tuple[int, bytes, dict]:
        """Run the handler; a business error inside rolls back its own changes (savepoint) but
        still yields a response, so an Idempotency-Key can store it."""
        try:
            with db.atomic():
                result = spec.handler(ctx, **url_args)
        except ApiError as error:
            return error.status, error_body(error, ctx.request_id), dict(error.headers)
        return self._recorded(spec, ctx, url_args, result)

    def _call_in_own_transactions(self, spec, ctx, url_args) -> tuple[int, bytes, dict]:
        try:
            result = spec.handler(ctx, **url_args)
        except ApiError as error:
            return error.status, error_body(error, ctx.request_id), dict(error.headers)
        with db.atomic():
            return self._recorded(spec, ctx, url_args, result)

    def _call_and_record(self, spec, ctx, url_args) -> tuple[int, bytes, dict]:
        """Run the handler inside the caller's transaction; its ApiError goes to the caller."""
        return self._recorded(spec, ctx, url_args, spec.handler(ctx, **url_args))

    @staticmethod
    def _recorded(spec, ctx, url_args, result) -> tuple[int, bytes, dict]:
        reply = result if isinstance(result, Reply) else Reply(result, status=spec.status)
        _record_activity(spec, ctx, url_args, reply)
        return reply.status, _body_of(reply, spec), dict(reply.headers)


def _record_activity(spec: RouteSpec, ctx: Context, url_args: dict, reply: Reply) -> None:
    """A change made with an API key, in the activity log, inside the change's transaction:
    the method and route, and the resource's id (the last id in the path, else the id of the
    resource answered). Never the body."""
    key = ctx.api_key
    if key is None or not ctx.account_id:
        return
    resource_id = list(url_args.values())[-1] if url_args else None
    if resource_id is None and isinstance(reply.data, dict):
        found = reply.data.get("id") or reply.data.get("booking_id")
        resource_id = found if isinstance(found, str) else None
    activity.record(ctx.account_id, "key", key.id, key.name or key.key_hint + "…",
                    f"{spec.method} {spec.path}", resource_id)


def _query_values() -> dict[str, str]:
    """The query string as one value per name. Every declared parameter takes one value, and
    frameworks disagree on which of `limit=1&limit=2` wins, so a repeated name is refused
    (400 naming it) rather than one of its values silently taken."""
    if not bottle.request.query_string:
        return {}
    values: dict[str, str] = {}
    repeated: list[str] = []
    for name, value in bottle.request.query.allitems():
        if name in values and name not in repeated:
            repeated.append(name)
        values[name] = value
    if repeated:
        raise ValidationError([{"field": printable_name(name),
                                "message": "is given more than once; give it once"}
                               for name in repeated])
    return values


def _read_body(spec: RouteSpec) -> tuple[bytes | None, dict | None]:
    if spec.method not in ("POST", "PATCH", "PUT"):
        return None, None
    request = bottle.request
    length_header = request.environ.get("CONTENT_LENGTH") or ""
    if length_header.strip():
        try:
            length = int(length_header)
        except ValueError:
            raise ValidationError("Content-Length", "must be a number") from None
        if length > MAX_BODY_BYTES:
            raise PayloadTooLarge()
    raw = request.environ["wsgi.input"].read(MAX_BODY_BYTES + 1) if not length_header.strip() \
        else (request.environ["wsgi.input"].read(length) if length else b"")
    if len(raw) > MAX_BODY_BYTES:
        raise PayloadTooLarge()
    if spec.file_types:
        return raw, _file_body(spec, raw, request.environ.get("CONTENT_TYPE") or "")
    if not raw.strip():
        if spec.body is None or spec.optional_body:
            return raw, {}
        raw = b""
    media_type = (request.environ.get("CONTENT_TYPE") or "").split(";")[0].strip().lower()
    allowed = PATCH_TYPES if spec.method == "PATCH" else JSON_TYPES
    if raw and media_type not in allowed:
        raise UnsupportedMediaType(f"Send the body as {' or '.join(allowed)}.")
    if not raw:
        if spec.body is None:
            return raw, {}
        raise InvalidJson("The request body is empty; send a JSON object.")
    try:
        parsed = loads_request(raw.decode("utf-8"))
    except DuplicateKeys as duplicate:
        raise ValidationError([{"field": printable_name(key),
                                "message": "appears more than once in the body"}
                               for key in duplicate.keys]) from None
    except (ValueError, UnicodeDecodeError, RecursionError):  # RecursionError: [[[[...]]]]
        raise InvalidJson() from None
    if not isinstance(parsed, dict):
        raise ValidationError("body", "must be a JSON object")
    if spec.body is None and parsed:
        validate(parsed, {})  # refuses every field by name
    return raw, parsed


def _file_body(spec: RouteSpec, raw: bytes, content_type: str) -> dict:
    media_type = content_type.split(";")[0].strip().lower()
    if media_type not in spec.file_types:
        raise UnsupportedMediaType(f"Send the file as the body, typed {' or '.join(spec.file_types)}.")
    if not raw.strip():
        raise ValidationError("body", "is empty; send the file as the request body")
    # The query too (dry_run=true or false): an Idempotency-Key never replays a dry run's answer
    # to the real import of the same file.
    return {"file_sha256": hashlib.sha256(raw).hexdigest(),
            "query": bottle.request.query_string}


def _is_text(value: str) -> bool:
    try:
        value.encode("utf-8")
    except UnicodeEncodeError:
        return False
    return control_character_problem(value) is None


def _body_of(reply: Reply, spec: RouteSpec) -> bytes:
    if isinstance(reply.data, bytes):  # already rendered (the OpenAPI document, files)
        return reply.data
    if spec.content_type != "application/json":
        return reply.data if isinstance(reply.data, bytes) else str(reply.data).encode("utf-8")
    if reply.status == 204:
        return b""
    document = {"data": reply.data}
    if reply.pagination is not None:
        document["pagination"] = reply.pagination
    return dumps(document)


def _render(spec: RouteSpec, result) -> bottle.HTTPResponse:
    reply = result if isinstance(result, Reply) else Reply(result, status=spec.status)
    return _response(reply.status, _body_of(reply, spec), reply.headers, spec.content_type)


def _render_to_keep(spec: RouteSpec, ctx: Context, url_args: dict, key: tuple,
                    version: int) -> bottle.HTTPResponse:
    """A GET of a `cached` route found nothing kept under the account's version (read before
    the rows): render it now and keep it; 304 to an If-None-Match naming its ETag."""
    result = spec.handler(ctx, **url_args)
    reply = result if isinstance(result, Reply) else Reply(result, status=spec.status)
    body = _body_of(reply, spec)
    if reply.status != 200 or reply.headers:  # only plain answers are kept
        return _response(reply.status, body, reply.headers, spec.content_type)
    etag = answer_cache.put(key, version, body)
    return _response(*_kept_answer(bottle.request.environ, body, etag), "application/json")


def _look_up_kept(spec: RouteSpec, environ, account_id: str, url_args: dict):
    """(the account's version, the answer's key, the kept (body, ETag) or None).

    Before the query is parsed: only answers to queries that passed validation are ever kept,
    so one kept under this query string answers it as it is."""
    version = answer_cache.account_version(account_id)  # before the rows: see answer_cache
    # The scopes too: an answer may show a key that may write more (links that are credentials).
    key = (spec.path, account_id, tuple(url_args.values()), environ.get("QUERY_STRING", ""),
           "write" in environ.get("rentalcomply.scopes", ()))
    return version, key, answer_cache.get(key, version)


def _kept_answer(environ, body: bytes, etag: str) -> tuple[int, bytes, dict[str, str]]:
    """A kept JSON answer, or 304 to an If-None-Match naming its ETag."""
    if answer_cache.matches(environ.get("HTTP_IF_NONE_MATCH"), etag):
        return 304, b"", {"ETag": etag}
    return 200, body, {"ETag": etag}


def _response(status: int, body: bytes, headers: dict, content_type: str) -> bottle.HTTPResponse:
    response = bottle.HTTPResponse(body=body, status=status, **headers)
    if body or content_type != "application/json":
        response.content_type = content_type if content_type != "application/json" \
            else "application/json"
    return response


def internal_error(request_id: str | None) -> InternalError:
    # The request id is all a client gets; the traceback stays in the server's log under it.
    return InternalError(f"Internal error; quote request id {request_id}.")


def _render_error(error: ApiError, request_id: str | None) -> bottle.HTTPResponse:
    return _response(error.status, error_body(error, request_id), dict(error.headers),
                     "application/json")


# -- pagination -----------------------------------------------------------------------------------

PAGINATION_QUERY = {
    "page": Field("integer", minimum=1, maximum=1_000_000, default=1, description="Page number, from 1."),
    "limit": Field("integer", minimum=1, maximum=100, default=20, description="Items per page (at most 100)."),
}


def paginate(query: peewee.Query, page: int, limit: int, view: Callable[[Any], dict]) -> Reply:
    total = query.count()
    rows = list(query.paginate(page, limit))
    return page_reply([view(row) for row in rows], page, limit, total)


def page_reply(items: list, page: int, limit: int, total: int) -> Reply:
    return Reply(items, pagination={"page": page, "limit": limit, "total": total,
                                    "has_more": page * limit < total})
