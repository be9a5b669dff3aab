"""Every e-mail the product sends goes through here: its headers and its SMTP conversation, with
the account's effective SMTP settings.

- The settings: what the account's owner set up in the dashboard (`mail_setting`, the password
  sealed with core/sealing.py), else the `smtp` settings of config.toml. `doctor`, the test mail
  and every sender read them through `effective_smtp`, so they never disagree.
- The headers every e-mail carries: `Date`, a `Message-ID` on the public URL's host (mail servers
  mark mail whose id names no real host), `Reply-To` with the host's contact address when the
  account has one, `Auto-Submitted`, `Content-Language`.
- Every attempt's outcome is kept per account (`last_error`), so that Today can warn while mail
  cannot be sent.
- Every failure is sorted into permanent (the server refused the recipient or the sender:
  retrying cannot help) or transient (no connection, a 4xx, a timeout), and a refusal of the
  recipient's address is told apart from the others.
- A server an account's owner chose (not the operator's config.toml) obeys the address rules of
  core/netguard.py, as webhooks and feeds do: its name is resolved at every connection, every
  address vetted, and the connection made to a vetted address (TLS still checks the name), so
  that no account reaches the machine's own services, its LAN or a cloud metadata address unless
  the operator allows it (`smtp.allow_private_addresses`). And whatever kept such a server from
  greeting us (refused, silent, filtered, not a mail server) is one reason, `unreached`, so that
  the answer does not tell a closed port from a filtered one.
"""

from __future__ import annotations

import datetime as dt
import logging
import smtplib
import socket
import ssl
import threading
import time
import types
import urllib.parse
from email.message import EmailMessage
from email.utils import formataddr, format_datetime, make_msgid

import peewee as pw

from rentalcomply.core import clock, netguard, sealing
from rentalcomply.core.db import atomic
from rentalcomply.core.models import Account, BaseModel, Property

log = logging.getLogger(__name__)

SECURITIES = ("starttls", "tls", "none")
PASSWORD_PURPOSE = "smtp-password:"
PRIVATE_SETTING = "smtp.allow_private_addresses"


class MailSetting(BaseModel):
    """What an account's owner set up for its e-mail (dashboard Account page): the SMTP server
    (null host: config.toml's), the host contact every guest e-mail carries, the reminder
    schedule (days before arrival, comma-separated; null: `checkin.reminder_days`), and the
    outcome of the last attempt to send."""
    account = pw.ForeignKeyField(Account, primary_key=True, on_delete="CASCADE")
    smtp_host = pw.CharField(max_length=253, null=True)
    smtp_port = pw.IntegerField(null=True)
    smtp_security = pw.CharField(max_length=16, null=True)
    smtp_username = pw.CharField(max_length=254, null=True)
    smtp_password_sealed = pw.TextField(null=True)
    smtp_from = pw.CharField(max_length=320, null=True)
    contact_name = pw.CharField(max_length=200, null=True)
    contact_phone = pw.CharField(max_length=50, null=True)
    contact_email = pw.CharField(max_length=254, null=True)
    reminder_days = pw.CharField(max_length=100, null=True)
    last_attempt_at = pw.DateTimeField(null=True)
    last_error = pw.TextField(null=True)
    updated_at = pw.DateTimeField(default=clock.utcnow)

    class Meta:
        table_name = "mail_setting"


class DeliveryFailed(Exception):
    """`reason` names the server's answer by its code only: a server's own words often quote the
    address, and the reason is shown to API clients and written on the booking."""

    def __init__(self, reason: str, permanent: bool, recipient_refused: bool = False,
                 unreached: bool = False):
        super().__init__(reason)
        self.reason = reason
        self.permanent = permanent
        self.recipient_refused = recipient_refused
        # No mail server greeted us (an account's own server): one reason whatever the cause.
        self.unreached = unreached


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


def _open(client, host, port) -> socket.socket:
    """The TCP connection: to the vetted addresses when there are some (the name is not looked up
    again, so DNS cannot answer otherwise now), else to the name as smtplib would."""
    if client.addresses is None:
        return client.deadline.hold(
            smtplib.SMTP._get_socket(client, host, port, client.deadline.remaining()))
    failure: OSError = OSError("no address")
    for address in client.addresses:
        try:
            return client.deadline.hold(
                socket.create_connection((address, port), client.deadline.remaining()))
        except OSError as exc:  # the next address of the name
            failure = exc
    raise failure


class _SMTP(smtplib.SMTP):
    def __init__(self, deadline: _Deadline, addresses, *args, **kwargs):
        self.deadline = deadline  # before the connection super() makes
        self.addresses = addresses
        super().__init__(*args, **kwargs)

    def _get_socket(self, host, port, timeout):
        return _open(self, host, port)

    def starttls(self, *args, **kwargs):
        reply = super().starttls(*args, **kwargs)
        self.deadline.hold(self.sock)  # the TLS socket took the connection over
        return reply


