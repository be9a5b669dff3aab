"""The filing state machine end to end: check-in completed through the guests API, filed with the
Alloggiati double, outcomes on the booking, events, retries, re-filing, restarts."""

import datetime as dt

from rentalcomply.core import clock
from rentalcomply.core.models import Booking, Event
from rentalcomply.filings import sweep
from rentalcomply.filings.models import Filing
from tests.police.conftest import CREDENTIALS, family, put_guests, group


def events_of(kind):
    return [e for e in Event.select().order_by(Event.created_at) if e.type == kind]


def test_a_completed_check_in_is_filed_at_once_and_shown_on_the_booking(owner, double, make_booking):
    booking = make_booking()
    assert booking.report_status == "PENDING"
    put_guests(owner, booking.id, family())
    shown = owner.get(f"/api/v1/bookings/{booking.id}").json["data"]
    assert shown["report_status"] == "SUBMITTED" and shown["report_error"] is None
    assert double.calls == ["GenerateToken", "Test", "Send", "Ricevuta"]
    assert [line[:2] for line in double.sent] == ["17", "19"]
    police = owner.get(f"/api/v1/bookings/{booking.id}/police").json["data"]
    filing = police["filings"][0]
    assert filing["status"] == "submitted" and filing["receipt_kept"] is True
    assert [g["accepted"] for g in filing["guests"]] == [True, True]
    receipt = owner.get(f"/api/v1/bookings/{booking.id}/police/receipt")
    assert receipt.content_type == "application/pdf" and receipt.body.startswith(b"%PDF")
    submitted = events_of("police.submitted")
    assert len(submitted) == 1 and submitted[0].data["report_status"] == "SUBMITTED"
    assert "YA1234567" not in str(submitted[0].data)  # no guest identity data in events


def test_credentials_are_sealed_and_only_their_names_shown(owner, italian_property):
    view = owner.get(f"/api/v1/properties/{italian_property.id}").json["data"]
    assert view["police_connector"] == "alloggiati"
    assert view["police_credentials_set"] == ["password", "user", "wskey"]
    assert "segreto" not in str(view)
    from rentalcomply.filings.models import AuthoritySettings
    row = AuthoritySettings.get(AuthoritySettings.property == italian_property.id)
    assert "segreto" not in row.credentials_sealed and "WSKEY1" not in row.credentials_sealed
    changed = owner.patch_json(f"/api/v1/properties/{italian_property.id}", {
        "police_settings": {"apartment_id": "000123"},
        "police_credentials": {"wskey": None}}).json["data"]
    assert changed["police_settings"] == {"apartment_id": "000123"}
    assert changed["police_credentials_set"] == ["password", "user"]


def test_unknown_settings_and_a_connector_of_none_are_refused(owner, italian_property, outsider):
    answer = owner.patch_json(f"/api/v1/properties/{italian_property.id}",
                              {"police_settings": {"codigo_arrendador": "1"}}, status=400)
    assert answer.json["error"]["details"][0]["field"] == "police_settings.codigo_arrendador"
    owner.patch_json(f"/api/v1/properties/{italian_property.id}",
                     {"police_settings": "x"}, status=400)
    outsider.patch_json(f"/api/v1/properties/{italian_property.id}",
                        {"police_credentials": CREDENTIALS}, status=404)


def test_a_service_down_is_retried_and_the_guests_filed_once(owner, double, make_booking):
    booking = make_booking()
    double.down()
    put_guests(owner, booking.id, family())
    row = Filing.get(Filing.booking == booking.id)
    assert row.status == "queued" and row.attempts == 1
    assert Booking.get_by_id(booking.id).report_status == "QUEUED"
    assert "cannot be reached" in Booking.get_by_id(booking.id).report_error
    sweep.run_due()  # not due yet: nothing tried
    assert Filing.get_by_id(row.id).attempts == 1
    double.up()
    clock.travel(dt.timedelta(minutes=3))
    sweep.run_due()
    sweep.run_due()
    assert Booking.get_by_id(booking.id).report_status == "SUBMITTED"
    assert len(double.sent) == 2 and double.calls.count("Send") == 1


