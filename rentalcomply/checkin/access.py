"""A property's access instructions (door code, Wi-Fi, how to get in), for its guests.

- The host sets them per property, sealed (properties/service.py); this module opens them only
  for a guest of a confirmed booking who has completed check-in, for the stay alone: from
  `access_instructions_hours_before` hours before arrival (the arrival date at
  `police.arrival_hour`, the check-in time the filing deadlines count from too) until the
  departure date at the property's `checkout_hour`, both in the property's time zone. The window
  follows the booking's dates as they are now: a stay moved or cancelled shows nothing, and a
  guest who has left never reads the code set since for the next one.
- The guest page shows them then; before, it says when they will appear (check-in complete) or
  that they appear once check-in is complete; after, that they were shown until check-out.
- Every showing is recorded in the account's activity log against the booking (actor `guest`:
  the guest page or the e-mail), so the host sees when and how they were read. Whoever holds the
  guest's link sees the page: the guest, and any API key that asked for the link
  (`POST /checkins/resend`, itself in the log under the key's name).
- One e-mail with them per booking, once both conditions hold: `send_if_due` claims the booking
  with a conditional UPDATE of `access_sent_at` before it sends, so two workers (or the periodic
  task and the completion of a check-in) never both send. A transient failure gives the claim
  back for the next run; a crash between claim and send means no e-mail (at most once, never
  twice): the page still shows them.
- The host may give one text per guest language: the page shows the text of the language it is
  read in, the e-mail that of the booking's guest language, each with the fallback of
  properties/access.py (the property's language, then any).
- The instructions are never logged and never part of an event or webhook.
"""

from __future__ import annotations

import dataclasses
import datetime as dt
import logging
import zoneinfo

from rentalcomply.checkin import i18n, mail, service
from rentalcomply.checkin.models import Checkin
from rentalcomply.core import activity, clock
from rentalcomply.core.db import atomic
from rentalcomply.core.models import Booking, Property
from rentalcomply.properties.service import ACCESS_HOURS_MAX, open_access_instructions

log = logging.getLogger(__name__)

GUEST_ACTOR = "guest"
# Why the access e-mail did not go (checkin.access_problem): the guest's address was refused
# (permanent: not tried again), or the mail server failed (tried again by the next run).
ADDRESS_REFUSED, MAIL_FAILING = "address", "mail"
SHOWN_ON_PAGE = "access_instructions.shown"
SENT_BY_EMAIL = "access_instructions.emailed"


@dataclasses.dataclass
class GuestAccess:
    """What the guest page says: `state` is "none" (the property has none, or the booking is
    cancelled), "after_checkin" (they appear once check-in is complete), "waiting" (complete;
    `opens` is when, local time), "shown" (`text`) or "over" (the stay has ended: `closes`, local
    time, is when they stopped)."""

    state: str
    opens: dt.datetime | None = None
    text: str | None = None
    closes: dt.datetime | None = None


def opens_at(booking: Booking, prop: Property, arrival_hour: int) -> dt.datetime:
    """When the instructions open for this stay: naive UTC, as every time in the database."""
    zone = zoneinfo.ZoneInfo(prop.timezone)
    arrival = dt.datetime.combine(booking.arrival_date, dt.time(arrival_hour), tzinfo=zone)
    # Counted in real hours (UTC): a change of clocks in between moves the local hour, not the wait.
    opens = arrival.astimezone(dt.timezone.utc) - dt.timedelta(
        hours=prop.access_instructions_hours_before)
    return opens.replace(tzinfo=None)


def closes_at(booking: Booking, prop: Property) -> dt.datetime:
    """When the instructions stop being shown: the departure date at the property's check-out
    hour, local time; naive UTC."""
    zone = zoneinfo.ZoneInfo(prop.timezone)
    checkout = dt.datetime.combine(booking.departure_date, dt.time(prop.checkout_hour), tzinfo=zone)
    return checkout.astimezone(dt.timezone.utc).replace(tzinfo=None)


def local_time(prop: Property, moment: dt.datetime) -> dt.datetime:
    return moment.replace(tzinfo=dt.timezone.utc).astimezone(zoneinfo.ZoneInfo(prop.timezone))