class _SMTP_SSL(smtplib.SMTP_SSL):
    def __init__(self, deadline: _Deadline, addresses, *args, **kwargs):
        self.deadline = deadline
        self.addresses = addresses
        super().__init__(*args, **kwargs)

    def _get_socket(self, host, port, timeout):
        plain = _open(self, host, port)
        # The TLS socket takes the connection over: held before its handshake, so that a server
        # trickling the handshake is cut too.
        secure = self.context.wrap_socket(plain, server_hostname=self._host,
                                          do_handshake_on_connect=False)
        self.deadline.hold(secure)
        secure.settimeout(self.deadline.remaining())
        secure.do_handshake()
        return secure


def address_problem(smtp) -> DeliveryFailed | None:
    """Why the server's addresses are refused (an account's own server on an address the
    operator does not allow), as the DeliveryFailed to raise; None when they may be reached."""
    try:
        _vetted_addresses(smtp)
    except DeliveryFailed as failure:
        return failure
    return None


def _vetted_addresses(smtp) -> list[str] | None:
    """The addresses to connect to ([] when the name does not resolve); None for config.toml's
    server, the operator's own choice."""
    if smtp.source != "dashboard":
        return None
    target = netguard.Target("smtp", smtp.host, smtp.port, "")
    try:
        return netguard.vetted_addresses(target, smtp.allow_private, PRIVATE_SETTING)
    except netguard.DestinationRefused as refused:
        raise DeliveryFailed(f"the mail server {smtp.host}:{smtp.port} is not allowed "
                             f"({refused})", permanent=True) from None
    except netguard.FetchError:  # does not resolve: as unreached as a closed port
        return []


def _unreached(smtp, started: float) -> DeliveryFailed:
    """The one failure of an account's own server that never greeted us, given at the timeout:
    a closed port answers at once and a filtered one at the timeout, so all answer then (the test
    e-mail, a resend through the API: whoever chose the server must learn nothing of its port)."""
    time.sleep(max(0.0, started + smtp.timeout_seconds - time.monotonic()))
    return DeliveryFailed(f"cannot reach the mail server {smtp.host}:{smtp.port}",
                          permanent=False, unreached=True)


def _converse(smtp, message: EmailMessage) -> None:
    started = time.monotonic()
    addresses = _vetted_addresses(smtp)
    if addresses == []:
        raise _unreached(smtp, started)
    deadline = _Deadline(float(smtp.timeout_seconds))
    sent = greeted = False
    try:
        if smtp.use_ssl:
            client = _SMTP_SSL(deadline, addresses, smtp.host, smtp.port,
                               timeout=smtp.timeout_seconds, context=ssl.create_default_context())
        else:
            client = _SMTP(deadline, addresses, smtp.host, smtp.port, timeout=smtp.timeout_seconds)
        greeted = True  # smtplib has read a 220 greeting: a mail server answers there
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
        if not greeted and addresses is not None:
            # An account's own server: closed, silent, filtered or not a mail server at all
            # must read the same, or the test e-mail would map the ports of any host.
            log.info("mail server %s:%s not reached: %s", smtp.host, smtp.port,
                     type(exc).__name__)
            raise _unreached(smtp, started) from None
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


class PropertyContact(BaseModel):
    """A property's own host contact, which replaces the account's in its guests' e-mails and
    on their completion screen (a property looked after by another person)."""
    property = pw.ForeignKeyField(Property, primary_key=True, on_delete="CASCADE")
    account = pw.ForeignKeyField(Account, on_delete="CASCADE")
    name = pw.CharField(max_length=200, null=True)
    phone = pw.CharField(max_length=50, null=True)
    email = pw.CharField(max_length=254, null=True)
    updated_at = pw.DateTimeField(default=clock.utcnow)

    class Meta:
        table_name = "property_contact"


# --- the effective settings ----------------------------------------------------------------------

def setting_of(account_id: str | None) -> MailSetting | None:
    if not account_id:
        return None
    return MailSetting.get_or_none(MailSetting.account == account_id)


def effective_smtp(settings, account_id: str | None = None) -> types.SimpleNamespace:
    """The SMTP server an account's e-mails go through: the dashboard's, else config.toml's."""
    smtp = settings.smtp
    chosen = setting_of(account_id)
    if chosen is None or not chosen.smtp_host:
        return types.SimpleNamespace(
            host=smtp.host, port=smtp.port, starttls=smtp.starttls, use_ssl=smtp.use_ssl,
            username=smtp.username, password=smtp.password, from_address=smtp.from_address,
            timeout_seconds=smtp.timeout_seconds, source="config", allow_private=True)
    password = ""
    if chosen.smtp_password_sealed:
        password = sealing.unseal(PASSWORD_PURPOSE + chosen.account_id,
                                  chosen.smtp_password_sealed).decode("utf-8")
    return types.SimpleNamespace(
        host=chosen.smtp_host, port=chosen.smtp_port or 587,
        starttls=chosen.smtp_security == "starttls", use_ssl=chosen.smtp_security == "tls",
        username=chosen.smtp_username or "", password=password,
        from_address=chosen.smtp_from or smtp.from_address,
        timeout_seconds=smtp.timeout_seconds, source="dashboard",
        allow_private=smtp.allow_private_addresses)


