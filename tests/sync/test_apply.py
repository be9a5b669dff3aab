"""Applying a feed's new stays: their rows are made before the write turn, and made again inside
it when the property changed in between."""

from __future__ import annotations

import datetime as dt

from rentalcomply.core.models import Booking
from rentalcomply.properties import service as properties
from rentalcomply.sync import apply
from rentalcomply.sync.parse import Stay
from rentalcomply.sync.writing import write_turn


def test_rows_made_before_the_turn_are_made_again_when_the_property_changed_meanwhile(
        account_a, connect):
    prop = properties.create_property(account_a, name="Casa Mare", address="Via Mare 2",
                                      country="IT", max_guests=6)
    connection = connect(prop.id, "airbnb", "/casa.ics")
    stays = [Stay("u1@airbnb.com", dt.date(2027, 3, 1), dt.date(2027, 3, 3), False,
                  "Airbnb guest", "HMABC12345")]
    made_before = apply._new_bookings(prop, connection, stays, None)
    assert made_before.rows[0]["report_status"] == "NOT_REQUIRED"  # no police connector yet

    properties.update_property(account_a, prop.id, police_connector="file")
    with write_turn():
        now = properties.get_property(account_a, prop.id, for_update=True)
        assert apply._import_stays(now, connection, stays, None, made_before) == 1

    booking = Booking.get(Booking.external_uid == "u1@airbnb.com")
    assert booking.report_status == "PENDING"  # the police must hear of it after all
    assert booking.external_ref == "HMABC12345"
