"""What the worker does besides filing: cancellations queued where the authority wants them, built
files erased with the guest data, cancelled bookings no longer filed."""

import datetime as dt

from rentalcomply.bookings import service as bookings
from rentalcomply.core import clock
from rentalcomply.core.models import Booking, Property
from rentalcomply.authorities.ses import reservations
from rentalcomply.filings import sweep
from rentalcomply.filings.models import Filing
from tests.police.conftest import family, put_guests


def test_a_cancelled_booking_filed_with_ses_gets_a_cancellation_filing(owner, double, make_booking):
    booking = make_booking()
    put_guests(owner, booking.id, family())
    Filing.update(authority="ses_hospedajes").where(Filing.booking == booking.id).execute()
    bookings.cancel_booking(owner.account_id, booking.id)
    reservations.queue_cancellations()
    reservations.queue_cancellations()
    rows = {r.kind: r for r in Filing.select().where(Filing.booking == booking.id)}
    assert set(rows) == {"arrival", "cancellation"}
    assert rows["cancellation"].status == "queued"
    assert rows["cancellation"].deadline <= clock.utcnow() + dt.timedelta(hours=24)


def test_a_booking_cancelled_before_filing_is_no_longer_filed(owner, double, make_booking):
    booking = make_booking()
    double.down()
    put_guests(owner, booking.id, family())
    bookings.cancel_booking(owner.account_id, booking.id)
    clock.travel(dt.timedelta(minutes=5))
    sweep.run_due()
    assert Booking.get_by_id(booking.id).report_status == "NOT_REQUIRED"
    assert double.sent == []


def test_built_files_are_erased_with_the_guest_data(owner, make_booking, italian_property):
    Property.update(police_connector="file").where(Property.id == italian_property.id).execute()
    booking = make_booking()
    put_guests(owner, booking.id, family())
    row = Filing.get(Filing.booking == booking.id)
    assert row.file_sealed
    assert sweep.purge_files(30) == 0
    clock.travel(dt.timedelta(days=40))
    assert sweep.purge_files(30) == 1
    assert Filing.get_by_id(row.id).file_sealed is None


def test_empty_police_maps_on_a_property_without_connector_change_nothing(owner, settings):
    from rentalcomply.properties import service as properties
    prop = properties.create_property(owner.account_id, name="Villa", address="Oia")
    view = owner.patch_json(f"/api/v1/properties/{prop.id}",
                            {"police_settings": {}, "police_credentials": {}}).json["data"]
    assert view["police_settings"] == {} and view["police_credentials_set"] == []
    owner.patch_json(f"/api/v1/properties/{prop.id}", {"police_settings": {"a": "b"}}, status=400)
