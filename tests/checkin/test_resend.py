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


def test_a_failed_delivery_is_shown_on_the_booking(owner, make_booking, smtp_server):
    smtp_server.refuse_with = "451 4.3.0 try again later"
    booking = make_booking()
    resend(owner, booking.id)
    shown = owner.get(f"/api/v1/bookings/{booking.id}").json["data"]
    assert "451" in shown["checkin_error"]
    smtp_server.refuse_with = None
    resend(owner, booking.id)
    assert owner.get(f"/api/v1/bookings/{booking.id}").json["data"]["checkin_error"] is None


def test_no_guest_e_mail_is_422_guest_contact_missing(owner, make_booking):
    booking = make_booking(guest_email=None)
    assert resend(owner, booking.id, 422).json["error"]["code"] == "GUEST_CONTACT_MISSING"


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
