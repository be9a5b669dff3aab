"""Reminders to guests who have not completed check-in, through a real SMTP server on loopback,
on a frozen clock: sent on the schedule's days (7 and 2 days before arrival and the morning of
arrival, from 09:00 in the property's time), once a day however often the task runs, never after
completion or cancellation, never without an address; each in the booking's activity."""

from __future__ import annotations

import datetime as dt

import pytest

from rentalcomply.bookings import service as bookings
from rentalcomply.checkin import reminders, service, tasks
from rentalcomply.checkin.models import Checkin
from rentalcomply.core import clock
from rentalcomply.core.activity import Activity
from rentalcomply.core.errors import ValidationError
from rentalcomply.core.models import Booking
from tests.checkin.conftest import greek_party

START = dt.date(2030, 6, 1)


def at_local(day: dt.date, hour: int) -> None:
    """Stand the frozen clock at `hour` o'clock in Athens (UTC+3 in June) on `day`."""
    clock.travel(dt.datetime.combine(day, dt.time(hour)) - dt.timedelta(hours=3) - clock.utcnow())


@pytest.fixture
def june(frozen_clock):
    at_local(START, 6)
    return frozen_clock


def reminded(booking) -> list:
    return list(Activity.select().where((Activity.resource_id == booking.id)
                                        & (Activity.action == reminders.REMINDED)))


def test_a_guest_is_reminded_seven_and_two_days_before_and_on_the_morning_of_arrival_once_a_day(
        june, make_booking, smtp_server):
    booking = make_booking(arrival_in=9)  # arrives 10 June
    arrival = booking.arrival_date
    sent_on = []
    for offset in range(10):
        day = START + dt.timedelta(days=offset)
        at_local(day, 8)  # before 09:00: nothing yet
        assert tasks.send_due_reminders.call_local() == 0
        for hour in (9, 13, 20):  # the task runs every hour: one e-mail that day at most
            at_local(day, hour)
            if tasks.send_due_reminders.call_local():
                sent_on.append((arrival - day).days)
    assert sent_on == [7, 2, 0]
    messages = smtp_server.wait(3)
    assert len(messages) == 3
    assert all(m["Subject"].startswith("Reminder: online check-in for Villa Anemoi") for m in messages)
    assert smtp_server.link(0) == service.link("https://stay.example.org", booking.id)
    assert len(reminded(booking)) == 3
    # The first reminder brought the link: a mail server took it, the booking is INVITED.
    assert Booking.get_by_id(booking.id).checkin_status == "INVITED"


def test_no_reminder_once_the_check_in_is_complete_or_the_booking_cancelled_or_without_address(
        june, settings, account_a, make_booking, smtp_server):
    done = make_booking(arrival_in=2)
    cancelled = make_booking(arrival_in=2)
    no_address = make_booking(arrival_in=2, guest_email=None)
    waiting = make_booking(arrival_in=2)
    row = service._checkin_row(done)
    assert service.submit(done, row, greek_party(), consent=True, lang="en") == []
    bookings.cancel_booking(account_a, cancelled.id)
    at_local(START, 10)
    assert reminders.due_bookings(settings) == [waiting.id]
    assert tasks.send_due_reminders.call_local() == 1
    assert [m["To"] for m in smtp_server.wait(1)] == ["maria@example.com"]
    for booking in (done, cancelled, no_address):
        assert reminders.send_if_due(settings, booking.id) is False
        assert reminded(booking) == []


def test_two_workers_claim_the_day_once(june, settings, make_booking, smtp_server):
    booking = make_booking(arrival_in=7)
    at_local(START, 9)
    assert reminders.send_if_due(settings, booking.id) is True
    assert reminders.send_if_due(settings, booking.id) is False
    assert Checkin.get_by_id(booking.id).reminded_on == START
    assert len(smtp_server.wait(1)) == 1


def test_the_day_of_the_invitation_brings_no_reminder_too(june, settings, make_booking,
                                                          smtp_server):
    booking = make_booking(arrival_in=7)
    at_local(START, 9)
    service.resend(booking.account_id, booking.id, "https://stay.example.org")
    assert reminders.send_if_due(settings, booking.id) is False
    assert len(smtp_server.wait(1)) == 1


def test_a_server_answering_later_leaves_the_reminder_for_the_next_run(june, settings,
                                                                        make_booking, smtp_server):
    booking = make_booking(arrival_in=2)
    at_local(START, 9)
    smtp_server.refuse_with = "451 4.3.0 try again later"
    assert reminders.send_if_due(settings, booking.id) is False
    assert "451" in Booking.get_by_id(booking.id).checkin_error
    smtp_server.refuse_with = None
    at_local(START, 10)
    assert reminders.send_if_due(settings, booking.id) is True
    assert Booking.get_by_id(booking.id).checkin_error is None


def test_the_account_sets_its_own_schedule_and_nonsense_is_refused(june, settings, account_a,
                                                                   make_booking, smtp_server):
    assert reminders.schedule(settings, account_a) == [7, 2, 0]
    assert reminders.set_schedule(account_a, "1, 3,3") == [3, 1]
    booking = make_booking(arrival_in=2)
    at_local(START, 9)
    assert reminders.send_if_due(settings, booking.id) is False  # 2 days: no longer a reminder day
    at_local(START + dt.timedelta(days=1), 9)
    assert reminders.send_if_due(settings, booking.id) is True
    for nonsense in ("7, soon", "-1", "400"):
        with pytest.raises(ValidationError) as refused:
            reminders.set_schedule(account_a, nonsense)
        assert "like 7, 2, 0" in str(refused.value)
    assert reminders.set_schedule(account_a, "") == []
    assert reminders.schedule(settings, account_a) == []
