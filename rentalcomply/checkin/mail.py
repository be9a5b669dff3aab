"""The check-in e-mails: composed in the guest's language, sent over SMTP with the `smtp` settings.

Every failure is sorted into permanent (the server refused the recipient or the sender: retrying
cannot help) or transient (no connection, a 4xx, a timeout), so the task retries only the latter,
and a refusal of the guest's address is told apart from the others (the host must correct the
address; nothing else will help). What to do with a failure is the caller's: service.py writes it
on the booking (`checkin_error`). This module knows only messages and SMTP.
"""

from __future__ import annotations

import html
import logging
import smtplib
import socket
import ssl
import threading
import time
from email.message import EmailMessage
from email.utils import make_msgid

from rentalcomply.checkin import i18n
from rentalcomply.core.models import Booking, Property

log = logging.getLogger(__name__)


class DeliveryFailed(Exception):
    """`reason` names the server's answer by its code only: a server's own words often quote the
    address, and the reason is shown to API clients and written on the booking."""

    def __init__(self, reason: str, permanent: bool, recipient_refused: bool = False):
        super().__init__(reason)
        self.reason = reason
        self.permanent = permanent
        self.recipient_refused = recipient_refused


def _message(subject: str, sender: str, to: str, lang: str) -> EmailMessage:
    """An e-mail to a guest with the headers every one of ours carries."""
    message = EmailMessage()
    message["Subject"] = subject
    message["From"] = sender
    message["To"] = to
    message["Message-ID"] = make_msgid(domain="rentalcomply.invalid")
    message["Content-Language"] = lang
    message["Auto-Submitted"] = "auto-generated"
    return message


def compose(booking: Booking, prop: Property, checkin_url: str, sender: str,
            expires_on) -> EmailMessage:
    lang = i18n.language(booking.guest_language)
    values = {"host": prop.name, "arrival": i18n.format_date(lang, booking.arrival_date),
              "departure": i18n.format_date(lang, booking.departure_date)}
    expires = i18n.format_date(lang, expires_on)
    t = lambda key, **extra: i18n.text(lang, key, **{**values, **extra})  # noqa: E731
    greeting = t("mail.greeting", name=booking.guest_name)
    stay = i18n.text(lang, "page.stay", **i18n.stay(lang, booking.arrival_date,
                                                   booking.departure_date, booking.guest_count))
    message = _message(t("mail.subject"), sender, booking.guest_email, lang)
    message.set_content("\n\n".join([
        greeting, t("mail.body"), stay, checkin_url, t("mail.valid", expires=expires),
        t("mail.signoff") + "\n" + prop.name]) + "\n")
    e = html.escape
    message.add_alternative(f"""<!doctype html>
<html lang="{lang}"><head><meta charset="utf-8"><title>{e(t("mail.subject"))}</title></head>
<body style="margin:0;padding:24px;background:#f4f6f5;font-family:-apple-system,'Segoe UI',Roboto,Helvetica,Arial,sans-serif;color:#1b2421">
<div style="max-width:520px;margin:0 auto;background:#ffffff;border-radius:12px;padding:28px">
<p style="margin:0 0 6px;color:#0b5f5a;font-weight:600">{e(prop.name)}</p>
<p style="font-size:16px;line-height:1.5">{e(greeting)}</p>
<p style="font-size:16px;line-height:1.5">{e(t("mail.body"))}</p>
<p style="font-size:15px;line-height:1.5;font-weight:600">{e(stay)}</p>
<p style="margin:28px 0"><a href="{e(checkin_url)}" style="background:#0b5f5a;color:#ffffff;text-decoration:none;padding:14px 22px;border-radius:8px;font-weight:600;display:inline-block">{e(t("mail.button"))}</a></p>
<p style="font-size:13px;color:#4a5753;line-height:1.5">{e(t("mail.valid", expires=expires))}<br><a href="{e(checkin_url)}" style="color:#0b5f5a">{e(checkin_url)}</a></p>
<p style="font-size:16px">{e(t("mail.signoff"))}<br>{e(prop.name)}</p>
</div></body></html>
""", subtype="html")
    return message


class _Deadline:
    """`smtp.timeout_seconds` bounds the whole conversation, not each read: smtplib's own timeout
    is per socket operation, so a server answering a byte a second would hold the worker for as
    long as it liked. A timer shuts down the socket at the deadline; it keeps the sockets itself
    (smtplib sets `sock` to None when it closes on an error, and STARTTLS replaces it)."""

    def __init__(self, seconds: float):
        self.seconds = seconds
        self.at = time.monotonic() + seconds
        self.passed = threading.Event()
        self._sockets: list[socket.socket] = []
        self._lock = threading.Lock()
        self._timer = threading.Timer(seconds, self._cut)
        self._timer.daemon = True
        self._timer.start()

    def hold(self, sock: socket.socket) -> socket.socket:
        with self._lock:
            self._sockets.append(sock)
        if self.passed.is_set():
            self._cut()
        return sock

    def remaining(self) -> float:
        return max(0.001, self.at - time.monotonic())

    def _cut(self) -> None:
        self.passed.set()
        with self._lock:
            sockets = list(self._sockets)
        for sock in sockets:
            try:
                sock.shutdown(socket.SHUT_RDWR)
            except OSError:
                pass

    def cancel(self) -> None:
        self._timer.cancel()