def for_guest(booking: Booking, prop: Property, arrival_hour: int,
              lang: str | None = None) -> GuestAccess:
    """What the guest page (read in `lang`) shows now; a showing of the instructions is recorded
    (call inside no transaction: the record is its own)."""
    if prop.access_instructions_sealed is None or booking.status != "confirmed":
        return GuestAccess("none")
    if booking.checkin_status != "COMPLETED":
        return GuestAccess("after_checkin")
    now = clock.utcnow()
    opens = opens_at(booking, prop, arrival_hour)
    if now < opens:
        return GuestAccess("waiting", opens=local_time(prop, opens))
    closes = closes_at(booking, prop)
    if now >= closes:
        return GuestAccess("over", closes=local_time(prop, closes))
    text = open_access_instructions(prop, lang)
    if not text:
        return GuestAccess("none")
    with atomic():
        activity.record(booking.account_id, GUEST_ACTOR, booking.id, "guest page", SHOWN_ON_PAGE,
                        booking.id)
    return GuestAccess("shown", text=text)


def in_window(booking: Booking, prop: Property, arrival_hour: int) -> bool:
    """Whether the stay's window for its instructions is open now."""
    now = clock.utcnow()
    return opens_at(booking, prop, arrival_hour) <= now < closes_at(booking, prop)


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
                   & (Booking.departure_date >= today - dt.timedelta(days=1))
                   # The widest window there is, so the query reads only the coming stays.
                   & (Booking.arrival_date <= today + dt.timedelta(hours=ACCESS_HOURS_MAX + 48))))
    return [booking.id for booking in rows
            if in_window(booking, booking.property, arrival_hour)]


def send_if_due(settings, booking_id: str) -> bool:
    """E-mail the guest the access instructions if they are due and nobody has; True if sent."""
    booking = Booking.get_or_none(Booking.id == booking_id)
    if (booking is None or booking.status != "confirmed" or not booking.guest_email
            or booking.checkin_status != "COMPLETED"):
        return False
    prop = Property.get_by_id(booking.property_id)
    now = clock.utcnow()
    if prop.access_instructions_sealed is None \
            or not in_window(booking, prop, settings.police.arrival_hour):
        return False
    with atomic():
        claimed = (Checkin.update(access_sent_at=now)
                   .where((Checkin.booking == booking_id) & Checkin.access_sent_at.is_null())
                   .execute())
    if claimed != 1:
        return False  # sent already, or another worker is sending it now
    text = open_access_instructions(prop, i18n.language(booking.guest_language))  # the e-mail's
    if not text:
        _give_back(booking_id, now)
        return False
    message = mail.compose_access(settings, booking, prop, text,
                                  service.link(settings.server.public_url, booking.id))
    try:
        mail.deliver(settings, message, booking.account_id)
    except mail.DeliveryFailed as failure:
        if not failure.permanent:
            _give_back(booking_id, now)  # the next run tries again
        log.warning("access instructions for booking %s not delivered: %s", booking_id,
                    failure.reason)
        # Where a person will see it (the booking, Today), not only in the log.
        with atomic():
            (Checkin.update(access_failed_at=now, access_problem=(
                ADDRESS_REFUSED if failure.recipient_refused else MAIL_FAILING))
             .where(Checkin.booking == booking_id).execute())
        return False
    with atomic():
        (Checkin.update(access_failed_at=None, access_problem=None)
         .where((Checkin.booking == booking_id) & Checkin.access_failed_at.is_null(False))
         .execute())
        activity.record(booking.account_id, GUEST_ACTOR, booking.id,
                        "e-mail to " + service.mask_email(booking.guest_email), SENT_BY_EMAIL,
                        booking.id)
    log.info("access instructions for booking %s e-mailed", booking_id)
    return True


def delivery_problem(booking: Booking) -> dict | None:
    """The access e-mail that did not go, for the host's pages: `at` and `problem`
    (ADDRESS_REFUSED: not tried again; MAIL_FAILING: tried again while the stay lasts). None once
    one went, or when the stay is cancelled or over."""
    row = Checkin.get_or_none(Checkin.booking == booking.id)
    if row is None or row.access_failed_at is None or booking.status == "cancelled" \
            or booking.departure_date < clock.today():
        return None
    return {"at": row.access_failed_at, "problem": row.access_problem or MAIL_FAILING}


def _give_back(booking_id: str, claimed_at: dt.datetime) -> None:
    with atomic():
        (Checkin.update(access_sent_at=None)
         .where((Checkin.booking == booking_id) & (Checkin.access_sent_at == claimed_at))
         .execute())


def format_opens(lang: str, opens: dt.datetime) -> dict:
    """A local moment as the page's `{date}` and `{time}` (when they open, or closed)."""
    return {"date": i18n.format_date(lang, opens.date()), "time": opens.strftime("%H:%M")}