def test_a_rejected_guest_keeps_the_reason_and_a_refile_sends_only_that_guest(owner, double,
                                                                               make_booking):
    booking = make_booking()
    put_guests(owner, booking.id, group(leader_document="INVALIDO"))
    shown = owner.get(f"/api/v1/bookings/{booking.id}").json["data"]
    assert shown["report_status"] == "REJECTED"
    assert "guest 1" in shown["report_error"] and "Numero documento non valido" in shown["report_error"]
    rejected = events_of("police.rejected")
    assert len(rejected) == 1
    assert rejected[0].data["police"]["guests"] == [
        {"index": 0, "accepted": False, "code": "42", "message": "Numero documento non valido"},
        {"index": 1, "accepted": True, "code": None, "message": None}]
    assert len(double.sent) == 1
    # The host fixes the leader's document and files again; the member is not sent twice.
    put_guests(owner, booking.id, group())
    again = owner.post(f"/api/v1/bookings/{booking.id}/police/refile").json["data"]
    assert again["report_status"] == "QUEUED"  # filed right after the answer
    assert owner.get(f"/api/v1/bookings/{booking.id}").json["data"]["report_status"] == "SUBMITTED"
    assert [line[14:19] for line in double.sent] == ["NERI ", "VERDI"]
    owner.post(f"/api/v1/bookings/{booking.id}/police/refile", status=409)


def test_refile_is_refused_before_check_in_and_for_another_account(owner, outsider, make_booking):
    booking = make_booking()
    owner.post(f"/api/v1/bookings/{booking.id}/police/refile", status=409)
    outsider.post(f"/api/v1/bookings/{booking.id}/police/refile", status=404)
    outsider.get(f"/api/v1/bookings/{booking.id}/police", status=404)


def test_refused_credentials_fail_at_once_without_a_retry_storm(owner, double, make_booking,
                                                                 italian_property):
    owner.patch_json(f"/api/v1/properties/{italian_property.id}",
                     {"police_credentials": {"password": "wrong"}})
    booking = make_booking()
    put_guests(owner, booking.id, family())
    shown = owner.get(f"/api/v1/bookings/{booking.id}").json["data"]
    assert shown["report_status"] == "FAILED" and "credentials refused" in shown["report_error"]
    assert double.calls == ["GenerateToken"]
    assert len(events_of("police.failed")) == 1


def test_a_restart_in_the_middle_of_a_send_never_files_twice(owner, double, make_booking):
    booking = make_booking()
    double.down()
    put_guests(owner, booking.id, family())
    # The worker died after marking the filing "sending" and before recording the answer.
    row = Filing.get(Filing.booking == booking.id)
    Filing.update(status="sending", sending_since=clock.utcnow()).where(
        Filing.id == row.id).execute()
    double.up()
    clock.travel(dt.timedelta(minutes=1))
    sweep.run_due()  # a call may still be under way: left alone
    assert Filing.get_by_id(row.id).status == "sending"
    clock.travel(dt.timedelta(minutes=5))
    sweep.run_due()
    after = Filing.get_by_id(row.id)
    assert after.status == "failed" and "interrupted" in after.error
    assert Booking.get_by_id(booking.id).report_status == "FAILED"
    assert double.sent == []  # Alloggiati has no idempotency key: nothing sent blind


def test_a_slow_send_is_not_retried_blind(owner, double, make_booking):
    booking = make_booking()
    double.delay["Send"] = 3
    put_guests(owner, booking.id, family())
    shown = owner.get(f"/api/v1/bookings/{booking.id}").json["data"]
    assert shown["report_status"] == "FAILED" and "receipt" in shown["report_error"]
    assert double.calls.count("Send") == 1