class _SMTP(smtplib.SMTP):
    def __init__(self, deadline: _Deadline, *args, **kwargs):
        self.deadline = deadline  # before the connection super() makes
        super().__init__(*args, **kwargs)

    def _get_socket(self, host, port, timeout):
        return self.deadline.hold(super()._get_socket(host, port, self.deadline.remaining()))

    def starttls(self, *args, **kwargs):
        reply = super().starttls(*args, **kwargs)
        self.deadline.hold(self.sock)  # the TLS socket took the connection over
        return reply


class _SMTP_SSL(smtplib.SMTP_SSL):
    def __init__(self, deadline: _Deadline, *args, **kwargs):
        self.deadline = deadline
        super().__init__(*args, **kwargs)

    def _get_socket(self, host, port, timeout):
        plain = smtplib.SMTP._get_socket(self, host, port, self.deadline.remaining())
        self.deadline.hold(plain)
        # The TLS socket takes the connection over: held before its handshake, so that a server
        # trickling the handshake is cut too.
        secure = self.context.wrap_socket(plain, server_hostname=self._host,
                                          do_handshake_on_connect=False)
        self.deadline.hold(secure)
        secure.settimeout(self.deadline.remaining())
        secure.do_handshake()
        return secure


def deliver(settings, message: EmailMessage) -> None:
    smtp = settings.smtp
    deadline = _Deadline(float(smtp.timeout_seconds))
    sent = False
    try:
        if smtp.use_ssl:
            client = _SMTP_SSL(deadline, smtp.host, smtp.port, timeout=smtp.timeout_seconds,
                               context=ssl.create_default_context())
        else:
            client = _SMTP(deadline, smtp.host, smtp.port, timeout=smtp.timeout_seconds)
        try:
            if smtp.starttls and not smtp.use_ssl:
                client.starttls(context=ssl.create_default_context())
            if smtp.username:
                client.login(smtp.username, smtp.password)
            client.send_message(message)
            sent = True  # accepted: whatever happens to the QUIT, the guest has the mail
            client.quit()
        finally:
            client.close()
    except (smtplib.SMTPException, OSError) as exc:
        if sent:
            return
        if deadline.passed.is_set() or isinstance(exc, TimeoutError):
            raise DeliveryFailed(f"the mail server {smtp.host}:{smtp.port} did not finish within "
                                 f"{smtp.timeout_seconds} s (smtp.timeout_seconds)",
                                 permanent=False) from None
        _refuse(smtp, exc)
    finally:
        deadline.cancel()


def _refuse(smtp, exc: Exception) -> None:
    """Raise the DeliveryFailed that says what the server's refusal means."""
    try:
        raise exc
    except smtplib.SMTPRecipientsRefused as exc:
        codes = [code for code, _ in exc.recipients.values()]
        raise DeliveryFailed("the mail server refused the guest's address "
                             f"({', '.join(map(str, codes))})",
                             permanent=all(code >= 500 for code in codes),
                             recipient_refused=True) from None
    except smtplib.SMTPAuthenticationError as exc:
        raise DeliveryFailed(f"the mail server refused the SMTP login ({exc.smtp_code})",
                             permanent=False) from None
    except smtplib.SMTPResponseException as exc:
        raise DeliveryFailed(f"the mail server answered {exc.smtp_code}",
                             permanent=exc.smtp_code >= 500) from None
    except (smtplib.SMTPException, OSError) as exc:
        raise DeliveryFailed(f"cannot reach the mail server {smtp.host}:{smtp.port} "
                             f"({type(exc).__name__})", permanent=False) from None


def compose_access(booking: Booking, prop: Property, instructions: str, sender: str,
                   checkin_url: str) -> EmailMessage:
    """The e-mail with the property's access instructions, once check-in is complete."""
    lang = i18n.language(booking.guest_language)
    values = {"host": prop.name, "arrival": i18n.format_date(lang, booking.arrival_date)}
    t = lambda key, **extra: i18n.text(lang, key, **{**values, **extra})  # noqa: E731
    greeting = t("mail.greeting", name=booking.guest_name)
    message = _message(t("access.mail_subject"), sender, booking.guest_email, lang)
    message.set_content("\n\n".join([
        greeting, t("access.mail_body"), instructions, t("access.mail_page"), checkin_url,
        t("mail.signoff") + "\n" + prop.name]) + "\n")
    e = html.escape
    lines = "<br>".join(e(line) for line in instructions.splitlines())
    message.add_alternative(f"""<!doctype html>
<html lang="{lang}"><head><meta charset="utf-8"><title>{e(t("access.mail_subject"))}</title></head>
<body style="margin:0;padding:24px;background:#f4f6f5;font-family:-apple-system,'Segoe UI',Roboto,Helvetica,Arial,sans-serif;color:#1b2421">
<div style="max-width:520px;margin:0 auto;background:#ffffff;border-radius:12px;padding:28px">
<p style="margin:0 0 6px;color:#0b5f5a;font-weight:600">{e(prop.name)}</p>
<p style="font-size:16px;line-height:1.5">{e(greeting)}</p>
<p style="font-size:16px;line-height:1.5">{e(t("access.mail_body"))}</p>
<p style="font-size:16px;line-height:1.6;background:#f4f6f5;border-radius:8px;padding:16px">{lines}</p>
<p style="font-size:13px;color:#4a5753;line-height:1.5">{e(t("access.mail_page"))}<br><a href="{e(checkin_url)}" style="color:#0b5f5a">{e(checkin_url)}</a></p>
<p style="font-size:16px">{e(t("mail.signoff"))}<br>{e(prop.name)}</p>
</div></body></html>
""", subtype="html")
    return message
