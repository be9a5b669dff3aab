"""A police filing refused or failed alerts the account's owners by e-mail at once, not the next
morning: after the commit that recorded it (the engine marks the account's `PoliceAlert`), and
at most once an hour per account; an alert that waits for its hour goes with the next run of
`look_at_police_alerts` (every five minutes). The e-mail says, in each owner's language, which
stays and why in sentences (dashboard/pages/police.py), with a link to each booking; the
authority's raw words stay in the log and the API.
"""

from __future__ import annotations

import datetime as dt
import logging

from huey import crontab

from rentalcomply.core import clock, events, outage
from rentalcomply.core.db import atomic
from rentalcomply.core.mailer import DeliveryFailed, deliver
from rentalcomply.core.models import Account, Booking, Property
from rentalcomply.core.queue import huey
from rentalcomply.dashboard import i18n, mail
from rentalcomply.dashboard.morning import owners
from rentalcomply.dashboard.police_words import STATUS_WORDS, reason_words
from rentalcomply.filings.models import Filing, PoliceAlert

log = logging.getLogger(__name__)

ALERT_GAP = dt.timedelta(hours=1)
ALERT_EVENTS = frozenset({"police.failed", "police.rejected"})
STAYS_LISTED = 20

_settings = None


def configure(settings) -> None:
    global _settings
    _settings = settings


def _after_commit() -> None:
    if events.committed_types() & ALERT_EVENTS:
        try:
            outage.send(send_police_alerts, what="e-mailing police alerts")
        except Exception:  # never fail the request for it; the periodic task sends it
            log.exception("police alerts: queuing failed; the periodic task sends them")


events.on_events_committed(_after_commit)


@huey.periodic_task(crontab(minute="*/5"))
def look_at_police_alerts() -> int:
    return send_police_alerts.call_local()


@huey.task()
def send_police_alerts() -> int:
    """E-mail every account whose alert waits and whose last one is an hour old; the number of
    e-mails sent. Each account is claimed in one UPDATE, so two workers never both send it."""
    if _settings is None:
        return 0
    now = clock.utcnow()
    sent = 0
    waiting = [a.account_id for a in PoliceAlert.select(PoliceAlert.account)
               .where(PoliceAlert.pending_since.is_null(False))]
    for account_id in waiting:
        with atomic():
            claimed = (PoliceAlert.update(last_sent_at=now, pending_since=None)
                       .where((PoliceAlert.account == account_id)
                              & PoliceAlert.pending_since.is_null(False)
                              & (PoliceAlert.last_sent_at.is_null()
                                 | (PoliceAlert.last_sent_at <= now - ALERT_GAP)))
                       .execute())
        if claimed:
            sent += _send(account_id)
    return sent


def _send(account_id: str) -> int:
    account = Account.get_or_none(Account.id == account_id)
    stays = list(Booking.select().where((Booking.account == account_id)
                                        & Booking.report_status.in_(("REJECTED", "FAILED")))
                 .order_by(Booking.updated_at.desc()).limit(STAYS_LISTED))
    if account is None or not stays:
        return 0
    names = {p.id: p.name for p in Property.select(Property.id, Property.name)
             .where(Property.id.in_({b.property_id for b in stays}))}
    sent = 0
    for user in owners(account_id):
        lang = user.lang if user.lang in i18n.LANGUAGES else "en"
        message = compose(account, lang, user.email, stays, names)
        try:
            deliver(_settings, message, account_id)
            sent += 1
        except DeliveryFailed as failure:  # Today says it too; the address stays out of the log
            log.warning("police alert for account %s not delivered: %s", account_id,
                        failure.reason)
    return sent


def compose(account: Account, lang: str, to: str, stays: list, names: dict):
    t = lambda text, **values: i18n.translate(lang, text, **values)  # noqa: E731
    fmt = i18n.Formatter(lang)
    base = _settings.server.public_url + "/dashboard"
    subject = t("{account}: a police filing needs you now", account=account.name)
    text = [t("The police did not take these stays. Each says why and what to do:"), ""]
    for booking in stays:
        filing = (Filing.select().where((Filing.booking == booking.id)
                                        & Filing.status.in_(("rejected", "failed")))
                  .order_by(Filing.updated_at.desc()).first())
        status = filing.status if filing else booking.report_status.lower()
        why = reason_words(status, filing.error if filing else booking.report_error)
        text.append(f"- {booking.guest_name} · {names.get(booking.property_id, '')} · "
                    f"{fmt.date(booking.arrival_date)}: {t(STATUS_WORDS.get(status, status))}")
        if why:
            text.append(f"  {t(why)}")
        text.append(f"  {base}/bookings/{booking.id}")
    text += ["", t("You receive this e-mail as an owner of {account}, at most once an hour while "
                   "a filing is refused or fails.", account=account.name)]
    message = mail.new_message(_settings, lang, to, subject, account.id)
    message.set_content("\n".join(text) + "\n")
    return message
