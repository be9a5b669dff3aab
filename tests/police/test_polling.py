"""An asynchronous outcome: submitted once, then polled until the authority decides."""

import datetime as dt

from rentalcomply.core import clock
from rentalcomply.core.models import Booking, Property
from rentalcomply.filings import registry, sweep
from rentalcomply.filings.models import Filing
from tests.police import fake_async
from tests.police.conftest import family, put_guests


def test_a_pending_outcome_is_polled_until_submitted_and_never_submitted_twice(
        owner, make_booking, italian_property, monkeypatch):
    monkeypatch.setattr(registry.get("ses_hospedajes"), "connector_module", "tests.police.fake_async")
    monkeypatch.setattr(registry.get("ses_hospedajes"), "setup_fields", ())  # the fake needs none
    fake = fake_async.CONNECTOR = fake_async.AsyncConnector()
    booking = make_booking()  # made before: the framework's polling alone (no reservation)
    Property.update(police_connector="ses_hospedajes").where(
        Property.id == italian_property.id).execute()
    put_guests(owner, booking.id, family())
    row = Filing.get(Filing.booking == booking.id)
    assert row.status == "polling" and row.remote_id == "LOTE-1"
    assert Booking.get_by_id(booking.id).report_status == "QUEUED"
    sweep.run_due()
    assert fake.polls == 0  # not yet
    for _ in range(3):
        clock.travel(dt.timedelta(minutes=2))
        sweep.run_due()
    assert Booking.get_by_id(booking.id).report_status == "SUBMITTED"
    assert fake.submitted == [[0, 1]] and fake.polls == 2
    assert Filing.get_by_id(row.id).reference == "LOTE-1"


def test_an_interrupted_poll_polls_again(owner, make_booking, italian_property, monkeypatch):
    monkeypatch.setattr(registry.get("ses_hospedajes"), "connector_module", "tests.police.fake_async")
    monkeypatch.setattr(registry.get("ses_hospedajes"), "setup_fields", ())  # the fake needs none
    fake = fake_async.CONNECTOR = fake_async.AsyncConnector()
    booking = make_booking()  # made before: the framework's polling alone (no reservation)
    Property.update(police_connector="ses_hospedajes").where(
        Property.id == italian_property.id).execute()
    put_guests(owner, booking.id, family())
    row = Filing.get(Filing.booking == booking.id)
    Filing.update(status="sending", sending_since=clock.utcnow()).where(
        Filing.id == row.id).execute()
    clock.travel(dt.timedelta(minutes=10))
    sweep.run_due()
    sweep.run_due()
    # The batch already has its id: the interrupted poll is polled again, never sent again.
    assert fake.submitted == [[0, 1]] and fake.polls == 1
    assert Filing.get_by_id(row.id).status == "polling"  # the authority has not decided
    clock.travel(dt.timedelta(minutes=2))
    sweep.run_due()
    assert fake.submitted == [[0, 1]] and fake.polls == 2
    assert Filing.get_by_id(row.id).status == "submitted"
    assert Booking.get_by_id(booking.id).report_status == "SUBMITTED"
