"""A Spanish property's tourism licence number in its exported calendar feed, as the CIN of an
Italian one: the calendar's description and every event's."""

from __future__ import annotations

import icalendar

from rentalcomply.properties import service as properties
from rentalcomply.views import properties as composed
from tests.sync.test_api import exported
from tests.sync.test_export_cin import _book


def test_the_feed_of_a_spanish_property_carries_its_licence_number(account_a, owner, anonymous):
    casa = properties.create_property(account_a, name="Pis Gràcia", address="Barcelona",
                                      country="ES", timezone="Europe/Madrid",
                                      licence_number="HUTB-012345", nrua="ESFCTU0000080190001")
    _book(owner, casa.id, "2027-04-01", "2027-04-04")
    body = exported(anonymous, composed.property_view(casa)["ical_export_url"]).body
    calendar = icalendar.Calendar.from_ical(body)
    assert str(calendar["X-WR-CALDESC"]) == "Licencia turística HUTB-012345"
    assert [str(e["DESCRIPTION"]) for e in calendar.events] == ["Licencia turística HUTB-012345"]
    assert b"ESFCTU" not in body  # the NRUA is a legacy field, not the listing's number
