"""The account's e-mail page (owners only): the mail server, the host contact in every guest
e-mail, the reminder schedule, a test mail that says in words whether it went, and the guest
e-mails' texts (per kind and language: edit, preview, reset to the default)."""

from __future__ import annotations

from rentalcomply.accounts import mail_settings
from rentalcomply.checkin import i18n as guest_i18n
from rentalcomply.checkin import reminders, templates
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
        from rentalcomply.properties import service as properties
        overrides = {c.property_id: c for c in mailer.PropertyContact.select().where(
            mailer.PropertyContact.account == page.account_id)}
        property_contacts = [(prop, overrides.get(prop.id))
                             for prop in properties.list_properties(page.account_id)]
        saved = list(templates.MessageTemplate.select().where(
            templates.MessageTemplate.account == page.account_id))
        own = {(t.kind, t.lang) for t in saved}
        # Texts saved before today's rules that break them: the guests get the default.
        broken = {(t.kind, t.lang) for t in saved if templates.problems(t.kind, t.subject, t.body)}
        return page.render("email", status=status, title=page._("E-mail"), smtp=smtp,
                           values=values, errors=errors or {}, test=test, own=own, broken=broken,
                           kinds=templates.KINDS, languages=guest_i18n.LANGUAGE_NAMES,
                           property_contacts=property_contacts)

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
            mail_settings.save_smtp(page.account_id, password=page.form("password"),
                                    allow_private=page.settings.smtp.allow_private_addresses,
                                    **values)
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

    @pages.post(PATH + "/contact/<property_id>", owners=True)
    def email_property_contact(page, property_id):
        try:
            mail_settings.save_property_contact(
                page.account_id, property_id, name=page.form("contact_name"),
                phone=page.form("contact_phone"), email=page.form("contact_email"))
        except ValidationError as error:
            return _show(page, status=400,
                         errors={f"{property_id}:{k}": v for k, v in form_errors(error).items()})
        page.record("account.contact", property_id)
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

    def _message(page, kind, lang, status=200, errors=None, subject=None, body=None,
                 preview=None):
        current_subject, current_body, own = templates.current(page.account_id, kind, lang)
        broken = own and bool(templates.problems(kind, current_subject, current_body))
        return page.render("message", status=status, title=page._("kind:" + kind), broken=broken,
                           kind=kind, lang=lang, language=guest_i18n.LANGUAGE_NAMES[lang],
                           subject=current_subject if subject is None else subject,
                           body=current_body if body is None else body, own=own,
                           placeholders=templates.PLACEHOLDERS[kind], preview=preview,
                           errors=errors or {})

    @pages.get(PATH + "/messages/<kind>/<lang>", owners=True)
    def message_page(page, kind, lang):
        return _message(page, kind, lang)

    @pages.post(PATH + "/messages/<kind>/<lang>", owners=True)
    def message_save(page, kind, lang):
        templates.current(page.account_id, kind, lang)  # 404 for an unknown kind or language
        subject, body = page.form("subject"), page.form("body")
        try:
            if page.form("action") == "preview":
                shown = templates.preview(kind, lang, subject, body)
                return _message(page, kind, lang, subject=subject, body=body, preview=shown)
            templates.save(page.account_id, kind, lang, subject, body)
        except ValidationError as error:
            return _message(page, kind, lang, status=400, errors=form_errors(error),
                            subject=subject, body=body)
        page.record("account.message_template")
        raise Redirect(page.url(f"{PATH}/messages/{kind}/{lang}", done="message_saved"))

    @pages.post(PATH + "/messages/<kind>/<lang>/reset", owners=True)
    def message_reset(page, kind, lang):
        templates.reset(page.account_id, kind, lang)
        page.record("account.message_template_reset")
        raise Redirect(page.url(f"{PATH}/messages/{kind}/{lang}", done="message_reset"))
