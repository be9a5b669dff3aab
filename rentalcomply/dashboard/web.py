"""What happens around every dashboard page: session, CSRF, language, headers, one transaction.

    @pages.get("/bookings/<booking_id>")
    def booking(page, booking_id):
        return page.render("booking", booking=bookings.get_booking(page.account_id, booking_id))

Pages are HTML, not API endpoints: they are added to the Bottle app directly and never to the
OpenAPI document. The gate has already applied the HTTPS rule (/dashboard is outside the API, so
no API key is asked for). Around each handler:

- the session cookie is looked up (signed-out visitors are sent to the sign-in page);
- a POST must carry the CSRF token bound to the browser's cookie, else 403;
- a POST runs in one database transaction with the activity record of the change
  (`page.record(...)`) and its events, which are handed to the dispatcher once it commits;
- `NotFound` (another account's id included) is a 404 page; a refused form shows its messages.
"""

from __future__ import annotations

import contextlib

import ipaddress
import logging
import urllib.parse
from pathlib import Path
from typing import Callable

import bottle

from rentalcomply.core import activity, events, outage
from rentalcomply.core.db import db
from rentalcomply.core.checks import control_character_problem
from rentalcomply.core.errors import ApiError, LinkExpired, NotFound, ValidationError
from rentalcomply.core.ids import random_base62
from rentalcomply.dashboard import i18n, users
from rentalcomply.properties.access import LANGUAGES as ACCESS_LANGUAGES

log = logging.getLogger(__name__)

PREFIX = "/dashboard"
TEMPLATES = str(Path(__file__).parent / "templates")
SESSION_COOKIE = "rc_session"
ANON_COOKIE = "rc_anon"  # a visitor not signed in: what the sign-in form's CSRF token binds to
LANG_COOKIE = "rc_lang"
CSP = ("default-src 'none'; style-src 'self'; script-src 'self'; img-src 'self'; "
       "connect-src 'none'; form-action 'self'; frame-ancestors 'none'; base-uri 'none'")
SECURITY_HEADERS = {
    "Content-Security-Policy": CSP,
    "X-Content-Type-Options": "nosniff",
    "X-Frame-Options": "DENY",
    # The one-time link carries its token in the path: never pass it on.
    "Referrer-Policy": "no-referrer",
    # Pages show keys and secrets once, and personal data: never cached.
    "Cache-Control": "no-store",
}


# Form fields the control-character rule leaves alone: passwords are only hashed, never stored
# or shown as text; `next` is judged by the sign-in page itself (a bad one goes home).
# Passwords are any text; `next` is judged by the sign-in; a booking's notes are checked by the
# booking form itself (service.note_problem: the same rule, multi-line), which shows the error
# beside the field.
UNCHECKED_FORM_FIELDS = frozenset({"password", "confirmation", "next", "notes"})
# Free-text notes, which may hold line breaks and tabs (as in the API).
# The access instructions' boxes, one per guest language and one to add a language
# (pages/access.py).
MULTI_LINE_FORM_FIELDS = frozenset({"description", "access_instructions", "body", "access_new",
                                    *(f"access_{code}" for code in ACCESS_LANGUAGES)})


class Redirect(Exception):
    def __init__(self, location: str):
        super().__init__(location)
        self.location = location


class Forbidden(Exception):
    """A form without its CSRF token, or with another session's."""


class OwnersOnly(Exception):
    """A member opened a page that only the account's owners may use (keys, webhooks, people)."""


