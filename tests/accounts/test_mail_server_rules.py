"""An account's own mail server obeys the address rules of webhooks and feeds (core/netguard.py):
loopback, private and link-local (metadata) addresses are refused when saved and at every
connection unless the operator allows them (`smtp.allow_private_addresses`); and the test e-mail
answers a closed port, a silent one and something that is no mail server in the same words,
after the same time."""

from __future__ import annotations

import socket
import threading
import time

import pytest

from rentalcomply.accounts import mail_settings
from rentalcomply.core import clock, mailer, netguard
from rentalcomply.core.errors import ValidationError
from rentalcomply.core.mailer import MailSetting
from rentalcomply.dashboard import problems
from tests.checkin.conftest import free_port, smtp_server  # noqa: F401 - the fixture
from tests.conftest import bootstrapped_settings

SERVER = dict(security="none", username="", password="", from_address="stay@villa.example")


@pytest.fixture
def settings(tmp_path):
    # The operator allows nothing private; each test that needs it turns the allowance on.
    with bootstrapped_settings(tmp_path, RENTALCOMPLY_SMTP_TIMEOUT_SECONDS="1") as settings:
        yield settings


def _store(account_id: str, host: str, port: int) -> None:
    """The server written as it could have been before these rules (no check when saved)."""
    MailSetting.insert(account=account_id, smtp_host=host, smtp_port=port, smtp_security="none",
                       smtp_from="stay@villa.example", updated_at=clock.utcnow()).execute()


@pytest.mark.parametrize("host, says", [
    ("127.0.0.1", "127.0.0.1 is a loopback address"),
    ("169.254.169.254", "169.254.169.254 is a link-local (cloud metadata) address"),
    ("10.0.0.5", "10.0.0.5 is a private address"),
    ("2130706433", "means 127.0.0.1 is a loopback address"),
    ("localhost", "localhost is a local name"),
])
def test_an_internal_server_is_refused_when_saved_unless_the_operator_allows_it(
        settings, account_a, host, says):
    with pytest.raises(ValidationError) as refused:
        mail_settings.save_smtp(account_a, host=host, port=25, **SERVER)
    [detail] = refused.value.details
    assert detail["field"] == "host" and says in detail["message"]
    assert "smtp.allow_private_addresses" in detail["message"]
    assert mailer.setting_of(account_a) is None
    mail_settings.save_smtp(account_a, host=host, port=25, allow_private=True, **SERVER)
    assert mailer.setting_of(account_a).smtp_host == host


@pytest.mark.parametrize("host", ["127.0.0.1", "169.254.169.254"])
def test_an_internal_server_is_refused_at_connection_without_connecting(
        settings, account_a, host, monkeypatch):
    _store(account_a, host, 25)
    tried = []
    monkeypatch.setattr(socket, "create_connection",
                        lambda *a, **k: tried.append(a) or (_ for _ in ()).throw(OSError()))
    sent, words = mail_settings.send_test(settings, account_a, "owner@villa.example", "Villa")
    assert not sent and tried == []
    assert words.startswith(f"the mail server {host}:25 is not allowed")
    assert problems.mail(words) == problems.MAIL_NOT_ALLOWED


def test_a_name_that_resolves_to_an_internal_address_is_refused_at_connection(
        settings, account_a, monkeypatch):
    # Public when saved, loopback when connecting (DNS rebinding): judged again every time.
    monkeypatch.setattr(netguard, "resolve", lambda host, port: ["93.184.216.34"])
    mail_settings.save_smtp(account_a, host="smtp.villa.example", port=25, **SERVER)
    monkeypatch.setattr(netguard, "resolve", lambda host, port: ["127.0.0.1"])
    with pytest.raises(mailer.DeliveryFailed) as failed:
        mailer.deliver(settings, _message(), account_a)
    assert failed.value.permanent
    assert "smtp.villa.example resolves to 127.0.0.1, a loopback address" in failed.value.reason


def test_allowed_by_the_operator_the_connection_goes_to_the_vetted_address(
        settings, account_a, smtp_server, monkeypatch):  # noqa: F811
    settings.smtp.allow_private_addresses = True
    monkeypatch.setattr(netguard, "resolve", lambda host, port: ["127.0.0.1"])
    mail_settings.save_smtp(account_a, host="relay.villa.example", port=smtp_server.port,
                            allow_private=True, **SERVER)
    mailer.deliver(settings, _message(), account_a)
    assert smtp_server.wait(1)[0]["Subject"] == "test"


