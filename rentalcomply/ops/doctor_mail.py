"""`doctor`'s look at the mail servers: connect and log in as the e-mails will (core/mailer.py
chooses the server of each account), send nothing."""

from __future__ import annotations

import smtplib
import ssl

from rentalcomply.core import mailer


def smtp_checks(settings) -> list[tuple[str, bool, str]]:
    """The mail servers e-mails go through, as core/mailer.py chooses them: config.toml's, and
    each one an account's owner set up on the dashboard (E-mail page) instead."""
    try:
        own, config_in_use = mailer.servers_set_up(settings), mailer.accounts_on_config()
    except Exception:  # no database to read (said by its own check): config.toml's alone
        own, config_in_use = [], True
    checks = []
    if config_in_use or not own:
        checks.append(_smtp("smtp", settings.smtp, "set smtp.host and smtp.port to your mail "
                                                   "server (and smtp.starttls or smtp.use_ssl), "
                                                   "or set it up on the dashboard's E-mail page"))
    for account_name, smtp in own:
        fix = f"correct it on the dashboard's E-mail page of {account_name}"
        refused = mailer.address_problem(smtp)
        if refused is not None:  # not connected to: the e-mails will not be either
            checks.append((f"smtp of {account_name}", False, f"{refused.reason}: {fix}, or set "
                           f"{mailer.PRIVATE_SETTING} = true if it is your own relay"))
            continue
        checks.append(_smtp(f"smtp of {account_name}", smtp, fix))
    return checks


def _smtp(name: str, smtp, fix: str) -> tuple[str, bool, str]:
    """Connect and log in as the e-mails will; send nothing."""
    where = f"{smtp.host}:{smtp.port}"
    try:
        if smtp.use_ssl:
            client = smtplib.SMTP_SSL(smtp.host, smtp.port, timeout=10,
                                      context=ssl.create_default_context())
        else:
            client = smtplib.SMTP(smtp.host, smtp.port, timeout=10)
        with client:
            client.ehlo()
            if smtp.starttls and not smtp.use_ssl:
                client.starttls(context=ssl.create_default_context())
                client.ehlo()
            if smtp.username:
                client.login(smtp.username, smtp.password)
            client.noop()
    except smtplib.SMTPAuthenticationError as exc:
        check = "check smtp.username and smtp.password" if name == "smtp" else fix
        return (name, False, f"{where} refused the login of {smtp.username!r} "
                             f"({exc.smtp_code}): {check}")
    except (OSError, smtplib.SMTPException) as exc:
        return (name, False, f"{where} does not answer ({exc or type(exc).__name__}): "
                             f"guests get no check-in e-mail; {fix}")
    login = f", logged in as {smtp.username}" if smtp.username else ""
    return (name, True, f"{where} answers{login}")
