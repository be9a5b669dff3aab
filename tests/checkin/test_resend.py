"""POST /checkins/resend: the link, the masked recipient, the refusals, the limit, the e-mail."""

import datetime as dt

from rentalcomply.core import clock
from rentalcomply.core.models import Booking, Event
from rentalcomply.checkin.models import Checkin
from tests.checkin.conftest import LINK_RE


def resend(actor, booking_id, status=202):
    return actor.post_json("/api/v1/checkins/resend", {"booking_id": booking_id}, status=status)


def test_resend_answers_202_with_the_masked_recipient_and_the_link(owner, make_booking, smtp_server):
    booking = make_booking()
    data = resend(owner, booking.id).json["data"]
    assert data["booking_id"] == booking.id
    assert data["channel"] == "email"
    assert data["sent_to"] == "m***@example.com"
    assert data["checkin_status"] == "INVITED"
    assert LINK_RE.fullmatch(data["checkin_url"])
    assert data["checkin_url"].startswith("https://stay.example.org/checkin/")
    expected_expiry = dt.datetime.combine(booking.departure_date + dt.timedelta(days=2), dt.time())
    assert data["expires_at"] == clock.iso(expected_expiry)
    assert Booking.get_by_id(booking.id).checkin_status == "INVITED"
    assert [e.type for e in Event.select().where(Event.type == "checkin.invited")] == ["checkin.invited"]


def test_the_token_is_stored_only_as_a_hash(owner, make_booking):
    booking = make_booking()
    url = resend(owner, booking.id).json["data"]["checkin_url"]
    token = url.rsplit("/", 1)[1]
    row = Checkin.get_by_id(booking.id)
    assert token not in row.token_hash and row.token_hash != token


def test_a_resend_gives_the_same_link(owner, make_booking):
    booking = make_booking()
    first = resend(owner, booking.id).json["data"]["checkin_url"]
    assert resend(owner, booking.id).json["data"]["checkin_url"] == first


def test_the_invitation_e_mail_arrives_in_the_guests_language(owner, make_booking, smtp_server):
    booking = make_booking(guest_language="el")
    url = resend(owner, booking.id).json["data"]["checkin_url"]
    message = smtp_server.wait(1)[0]
    assert message["To"] == "maria@example.com"
    assert "Villa Anemoi" in message["Subject"] and "Ηλεκτρονικό check-in" in message["Subject"]
    plain = message.get_body(("plain",)).get_content()
    html = message.get_body(("html",)).get_content()
    assert url in plain and url in html
    assert "Γεια σας Maria Papadopoulou" in plain
    assert f"{booking.arrival_date.day}/{booking.arrival_date.month}/{booking.arrival_date.year}" in plain
    assert Booking.get_by_id(booking.id).checkin_error is None


def booking_shown(actor, booking_id) -> dict:
    return actor.get(f"/api/v1/bookings/{booking_id}").json["data"]


def invitations_emitted() -> int:
    return Event.select().where(Event.type == "checkin.invited").count()


def test_a_mail_server_that_answers_451_is_502_mail_not_sent_and_changes_nothing(
        owner, make_booking, smtp_server):
    smtp_server.refuse_with = "451 4.3.0 try again later"
    booking = make_booking()
    error = resend(owner, booking.id, 502).json["error"]
    assert error["code"] == "MAIL_NOT_SENT"
    assert "451" in error["message"] and "451" in error["details"][0]["message"]
    assert "maria" not in str(error) and "Papadopoulou" not in str(error)
    shown = booking_shown(owner, booking.id)
    assert shown["checkin_status"] == "NOT_STARTED"
    assert "451" in shown["checkin_error"]
    assert invitations_emitted() == 0
    assert smtp_server.messages == []


def test_a_later_send_that_succeeds_invites_and_clears_the_error(owner, make_booking, smtp_server):
    smtp_server.refuse_with = "451 4.3.0 try again later"
    booking = make_booking()
    resend(owner, booking.id, 502)
    smtp_server.refuse_with = None
    assert resend(owner, booking.id).json["data"]["checkin_status"] == "INVITED"
    assert smtp_server.wait(1)[0]["To"] == "maria@example.com"
    shown = booking_shown(owner, booking.id)
    assert shown["checkin_status"] == "INVITED" and shown["checkin_error"] is None
    assert invitations_emitted() == 1


def test_a_mail_server_that_is_down_is_502_mail_not_sent(owner, make_booking, smtp_server):
    smtp_server.close()
    booking = make_booking()
    error = resend(owner, booking.id, 502).json["error"]
    assert error["code"] == "MAIL_NOT_SENT"
    assert "cannot reach the mail server" in error["message"]
    assert booking_shown(owner, booking.id)["checkin_status"] == "NOT_STARTED"


def test_an_address_the_server_refuses_is_422_guest_email_rejected(owner, make_booking,
                                                                   smtp_server):
    smtp_server.refuse_recipient_with = "550 5.1.1 <maria@example.com>: no such user"
    booking = make_booking()
    error = resend(owner, booking.id, 422).json["error"]
    assert error["code"] == "GUEST_EMAIL_REJECTED"
    assert "550" in error["message"]
    assert error["details"] == [{"field": "guest_email",
                                 "message": "the mail server refused the guest's address (550)"}]
    assert "maria@example.com" not in str(error)  # the server's words quote it: never passed on
    shown = booking_shown(owner, booking.id)
    assert shown["checkin_status"] == "NOT_STARTED" and "550" in shown["checkin_error"]


