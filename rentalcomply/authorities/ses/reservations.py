"""Spain's reservation communications (RH) and cancellations, as SES.Hospedajes takes them.

Real Decreto 933/2021 wants the reservation within 24 hours of the booking: a `reservation` row
is made in the transaction that creates a booking of a property filing with SES.Hospedajes
(bookings made here; a channel's calendar feed carries no holder to file, and the decree also
obliges the platform that took the booking). It is sent at once, its contract holder (rol TI)
being the lead guest of a completed check-in, else the booking's guest, whose name must then
be written "Surname(s), First name(s)": a name is never split by guess. Until the holder is
known the row waits, saying why, and is announced at risk 6 hours before its deadline.
When the dates of an accepted reservation change, an `rh_cancellation` (tipoOperacion B naming
it) is filed, then the reservation again with the new dates; a cancelled booking's accepted
reservation is cancelled with its arrival (queue_cancellations, within 24 hours of the
cancellation).

A property on the `file` connector whose authority is SES.Hospedajes (Spain outside Catalonia and
the Basque Country) owes the same communications: they are built as files (`ready`, for the host
to upload within the same 24 hours) and count as accepted once the host marks them filed; the
code SES.Hospedajes gave an upload, typed as the reference when marking it filed, is what a
cancellation file names.
"""

from __future__ import annotations

import datetime as dt

from peewee import fn

from rentalcomply.core import clock, events
from rentalcomply.core.db import atomic
from rentalcomply.core.ids import new_id
from rentalcomply.core.models import Booking, Property
from rentalcomply.filings.connector import Guest
from rentalcomply.filings import registry
from rentalcomply.filings.engine import locked, save_booking, save_filing
from rentalcomply.filings.models import Filing
from rentalcomply.filings.party import guests_of
from rentalcomply.filings.sweep import arrival_status

CONNECTOR_NAME = "ses_hospedajes"
FILE_CONNECTOR = "file"
RESERVATION_KINDS = ("reservation", "rh_cancellation")


def files_reservations(prop: Property) -> bool:
    """Whether the property owes SES.Hospedajes its reservations: filed by its web service, or
    built for the host to upload (the `file` connector, where the property's authority is SES:
    not in a region with its own, such as Catalonia)."""
    if prop.police_connector == CONNECTOR_NAME:
        return True
    if prop.police_connector != FILE_CONNECTOR:
        return False
    owed = registry.for_region(prop.country, prop.region)
    return owed is not None and owed.name == CONNECTOR_NAME


HOLDER_UNKNOWN = ("the reservation waits for its holder: complete the check-in, or write the "
                  "booking's guest_name as \"Surname(s), First name(s)\" so that the names are "
                  "not guessed")


HOLDER_UNREACHABLE = ("the reservation waits for the holder's phone or e-mail: add guest_phone or "
                      "guest_email to the booking, or complete the check-in")


def schedule_reservation(booking: Booking, prop: Property) -> None:
    """In the transaction that creates `booking`: its reservation filing, due in 24 hours."""
    if not files_reservations(prop) or booking.is_block:
        return
    now = clock.utcnow()
    (Filing.insert(id=new_id("pf"), account=booking.account_id, booking=booking.id, property=booking.property_id,
                         kind="reservation", authority=prop.police_connector, status="queued",
                         # 24 hours from the booking: the channel's booking date where an
                         # export gave it (an import can come days later), else its creation.
                         deadline=(booking.booked_at or booking.created_at or now)
                         + dt.timedelta(hours=24),
                         next_attempt_at=now, guests=[], created_at=now, updated_at=now)
     .on_conflict_ignore().execute())
    events.wake_after_commit()  # sent at once after the commit (filings/tasks.py)