def test_config_toml_s_own_server_is_the_operator_s_choice(tmp_path, smtp_server):  # noqa: F811
    with bootstrapped_settings(tmp_path, RENTALCOMPLY_SMTP_HOST="127.0.0.1",
                               RENTALCOMPLY_SMTP_PORT=smtp_server.port) as settings:
        assert not settings.smtp.allow_private_addresses
        mailer.deliver(settings, _message())
        assert smtp_server.wait(1)[0]["Subject"] == "test"


def _message():
    from email.message import EmailMessage
    message = EmailMessage()
    message["From"], message["To"], message["Subject"] = "a@villa.example", "b@example.org", "test"
    message.set_content("x")
    return message


class _Listener:
    """A loopback port that accepts and then says `greeting` (or nothing) and waits."""

    def __init__(self, greeting: bytes | None):
        self.socket = socket.socket()
        self.socket.bind(("127.0.0.1", 0))
        self.socket.listen()
        self.port = self.socket.getsockname()[1]
        self.greeting = greeting
        threading.Thread(target=self._serve, daemon=True).start()

    def _serve(self):
        try:
            connection, _ = self.socket.accept()
        except OSError:
            return
        with connection:
            if self.greeting is not None:
                connection.sendall(self.greeting)
            time.sleep(3)


@pytest.mark.parametrize("kind", ["closed", "silent", "an HTTP server", "a banner, then closed"])
def test_a_test_email_says_the_same_for_a_closed_a_filtered_or_a_foreign_port(
        settings, account_a, kind):
    settings.smtp.allow_private_addresses = True
    listener = None
    if kind == "closed":
        port = free_port()
    else:
        greeting = {"silent": None, "an HTTP server": b"HTTP/1.1 400 Bad Request\r\n\r\n",
                    "a banner, then closed": b"SSH-2.0-OpenSSH_9.2\r\n"}[kind]
        listener = _Listener(greeting)
        port = listener.port
    mail_settings.save_smtp(account_a, host="127.0.0.1", port=port, allow_private=True, **SERVER)
    started = time.monotonic()
    try:
        sent, words = mail_settings.send_test(settings, account_a, "owner@villa.example", "Villa")
    finally:
        if listener is not None:
            listener.socket.close()
    elapsed = time.monotonic() - started
    assert not sent
    assert words == f"cannot reach the mail server 127.0.0.1:{port}"
    assert problems.mail(words) == problems.MAIL_UNREACHABLE
    # Every kind answers at the timeout (1 s here), not sooner: time tells nothing either.
    assert 1.0 <= elapsed < 2.5, elapsed


def test_doctor_says_an_internal_server_is_refused_without_connecting(settings, account_a,
                                                                      monkeypatch):
    from rentalcomply.ops.doctor_mail import smtp_checks
    _store(account_a, "169.254.169.254", 25)
    monkeypatch.setattr(socket, "create_connection",
                        lambda *a, **k: pytest.fail("doctor connected to a refused address"))
    [(name, ok, said)] = [check for check in smtp_checks(settings) if "of " in check[0]]
    assert not ok and "is not allowed" in said and "smtp.allow_private_addresses" in said


def test_a_resend_through_the_api_takes_as_long_for_a_closed_port(settings, account_a):
    # The owner could time POST /checkins/resend instead of the test e-mail: the same rule holds
    # wherever a message is sent.
    settings.smtp.allow_private_addresses = True
    mail_settings.save_smtp(account_a, host="127.0.0.1", port=free_port(), allow_private=True,
                            **SERVER)
    started = time.monotonic()
    with pytest.raises(mailer.DeliveryFailed) as failed:
        mailer.deliver(settings, _message(), account_a)
    assert failed.value.unreached and not failed.value.permanent
    assert 1.0 <= time.monotonic() - started < 2.5


def test_a_name_that_does_not_resolve_is_unreached_like_a_closed_port(settings, account_a,
                                                                       monkeypatch):
    def nothing(host, port):
        raise socket.gaierror(-2, "Name or service not known")
    monkeypatch.setattr(netguard, "resolve", nothing)
    mail_settings.save_smtp(account_a, host="smtp.nowhere.example", port=25, **SERVER)
    sent, words = mail_settings.send_test(settings, account_a, "owner@villa.example", "Villa")
    assert not sent and words == "cannot reach the mail server smtp.nowhere.example:25"
