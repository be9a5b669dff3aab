"""What an activity row names, as a person knows it: the guest and the stay of a booking
("Luca Ferrari, 12–15 Mar 2027 · Casa Rosa"), a property's name, a colleague's e-mail address,
a key's or an endpoint's name, a report's period. The log keeps ids (they last when names
change); the names are looked up when the page is shown, a query per kind of thing, never an
id shown instead: a thing that is gone is named by nothing.
"""

from __future__ import annotations

import babel.dates

from rentalcomply.core.models import ApiKey, Booking, ChannelConnection, Property
from rentalcomply.dashboard.models import DashboardUser
from rentalcomply.webhooks.models import WebhookEndpoint


def _by_prefix(ids, *prefixes) -> list[str]:
    return sorted({i for i in ids if i and i.startswith(prefixes)})


def bookings(booking_ids, fmt) -> dict[str, str]:
    """booking id → "Luca Ferrari, 12–15 Mar 2027 · Casa Rosa", for the ids that exist."""
    found = names_of_ids(set(booking_ids), fmt)
    return {i: found[i] for i in booking_ids if i in found}


def names(entries, fmt) -> dict[str, str]:
    """resource id → its name on the page, for every row of `entries` that names a thing;
    and, for a guest's row, the booking's id → the guest's name (`guest:` + id)."""
    ids = {e.resource_id for e in entries} | {e.actor_id for e in entries
                                               if e.actor_type == "guest"}
    return names_of_ids(ids, fmt)


def names_of_ids(ids: set, fmt) -> dict[str, str]:
    found: dict[str, str] = {}
    property_names = {}
    booking_ids = _by_prefix(ids, "book_")
    bookings = list(Booking.select(Booking.id, Booking.guest_name, Booking.arrival_date,
                                   Booking.departure_date, Booking.property, Booking.is_block)
                    .where(Booking.id.in_(booking_ids))) if booking_ids else []
    channel_ids = _by_prefix(ids, "ch_")
    channels = list(ChannelConnection.select(ChannelConnection.id, ChannelConnection.property,
                                             ChannelConnection.provider)
                    .where(ChannelConnection.id.in_(channel_ids))) if channel_ids else []
    property_ids = (set(_by_prefix(ids, "prop_")) | {b.property_id for b in bookings}
                    | {c.property_id for c in channels})
    if property_ids:
        property_names = {p.id: p.name for p in Property.select(Property.id, Property.name)
                          .where(Property.id.in_(sorted(property_ids)))}
        found.update(property_names)
    for channel in channels:  # "Airbnb · Casa Rosa"; a removed one is named by nothing
        found[channel.id] = " · ".join(x for x in (fmt.channel(channel.provider),
                                                   property_names.get(channel.property_id)) if x)
    for booking in bookings:
        stay = babel.dates.format_interval(booking.arrival_date, booking.departure_date,
                                           "yMMMd", locale=fmt.locale)
        guest = booking.guest_name or ""
        place = property_names.get(booking.property_id, "")
        found[booking.id] = " · ".join(x for x in (f"{guest}, {stay}" if guest else stay, place)
                                       if x)
        found["guest:" + booking.id] = guest
    user_ids = _by_prefix(ids, "usr_")
    if user_ids:
        found.update({u.id: u.email or "" for u in DashboardUser.select(
            DashboardUser.id, DashboardUser.email).where(DashboardUser.id.in_(user_ids))})
    key_ids = _by_prefix(ids, "key_")
    if key_ids:
        found.update({k.id: k.name or "" for k in ApiKey.select(ApiKey.id, ApiKey.name)
                      .where(ApiKey.id.in_(key_ids))})
    webhook_ids = _by_prefix(ids, "wh_")
    if webhook_ids:
        found.update({w.id: w.description or w.url for w in WebhookEndpoint.select(
            WebhookEndpoint.id, WebhookEndpoint.url, WebhookEndpoint.description)
            .where(WebhookEndpoint.id.in_(webhook_ids))})
    for report_code in _by_prefix(ids, "rep_"):
        year, _, month = report_code[4:].partition("_")
        if year.isdigit() and (not month or month.isdigit()):
            found[report_code] = fmt.period(f"{year}-{month}" if month else year)
    return found