def reservation_dates_changed(booking: Booking) -> None:
    """In the transaction that moves `booking`: a reservation already sent is cancelled (at once
    if accepted, else once its outcome is known) and sent again with the new dates; one not sent
    yet simply carries them."""
    row = Filing.get_or_none((Filing.booking == booking.id)
                                   & (Filing.kind == "reservation"))
    if row is not None and row.status == "ready" and booking.status != "cancelled":
        # A file not uploaded yet: built again with the new dates.
        save_filing(row, status="queued", next_attempt_at=clock.utcnow(), file_sealed=None,
                    file_name=None, error=None)
        events.wake_after_commit()
        return
    if row is None or booking.status == "cancelled" or row.status not in (
            "sending", "polling", "submitted"):
        return
    status = "queued" if row.status == "submitted" else "waiting"
    now = clock.utcnow()
    cancel = Filing.get_or_none((Filing.booking == booking.id)
                                      & (Filing.kind == "rh_cancellation"))
    changes = dict(status=status, attempts=0, next_attempt_at=now if status == "queued" else None,
                   deadline=now + dt.timedelta(hours=24), remote_id=None, reference=None,
                   guests=[], error=None, at_risk_at=None, submitted_at=None, sending_since=None)
    if cancel is None:
        Filing.create(id=new_id("pf"), account=booking.account_id, booking=booking.id, property=booking.property_id,
                            kind="rh_cancellation", authority=row.authority, created_at=now,
                            updated_at=now, **changes)
    elif cancel.status == "submitted":  # an earlier change was filed: this one is new
        save_filing(cancel, **changes)
    else:
        return  # under way (its reservation is sent again with the dates of then), or failed
    if status == "queued":
        events.wake_after_commit()


def _holder_known(booking: Booking) -> bool:
    """Whether reservation_holder can answer, without opening the sealed party."""
    return _known(booking.checkin_status, booking.guest_name, booking.guest_email,
                  booking.guest_phone)


def _known(checkin_status, guest_name, guest_email, guest_phone) -> bool:
    if checkin_status == "COMPLETED":
        return True
    last, _, first = (guest_name or "").partition(",")
    return bool(last.strip() and first.strip() and (guest_email or guest_phone))


def reservation_holder(booking: Booking) -> tuple[Guest | None, str | None]:
    """(the reservation's holder, None), or (None, why it waits)."""
    contact = {"email": booking.guest_email, "phone": booking.guest_phone}
    if booking.checkin_status == "COMPLETED":
        party = guests_of(booking, "ES")
        if party:
            data = dict(party[0].data)
            for name, value in contact.items():
                if value and not data.get(name) and not data.get("email") and not data.get("phone"):
                    data[name] = value
            return Guest(index=0, role="holder", data=data), None
    last, comma, first = (booking.guest_name or "").partition(",")
    if not (comma and last.strip() and first.strip()):
        return None, HOLDER_UNKNOWN
    if not (booking.guest_email or booking.guest_phone):
        return None, HOLDER_UNREACHABLE
    data = {"first_name": " ".join(first.split()), "last_name": " ".join(last.split()),
            **{name: value for name, value in contact.items() if value}}
    return Guest(index=0, role="holder", data=data), None


def _waiting_reservations():
    return (Filing.select(Filing.id, Filing.booking)
            .join(Booking, on=(Filing.booking == Booking.id))
            .where((Filing.kind == "reservation") & (Filing.status == "waiting")
                   & (Booking.status == "confirmed")))


def reservations_waiting() -> bool:
    """A held reservation whose holder is now known (a check-in completed, a name rewritten):
    one query, as it runs after every transaction that emits events."""
    held = (_waiting_reservations().select(Booking.checkin_status, Booking.guest_name,
                                           Booking.guest_email, Booking.guest_phone).tuples())
    return any(_known(*values) for values in held)


def queue_reservations() -> list[str]:
    """Queue the held reservations whose holder is now known."""
    queued = []
    for row in list(_waiting_reservations()):
        with atomic():
            row = locked(row.id)
            booking = Booking.get_by_id(row.booking_id)
            if row.status != "waiting" or booking.status != "confirmed" or not _holder_known(booking):
                continue
            save_filing(row, status="queued", next_attempt_at=clock.utcnow(), error=None)
            queued.append(row.id)
    return queued