class Page:
    """What a handler may know of the request: the user, the account, the language, the form."""

    def __init__(self, settings, environ, user=None, session=None, cookie_value: str = ""):
        self.settings = settings
        self.environ = environ
        self.user = user
        self.session = session
        self.account_id = user.account_id if user is not None else None
        self.cookie_value = cookie_value
        self.lang = _language(environ, user)
        self.path = bottle.request.path
        self.query = bottle.request.query
        self.after_commit: list[Callable[[], None]] = []

    # -- reading ---------------------------------------------------------------------------------

    def form(self, name: str, default: str = "") -> str:
        """A form field's text; one holding a control character is refused here, for every form
        (400 naming the field), by the rule of the API (core/checks.py)."""
        value = bottle.request.forms.getunicode(name)
        if value is None:
            return default
        if name not in UNCHECKED_FORM_FIELDS:
            problem = control_character_problem(value, multiline=name in MULTI_LINE_FORM_FIELDS)
            if problem:
                raise ValidationError(name, problem)
        return value

    def form_list(self, name: str) -> list[str]:
        return [value.encode("latin1").decode("utf-8", "replace")
                for value in bottle.request.forms.getall(name)]

    def arg(self, name: str, default: str = "") -> str:
        value = bottle.request.query.getunicode(name)
        return default if value is None else value.strip()

    @property
    def csrf(self) -> str:
        return users.csrf_token(self.cookie_value)

    # -- answering -------------------------------------------------------------------------------

    # The language menu: each language by its own name.
    languages = tuple(i18n.LANGUAGE_NAMES.items())

    def _(self, text: str, **values) -> str:
        return i18n.translate(self.lang, text, **values)

    def render(self, template: str, status: int = 200, **values) -> bottle.HTTPResponse:
        values.setdefault("title", "")
        values.setdefault("errors", {})
        values.setdefault("done", self.arg("done"))
        body = bottle.template(template, template_lookup=[TEMPLATES], page=self, _=self._,
                               fmt=self.fmt, **values)
        return bottle.HTTPResponse(body=body, status=status,
                                   **{"Content-Type": "text/html; charset=utf-8"})

    @property
    def timezone(self) -> str:
        """The account's time zone (its setting, else its first property's, else UTC)."""
        if "_timezone" not in self.__dict__:
            from rentalcomply.dashboard import service
            self._timezone = service.account_timezone(self.account_id) if self.account_id \
                else "UTC"
        return self._timezone

    @property
    def fmt(self) -> "i18n.Formatter":
        return i18n.Formatter(self.lang, self.timezone)

    def record(self, action: str, resource_id: str | None = None) -> None:
        """The change this form makes, in the activity log (inside the form's transaction)."""
        activity.record(self.account_id, "user", self.user.id, self.user.email or "", action,
                        resource_id)

    def url(self, path: str = "", **query) -> str:
        query = {k: v for k, v in query.items() if v not in (None, "")}
        return PREFIX + path + ("?" + urllib.parse.urlencode(query) if query else "")

    def lang_url(self, lang: str) -> str:
        query = {k: v for k, v in bottle.request.query.decode().items() if k != "lang"}
        query["lang"] = lang
        return self.path + "?" + urllib.parse.urlencode(query)

    @property
    def secure(self) -> bool:
        return is_secure(self.settings, self.environ)

    @property
    def public_url(self) -> str:
        return self.settings.server.public_url


def is_secure(settings, environ) -> bool:
    """Whether the browser talks HTTPS to us (directly, or through a trusted proxy that says so):
    only then may the cookie be marked Secure, or a loopback browser on plain HTTP loses it."""
    forwarded = environ.get("HTTP_X_FORWARDED_PROTO")
    if forwarded:
        try:
            peer = ipaddress.ip_address(environ.get("REMOTE_ADDR") or "")
        except ValueError:
            peer = None
        if peer is not None and any(peer in ipaddress.ip_network(net, strict=False)
                                    for net in settings.server.trusted_proxies):
            return forwarded.split(",")[0].strip().lower() == "https"
    return environ.get("wsgi.url_scheme") == "https"


