"""The check-in e-mails (the invitation, the reminders, the access instructions), composed in the
guest's language with the host's contact, and sent through core/mailer.py like every e-mail of the
product (its headers, the account's effective SMTP settings, the sorting of failures).

What to do with a failure is the caller's: service.py writes it on the booking (`checkin_error`).
This module knows only messages.
"""

from __future__ import annotations

import html
import logging
from email.message import EmailMessage

from rentalcomply.checkin import i18n, templates
from rentalcomply.core import mailer
from rentalcomply.core.mailer import DeliveryFailed  # noqa: F401 - the callers' name for it
from rentalcomply.core.models import Booking, Property
from rentalcomply.properties.service import registration_line

log = logging.getLogger(__name__)

INVITATION = "invitation"
REMINDER = "reminder"


def deliver(settings, message: EmailMessage, account_id: str | None = None) -> None:
    mailer.deliver(settings, message, account_id)


def contact_line(account_id: str, property_id: str | None = None) -> str:
    """The host's contact as one line ("Eleni Markou · +30 69… · eleni@example.com"), or ""."""
    contact = mailer.host_contact(account_id, property_id)
    return " · ".join(part for part in (contact["name"], contact["phone"], contact["email"]) if part)


def compose(settings, booking: Booking, prop: Property, checkin_url: str, expires_on,
            kind: str = INVITATION, to: str | None = None) -> EmailMessage:
    """The invitation, or a reminder (`kind`), with the guest's link: the account's own text
    when its owner wrote one (templates.py), else the product's; to `to` (the address the guest
    typed at check-in, for a host's resend), else the booking's address."""
    lang = i18n.language(booking.guest_language)
    own = templates.own_template(booking.account_id, kind, lang)
    if own is not None:
        try:
            return _compose_own(settings, booking, prop, lang, own, checkin_url, to=to,
                                expires=expires_on)
        except templates.TemplateBroken:  # the guest gets the default rather than nothing
            log.warning("the account's own %s text could not be filled: default sent", kind)
    values = {"host": prop.name, "arrival": i18n.format_date(lang, booking.arrival_date),
              "departure": i18n.format_date(lang, booking.departure_date)}
    t = lambda key, **extra: i18n.text(lang, key, **{**values, **extra})  # noqa: E731
    subject, body = ((t("reminder.subject"), t("reminder.body")) if kind == REMINDER
                     else (t("mail.subject"), t("mail.body")))
    stay = i18n.text(lang, "page.stay", **i18n.stay(lang, booking.arrival_date,
                                                   booking.departure_date, booking.guest_count))
    expires = t("mail.valid", expires=i18n.format_date(lang, expires_on))
    return _compose(settings, booking, prop, lang, subject, [body, stay],
                    button=(t("mail.button"), checkin_url), after=[expires], to=to)


def compose_access(settings, booking: Booking, prop: Property, instructions: str,
                   checkin_url: str) -> EmailMessage:
    """The e-mail with the property's access instructions, once check-in is complete."""
    lang = i18n.language(booking.guest_language)
    own = templates.own_template(booking.account_id, "access", lang)
    if own is not None:
        try:
            return _compose_own(settings, booking, prop, lang, own, checkin_url,
                                instructions=instructions)
        except templates.TemplateBroken:  # the guest gets the default rather than nothing
            log.warning("the account's own access text could not be filled: default sent")
    values = {"host": prop.name, "arrival": i18n.format_date(lang, booking.arrival_date)}
    t = lambda key, **extra: i18n.text(lang, key, **{**values, **extra})  # noqa: E731
    return _compose(settings, booking, prop, lang, t("access.mail_subject"),
                    [t("access.mail_body")], boxed=instructions,
                    after=[t("access.mail_page")], link=checkin_url)


def _compose_own(settings, booking: Booking, prop: Property, lang: str, own: tuple[str, str],
                 checkin_url: str, to: str | None = None, **extra) -> EmailMessage:
    """An e-mail in the account's own words: its paragraphs as written, the link's paragraph
    a button in the HTML part."""
    contact = mailer.host_contact(booking.account_id, prop.id)
    values = {"guest_name": booking.guest_name, "property": prop.name,
              "arrival": booking.arrival_date, "departure": booking.departure_date,
              "link": checkin_url, "host_name": contact["name"], "host_phone": contact["phone"],
              "host_email": contact["email"], **extra}
    subject, text = templates.render(lang, own[0], own[1], values)
    cin = registration_line(prop)  # Italy's CIN, Spain's licence
    if cin:  # after the host's own words, which cannot be trusted to name it
        text += "\n\n" + cin
    message = mailer.new_message(settings, to=to or booking.guest_email, subject=subject, lang=lang,
                                 account_id=booking.account_id, to_guest=True,
                                 property_id=prop.id)
    message.set_content(text + "\n")
    e = html.escape
    parts = []
    for paragraph in text.split("\n\n"):
        if paragraph.strip() == checkin_url:
            parts.append(f'<p style="margin:28px 0"><a href="{e(checkin_url)}" '
                         'style="background:#0b5f5a;color:#ffffff;text-decoration:none;'
                         'padding:14px 22px;border-radius:8px;font-weight:600;'
                         f'display:inline-block">{e(i18n.text(lang, "mail.button"))}</a><br>'
                         f'<a href="{e(checkin_url)}" style="color:#0b5f5a;font-size:13px">'
                         f'{e(checkin_url)}</a></p>')
        else:
            lines = "<br>".join(e(line) for line in paragraph.splitlines())
            parts.append(f'<p style="font-size:16px;line-height:1.5">{lines}</p>')
    _add_html(message, lang, subject, prop, "\n".join(parts))
    return message


