"""The account's e-mail page (owners only): the mail server, the host contact in every guest
e-mail, the reminder schedule, and a test mail that says in words whether it went."""

from __future__ import annotations

from rentalcomply.accounts import mail_settings
from rentalcomply.checkin import reminders
from rentalcomply.core.errors import ValidationError
from rentalcomply.core.models import Account
from rentalcomply.dashboard.web import Pages, Redirect, form_errors

PATH = "/settings/email"


def register(pages: Pages) -> None:
    def _show(page, status=200, errors=None, values=None, test=None):
        from rentalcomply.core import mailer
        smtp = mail_settings.smtp_view(page.settings, page.account_id)
        contact = mailer.host_contact(page.account_id)
        values = {"host": smtp["host"], "port": smtp["port"], "security": smtp["security"],
                  "username": smtp["username"], "from_address": smtp["from_address"],
                  "contact_name": contact["name"], "contact_phone": contact["phone"],
                  "contact_email": contact["email"], "test_to": page.user.email or "",
                  "reminder_days": ", ".join(
                      str(d) for d in reminders.schedule(page.settings, page.account_id)),
                  **(values or {})}
        return page.render("email", status=status, title=page._("E-mail"), smtp=smtp,
                           values=values, errors=errors or {}, test=test)

    @pages.get(PATH, owners=True)
    def email_page(page):
        return _show(page)

    @pages.post(PATH + "/smtp", owners=True)
    def email_smtp(page):
        values = {name: page.form(name) for name in
                  ("host", "port", "security", "username", "from_address")}
        if page.form("use_config") == "on":
            mail_settings.forget_smtp(page.account_id)
            page.record("account.smtp_forgotten")
            raise Redirect(page.url(PATH, done="smtp_forgotten"))
        try:
            mail_settings.save_smtp(page.account_id, password=page.form("password"), **values)
        except ValidationError as error:
            return _show(page, status=400, errors=form_errors(error), values=values)
        page.record("account.smtp")
        raise Redirect(page.url(PATH, done="smtp_saved"))

    @pages.post(PATH + "/contact", owners=True)
    def email_contact(page):
        values = {name: page.form(name) for name in
                  ("contact_name", "contact_phone", "contact_email")}
        try:
            mail_settings.save_contact(page.account_id, name=values["contact_name"],
                                       phone=values["contact_phone"],
                                       email=values["contact_email"])
        except ValidationError as error:
            return _show(page, status=400, errors=form_errors(error), values=values)
        page.record("account.contact")
        raise Redirect(page.url(PATH, done="contact_saved"))

    @pages.post(PATH + "/reminders", owners=True)
    def email_reminders(page):
        try:
            reminders.set_schedule(page.account_id, page.form("reminder_days"))
        except ValidationError as error:
            return _show(page, status=400, errors=form_errors(error),
                         values={"reminder_days": page.form("reminder_days")})
        page.record("account.reminders")
        raise Redirect(page.url(PATH, done="reminders_saved"))

    # Its own transactions: the SMTP conversation must not hold the database.
    @pages.post(PATH + "/test", owners=True, transaction=False)
    def email_test(page):
        to = page.form("test_to")
        try:
            sent, words = mail_settings.send_test(page.settings, page.account_id, to,
                                                  Account.get_by_id(page.account_id).name)
        except ValidationError as error:
            return _show(page, status=400, errors=form_errors(error), values={"test_to": to})
        return _show(page, values={"test_to": to}, test={"sent": sent, "words": words, "to": to})
