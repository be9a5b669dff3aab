"""The invitation e-mail over real SMTP on loopback: retries through the real queue, login."""

import pytest
from aiosmtpd.controller import Controller
from aiosmtpd.smtp import AuthResult

from rentalcomply.core import queue
from rentalcomply.core.models import Booking
from tests.checkin.conftest import Inbox, free_port
from tests.conftest import bootstrapped_settings, task_queue_url


@pytest.fixture
def queued_settings(request, tmp_path, smtp_server):
    """E-mails go through a real SQLite queue, run step by step."""
    with bootstrapped_settings(tmp_path, RENTALCOMPLY_SMTP_HOST="127.0.0.1",
                               RENTALCOMPLY_SMTP_PORT=smtp_server.port,
                               RENTALCOMPLY_QUEUE_URL=task_queue_url(tmp_path)) as s:
        yield s
        queue.huey.immediate = True  # back to the memory queue of the other tests


@pytest.fixture
def settings(queued_settings):
    return queued_settings


def invite_automatically() -> None:
    """What the hourly task does: the automatic invitations, their e-mails queued at commit."""
    from rentalcomply.checkin import service
    from rentalcomply.core import events
    service.invite_upcoming(7)
    events.notify_committed()


def test_a_failed_automatic_invitation_is_retried_by_the_queue_and_then_arrives(
        queued_settings, smtp_server, make_booking):
    booking = make_booking(arrival_in=3)
    smtp_server.refuse_with = "421 4.3.2 shutting down for a moment"
    invite_automatically()
    assert queue.run_pending_tasks() >= 1
    assert "421" in Booking.get_by_id(booking.id).checkin_error
    scheduled = [t for t in queue.huey.scheduled() if t.name.endswith("send_invitation")]
    assert len(scheduled) == 1 and scheduled[0].retries == 4
    import datetime as dt
    delay = scheduled[0].eta - dt.datetime.now(dt.timezone.utc).replace(tzinfo=None)
    assert 50 <= delay.total_seconds() <= 61  # about a minute later, then 2, 4, 8, 16 minutes
    smtp_server.refuse_with = None
    queue.huey.execute(scheduled[0], timestamp=scheduled[0].eta)
    assert smtp_server.wait(1)[0]["To"] == "maria@example.com"
    assert Booking.get_by_id(booking.id).checkin_error is None


def test_a_refused_automatic_invitation_is_not_retried(queued_settings, smtp_server, make_booking):
    booking = make_booking(arrival_in=3)
    smtp_server.refuse_recipient_with = "550 5.1.1 no such user"
    invite_automatically()
    queue.run_pending_tasks()
    assert "550" in Booking.get_by_id(booking.id).checkin_error
    assert not [t for t in queue.huey.scheduled() if t.name.endswith("send_invitation")]


class Accounts:
    def __init__(self):
        self.logins = []

    def __call__(self, server, session, envelope, mechanism, auth_data):
        self.logins.append((auth_data.login, auth_data.password))
        return AuthResult(success=auth_data.login == b"agency" and auth_data.password == b"s3cret")


@pytest.fixture
def authenticating_smtp():
    inbox, accounts = Inbox(), Accounts()
    controller = Controller(inbox, hostname="127.0.0.1", port=free_port(),
                            authenticator=accounts, auth_require_tls=False)
    controller.start()
    yield inbox, accounts, controller.port
    controller.stop()


def test_it_logs_in_with_the_password_from_a_file(tmp_path, authenticating_smtp):
    inbox, accounts, port = authenticating_smtp
    secret = tmp_path / "smtp-password"
    secret.write_text("s3cret\n")
    from rentalcomply.checkin import mail
    from rentalcomply.config import load_settings
    settings = load_settings(data_dir=tmp_path / "d", env={
        "RENTALCOMPLY_SMTP_HOST": "127.0.0.1", "RENTALCOMPLY_SMTP_PORT": str(port),
        "RENTALCOMPLY_SMTP_USERNAME": "agency", "RENTALCOMPLY_SMTP_PASSWORD_FILE": str(secret),
        "RENTALCOMPLY_SMTP_TIMEOUT_SECONDS": "3"})
    from email.message import EmailMessage
    message = EmailMessage()
    message["From"], message["To"], message["Subject"] = "a@example.org", "b@example.org", "hi"
    message.set_content("hello")
    mail.deliver(settings, message)
    assert accounts.logins == [(b"agency", b"s3cret")]
    assert inbox.wait(1)[0]["Subject"] == "hi"
    settings.smtp.password = "wrong"
    with pytest.raises(mail.DeliveryFailed) as refused:
        mail.deliver(settings, message)
    assert not refused.value.permanent and "wrong" not in refused.value.reason