def _add_html(message: EmailMessage, lang: str, subject: str, prop: Property, body: str) -> None:
    e = html.escape
    # Italy's CIN under the property's name, as on the guest page: the law wants it shown
    # wherever the let is offered, and the guest's e-mails are where they read about it.
    cin = registration_line(prop)  # Italy's CIN, Spain's licence
    cin_html = (f'<p style="margin:0 0 6px;color:#4a5753;font-size:13px">{e(cin)}</p>\n'
                if cin else "")
    message.add_alternative(f"""<!doctype html>
<html lang="{lang}"><head><meta charset="utf-8"><title>{e(subject)}</title></head>
<body style="margin:0;padding:24px;background:#f4f6f5;font-family:-apple-system,'Segoe UI',Roboto,Helvetica,Arial,sans-serif;color:#1b2421">
<div style="max-width:520px;margin:0 auto;background:#ffffff;border-radius:12px;padding:28px">
<p style="margin:0 0 6px;color:#0b5f5a;font-weight:600">{e(prop.name)}</p>
{cin_html}{body}
</div></body></html>
""", subtype="html")
    # Making the message multipart moved its Content-* headers into the text part.
    message["Content-Language"] = lang


def _compose(settings, booking: Booking, prop: Property, lang: str, subject: str,
             paragraphs: list[str], *, button: tuple[str, str] | None = None,
             boxed: str | None = None, after: list[str] = (), link: str | None = None,
             to: str | None = None) -> EmailMessage:
    """One layout for every guest e-mail: plain text and the same in HTML, every value escaped."""
    greeting = i18n.text(lang, "mail.greeting", name=booking.guest_name)
    contact = contact_line(booking.account_id, prop.id)
    contact_text = i18n.text(lang, "mail.contact", contact=contact) if contact else ""
    url = button[1] if button else link
    signoff = i18n.text(lang, "mail.signoff")
    message = mailer.new_message(settings, to=to or booking.guest_email, subject=subject, lang=lang,
                                 account_id=booking.account_id, to_guest=True,
                                 property_id=prop.id)
    text = [greeting, *paragraphs]
    if boxed:
        text.append(boxed)
    if button:
        text.append(url)
    text += list(after)
    if link:
        text.append(link)
    if contact_text:
        text.append(contact_text)
    cin = registration_line(prop)  # Italy's CIN, Spain's licence
    text.append(signoff + "\n" + prop.name + ("\n" + cin if cin else ""))
    message.set_content("\n\n".join(text) + "\n")
    e = html.escape
    parts = [f'<p style="font-size:16px;line-height:1.5">{e(p)}</p>' for p in [greeting, *paragraphs]]
    if boxed:
        lines = "<br>".join(e(line) for line in boxed.splitlines())
        parts.append('<p style="font-size:16px;line-height:1.6;background:#f4f6f5;'
                     f'border-radius:8px;padding:16px">{lines}</p>')
    if button:
        parts.append(f'<p style="margin:28px 0"><a href="{e(url)}" style="background:#0b5f5a;'
                     'color:#ffffff;text-decoration:none;padding:14px 22px;border-radius:8px;'
                     f'font-weight:600;display:inline-block">{e(button[0])}</a></p>')
    small = "<br>".join(e(p) for p in after)
    parts.append(f'<p style="font-size:13px;color:#4a5753;line-height:1.5">{small}<br>'
                 f'<a href="{e(url)}" style="color:#0b5f5a">{e(url)}</a></p>')
    if contact_text:
        parts.append(f'<p style="font-size:14px;line-height:1.5">{e(contact_text)}</p>')
    parts.append(f'<p style="font-size:16px">{e(signoff)}<br>{e(prop.name)}'
                 + (f'<br><span style="font-size:13px">{e(cin)}</span>' if cin else "") + '</p>')
    _add_html(message, lang, subject, prop, "\n".join(parts))
    return message
