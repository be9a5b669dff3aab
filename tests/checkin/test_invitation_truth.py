"""An invitation tells the truth: a booking is INVITED, and `checkin.invited` fires, only once a
mail server accepted the e-mail with the link, whichever path sent it (the automatic invitation,
a host's resend). A refused one is said in words on Today's "Needs a person" and in the morning
e-mail, with what to do. Every guest e-mail carries `Date`, a `Message-ID` on the public host,
`Reply-To` to the host, and plain text and HTML parts (the HTML escaped)."""

from __future__ import annotations

import datetime as dt

import pytest

from rentalcomply.accounts import mail_settings
from rentalcomply.checkin import service, tasks
from rentalcomply.core import clock
from rentalcomply.core.errors import GuestEmailRejected, MailNotSent
from rentalcomply.core.models import Account, Booking, Event
from rentalcomply.dashboard import i18n, mailviews, morning
from rentalcomply.dashboard import service as dashboard
from rentalcomply.dashboard.models import DashboardUser

NO_SUCH_USER = "550 5.1.1 <maria@example.com>: no such user"


def invited_events() -> list:
    return [e for e in Event.select() if e.type == "checkin.invited"]


def test_an_automatic_invitation_the_server_refused_leaves_the_booking_not_invited(
        make_booking, smtp_server):
    smtp_server.refuse_recipient_with = NO_SUCH_USER
    booking = make_booking(arrival_in=1)
    assert tasks.invite_upcoming.call_local() == 1
    after = Booking.get_by_id(booking.id)
    assert after.checkin_status == "NOT_STARTED"
    assert "refused the guest's address (550)" in after.checkin_error
    assert invited_events() == []
    problem = service.invitation_problem(after)
    assert problem["fix"] == service.FIX_ADDRESS and "(550)" in problem["reason"]


def test_a_refused_invitation_is_listed_in_todays_needs_a_person_and_the_morning_email(
        settings, account_a, make_booking, smtp_server):
    smtp_server.refuse_recipient_with = NO_SUCH_USER
    booking = make_booking(arrival_in=1)
    tasks.invite_upcoming.call_local()
    day = dashboard.today(account_a)
    assert [(b.id, p["fix"]) for b, p in day.invitations_failed] == [(booking.id, "address")]
    assert booking.id not in [b.id for b in day.checkins_due]  # listed once
    assert day.needs_a_person == 1
    owner = DashboardUser.create(id="usr_owner", account=account_a, email="owner@example.org",
                                 role="owner")
    message = morning.compose(settings, Account.get_by_id(account_a), owner, day,
                              clock.today(), "Europe/Athens")
    text = message.get_body(("plain",)).get_content()
    assert "Check-in e-mails that did not reach the guest (1)" in text
    assert "Maria Papadopoulou" in text
    assert mailviews.ADVICE["address"] in text
    assert "Correct the e-mail address on the booking" in message.get_body(("html",)).get_content()
    owner.lang = "el"
    greek = morning.compose(settings, Account.get_by_id(account_a), owner, day, clock.today(),
                            "Europe/Athens").get_body(("plain",)).get_content()
    assert "E-mail check-in που δεν έφτασαν στον επισκέπτη (1)" in greek
    assert i18n.translate("el", mailviews.ADVICE["address"]) in greek


def test_a_resend_that_fails_and_the_task_that_fails_say_the_same(owner, make_booking,
                                                                  smtp_server):
    smtp_server.refuse_with = "451 4.3.0 try again later"
    by_hand = make_booking(arrival_in=5)
    with pytest.raises(MailNotSent):
        service.resend(by_hand.account_id, by_hand.id, "https://stay.example.org")
    automatic = make_booking(arrival_in=1)
    tasks.invite_upcoming.call_local()
    for booking in (by_hand, automatic):
        after = Booking.get_by_id(booking.id)
        assert after.checkin_status == "NOT_STARTED"
        assert "answered 451" in after.checkin_error
        assert service.invitation_problem(after)["fix"] == service.FIX_MAIL
    assert invited_events() == []
    smtp_server.refuse_with = None
    service.resend(by_hand.account_id, by_hand.id, "https://stay.example.org")
    after = Booking.get_by_id(by_hand.id)
    assert (after.checkin_status, after.checkin_error) == ("INVITED", None)
    assert len(invited_events()) == 1


