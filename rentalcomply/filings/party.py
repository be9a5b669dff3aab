"""The party as the connectors take it: the completed check-in, decrypted, in the shape of
connector.Guest (with each authority's roles), and the stay."""

from __future__ import annotations

import datetime as dt

from rentalcomply.checkin.models import Checkin
from rentalcomply.checkin.service import load_party
from rentalcomply.core.models import Booking, Property
from rentalcomply.filings import registry
from rentalcomply.filings.connector import Guest, Stay
from rentalcomply.filings.deadlines import as_date

# The names of the contract (connector.Guest) beside check-in's own.
ALIASES = (("birth_place", "birth_municipality"), ("issue_place", "document_issue_place"),
           ("address", "address_street"), ("city", "address_city"),
           ("postcode", "address_postcode"))


def guests_of(booking: Booking, country: str) -> list[Guest]:
    """The completed party, decrypted, in the connectors' shape (connector.Guest)."""
    row = Checkin.get_or_none(Checkin.booking == booking.id)
    party = load_party(row).get("guests", [])
    authority = registry.of_country(country)
    lead = party[0] if party else {}
    result = []
    for index, values in enumerate(party):
        data = dict(values)
        data.pop("signature", None)
        if data.get("birth_date"):
            data["birth_date"] = dt.date.fromisoformat(data["birth_date"])
        for alias, name in ALIASES:
            if data.get(name) and not data.get(alias):
                data[alias] = data[name]
        role = authority.guest_role(index, data, lead)
        authority.adapt_guest(data)
        result.append(Guest(index=index, role=role, data=data))
    return result


def stay_of(booking: Booking, prop: Property) -> Stay:
    return Stay(booking_id=booking.id, reference=booking.external_ref or booking.id,
                arrival=as_date(booking.arrival_date), departure=as_date(booking.departure_date),
                # the channel's booking date where an export gave it
                booked_on=as_date(booking.booked_at or booking.created_at),
                guest_count=booking.guest_count,
                payment_method=booking.payment_method, property_country=prop.country,
                property_name=prop.name, property_region=prop.region)
