"""The check-in links on the dashboard: a booking's link marked as shared (the host sent it by
WhatsApp, SMS or the channel's messages), and a property's link for the channels' scheduled
messages given a new address. Shown on the booking's and the property's pages
(templates/_checkin_link.tpl, _property_checkin_link.tpl)."""

from __future__ import annotations

from rentalcomply.bookings import service as bookings
from rentalcomply.checkin import booking_links, links
from rentalcomply.checkin import service as checkin
from rentalcomply.dashboard import qr
from rentalcomply.dashboard.pages.shared import confirm, confirmed
from rentalcomply.dashboard.web import Redirect
from rentalcomply.properties import service as properties


def register(pages) -> None:
    @pages.post("/bookings/<booking_id>/checkin/shared")
    def link_shared(page, booking_id):
        # A cancelled booking or a stay that is over: the refusal's page says so (web.py).
        checkin.mark_link_shared(page.account_id, booking_id)
        page.record("checkin.shared", booking_id)
        raise Redirect(page.url(f"/bookings/{booking_id}", done="link_shared"))

    @pages.post("/properties/<property_id>/checkin-link")
    def property_link_rotate(page, property_id):
        prop = properties.get_property(page.account_id, property_id)
        if not confirmed(page):
            return confirm(
                page, title=page._("Give the check-in link a new address?"), subject=prop.name,
                consequences=[page._("The current check-in link of the property stops working "
                                     "at once."),
                              page._("Guests who open it from a message already sent are told "
                                     "the link does not work: paste the new link into every "
                                     "channel’s scheduled message."),
                              page._("The bookings' own links do not change.")],
                button=page._("Yes, give it a new address"),
                back=page.url(f"/properties/{property_id}"))
        links.rotate_property_link(page.account_id, property_id)
        page.record("property.rotate_checkin_link", property_id)
        raise Redirect(page.url(f"/properties/{property_id}", done="checkin_link_rotated"))


def booking_link_block(page, booking) -> dict:
    """What templates/_checkin_link.tpl shows: the link, its QR code, the booking's reference."""
    booking_links.ensure_links([booking.id])
    url = booking_links.checkin_url(page.public_url, booking)
    return {"url": url, "qr": qr.svg(url, page._("QR code of the check-in link")) if url else "",
            "reference": bookings.booking_view(booking)["reference"]}


def property_link_block(page, prop) -> dict:
    """What templates/_property_checkin_link.tpl shows: the link, its QR code, the messages."""
    url = links.property_link(page.public_url, prop)
    return {"url": url, "qr": qr.svg(url, page._("QR code of the check-in link"))}