def client_address(settings, environ) -> str:
    """The browser's address: the peer, or the last hop a trusted proxy names."""
    peer = environ.get("REMOTE_ADDR") or ""
    forwarded = environ.get("HTTP_X_FORWARDED_FOR")
    if forwarded:
        try:
            address = ipaddress.ip_address(peer)
            trusted = any(address in ipaddress.ip_network(net, strict=False)
                          for net in settings.server.trusted_proxies)
        except ValueError:
            trusted = False
        if trusted:
            return forwarded.split(",")[-1].strip()
    return peer


def safe_next(target: str) -> str:
    """Where to go after a form: only a page of the dashboard, never another site (`//evil`,
    `/\\evil`, a full URL). It becomes a Location header, so a control character or a space
    (`%0d%0aSet-Cookie:` decoded by the form) sends the browser home instead of reaching the
    header, and any other character outside printable ASCII is percent-encoded."""
    home = PREFIX + "/today"
    if not target.startswith(PREFIX + "/") or "\\" in target or "//" in target:
        return home
    if any(ord(c) <= 0x20 or ord(c) == 0x7F for c in target):
        return home
    parts = urllib.parse.urlsplit(target)
    if parts.scheme or parts.netloc:
        return home
    return urllib.parse.quote(target, safe="/?&=%#:@!$'()*+,;~-._")


def form_errors(error: ValidationError) -> dict[str, str]:
    """A refused form's messages by field, for the template to show beside each."""
    return {detail["field"]: detail["message"] for detail in (error.details or [])}


def _language(environ, user=None) -> str:
    """The page's language: the one chosen in the menu (its cookie), else the person's own
    (remembered at their last choice), else the browser's, else the account's usual one."""
    chosen = bottle.request.query.get("lang") or bottle.request.get_cookie(LANG_COOKIE)
    if chosen in i18n.LANGUAGES:
        return chosen
    if user is not None and user.lang in i18n.LANGUAGES:
        return user.lang
    accepted = i18n.accepted_language(environ.get("HTTP_ACCEPT_LANGUAGE"))
    if accepted:
        return accepted
    if user is not None:
        return users.account_language(user.account_id)
    return "en"


class Pages:
    """The dashboard's routes on the Bottle app (not in the API's registry)."""

    def __init__(self, app: bottle.Bottle, settings):
        self.app = app
        self.settings = settings

    def get(self, path: str, *, public: bool = False, owners: bool = False):
        return self.route("GET", path, public=public, owners=owners)

    def post(self, path: str, *, public: bool = False, owners: bool = False,
             transaction: bool = True):
        return self.route("POST", path, public=public, owners=owners, transaction=transaction)

    def route(self, method: str, path: str, *, public: bool = False, owners: bool = False,
              transaction: bool = True):
        """`owners`: only a user with the role owner may open it; a member gets a 403 page.
        `transaction=False`: the handler commits its own steps, because it waits on a peer (a
        mail server) and must not hold the database meanwhile."""
        def register(handler):
            # page=True: a page for people, not an API endpoint (kept out of the API document)
            self.app.route(PREFIX + path, method,
                           self._wrap(handler, method, public, owners, transaction), page=True)
            return handler
        return register

    def _wrap(self, handler, method: str, public: bool, owners: bool = False,
              transaction: bool = True):
        settings = self.settings

        def callback(**url_args):
            environ = bottle.request.environ
            page = None
            try:
                page = self._page(environ, public)
                if page is None:
                    target = bottle.request.path if method == "GET" else PREFIX + "/today"
                    raise Redirect(PREFIX + "/sign-in?" + urllib.parse.urlencode({"next": target}))
                if owners and page.user is not None and page.user.role != "owner":
                    raise OwnersOnly()
                if method == "POST":
                    if not users.csrf_matches(page.cookie_value, bottle.request.forms.get("csrf")):
                        raise Forbidden()
                    with db.atomic() if transaction else contextlib.nullcontext():
                        try:
                            response = handler(page, **url_args)
                        except Redirect as redirect:  # a success: the change commits
                            response = _redirect(redirect.location)
                    events.notify_committed()
                    for after in page.after_commit:
                        try:
                            outage.send(after, what="queuing the work of a dashboard form")
                        except Exception:
                            log.exception("dashboard: a task after commit failed")
                else:
                    response = handler(page, **url_args)
            except Redirect as redirect:
                response = _redirect(redirect.location)
            except OwnersOnly:
                response = _error_page(page, 403, "Only an owner of the account can do this. "
                                                  "Ask an owner to change your role.")
            except Forbidden:
                response = _error_page(page or Page(settings, environ), 403,
                                       "This form has expired. Reload the page and try again.")
            except LinkExpired as error:
                response = _error_page(page or Page(settings, environ), 410, error.message)
            except NotFound:
                response = _error_page(page or Page(settings, environ), 404,
                                       "There is nothing here.")
            except ApiError as error:
                response = _error_page(page or Page(settings, environ), error.status, error.message)
                for name, value in error.headers.items():  # Retry-After of a 503
                    response.set_header(name, value)
            except Exception:
                log.exception("dashboard: unhandled error (request %s)",
                              environ.get("rentalcomply.request_id"))
                response = _error_page(page or Page(settings, environ), 500,
                                       "Something went wrong on our side.")
            return _finish(page, response)

        callback.__name__ = handler.__name__
        return callback

    def _page(self, environ, public: bool) -> Page | None:
        raw = bottle.request.get_cookie(SESSION_COOKIE)
        found = users.find_session(raw)
        if found is not None:
            session, user = found
            return Page(self.settings, environ, user, session, raw)
        if not public:
            return None
        anon = bottle.request.get_cookie(ANON_COOKIE)
        if not anon or len(anon) != users.TOKEN_LENGTH or not anon.isalnum():
            anon = random_base62(users.TOKEN_LENGTH)
            environ["rentalcomply.new_anon"] = anon
        return Page(self.settings, environ, None, None, anon)


