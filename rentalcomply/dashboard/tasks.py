"""The dashboard's tasks: its e-mails.

- `send_link_mail`: the e-mail carrying a one-time password link (an invitation or a reset). The
  link's token is known only until the e-mail leaves: it travels through the queue sealed
  (core.sealing), never in clear, and the database keeps only its HMAC.
- `look_at_mornings` (every 15 minutes): the morning e-mail of each account whose local time has
  passed `dashboard.morning_email_hour`, once per account and local date (morning.py), queued as
  one `send_morning_mail` per owner.
- `refresh_search_words` (nightly, after check-in's purge of guest data at 03:17): the header
  search's words of every account made again where a booking or its check-in changed, so that the
  hashed names of a party erased at the end of its retention go with it, not at the account's
  next search.

Transient SMTP failures are retried like the check-in e-mail's; a permanent one is logged without
the address.
"""

from __future__ import annotations

import logging

from huey import crontab
from huey.exceptions import CancelExecution

from rentalcomply.core import sealing
from rentalcomply.core.models import Account
from rentalcomply.core.queue import huey
from rentalcomply.dashboard import search
# Imported for what it registers: the account's language (accounts/language.py), which the
# documents a worker writes for an account's people (the tourist tax returns) are in.
from rentalcomply.dashboard import users  # noqa: F401

log = logging.getLogger(__name__)

SEAL_PURPOSE = "dashboard-link-mail:"
SEND_RETRIES = 5
SEND_RETRY_DELAY = 60

_settings = None


def configure(settings) -> None:
    global _settings
    _settings = settings


def queue_link_mail(user_id: str, token: str, kind: str, lang: str, **values) -> None:
    """Queue the e-mail (called after the link's transaction commits)."""
    send_link_mail(user_id, sealing.seal(SEAL_PURPOSE + user_id, token.encode()), kind, lang,
                   values)


@huey.task(retries=SEND_RETRIES, retry_delay=SEND_RETRY_DELAY, retry_backoff=2)
def send_link_mail(user_id: str, sealed_token: str, kind: str, lang: str, values: dict) -> bool:
    from rentalcomply.core.mailer import DeliveryFailed, deliver
    from rentalcomply.dashboard import mail, users
    from rentalcomply.dashboard.models import DashboardUser
    user = DashboardUser.get_or_none(DashboardUser.id == user_id)
    if user is None or not user.email or user.status != "active":
        return False
    token = sealing.unseal(SEAL_PURPOSE + user_id, sealed_token).decode()
    # The account the link is for: one address may be a user of several, each with its e-mail.
    values = {"account": user.account.name, **values}
    message = mail.compose(_settings, kind, lang, user.email, user.account_id,
                           url=users.link_url(_settings.server.public_url, token),
                           hours=_settings.dashboard.password_link_hours, **values)
    try:
        deliver(_settings, message, user.account_id)
    except DeliveryFailed as failure:
        log.warning("dashboard: %s e-mail for user %s not delivered: %s", kind, user_id,
                    failure.reason)
        if failure.permanent:
            return False
        raise CancelExecution(retry=None) from None
    return True


@huey.periodic_task(crontab(minute="*/15"))
def look_at_mornings() -> int:
    """How many morning e-mails were queued."""
    from rentalcomply.dashboard import morning
    if _settings is None or not _settings.dashboard.morning_email:
        return 0
    queued = 0
    for account_id, local_date in morning.due(_settings.dashboard.morning_email_hour):
        for user_id in morning.look(account_id, local_date):
            try:
                send_morning_mail(account_id, user_id, local_date.isoformat())
            except Exception:  # in the immediate queue the attempt runs here; the others still go
                log.warning("dashboard: morning e-mail for user %s: first attempt failed", user_id)
            queued += 1
    if queued:
        log.info("dashboard: %d morning e-mails queued", queued)
    return queued


@huey.task(retries=SEND_RETRIES, retry_delay=SEND_RETRY_DELAY, retry_backoff=2)
def send_morning_mail(account_id: str, user_id: str, local_date: str) -> bool:
    import datetime as dt

    from rentalcomply.core.mailer import DeliveryFailed
    from rentalcomply.dashboard import morning
    try:
        return morning.send(_settings, account_id, user_id, dt.date.fromisoformat(local_date))
    except DeliveryFailed as failure:
        log.warning("dashboard: morning e-mail for user %s not delivered: %s", user_id,
                    failure.reason)
        if failure.permanent:
            return False
        raise CancelExecution(retry=None) from None


@huey.periodic_task(crontab(minute="47", hour="3"))
def refresh_search_words() -> int:
    """How many bookings' search words were made again."""
    remade = 0
    for (account_id,) in Account.select(Account.id).tuples():
        remade += search.refresh(account_id)
    return remade
