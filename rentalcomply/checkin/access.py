"""A property's access instructions (door code, Wi-Fi, how to get in), for its guests.

- The host sets them per property, sealed (properties/service.py); this module opens them only
  for a guest who has completed check-in, from `access_instructions_hours_before` hours before
  arrival: the arrival date at `police.arrival_hour` (the check-in time the filing deadlines
  count from too) in the property's time zone.
- The guest page shows them then; before, it says when they will appear (check-in complete) or
  that they appear once check-in is complete.
- One e-mail with them per booking, once both conditions hold: `send_if_due` claims the booking
  with a conditional UPDATE of `access_sent_at` before it sends, so two workers (or the periodic
  task and the completion of a check-in) never both send. A transient failure gives the claim
  back for the next run; a crash between claim and send means no e-mail (at most once, never
  twice): the page still shows them.
- The instructions are never logged and never part of an event or webhook.
"""

from __future__ import annotations

import dataclasses
import datetime as dt
import logging
import zoneinfo

from rentalcomply.checkin import i18n, mail, service
from rentalcomply.checkin.models import Checkin
from rentalcomply.core import clock
from rentalcomply.core.db import atomic
from rentalcomply.core.models import Booking, Property
from rentalcomply.properties.service import ACCESS_HOURS_MAX, open_access_instructions

log = logging.getLogger(__name__)

@dataclasses.dataclass
class GuestAccess:
    """What the guest page says: `state` is "none" (the property has none), "after_checkin"
    (they appear once check-in is complete), "waiting" (complete; `opens` is when, local time)
    or "shown" (`text`)."""

    state: str
    opens: dt.datetime | None = None
    text: str | None = None


def opens_at(booking: Booking, prop: Property, arrival_hour: int) -> dt.datetime:
    """When the instructions open for this stay: naive UTC, as every time in the database."""
    zone = zoneinfo.ZoneInfo(prop.timezone)
    arrival = dt.datetime.combine(booking.arrival_date, dt.time(arrival_hour), tzinfo=zone)
    # Counted in real hours (UTC): a change of clocks in between moves the local hour, not the wait.
    opens = arrival.astimezone(dt.timezone.utc) - dt.timedelta(
        hours=prop.access_instructions_hours_before)
    return opens.replace(tzinfo=None)


def local_time(prop: Property, moment: dt.datetime) -> dt.datetime:
    return moment.replace(tzinfo=dt.timezone.utc).astimezone(zoneinfo.ZoneInfo(prop.timezone))


def for_guest(booking: Booking, prop: Property, arrival_hour: int) -> GuestAccess:
    if prop.access_instructions_sealed is None:
        return GuestAccess("none")
    if booking.checkin_status != "COMPLETED":
        return GuestAccess("after_checkin")
    opens = opens_at(booking, prop, arrival_hour)
    if clock.utcnow() < opens:
        return GuestAccess("waiting", opens=local_time(prop, opens))
    text = open_access_instructions(prop)
    return GuestAccess("shown", text=text) if text else GuestAccess("none")


# --- the e-mail ----------------------------------------------------------------------------------

def due_bookings(arrival_hour: int) -> list[str]:
    """Bookings whose access e-mail is due and not yet sent."""
    today = clock.today()
    now = clock.utcnow()
    rows = (Booking.select(Booking, Property)
            .join(Checkin, on=(Checkin.booking == Booking.id))
            .switch(Booking).join(Property, on=(Booking.property == Property.id))
            .where((Booking.checkin_status == "COMPLETED") & (Booking.status == "confirmed")
                   & Booking.guest_email.is_null(False) & Checkin.access_sent_at.is_null()
                   & Property.access_instructions_sealed.is_null(False)
                   & (Booking.departure_date >= today)
                   # The widest window there is, so the query reads only the coming stays.
                   & (Booking.arrival_date <= today + dt.timedelta(hours=ACCESS_HOURS_MAX + 48))))
    return [booking.id for booking in rows
            if opens_at(booking, booking.property, arrival_hour) <= now]


def send_if_due(settings, booking_id: str) -> bool:
    """E-mail the guest the access instructions if they are due and nobody has; True if sent."""
    booking = Booking.get_or_none(Booking.id == booking_id)
    if (booking is None or booking.status != "confirmed" or not booking.guest_email
            or booking.checkin_status != "COMPLETED" or booking.departure_date < clock.today()):
        return False
    prop = Property.get_by_id(booking.property_id)
    now = clock.utcnow()
    if prop.access_instructions_sealed is None \
            or now < opens_at(booking, prop, settings.police.arrival_hour):
        return False
    with atomic():
        claimed = (Checkin.update(access_sent_at=now)
                   .where((Checkin.booking == booking_id) & Checkin.access_sent_at.is_null())
                   .execute())
    if claimed != 1:
        return False  # sent already, or another worker is sending it now
    text = open_access_instructions(prop)
    if not text:
        _give_back(booking_id, now)
        return False
    message = mail.compose_access(booking, prop, text, settings.smtp.from_address,
                                  service.link(settings.server.public_url, booking.id))
    try:
        mail.deliver(settings, message)
    except mail.DeliveryFailed as failure:
        if not failure.permanent:
            _give_back(booking_id, now)  # the next run tries again
        log.warning("access instructions for booking %s not delivered: %s", booking_id,
                    failure.reason)
        return False
    log.info("access instructions for booking %s e-mailed", booking_id)
    return True


def _give_back(booking_id: str, claimed_at: dt.datetime) -> None:
    with atomic():
        (Checkin.update(access_sent_at=None)
         .where((Checkin.booking == booking_id) & (Checkin.access_sent_at == claimed_at))
         .execute())


def format_opens(lang: str, opens: dt.datetime) -> dict:
    return {"date": i18n.format_date(lang, opens.date()), "time": opens.strftime("%H:%M")}
