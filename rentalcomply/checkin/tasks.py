"""The Huey tasks of check-in: thin, calling the service by id.

- `send_invitation(booking_id)`: the automatic invitation's e-mail, retried on transient
  failures (about 1, 2, 4, 8, 16 minutes apart). Queued after the transaction that recorded the
  invitation commits (a hook on core/events). A host's own invitation (POST /checkins/resend) is
  sent within the request instead, so the host hears of a failure at once.
- `sweep_owed_invitations` (every minute, once across workers): an automatic invitation's e-mail
  still owed in core/pending whose task was lost (a killed worker, a Redis that forgot) is queued
  again.
- `invite_upcoming` (hourly): the automatic invitation `checkin.invite_days_before` days before
  arrival, once per booking.
- `expire_past_stays` (hourly): EXPIRED when the departure passed uncompleted.
- `send_access_instructions(booking_id)`: the e-mail with the property's access instructions,
  queued when a check-in completes (it may be due at once); `send_due_access_instructions`
  (every 10 minutes) sends the others as their time comes. Once per booking (access.py).
- `send_due_reminders` (hourly): the reminders to guests who have not completed check-in, on
  the account's schedule (reminders.py), at most one a day per booking.
- `purge_guest_data` (daily): the sealed party erased after departure, once the retention of
  the property's country has passed (`retention.*`, checkin/retention.py).
"""

from __future__ import annotations

import logging

from huey import crontab
from huey.exceptions import CancelExecution

from rentalcomply.checkin import access, mail, reminders, service
from rentalcomply.checkin.retention import Retention
from rentalcomply.core import events, outage
from rentalcomply.core import pending as owed
from rentalcomply.core.queue import huey

log = logging.getLogger(__name__)

SEND_RETRIES = 5
SEND_RETRY_DELAY = 60
# How long an owed e-mail waits past its due time before the sweep takes it for lost.
SWEEP_GRACE = 120

_settings = None


def configure(settings) -> None:
    """Called by runtime.bootstrap: the worker knows the settings without the web app."""
    global _settings
    _settings = settings
    service.configure(settings)


@huey.task(retries=SEND_RETRIES, retry_delay=SEND_RETRY_DELAY, retry_backoff=2)
def send_invitation(booking_id: str) -> bool:
    """Send the invitation owed to `booking_id` (core/pending), once: a copy of this task queued
    by the sweep or left over from a retry finds the mail sent (nothing owed) or being sent by
    another worker (leased), and does nothing."""
    attempt = owed.claim(service.INVITATION_MAIL, booking_id, _lease_seconds())
    if attempt is None:
        return False
    try:
        sent = service.send_invitation(booking_id)
    except mail.DeliveryFailed as failure:
        if failure.permanent or attempt > SEND_RETRIES:
            owed.done(service.INVITATION_MAIL, booking_id)
            return False  # recorded on the booking; retrying cannot help
        # Free for the queue's own retry; the sweep takes it only if that retry is lost too.
        owed.again_in(service.INVITATION_MAIL, booking_id, _retry_delay(attempt) + SWEEP_GRACE)
        # Retried while retries remain, logged as one warning line (the reason is on the
        # booking already), not as a traceback.
        raise CancelExecution(retry=None) from None
    # A bug or a stop above leaves the row leased: the lease runs out and the sweep tries again.
    owed.done(service.INVITATION_MAIL, booking_id)
    events.notify_committed()  # checkin.invited, now that a mail server took the invitation
    return sent


def _lease_seconds() -> float:
    """Longer than one whole SMTP conversation may take: a lease that runs out while the mail is
    still being sent would let a second worker send it too."""
    timeout = _settings.smtp.timeout_seconds if _settings is not None else 20
    return 2 * timeout + 30


def _retry_delay(attempt: int) -> float:
    """When the queue retries after failed attempt number `attempt` (retry_backoff=2)."""
    return SEND_RETRY_DELAY * 2 ** (attempt - 1)


@huey.periodic_task(crontab(minute="*"))
def sweep_owed_invitations() -> int:
    """Queue again every invitation e-mail still owed whose task was lost: a worker killed while
    sending, or a queue that forgot (Redis without persistence, restarted)."""
    lost = owed.overdue(service.INVITATION_MAIL, SWEEP_GRACE)
    for booking_id in lost:
        send_invitation(booking_id)
    if lost:
        log.info("check-in: %d invitation e-mails queued again", len(lost))
    return len(lost)


@huey.periodic_task(crontab(minute="5"))
def invite_upcoming() -> int:
    invited = service.invite_upcoming(_settings.checkin.invite_days_before)
    events.notify_committed()
    if invited:
        log.info("check-in: %d automatic invitations", len(invited))
    return len(invited)


@huey.task()
def send_access_instructions(booking_id: str) -> bool:
    return access.send_if_due(_settings, booking_id)


@huey.periodic_task(crontab(minute="*/10"))
def send_due_access_instructions() -> int:
    sent = sum(access.send_if_due(_settings, booking_id)
               for booking_id in access.due_bookings(_settings.police.arrival_hour))
    if sent:
        log.info("check-in: access instructions e-mailed for %d bookings", sent)
    return sent


@huey.periodic_task(crontab(minute="35"))
def send_due_reminders() -> int:
    sent = sum(reminders.send_if_due(_settings, booking_id)
               for booking_id in reminders.due_bookings(_settings))
    events.notify_committed()
    if sent:
        log.info("check-in: %d reminders e-mailed", sent)
    return sent


@huey.periodic_task(crontab(minute="7"))
def expire_past_stays() -> int:
    return service.expire_past_stays()


@huey.periodic_task(crontab(minute="17", hour="3"))
def purge_guest_data() -> int:
    purged = service.purge_guest_data(Retention.from_settings(_settings))
    if purged:
        log.info("check-in: erased the guest data of %d stays past their retention", purged)
    return purged


def _send_committed_invitations() -> None:
    for booking_id in service.take_invitations_to_send():
        try:
            # The invitation is owed in the database (pending task): a queue that does not
            # answer leaves it to the sweep.
            outage.send(send_invitation, booking_id, what="queuing check-in e-mails")
        except Exception:  # in the immediate queue the attempt runs here; its error is recorded
            log.warning("check-in e-mail for booking %s: first attempt failed", booking_id)


def _send_access_of_completed_checkins() -> None:
    for booking_id in service.take_completed():
        try:
            outage.send(send_access_instructions, booking_id, what="queuing access instructions")
        except Exception:  # in the immediate queue the attempt runs here; the periodic task retries
            log.warning("access instructions for booking %s: first attempt failed", booking_id)


events.on_events_committed(_send_committed_invitations)
events.on_events_committed(_send_access_of_completed_checkins)
