"""The Huey tasks of check-in: thin, calling the service by id.

- `send_invitation(booking_id)`: the automatic invitation's e-mail, retried on transient
  failures (about 1, 2, 4, 8, 16 minutes apart). Queued after the transaction that recorded the
  invitation commits (a hook on core/events). A host's own invitation (POST /checkins/resend) is
  sent within the request instead, so the host hears of a failure at once.
- `invite_upcoming` (hourly): the automatic invitation `checkin.invite_days_before` days before
  arrival, once per booking.
- `expire_past_stays` (hourly): EXPIRED when the departure passed uncompleted.
- `send_access_instructions(booking_id)`: the e-mail with the property's access instructions,
  queued when a check-in completes (it may be due at once); `send_due_access_instructions`
  (every 10 minutes) sends the others as their time comes. Once per booking (access.py).
- `purge_guest_data` (daily): the sealed party erased after departure, once the retention of
  the property's country has passed (`retention.*`, checkin/retention.py).
"""

from __future__ import annotations

import logging

from huey import crontab
from huey.exceptions import CancelExecution

from rentalcomply.checkin import access, mail, service
from rentalcomply.checkin.retention import Retention
from rentalcomply.core import events
from rentalcomply.core.queue import huey

log = logging.getLogger(__name__)

SEND_RETRIES = 5
SEND_RETRY_DELAY = 60

_settings = None


def configure(settings) -> None:
    """Called by runtime.bootstrap: the worker knows the settings without the web app."""
    global _settings
    _settings = settings
    service.configure(settings)


@huey.task(retries=SEND_RETRIES, retry_delay=SEND_RETRY_DELAY, retry_backoff=2)
def send_invitation(booking_id: str) -> bool:
    try:
        return service.send_invitation(booking_id)
    except mail.DeliveryFailed as failure:
        if failure.permanent:
            return False  # recorded on the booking; retrying cannot help
        # Retried while retries remain, logged as one warning line (the reason is on the
        # booking already), not as a traceback.
        raise CancelExecution(retry=None) from None


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
            send_invitation(booking_id)
        except Exception:  # in the immediate queue the attempt runs here; its error is recorded
            log.warning("check-in e-mail for booking %s: first attempt failed", booking_id)


def _send_access_of_completed_checkins() -> None:
    for booking_id in service.take_completed():
        try:
            send_access_instructions(booking_id)
        except Exception:  # in the immediate queue the attempt runs here; the periodic task retries
            log.warning("access instructions for booking %s: first attempt failed", booking_id)


events.on_events_committed(_send_committed_invitations)
events.on_events_committed(_send_access_of_completed_checkins)
