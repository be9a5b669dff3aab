"""A property's check-in link, for the message a channel sends every guest before arrival.

The channels' scheduled messages cannot carry each booking's own link, so the property has one:
`/checkin/p/{property id}-{MAC}`. Its token is derived from the property id and a rotation
counter under the server secret (as the exported calendar's, sync/export.py): nothing secret is
stored, a key holder sees it in the property view, and a rotation makes every earlier link
answer 404.

The guest who opens it names their booking with its reference — the channel's confirmation code
(`external_ref`: Airbnb's `HM...`, Booking.com's reservation number) or the booking's own short
reference — and the arrival date, or the last four digits of their phone where the channel gave
them; a match sends them to the booking's own link. Only current stays of that property match
(not cancelled, not departed); the answer for "no such reference" and "wrong date" is the same,
and the page (page.py) limits wrong tries per client address and per property.
"""

from __future__ import annotations

import datetime as dt
import hmac
import re

from rentalcomply.bookings.reference import normalized, short_reference
from rentalcomply.core import clock, secrets
from rentalcomply.core.db import atomic
from rentalcomply.core.errors import NotFound
from rentalcomply.core.models import Booking, Property
from rentalcomply.properties import service as properties

TOKEN_PURPOSE = "checkin-property-link"
MAC_LENGTH = 32  # hex characters: 128 bits
REFERENCE_MAX = 64
_DIGITS = re.compile(r"\D")


def property_token(prop: Property) -> str:
    return f"{prop.id}-{_mac(prop.id, prop.checkin_link_generation)}"


def _mac(property_id: str, generation: int) -> str:
    return secrets.sign(TOKEN_PURPOSE, f"{property_id}:{generation}")[:MAC_LENGTH]


def property_link(public_url: str, prop: Property) -> str:
    return f"{public_url.rstrip('/')}/checkin/p/{property_token(prop)}"


def property_for_token(token: str) -> Property:
    """The property whose current link this is, or NotFound (also for a rotated one)."""
    property_id, _, mac = (token or "").rpartition("-")
    prop = Property.get_or_none(Property.id == property_id) if property_id else None
    expected = (_mac(prop.id, prop.checkin_link_generation) if prop is not None
                else "0" * MAC_LENGTH)
    if prop is None or not hmac.compare_digest(expected.encode(), mac.encode("utf-8", "replace")):
        raise NotFound("No such check-in link.")
    return prop


def rotate_property_link(account_id: str, property_id: str) -> Property:
    """A new link for the property; the old one stops working at once."""
    with atomic():
        prop = properties.get_property(account_id, property_id, for_update=True)
        prop.checkin_link_generation += 1
        prop.updated_at = clock.utcnow()
        prop.save(only=[Property.checkin_link_generation, Property.updated_at])
    return prop


def find_stay(prop: Property, reference: str, *, arrival: dt.date | None = None,
              phone_last4: str | None = None) -> Booking | None:
    """The property's current booking that `reference` names, when `arrival` is its arrival date
    or `phone_last4` the last four digits of its guest's phone; None otherwise, whichever part
    did not match."""
    wanted = normalized(reference)[:REFERENCE_MAX]
    digits = _DIGITS.sub("", phone_last4 or "")
    if not wanted or (arrival is None and len(digits) != 4):
        return None
    today = clock.today()
    candidates = (Booking.select()
                  .where((Booking.property == prop.id) & (Booking.is_block == False)  # noqa: E712
                         & (Booking.status == "confirmed")
                         & (Booking.departure_date >= today)
                         & Booking.checkin_status.not_in(("EXPIRED",)))
                  .order_by(Booking.arrival_date, Booking.id))
    for booking in candidates:
        named = {normalized(short_reference(booking.id))}
        if booking.external_ref:
            named.add(normalized(booking.external_ref))
        if not any(hmac.compare_digest(wanted.encode(), name.encode()) for name in named):
            continue
        if arrival is not None and booking.arrival_date == arrival:
            return booking
        if len(digits) == 4 and digits in _phone_endings(booking):
            return booking
    return None


def _phone_endings(booking: Booking) -> set[str]:
    endings = set()
    if booking.guest_phone_last4:
        endings.add(booking.guest_phone_last4)
    phone = _DIGITS.sub("", booking.guest_phone or "")
    if len(phone) >= 4:
        endings.add(phone[-4:])
    return endings
