"""The pages before a session: sign-in (and, for an address whose password opens several
accounts, the choice of the account), sign-out, the one-time password link, a forgotten password.

Parse the form, call dashboard/users.py, render; see web.py for what surrounds each handler.
"""

from __future__ import annotations

import functools

import bottle

from rentalcomply.core import activity, queue
from rentalcomply.core.errors import ValidationError
from rentalcomply.core.models import Account
from rentalcomply.dashboard import i18n, users
from rentalcomply.dashboard.web import (ANON_COOKIE, LANG_COOKIE, PREFIX, SESSION_COOKIE, Pages, Redirect,
                                        clear_cookie, client_address, form_errors, safe_next,
                                        set_cookie)


def register(pages: Pages) -> None:
    _sign_in_pages(pages)
    _password_pages(pages)
    _forgot_pages(pages)


def _sign_in_pages(pages: Pages) -> None:
    @pages.get("", public=True)
    @pages.get("/", public=True)
    def home(page):
        raise Redirect(PREFIX + ("/today" if page.user else "/sign-in"))

    @pages.get("/sign-in", public=True)
    def sign_in_form(page):
        if page.user is not None:
            raise Redirect(PREFIX + "/today")
        return page.render("sign_in", title=page._("Sign in"), email="",
                           next=safe_next(page.arg("next")), message=None)

    @pages.post("/sign-in", public=True)
    def sign_in(page):
        email, target = page.form("email").strip(), safe_next(page.form("next"))
        try:
            proven = users.check_password(email, page.form("password"),
                                          client_address(page.settings, page.environ))
        except users.SignInThrottled as refused:
            response = page.render("sign_in", status=429, title=page._("Sign in"), email=email,
                                   next=target, message=page._(
                                       "Too many attempts. Try again in {seconds} seconds.",
                                       seconds=refused.retry_after))
            response.set_header("Retry-After", str(refused.retry_after))
            return response
        except users.SignInRefused:
            return page.render("sign_in", status=401, title=page._("Sign in"), email=email,
                               next=target,
                               message=page._("The e-mail address or the password is wrong."))
        remember = page.form("remember") == "yes"
        if len(proven) > 1:  # the password of several accounts' users: the person chooses
            return page.render("choose_account", title=page._("Choose the account"),
                               choice=users.account_choice(page.cookie_value, proven),
                               accounts=users.choices_view(proven), next=target,
                               remember=remember)
        return start_session(page, proven[0], target, remember=remember)

    @pages.post("/sign-in/account", public=True)
    def sign_in_to_account(page):
        target = safe_next(page.form("next"))
        try:
            user = users.chosen_user(page.cookie_value, page.form("choice"), page.form("user"))
        except users.SignInRefused:
            return page.render("sign_in", status=401, title=page._("Sign in"), email="",
                               next=target, message=page._(
                                   "This choice has expired. Sign in again."))
        return start_session(page, user, target, remember=page.form("remember") == "yes")

    @pages.post("/sign-out")
    def sign_out(page):
        users.end_session(page.cookie_value)
        response = bottle.HTTPResponse(status=303, Location=PREFIX + "/sign-in?done=signed_out")
        clear_cookie(response, page, SESSION_COOKIE)
        return response


def start_session(page, user, target: str, remember: bool = False) -> bottle.HTTPResponse:
    """Signed in: the session's cookie, then the page asked for. A remembered session's cookie
    outlives the browser's closing (30 days); any other ends with it."""
    session, raw = users.start_session(user, remember=remember,
                                       device=page.environ.get("HTTP_USER_AGENT"))
    # The person's own language wins over the browser's; a first sign-in keeps the page's.
    lang = user.lang if user.lang in i18n.LANGUAGES else page.lang
    users.remember_language(session.user_id, lang)
    response = bottle.HTTPResponse(status=303, Location=target)
    response.set_cookie(LANG_COOKIE, lang, path=PREFIX, samesite="strict", secure=page.secure,
                        max_age=365 * 86400, httponly=True)
    set_cookie(response, page, SESSION_COOKIE, raw,
               max_age=int(users.REMEMBERED.total_seconds()) if remember else None)
    clear_cookie(response, page, ANON_COOKIE)
    return response


def _password_pages(pages: Pages) -> None:
    def _password_page(page, token, user, status=200, email="", errors=None):
        return page.render("password", status=status, title=page._("Choose your password"),
                           user=user, token=token, email=email, errors=errors or {},
                           account=Account.get_by_id(user.account_id).name,
                           elsewhere=users.in_other_accounts(user))

    @pages.get("/password/<token>", public=True)
    def password_form(page, token):
        _, user = users.open_link(token)
        return _password_page(page, token, user)

    @pages.post("/password/<token>", public=True)
    def password_set(page, token):
        try:
            user = users.set_password(token, page.form("password"), page.form("confirmation"),
                                      email=page.form("email"))
        except ValidationError as error:
            _, user = users.open_link(token)
            return _password_page(page, token, user, status=400, email=page.form("email"),
                                  errors=form_errors(error))
        # The link proved the address and the person has just chosen the password: signed in
        # at once, not asked for it again (setting it ended the user's other sessions).
        return start_session(page, user, PREFIX + "/today?done=password_set_signed_in",
                             remember=page.form("remember") == "yes")




def _forgot_pages(pages: Pages) -> None:
    @pages.get("/forgot-password", public=True)
    def forgot_form(page):
        return page.render("forgot", title=page._("Forgot your password?"), email="", sent=False,
                           message=None)

    @pages.post("/forgot-password", public=True)
    def forgot(page):
        from rentalcomply.dashboard import tasks as dashboard_tasks
        queue.must_answer()  # the link travels only in its e-mail's task
        email = page.form("email").strip()
        try:
            found = users.request_reset(email, client_address(page.settings, page.environ))
        except users.ResetThrottled as refused:
            response = page.render("forgot", status=429, title=page._("Forgot your password?"),
                                   email=email, sent=False, message=page._(
                                       "Too many attempts. Try again in {seconds} seconds.",
                                       seconds=refused.retry_after))
            response.set_header("Retry-After", str(refused.retry_after))
            return response
        for user, token in found:  # one link for each account the address is a user of
            activity.record(user.account_id, "user", user.id, user.email or "",
                            "user.password_reset_requested", user.id)
            page.after_commit.append(functools.partial(
                dashboard_tasks.queue_link_mail, user.id, token, "reset", page.lang))
        # The same answer whether or not the address is a user's.
        return page.render("forgot", title=page._("Forgot your password?"), email=email,
                           sent=True, message=None)
