"""An account's e-mail, as its owner sets it up on the dashboard: the mail server (overriding the
`smtp` settings of config.toml for this account), the host contact every guest e-mail carries,
and a test mail that says in words whether it went.

The password is write-only: sealed at rest (core/sealing.py), never shown back; an empty password
in a form keeps the one stored.

The server obeys the address rules of webhooks and feeds (core/netguard.py): a host on loopback, a
private or link-local address is refused when saved (and at every connection, core/mailer.py)
unless the operator sets `smtp.allow_private_addresses`. A test e-mail that reaches no mail server
answers in the same words after the same time (`smtp.timeout_seconds`), whether the port was
closed, filtered or something else's: the page must not become a port scanner.
"""

from __future__ import annotations

import html
import re
from email.headerregistry import Address
from email.utils import parseaddr

from rentalcomply.core import clock, mailer, netguard, sealing
from rentalcomply.core.checks import control_character_problem
from rentalcomply.core.db import atomic
from rentalcomply.core.errors import NotFound, ValidationError
from rentalcomply.core.mailer import MailSetting, PropertyContact
from rentalcomply.core.models import Property

HOST_RE = re.compile(r"^[A-Za-z0-9]([A-Za-z0-9.-]{0,251}[A-Za-z0-9])?$")
EMAIL_RE = re.compile(r"^[^@\s<>]+@[^@\s<>]+\.[^@\s<>]+$")


def smtp_view(settings, account_id: str) -> dict:
    """What the set-up form shows: never the password, only whether one is stored."""
    chosen = mailer.setting_of(account_id)
    smtp = mailer.effective_smtp(settings, account_id)
    own = chosen is not None and bool(chosen.smtp_host)
    security = ("tls" if smtp.use_ssl else "starttls" if smtp.starttls else "none")
    return {"own": own, "host": smtp.host if own else "", "port": smtp.port if own else 587,
            "security": security if own else "starttls",
            "username": smtp.username if own else "",
            "password_stored": own and bool(chosen.smtp_password_sealed),
            "from_address": (chosen.smtp_from or "") if own else "",
            "effective_host": smtp.host, "effective_port": smtp.port,
            "effective_from": smtp.from_address, "source": smtp.source,
            "set_up": mailer.is_set_up(settings, account_id),
            "last_failure": mailer.last_failure(account_id)}


def save_smtp(account_id: str, *, host: str, port, security: str, username: str,
              password: str | None, from_address: str, allow_private: bool = False) -> None:
    """The account's own mail server. `password` None or "" keeps the stored one.
    `allow_private`: the operator's `smtp.allow_private_addresses`."""
    problems = []
    host, username, from_address = host.strip(), username.strip(), from_address.strip()
    if not HOST_RE.match(host):
        problems.append({"field": "host", "message": "must be the mail server's name, like "
                                                     "smtp.example.com"})
    try:
        port = int(str(port).strip())
        if not 1 <= port <= 65535:
            raise ValueError
    except ValueError:
        problems.append({"field": "port", "message": "must be a port number from 1 to 65535 "
                                                     "(587 for STARTTLS, 465 for TLS)"})
    if security not in mailer.SECURITIES:
        problems.append({"field": "security", "message": "must be STARTTLS, TLS or none"})
    for field, value in (("username", username), ("password", password or "")):
        problem = control_character_problem(value)
        if problem or len(value) > 254:
            problems.append({"field": field, "message": problem or "is too long"})
    if not _valid_sender(from_address):
        problems.append({"field": "from_address", "message": "must be an e-mail address, like "
                                                             "Villa Anemoi <stay@example.com>"})
    if not problems:
        # Early feedback only: the rule that matters is applied at every connection.
        refused = netguard.registration_problem(
            f"http://{host}:{port}/", allow_http=True, allow_private=allow_private,
            private_setting=mailer.PRIVATE_SETTING)
        if refused is not None:
            problems.append({"field": "host", "message": f"is not allowed: {refused}"})
    if problems:
        raise ValidationError(problems)
    now = clock.utcnow()
    changes = {MailSetting.smtp_host: host, MailSetting.smtp_port: port,
               MailSetting.smtp_security: security, MailSetting.smtp_username: username,
               MailSetting.smtp_from: from_address, MailSetting.updated_at: now,
               # A new server deserves a new first attempt: the last one's failure was the old's.
               MailSetting.last_error: None}
    if password:
        changes[MailSetting.smtp_password_sealed] = sealing.seal(
            mailer.PASSWORD_PURPOSE + account_id, password.encode("utf-8"))
    _upsert(account_id, changes)


