"""The periodic work of check-in: automatic invitations, expiry, the purge of guest data."""

import datetime as dt

from rentalcomply.checkin import service, tasks
from rentalcomply.checkin.models import Checkin
from rentalcomply.core import clock
from rentalcomply.core.models import Booking, Event
from tests.checkin.conftest import greek_party


def status(booking):
    return Booking.get_by_id(booking.id).checkin_status


def test_invitations_go_out_automatically_seven_days_before_arrival_once(make_booking, smtp_server):
    soon = make_booking(arrival_in=7)
    later = make_booking(arrival_in=8)
    no_mail = make_booking(arrival_in=3, guest_email=None)
    assert tasks.invite_upcoming.call_local() == 1
    assert (status(soon), status(later), status(no_mail)) == ("INVITED", "NOT_STARTED", "NOT_STARTED")
    assert len(smtp_server.wait(1)) == 1
    assert tasks.invite_upcoming.call_local() == 0
    clock.travel(dt.timedelta(days=1))
    assert tasks.invite_upcoming.call_local() == 1
    assert status(later) == "INVITED"
    assert len(smtp_server.wait(2)) == 2
    invited = [e for e in Event.select() if e.type == "checkin.invited"]
    assert len(invited) == 2


def test_an_automatic_invitation_is_not_repeated_after_a_manual_one(owner, make_booking, smtp_server):
    booking = make_booking(arrival_in=5)
    owner.post_json("/api/v1/checkins/resend", {"booking_id": booking.id}, status=202)
    assert tasks.invite_upcoming.call_local() == 0


def test_stays_that_departed_uncompleted_expire(make_booking, owner):
    open_stay = make_booking(arrival_in=1, nights=2)
    done = make_booking(arrival_in=1, nights=2)
    owner.put_json(f"/api/v1/bookings/{done.id}/guests", {"guests": greek_party()})
    clock.travel(dt.timedelta(days=3))
    assert tasks.expire_past_stays.call_local() == 0  # departure day itself: not yet
    clock.travel(dt.timedelta(days=1))
    assert tasks.expire_past_stays.call_local() == 1
    assert status(open_stay) == "EXPIRED" and status(done) == "COMPLETED"


def test_guest_data_is_purged_after_the_retention_keeping_the_lead_name(owner, make_booking, settings):
    booking = make_booking(arrival_in=1, nights=2)
    owner.put_json(f"/api/v1/bookings/{booking.id}/guests", {"guests": greek_party()})
    days = settings.retention.guest_documents_days
    clock.travel(dt.timedelta(days=3 + days))
    assert tasks.purge_guest_data.call_local() == 0
    clock.travel(dt.timedelta(days=1))
    assert tasks.purge_guest_data.call_local() == 1
    row = Checkin.get_by_id(booking.id)
    assert row.guests_sealed is None and row.lead_guest_name == "Μαρία Παπαδοπούλου"
    data = owner.get(f"/api/v1/bookings/{booking.id}/guests").json["data"]
    assert data["guests"] == [] and data["purged_at"] and data["lead_guest_name"]
    assert status(booking) == "COMPLETED"


def test_the_party_is_sealed_for_its_own_booking(owner, make_booking):
    first = make_booking(arrival_in=1)
    second = make_booking(arrival_in=20)
    for booking in (first, second):
        owner.put_json(f"/api/v1/bookings/{booking.id}/guests", {"guests": greek_party()})
    a, b = Checkin.get_by_id(first.id), Checkin.get_by_id(second.id)
    assert "ΑΒ123456" not in a.guests_sealed
    a.guests_sealed = b.guests_sealed  # a party moved to another booking cannot be opened
    import pytest
    from rentalcomply.core.sealing import Unsealable
    with pytest.raises(Unsealable):
        service.load_party(a)


def test_a_spanish_stay_is_erased_after_3_years_and_an_italian_one_kept_for_5(
        owner, make_booking, make_property, settings):
    from tests.checkin.conftest import italian_party, spanish_party
    spanish = make_booking("ES", arrival_in=1, nights=2)
    italian = make_booking("IT", arrival_in=1, nights=2)
    owner.put_json(f"/api/v1/bookings/{spanish.id}/guests", {"guests": spanish_party()})
    owner.put_json(f"/api/v1/bookings/{italian.id}/guests", {"guests": italian_party()})
    departure = spanish.departure_date
    assert settings.retention.guest_documents_years_es == 3
    clock.travel(dt.timedelta(days=(departure.replace(year=departure.year + 3) - clock.today()).days))
    assert tasks.purge_guest_data.call_local() == 0  # three years to the day: still kept
    clock.travel(dt.timedelta(days=1))
    assert tasks.purge_guest_data.call_local() == 1
    assert Checkin.get_by_id(spanish.id).guests_sealed is None
    assert Checkin.get_by_id(italian.id).guests_sealed is not None
    clock.travel(dt.timedelta(days=2 * 366))
    assert tasks.purge_guest_data.call_local() == 1  # five years on: the Italian one too
    assert Checkin.get_by_id(italian.id).guests_sealed is None


def test_the_privacy_notice_gives_the_countrys_own_period(owner, make_booking):
    spanish = make_booking("ES", arrival_in=5)
    service._checkin_row(spanish)
    page = owner.app.get(f"/checkin/{service.token_for(spanish.id)}?lang=en").text
    assert "erased 3 years after your departure" in page