def test_a_refusal_keeps_an_invited_booking_invited(owner, make_booking, smtp_server):
    booking = make_booking()
    resend(owner, booking.id)
    smtp_server.refuse_with = "451 4.3.0 try again later"
    resend(owner, booking.id, 502)
    assert booking_shown(owner, booking.id)["checkin_status"] == "INVITED"
    assert invitations_emitted() == 1


def test_e_mails_not_sent_do_not_count_against_the_hourly_limit(owner, make_booking, smtp_server):
    smtp_server.refuse_with = "451 4.3.0 try again later"
    booking = make_booking()
    for _ in range(6):
        resend(owner, booking.id, 502)
    smtp_server.refuse_with = None
    resend(owner, booking.id)


def test_a_completed_check_in_clears_a_stale_error(owner, make_booking, smtp_server):
    from tests.checkin.conftest import greek_party
    smtp_server.refuse_with = "451 4.3.0 try again later"
    booking = make_booking()
    resend(owner, booking.id, 502)
    assert booking_shown(owner, booking.id)["checkin_error"]
    owner.put_json(f"/api/v1/bookings/{booking.id}/guests", {"guests": greek_party()})
    shown = booking_shown(owner, booking.id)
    assert shown["checkin_status"] == "COMPLETED" and shown["checkin_error"] is None


def test_an_idempotent_resend_replays_its_answer_without_a_second_e_mail(owner, make_booking,
                                                                        smtp_server):
    booking = make_booking()
    headers = {"Idempotency-Key": "resend-1"}
    first = owner.post_json("/api/v1/checkins/resend", {"booking_id": booking.id},
                            headers=headers, status=202)
    again = owner.post_json("/api/v1/checkins/resend", {"booking_id": booking.id},
                            headers=headers, status=202)
    assert again.headers["Idempotent-Replayed"] == "true"
    # The link is shown once: the replay is the same invitation without it.
    assert first.json["data"]["checkin_url"].startswith("https://")
    assert again.json["data"] == {**first.json["data"], "checkin_url": None}
    assert again.headers["Idempotent-Withheld"] == "checkin_url"
    assert "Idempotent-Withheld" not in first.headers
    smtp_server.wait(1)
    assert len(smtp_server.messages) == 1


def test_the_openapi_document_lists_the_mail_errors_on_resend(anonymous):
    route = anonymous.get("/api/v1/openapi.json").json["paths"]["/api/v1/checkins/resend"]["post"]
    assert "MAIL_NOT_SENT" in route["responses"]["502"]["description"]
    assert "GUEST_EMAIL_REJECTED" in route["responses"]["422"]["description"]


def test_no_guest_e_mail_is_422_guest_contact_missing(owner, make_booking):
    booking = make_booking(guest_email=None)
    assert resend(owner, booking.id, 422).json["error"]["code"] == "GUEST_CONTACT_MISSING"


def test_without_a_guest_e_mail_the_link_goes_to_the_one_the_guest_typed(owner, make_booking,
                                                                          smtp_server):
    from rentalcomply.checkin import service
    booking = make_booking(guest_email=None)
    service.save_progress(booking, service._checkin_row(booking),
                          [{"first_name": "Maria", "email": "maria.typed@example.net"}],
                          consent=False, lang="en")
    assert resend(owner, booking.id).json["data"]["sent_to"] == "m***@example.net"
    [message] = smtp_server.wait(1)
    assert message["To"] == "maria.typed@example.net"
    assert Booking.get_by_id(booking.id).guest_email is None  # it stays in the sealed party


def test_a_completed_check_in_is_409(owner, make_booking):
    booking = make_booking()
    Booking.update(checkin_status="COMPLETED").where(Booking.id == booking.id).execute()
    assert resend(owner, booking.id, 409).json["error"]["code"] == "CHECKIN_ALREADY_COMPLETED"


def test_a_cancelled_booking_is_409(owner, make_booking):
    booking = make_booking()
    owner.post(f"/api/v1/bookings/{booking.id}/cancel")
    assert resend(owner, booking.id, 409).json["error"]["code"] == "BOOKING_CANCELLED"


def test_past_five_resends_an_hour_is_429_with_retry_after(owner, make_booking):
    booking = make_booking()
    for _ in range(5):
        resend(owner, booking.id)
    refused = resend(owner, booking.id, 429)
    assert refused.json["error"]["code"] == "RATE_LIMITED"
    assert 3500 <= int(refused.headers["Retry-After"]) <= 3600
    clock.travel(dt.timedelta(minutes=61))
    resend(owner, booking.id)


def test_a_stay_that_is_over_has_an_expired_link(owner, make_booking):
    booking = make_booking(arrival_in=1, nights=1)
    clock.travel(dt.timedelta(days=4))
    assert resend(owner, booking.id, 410).json["error"]["code"] == "LINK_EXPIRED"


def test_another_accounts_booking_is_404(outsider, make_booking):
    booking = make_booking()
    assert resend(outsider, booking.id, 404).json["error"]["code"] == "NOT_FOUND"


def test_resend_needs_the_write_scope(reader, make_booking):
    booking = make_booking()
    assert resend(reader, booking.id, 403).json["error"]["code"] == "INSUFFICIENT_SCOPE"


def test_resend_refuses_unknown_fields(owner, make_booking):
    booking = make_booking()
    response = owner.post_json("/api/v1/checkins/resend", {"booking_id": booking.id, "x": 1},
                               status=400)
    assert response.json["error"]["details"][0]["field"] == "x"