def is_set_up(settings, account_id: str | None = None) -> bool:
    """Whether anyone chose a mail server: the defaults (localhost, no-reply@localhost) reach
    nothing on an appliance."""
    smtp = effective_smtp(settings, account_id)
    return smtp.source == "dashboard" or not (smtp.host in ("localhost", "127.0.0.1", "")
                                              and smtp.from_address.endswith("@localhost>"))


def servers_set_up(settings) -> list[tuple[str, types.SimpleNamespace]]:
    """Every account's own mail server: (account name, its effective settings)."""
    rows = (MailSetting.select(MailSetting, Account).join(Account)
            .where(MailSetting.smtp_host.is_null(False)).order_by(Account.name))
    return [(row.account.name, effective_smtp(settings, row.account_id)) for row in rows]


def accounts_on_config() -> bool:
    """Whether an account's e-mails go through config.toml's server (any without its own)."""
    own = MailSetting.select(MailSetting.account).where(MailSetting.smtp_host.is_null(False))
    return Account.select().where(Account.id.not_in(own)).exists()


def host_contact(account_id: str | None, property_id: str | None = None) -> dict:
    """The host's contact for guests: name, phone, e-mail (each may be empty); the property's own
    when it has one, else the account's."""
    if property_id:
        own = PropertyContact.get_or_none((PropertyContact.property == property_id)
                                          & (PropertyContact.account == account_id))
        if own is not None:
            return {"name": own.name or "", "phone": own.phone or "", "email": own.email or ""}
    chosen = setting_of(account_id)
    return {"name": (chosen.contact_name if chosen else None) or "",
            "phone": (chosen.contact_phone if chosen else None) or "",
            "email": (chosen.contact_email if chosen else None) or ""}


def last_failure(account_id: str) -> tuple[dt.datetime, str] | None:
    """When and why the account's last attempt to send failed; None when it went (or none yet)."""
    chosen = setting_of(account_id)
    if chosen is None or not chosen.last_error or chosen.last_attempt_at is None:
        return None
    return chosen.last_attempt_at, chosen.last_error


# --- the message ---------------------------------------------------------------------------------

def new_message(settings, *, to: str, subject: str, lang: str, account_id: str | None = None,
                to_guest: bool = False, property_id: str | None = None) -> EmailMessage:
    """An e-mail with the headers every one of ours carries; a guest's answer goes to the host
    (`Reply-To`), never to the sender address nobody reads."""
    message = EmailMessage()
    message["Subject"] = subject
    message["From"] = effective_smtp(settings, account_id).from_address
    message["To"] = to
    contact = host_contact(account_id, property_id) if to_guest else {}
    if contact.get("email"):
        message["Reply-To"] = formataddr((contact["name"], contact["email"]))
    message["Date"] = format_datetime(clock.utcnow().replace(tzinfo=dt.timezone.utc))
    message["Message-ID"] = make_msgid(domain=public_host(settings))
    message["Content-Language"] = lang
    message["Auto-Submitted"] = "auto-generated"
    return message


def public_host(settings) -> str:
    return urllib.parse.urlsplit(settings.server.public_url).hostname or "localhost"


# --- the conversation ----------------------------------------------------------------------------

def deliver(settings, message: EmailMessage, account_id: str | None = None) -> None:
    """Send `message` through the account's effective SMTP server; raises DeliveryFailed. The
    outcome is kept on the account for Today's warning."""
    smtp = effective_smtp(settings, account_id)
    try:
        _converse(smtp, message)
    except DeliveryFailed as failure:
        # The technical reason is for the log; pages say it in words (dashboard/problems.py).
        log.warning("e-mail not sent (account %s): %s", account_id or "-", failure.reason)
        # A guest's address refused says nothing about the server: it works.
        _note_outcome(account_id, None if failure.recipient_refused else failure.reason)
        raise
    _note_outcome(account_id, None)


def _note_outcome(account_id: str | None, error: str | None) -> None:
    if not account_id:
        return
    now = clock.utcnow()
    with atomic():
        (MailSetting.insert(account=account_id, last_attempt_at=now, last_error=error,
                            updated_at=now)
         .on_conflict(conflict_target=[MailSetting.account],
                      update={MailSetting.last_attempt_at: now, MailSetting.last_error: error})
         .execute())