def set_cookie(response: bottle.HTTPResponse, page: Page, name: str, value: str,
               max_age: int | None = None) -> None:
    options = {"max_age": max_age} if max_age is not None else {}
    response.set_cookie(name, value, path=PREFIX, httponly=True, samesite="strict",
                        secure=page.secure, **options)


def clear_cookie(response: bottle.HTTPResponse, page: Page, name: str) -> None:
    response.set_cookie(name, "", path=PREFIX, httponly=True, samesite="strict",
                        secure=page.secure, max_age=0)


def _finish(page: Page | None, response: bottle.HTTPResponse) -> bottle.HTTPResponse:
    for header, value in SECURITY_HEADERS.items():
        response.set_header(header, value)
    if page is not None:
        new_anon = page.environ.get("rentalcomply.new_anon")
        if new_anon and page.user is None and SESSION_COOKIE not in _set_cookies(response):
            set_cookie(response, page, ANON_COOKIE, new_anon)
        if bottle.request.query.get("lang") in i18n.LANGUAGES:
            response.set_cookie(LANG_COOKIE, page.lang, path=PREFIX, samesite="strict",
                                secure=page.secure, max_age=365 * 86400, httponly=True)
            if page.user is not None and page.user.lang != page.lang:
                _remember_language(page)
    return response


def _remember_language(page: Page) -> None:
    """A signed-in user chose a language: their own e-mails follow it (the morning e-mail). Never
    at the cost of the page: a busy database leaves it for the next choice or sign-in."""
    try:
        with db.atomic():
            users.remember_language(page.user.id, page.lang)
    except Exception:
        log.warning("dashboard: the user's language was not remembered", exc_info=True)


def _set_cookies(response: bottle.HTTPResponse) -> set[str]:
    return set(response._cookies.keys()) if response._cookies else set()


def _redirect(location: str) -> bottle.HTTPResponse:
    return bottle.HTTPResponse(status=303, Location=location)


def _error_page(page: Page, status: int, message: str) -> bottle.HTTPResponse:
    return page.render("error", status=status, title=page._("Error"),
                       status_code=status, message=page._(message))
