"""The page a guest reads once check-in is complete: who is checked in, where the property is and
from when, how to reach the host, and what happens next (the access instructions, or when they
come; the registration the host makes with the authority of the property's country)."""

from __future__ import annotations

import datetime as dt
import zoneinfo

from rentalcomply.checkin import access, i18n, service
from rentalcomply.checkin.guests import FILING_COUNTRIES, POLICE_COUNTRIES
from rentalcomply.core import mailer
from rentalcomply.core.models import Property
from rentalcomply.properties import service as properties

# The countries whose authority the host registers the guests with (or declares the stay to).
REGISTERED = FILING_COUNTRIES
# Where the host may ask to see the documents the guests entered.
DOCUMENTS_SHOWN = POLICE_COUNTRIES


def values(settings, booking, row, lang: str) -> dict:
    """What the page's template (checkin_done.tpl) shows; page.py renders it."""
    prop = Property.get_by_id(booking.property_id)
    party = service.load_party(row)
    names = [" ".join(p for p in (g.get("first_name"), g.get("last_name")) if p)
             for g in party.get("guests", [])]
    arrival_hour = settings.police.arrival_hour  # the property's check-in time
    guest_access = access.for_guest(booking, prop, arrival_hour, lang)
    # Said in the place of the instructions before they open, and after check-out.
    waiting = ""
    if guest_access.state == "waiting":
        waiting = i18n.text(lang, "access.waiting", **access.format_opens(lang, guest_access.opens))
    elif guest_access.state == "over":
        waiting = i18n.text(lang, "access.over", **access.format_opens(lang, guest_access.closes))
    check_in = dt.datetime.combine(booking.arrival_date, dt.time(arrival_hour),
                                   tzinfo=zoneinfo.ZoneInfo(prop.timezone))
    next_steps = []
    if prop.country in REGISTERED:
        next_steps.append(i18n.text(lang, f"page.next_police.{prop.country}"))
    if prop.country in DOCUMENTS_SHOWN:
        next_steps.append(i18n.text(lang, "page.next_documents"))
    contact = mailer.host_contact(booking.account_id, booking.property_id)
    if any(contact.values()):
        next_steps.append(i18n.text(lang, "page.next_change"))
    return dict(lang=lang, property_name=prop.name, cin=properties.cin_shown(prop), licence=properties.licence_line(prop),
                address=prop.address or "",
                check_in=i18n.text(lang, "page.done_checkin", **access.format_opens(lang, check_in)),
                stay=i18n.stay(lang, booking.arrival_date, booking.departure_date,
                               booking.guest_count), names=names,
                access_text=guest_access.text if guest_access.state == "shown" else "",
                access_waiting=waiting, next_steps=next_steps, contact=contact,
                t=lambda key, **words: i18n.text(lang, key, **words))
