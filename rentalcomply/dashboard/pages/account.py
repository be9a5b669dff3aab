"""The account's page (owners only): its name, its time zone, the morning e-mail, its people."""

from __future__ import annotations

from rentalcomply.accounts import service as accounts
from rentalcomply.core import clock, queue
from rentalcomply.core.errors import NotFound, ValidationError
from rentalcomply.core.models import Account
from rentalcomply.dashboard import service, users
from rentalcomply.dashboard.pages import code_tables, scanning
from rentalcomply.dashboard.pages.devices import devices_view
from rentalcomply.dashboard.web import Pages, Redirect, form_errors


def register(pages: Pages) -> None:
    import zoneinfo

    def _show(page, status=200, errors=None, values=None, invite_errors=None, invite=None):
        return page.render("account", status=status, title=page._("Account"),
                           account_name=(values or {}).get(
                               "name", Account.get_by_id(page.account_id).name),
                           timezone=(values or {}).get("timezone", page.timezone),
                           zones=sorted(zoneinfo.available_timezones()),
                           people=users.list_users(page.account_id), errors=errors or {},
                           invite_errors=invite_errors or {},
                           invite=invite or {"email": "", "role": "member"},
                           now=clock.utcnow(),
                           morning_email=service.morning_email_on(page.account_id),
                           morning_hour=page.settings.dashboard.morning_email_hour,
                           morning_server_on=page.settings.dashboard.morning_email,
                           devices=devices_view(page),
                           **code_tables.account_values(page.arg("codes")),  # _code_tables.tpl
                           **scanning.account_values(page.account_id))  # _scan_keeping.tpl

    @pages.get("/settings/account", owners=True)
    def account_page(page):
        return _show(page)

    @pages.post("/settings/account/name", owners=True)
    def account_name(page):
        try:
            accounts.rename_account(page.account_id, page.form("name"))
        except ValidationError as error:
            return _show(page, status=400, errors=form_errors(error),
                         values={"name": page.form("name")})
        page.record("account.name")
        raise Redirect(page.url("/settings/account", done="account_renamed"))

    @pages.post("/settings/account/timezone", owners=True)
    def account_timezone(page):
        try:
            service.set_account_timezone(page.account_id, page.form("timezone"))
        except ValidationError as error:
            return _show(page, status=400, errors=form_errors(error),
                         values={"timezone": page.form("timezone")})
        page.record("account.timezone")
        raise Redirect(page.url("/settings/account", done="timezone_saved"))

    @pages.post("/settings/account/morning-email", owners=True)
    def account_morning_email(page):
        on = page.form("morning_email") == "on"
        service.set_morning_email(page.account_id, on)
        page.record("account.morning_email_on" if on else "account.morning_email_off")
        raise Redirect(page.url("/settings/account",
                                done="morning_email_on" if on else "morning_email_off"))

    def _mail_link(page, user, token, kind):
        from rentalcomply.dashboard import tasks as dashboard_tasks
        values = {"account": Account.get_by_id(page.account_id).name,
                  "inviter": page.user.email or ""} if kind == "invite" else {}
        lang = page.lang
        page.after_commit.append(lambda: dashboard_tasks.queue_link_mail(
            user.id, token, kind, lang, **values))

    @pages.post("/settings/account/people", owners=True)
    def person_invite(page):
        queue.must_answer()  # the link travels only in its e-mail's task
        invite = {"email": page.form("email").strip(), "role": page.form("role", "member")}
        try:
            user, token = users.invite(page.account_id, invite["email"], invite["role"])
        except ValidationError as error:
            return _show(page, status=400, invite_errors=form_errors(error), invite=invite)
        page.record("user.invite", user.id)
        users.remember_language(user.id, page.lang)  # the invitation's, until they choose
        _mail_link(page, user, token, "invite")
        raise Redirect(page.url("/settings/account", done="invited_colleague"))

    @pages.post("/settings/account/people/<user_id>/role", owners=True)
    def person_role(page, user_id):
        try:
            users.change_role(page.account_id, user_id, page.form("role"))
        except ValidationError as error:
            return _show(page, status=400,
                         invite_errors={"role_change": form_errors(error).get("role", "")})
        page.record("user.role", user_id)
        raise Redirect(page.url("/settings/account", done="role_changed"))

    @pages.post("/settings/account/people/<user_id>/status", owners=True)
    def person_status(page, user_id):
        active = page.form("status") == "active"
        if user_id == page.user.id:
            raise NotFound()  # one does not disable oneself from the page
        try:
            users.set_status(page.account_id, user_id, active)
        except ValidationError as error:
            return _show(page, status=400, invite_errors=form_errors(error))
        page.record("user.enable" if active else "user.disable", user_id)
        raise Redirect(page.url("/settings/account",
                                done="user_enabled" if active else "user_disabled"))

    @pages.post("/settings/account/people/<user_id>/link", owners=True)
    def person_link(page, user_id):
        queue.must_answer()  # the link travels only in its e-mail's task
        user = users.account_user(page.account_id, user_id)
        if user.status != "active" or not user.email:
            raise NotFound()
        token = users.issue_link(user)
        page.record("user.password_link", user_id)
        _mail_link(page, user, token, "reset")
        raise Redirect(page.url("/settings/account", done="link_sent"))