def self_signed(tmp_path):
    """A certificate for 127.0.0.1 and its key, as PEM files."""
    import datetime as dt
    import ipaddress
    from cryptography import x509
    from cryptography.hazmat.primitives import hashes, serialization
    from cryptography.hazmat.primitives.asymmetric import ec
    from cryptography.x509.oid import NameOID
    key = ec.generate_private_key(ec.SECP256R1())
    name = x509.Name([x509.NameAttribute(NameOID.COMMON_NAME, "127.0.0.1")])
    now = dt.datetime.now(dt.timezone.utc)
    cert = (x509.CertificateBuilder().subject_name(name).issuer_name(name)
            .public_key(key.public_key()).serial_number(x509.random_serial_number())
            .not_valid_before(now - dt.timedelta(minutes=5)).not_valid_after(now + dt.timedelta(days=1))
            .add_extension(x509.SubjectAlternativeName([x509.IPAddress(ipaddress.ip_address("127.0.0.1"))]),
                           critical=False)
            .add_extension(x509.BasicConstraints(ca=True, path_length=None), critical=True)
            .sign(key, hashes.SHA256()))
    cert_file, key_file = tmp_path / "cert.pem", tmp_path / "key.pem"
    cert_file.write_bytes(cert.public_bytes(serialization.Encoding.PEM))
    key_file.write_bytes(key.private_bytes(serialization.Encoding.PEM,
                                           serialization.PrivateFormat.PKCS8,
                                           serialization.NoEncryption()))
    return cert_file, key_file


@pytest.mark.parametrize("mode", ["starttls", "use_ssl"])
def test_it_speaks_tls_and_checks_the_servers_certificate(tmp_path, monkeypatch, mode):
    import ssl
    from email.message import EmailMessage
    from rentalcomply.checkin import mail
    from rentalcomply.config import load_settings
    cert_file, key_file = self_signed(tmp_path)
    server_context = ssl.create_default_context(ssl.Purpose.CLIENT_AUTH)
    server_context.load_cert_chain(cert_file, key_file)
    inbox = Inbox()
    options = ({"tls_context": server_context, "require_starttls": True} if mode == "starttls"
               else {"ssl_context": server_context})
    controller = Controller(inbox, hostname="127.0.0.1", port=free_port(), **options)
    controller.start()
    try:
        settings = load_settings(data_dir=tmp_path / "d", env={
            "RENTALCOMPLY_SMTP_HOST": "127.0.0.1", "RENTALCOMPLY_SMTP_PORT": str(controller.port),
            f"RENTALCOMPLY_SMTP_{mode.upper()}": "true", "RENTALCOMPLY_SMTP_TIMEOUT_SECONDS": "5"})
        message = EmailMessage()
        message["From"], message["To"], message["Subject"] = "a@example.org", "b@example.org", "tls"
        message.set_content("hello")
        with pytest.raises(mail.DeliveryFailed):  # an unknown certificate is refused
            mail.deliver(settings, message)
        monkeypatch.setenv("SSL_CERT_FILE", str(cert_file))  # now the machine trusts it
        mail.deliver(settings, message)
        assert inbox.wait(1)[0]["Subject"] == "tls"
    finally:
        controller.stop()


def test_a_mail_server_that_trickles_its_greeting_is_cut_at_the_timeout(tmp_path):
    """smtplib's timeout is per read: a server sending a byte a second is cut by the deadline of
    the whole conversation (smtp.timeout_seconds), and the reason says so."""
    import socket
    import threading
    import time

    from rentalcomply.checkin import mail
    from rentalcomply.config import load_settings

    listener = socket.socket()
    listener.bind(("127.0.0.1", 0))
    listener.listen()
    stop = threading.Event()

    def trickle():
        connection, _ = listener.accept()
        with connection:
            try:
                for byte in b"220-slow.example.org " + b"x" * 1000:
                    if stop.is_set():
                        return
                    connection.sendall(bytes([byte]))
                    time.sleep(0.2)
            except OSError:
                pass
    thread = threading.Thread(target=trickle, daemon=True)
    thread.start()
    settings = load_settings(data_dir=tmp_path / "d", env={
        "RENTALCOMPLY_SMTP_HOST": "127.0.0.1",
        "RENTALCOMPLY_SMTP_PORT": str(listener.getsockname()[1]),
        "RENTALCOMPLY_SMTP_TIMEOUT_SECONDS": "1"})
    from email.message import EmailMessage
    message = EmailMessage()
    message["From"], message["To"], message["Subject"] = "a@example.org", "b@example.org", "x"
    message.set_content("x")
    started = time.monotonic()
    try:
        with pytest.raises(mail.DeliveryFailed) as failed:
            mail.deliver(settings, message)
        # The greeting alone would take minutes at its pace: three deadlines is the cut, with
        # room for a loaded machine.
        assert 1.0 <= time.monotonic() - started < 3 * 1.0
        assert not failed.value.permanent
        assert failed.value.reason == ("the mail server 127.0.0.1:{} did not finish within 1 s "
                                       "(smtp.timeout_seconds)".format(listener.getsockname()[1]))
    finally:
        stop.set()
        listener.close()