def test_a_refused_address_on_resend_is_a_422_and_not_invited(make_booking, smtp_server):
    smtp_server.refuse_recipient_with = NO_SUCH_USER
    booking = make_booking(arrival_in=5)
    with pytest.raises(GuestEmailRejected):
        service.resend(booking.account_id, booking.id, "https://stay.example.org")
    assert Booking.get_by_id(booking.id).checkin_status == "NOT_STARTED"


def test_every_guest_email_carries_date_message_id_on_the_public_host_reply_to_and_two_parts(
        settings, account_a, make_booking, smtp_server):
    mail_settings.save_contact(account_a, name="Eleni Markou", phone="+30 694 123 4567",
                               email="eleni@villa-anemoi.example")
    booking = make_booking(arrival_in=5, guest_name="Maria <b>Papadopoulou</b> & co")
    service.resend(account_a, booking.id, "https://stay.example.org")
    [message] = smtp_server.wait(1)
    assert message["Date"] is not None
    sent = message["Date"].datetime
    assert abs(sent.replace(tzinfo=None) - (clock.utcnow() - dt.timedelta(seconds=0))) \
        < dt.timedelta(minutes=2)
    assert message["Message-ID"].endswith("@stay.example.org>")
    assert "rentalcomply.invalid" not in message["Message-ID"]
    assert message["Reply-To"] == "Eleni Markou <eleni@villa-anemoi.example>"
    plain = message.get_body(("plain",)).get_content()
    html = message.get_body(("html",)).get_content()
    assert "Eleni Markou · +30 694 123 4567 · eleni@villa-anemoi.example" in plain
    assert "Maria <b>Papadopoulou</b> & co" in plain
    assert "Maria &lt;b&gt;Papadopoulou&lt;/b&gt; &amp; co" in html
    assert "<b>Papadopoulou" not in html
    assert "eleni@villa-anemoi.example" in html


def test_the_completion_screen_shows_the_host_contact(settings, account_a, make_booking,
                                                      wsgi_app):
    from webtest import TestApp

    from tests.checkin.conftest import greek_party
    mail_settings.save_contact(account_a, name="Eleni Markou", phone="+30 694 123 4567",
                               email="eleni@villa-anemoi.example")
    booking = make_booking(arrival_in=5)
    row = service._checkin_row(booking)
    assert service.submit(booking, row, greek_party(), consent=True, lang="en") == []
    page = TestApp(wsgi_app).get(f"/checkin/{service.token_for(booking.id)}",
                                 extra_environ={"wsgi.url_scheme": "https"}).text
    assert 'id="host-contact"' in page and "Your host" in page
    assert "Eleni Markou" in page and 'href="tel:+306941234567"' in page
    assert 'href="mailto:eleni@villa-anemoi.example"' in page


def test_a_property_s_own_contact_is_the_reply_to_of_its_guests_e_mails(settings, account_a,
                                                                         make_booking, smtp_server):
    mail_settings.save_contact(account_a, name="Eleni Markou", phone="",
                               email="eleni@villa-anemoi.example")
    booking = make_booking(arrival_in=5)
    mail_settings.save_property_contact(account_a, booking.property_id, name="Yannis",
                                        phone="+30 22860 12345", email="yannis@example.com")
    service.resend(account_a, booking.id, "https://stay.example.org")
    [message] = smtp_server.wait(1)
    assert message["Reply-To"] == "Yannis <yannis@example.com>"
    assert "Yannis · +30 22860 12345 · yannis@example.com" in message.get_body(("plain",)).get_content()


def test_a_guest_who_has_the_link_is_not_chased_for_a_later_e_mail_that_failed(
        account_a, make_booking, smtp_server):
    booking = make_booking(arrival_in=1)
    service.resend(account_a, booking.id, "https://stay.example.org")  # accepted: INVITED
    smtp_server.refuse_with = "451 4.3.0 try again later"
    with pytest.raises(MailNotSent):
        service.resend(account_a, booking.id, "https://stay.example.org")
    after = Booking.get_by_id(booking.id)
    assert after.checkin_status == "INVITED" and "451" in after.checkin_error
    assert service.invitation_problem(after) is None
    day = dashboard.today(account_a)
    assert day.invitations_failed == [] and [b.id for b in day.checkins_due] == [booking.id]