def reservation_accepted(booking: Booking, row: Filing) -> None:
    """After SES took a reservation or the cancellation of one."""
    now = clock.utcnow()
    if row.kind == "reservation":
        cancel = Filing.get_or_none((Filing.booking == booking.id)
                                          & (Filing.kind == "rh_cancellation")
                                          & (Filing.status == "waiting"))
        if cancel is not None:  # the dates changed while it was under way: cancel it now
            save_filing(cancel, status="queued", next_attempt_at=now)
    else:  # the old reservation is cancelled: send it again, with the booking's dates now
        reservation = Filing.get_or_none((Filing.booking == booking.id)
                                               & (Filing.kind == "reservation"))
        if reservation is not None:
            save_filing(reservation, status="queued", attempts=0, next_attempt_at=now,
                         deadline=now + dt.timedelta(hours=24), remote_id=None, reference=None,
                         guests=[], error=None, at_risk_at=None, submitted_at=None)
    if booking.report_status in ("REJECTED", "FAILED", "QUEUED"):  # the reservation's part done
        state = arrival_status(booking)
        if state not in ("REJECTED", "FAILED"):
            save_booking(booking, report_status=state, report_error=None)


def cancelled_reference(booking: Booking, kind: str = "cancellation") -> str | None:
    """The codes (comma-separated) of the booking's communications the authority accepted and
    that `kind` cancels: the arrival's and the reservation's, or the reservation's alone."""
    kinds = ("reservation",) if kind == "rh_cancellation" else ("arrival", "reservation")
    codes = [row.reference for row in Filing.select().where(
        (Filing.booking == booking.id) & Filing.kind.in_(kinds)
        & (Filing.status == "submitted")).order_by(Filing.created_at)
        if row.reference]
    return ",".join(codes) or None


def _cancellations_to_queue() -> list[Filing]:
    """Accepted communications of cancelled bookings without a cancellation filing, once none of
    the booking's filings awaits its outcome (an accepted one is cancelled too)."""
    cancellation = Filing.alias()
    already = cancellation.select(cancellation.id).where(
        (cancellation.booking == Filing.booking) & (cancellation.kind == "cancellation"))
    in_flight = cancellation.select(cancellation.id).where(
        (cancellation.booking == Filing.booking)
        & cancellation.status.in_(("sending", "polling")))
    rows = list(Filing.select()
                .join(Booking, on=(Filing.booking == Booking.id))
                .where(Filing.kind.in_(("arrival", "reservation"))
                       & (Filing.status == "submitted")
                       & Filing.authority.in_((CONNECTOR_NAME, FILE_CONNECTOR))
                       & (Booking.status == "cancelled")
                       & ~fn.EXISTS(already) & ~fn.EXISTS(in_flight)))
    # A file host's filings are cancelled where its property's authority is SES.Hospedajes.
    return [row for row in rows if row.authority == CONNECTOR_NAME
            or files_reservations(Property.get_by_id(row.property_id))]


def cancellations_waiting() -> bool:
    """A cancelled booking whose arrival or reservation SES took awaits its cancellation."""
    return bool(_cancellations_to_queue())


def queue_cancellations() -> list[str]:
    """A cancellation filing for every cancelled booking whose arrival filing the authority took,
    where the connector files cancellations (Spain: within 24 hours of the cancellation)."""
    queued = []
    for row in _cancellations_to_queue():
        with atomic():
            booking = Booking.get_by_id(row.booking_id)
            exists = Filing.get_or_none((Filing.booking == booking.id)
                                              & (Filing.kind == "cancellation"))
            if exists is not None:
                continue
            now = clock.utcnow()
            cancelled = booking.cancelled_at or now
            Filing.create(id=new_id("pf"), account=booking.account_id, booking=booking.id, property=booking.property_id,
                                kind="cancellation", authority=row.authority, status="queued",
                                deadline=cancelled + dt.timedelta(hours=24), next_attempt_at=now,
                                guests=[], created_at=now, updated_at=now)
            queued.append(booking.id)
    return queued