def forget_smtp(account_id: str) -> None:
    """Back to config.toml's `smtp` settings."""
    _upsert(account_id, {MailSetting.smtp_host: None, MailSetting.smtp_port: None,
                         MailSetting.smtp_security: None, MailSetting.smtp_username: None,
                         MailSetting.smtp_password_sealed: None, MailSetting.smtp_from: None,
                         MailSetting.last_error: None, MailSetting.updated_at: clock.utcnow()})


def save_contact(account_id: str, *, name: str, phone: str, email: str) -> None:
    """The host contact guests see in every e-mail (and as its Reply-To) and on the check-in
    page once complete."""
    name, phone, email = _checked_contact(name, phone, email)
    _upsert(account_id, {MailSetting.contact_name: name or None,
                         MailSetting.contact_phone: phone or None,
                         MailSetting.contact_email: email or None,
                         MailSetting.updated_at: clock.utcnow()})


def save_property_contact(account_id: str, property_id: str, *, name: str, phone: str,
                          email: str) -> None:
    """A property's own host contact, replacing the account's for its guests; all empty: the
    account's again."""
    prop = Property.get_or_none((Property.id == property_id) & (Property.account == account_id))
    if prop is None:
        raise NotFound("No such property.")
    name, phone, email = _checked_contact(name, phone, email)
    with atomic():
        if not (name or phone or email):
            PropertyContact.delete().where(PropertyContact.property == prop.id).execute()
            return
        changes = {PropertyContact.name: name or None, PropertyContact.phone: phone or None,
                   PropertyContact.email: email or None, PropertyContact.updated_at: clock.utcnow()}
        (PropertyContact.insert(property=prop.id, account=account_id,
                                **{f.name: v for f, v in changes.items()})
         .on_conflict(conflict_target=[PropertyContact.property], update=changes).execute())


def _checked_contact(name: str, phone: str, email: str) -> tuple[str, str, str]:
    name, phone, email = name.strip(), phone.strip(), email.strip()
    problems = []
    for field, value, longest in (("contact_name", name, 200), ("contact_phone", phone, 50)):
        problem = control_character_problem(value)
        if problem or len(value) > longest:
            problems.append({"field": field, "message": problem or f"at most {longest} characters"})
    if phone and not re.match(r"^\+?[0-9 ().-]{5,}$", phone):
        problems.append({"field": "contact_phone",
                         "message": "must be a phone number, like +30 210 123 4567"})
    if email and (not EMAIL_RE.match(email) or len(email) > 254):
        problems.append({"field": "contact_email", "message": "must be an e-mail address"})
    if problems:
        raise ValidationError(problems)
    return name, phone, email


def send_test(settings, account_id: str, to: str, account_name: str) -> tuple[bool, str]:
    """A test mail through the account's effective settings: (sent, what happened in words)."""
    to = to.strip()
    if not EMAIL_RE.match(to):
        raise ValidationError("test_to", "must be an e-mail address")
    smtp = mailer.effective_smtp(settings, account_id)
    message = mailer.new_message(settings, to=to, subject=f"{account_name}: test e-mail",
                                 lang="en", account_id=account_id)
    text = (f"This test e-mail of {account_name} went through {smtp.host}:{smtp.port}. "
            "Guests' check-in e-mails, reminders and access instructions go the same way.")
    message.set_content(text + "\n")
    message.add_alternative(f"<!doctype html><html><body><p>{html.escape(text)}</p></body></html>",
                            subtype="html")
    try:
        mailer.deliver(settings, message, account_id)
    except mailer.DeliveryFailed as failure:  # unreached: at the timeout, whatever the port
        return False, failure.reason
    return True, f"{smtp.host}:{smtp.port}"


def _valid_sender(value: str) -> bool:
    if not value or len(value) > 320 or control_character_problem(value):
        return False
    _, address = parseaddr(value)
    if not EMAIL_RE.match(address or ""):
        return False
    try:
        Address(addr_spec=address)
    except (ValueError, IndexError):
        return False
    return True


def _upsert(account_id: str, changes: dict) -> None:
    values = {field.name: value for field, value in changes.items()}
    with atomic():
        (MailSetting.insert(account=account_id, **values)
         .on_conflict(conflict_target=[MailSetting.account], update=changes).execute())
