"""Reminders to guests who have not completed check-in.

- The schedule is the account's (the dashboard's Account page, `mail_setting.reminder_days`),
  else `checkin.reminder_days`: days before arrival, 0 the morning of arrival, counted in the
  property's local date, from `checkin.reminder_hour` local time.
- At most one e-mail with the link a day per booking: a day whose reminder is due but on which
  the guest already got the invitation sends nothing more.
- None once the check-in is complete (or expired), the booking cancelled, or without an e-mail.
- Once across workers: `Checkin.reminded_on` is claimed by a conditional UPDATE before the e-mail
  leaves (as access.py claims `access_sent_at`); a transient failure gives the claim back for the
  next run, a permanent one keeps it (the reason is on the booking, for the host).
- Every reminder sent is in the account's activity, against the booking.
"""

from __future__ import annotations

import datetime as dt
import logging
import zoneinfo

from rentalcomply.checkin import mail, service
from rentalcomply.checkin.models import Checkin
from rentalcomply.core import activity, clock, mailer
from rentalcomply.core.db import atomic
from rentalcomply.core.errors import ValidationError
from rentalcomply.core.models import Booking, Property

log = logging.getLogger(__name__)

REMINDED = "checkin.reminded"
GUEST_ACTOR = "guest"  # as access.py: the guest was e-mailed
MAX_DAYS = 60


def schedule(settings, account_id: str) -> list[int]:
    """The account's reminder days, largest first."""
    chosen = mailer.setting_of(account_id)
    if chosen is not None and chosen.reminder_days is not None:
        return parse_days(chosen.reminder_days)
    return sorted(set(settings.checkin.reminder_days), reverse=True)


def parse_days(text: str) -> list[int]:
    """"7, 2, 0" -> [7, 2, 0]; "" -> [] (no reminders). ValidationError otherwise."""
    days = set()
    for part in (text or "").replace(" ", "").split(","):
        if not part:
            continue
        if not part.isdigit() or int(part) > MAX_DAYS:
            raise ValidationError("reminder_days", "must be whole numbers of days before arrival "
                                                   f"from 0 (the morning of arrival) to {MAX_DAYS}, "
                                                   "separated by commas, like 7, 2, 0")
        days.add(int(part))
    return sorted(days, reverse=True)


def set_schedule(account_id: str, text: str) -> list[int]:
    days = parse_days(text)
    now = clock.utcnow()
    stored = ", ".join(str(day) for day in days)
    with atomic():
        (mailer.MailSetting.insert(account=account_id, reminder_days=stored, updated_at=now)
         .on_conflict(conflict_target=[mailer.MailSetting.account],
                      update={mailer.MailSetting.reminder_days: stored,
                              mailer.MailSetting.updated_at: now}).execute())
    return days


def _local_now(prop: Property) -> dt.datetime:
    return clock.utcnow().replace(tzinfo=dt.timezone.utc).astimezone(
        zoneinfo.ZoneInfo(prop.timezone))


def due_bookings(settings) -> list[str]:
    """Bookings whose reminder is due today (local) and not yet sent today."""
    today = clock.today()
    rows = (Booking.select(Booking, Property)
            .join(Property, on=(Booking.property == Property.id))
            .where((Booking.status == "confirmed") & (Booking.is_block == False)  # noqa: E712
                   & Booking.checkin_status.in_(("NOT_STARTED", "INVITED", "IN_PROGRESS"))
                   & Booking.guest_email.is_null(False)
                   & (Booking.arrival_date >= today - dt.timedelta(days=1))
                   & (Booking.arrival_date <= today + dt.timedelta(days=MAX_DAYS + 1))))
    schedules: dict[str, list[int]] = {}
    due = []
    for booking in rows:
        if booking.account_id not in schedules:
            schedules[booking.account_id] = schedule(settings, booking.account_id)
        if _due_today(settings, booking, booking.property, schedules[booking.account_id]):
            due.append(booking.id)
    return due


def _due_today(settings, booking: Booking, prop: Property, days: list[int]) -> bool:
    local = _local_now(prop)
    return (local.hour >= settings.checkin.reminder_hour
            and (booking.arrival_date - local.date()).days in days)


def send_if_due(settings, booking_id: str) -> bool:
    """E-mail the guest a reminder if one is due today and nobody has; True if sent."""
    booking = Booking.get_or_none(Booking.id == booking_id)
    if (booking is None or booking.status != "confirmed" or booking.is_block
            or not booking.guest_email
            or booking.checkin_status not in ("NOT_STARTED", "INVITED", "IN_PROGRESS")):
        return False
    prop = Property.get_by_id(booking.property_id)
    if not _due_today(settings, booking, prop, schedule(settings, booking.account_id)):
        return False
    local_today = _local_now(prop).date()
    with atomic():
        row = service._checkin_row(booking)
        if row.invited_at is not None and _local_date(prop, row.invited_at) == local_today:
            return False  # the invitation went today: one e-mail a day is enough
        before = row.reminded_on
        claimed = (Checkin.update(reminded_on=local_today)
                   .where((Checkin.booking == booking_id)
                          & (Checkin.reminded_on.is_null() | (Checkin.reminded_on < local_today)))
                   .execute())
    if claimed != 1:
        return False  # reminded today already, or another worker is sending it now
    message = mail.compose(settings, booking, prop,
                           service.link(settings.server.public_url, booking.id),
                           service.expires_at(booking).date(), kind=mail.REMINDER)
    try:
        mail.deliver(settings, message, booking.account_id)
    except mail.DeliveryFailed as failure:
        with atomic():
            if not failure.permanent:  # the next run tries again
                (Checkin.update(reminded_on=before)
                 .where((Checkin.booking == booking_id) & (Checkin.reminded_on == local_today))
                 .execute())
            service.record_outcome(booking_id, failure)
        return False
    with atomic():
        service.record_outcome(booking_id, None, reminder=True)
        activity.record(booking.account_id, GUEST_ACTOR, booking.id,
                        "e-mail to " + service.mask_email(booking.guest_email), REMINDED,
                        booking.id)
    log.info("check-in reminder for booking %s e-mailed", booking_id)
    return True


def _local_date(prop: Property, moment: dt.datetime) -> dt.date:
    return moment.replace(tzinfo=dt.timezone.utc).astimezone(zoneinfo.ZoneInfo(prop.timezone)).date()
