"""An invitation e-mail is owed in the database until it is sent: a lost task is found again,
and a task queued twice sends once (core/pending.py)."""

import datetime as dt

import pytest

from rentalcomply.checkin import service, tasks
from rentalcomply.core import clock, pending, queue
from tests.conftest import bootstrapped_settings, task_queue_url


@pytest.fixture
def settings(tmp_path, smtp_server):
    """E-mails go through a real queue (SQLite, or Redis in the PostgreSQL pass), run by hand."""
    with bootstrapped_settings(tmp_path, RENTALCOMPLY_SMTP_HOST="127.0.0.1",
                               RENTALCOMPLY_SMTP_PORT=smtp_server.port,
                               RENTALCOMPLY_QUEUE_URL=task_queue_url(tmp_path)) as s:
        yield s
        queue.huey.immediate = True  # back to the memory queue of the other tests


def owed():
    return pending.waiting(service.INVITATION_MAIL)


def test_an_invitation_whose_task_was_lost_is_sent_by_the_sweep_once(settings, make_booking,
                                                                       smtp_server):
    make_booking(arrival_in=5)
    assert tasks.invite_upcoming.call_local() == 1
    assert owed() == 1
    queue.huey.flush()  # the worker that took the task was killed: the queue holds nothing
    assert tasks.sweep_owed_invitations.call_local() == 0  # too early to call it lost
    clock.travel(dt.timedelta(seconds=tasks.SWEEP_GRACE + 1))
    assert tasks.sweep_owed_invitations.call_local() == 1
    queue.run_pending_tasks()
    assert len(smtp_server.wait(1)) == 1
    assert owed() == 0
    clock.travel(dt.timedelta(minutes=10))
    assert tasks.sweep_owed_invitations.call_local() == 0
    assert len(smtp_server.messages) == 1


def test_a_task_queued_twice_sends_one_mail(settings, make_booking, smtp_server):
    booking = make_booking(arrival_in=5)
    assert tasks.invite_upcoming.call_local() == 1
    tasks.send_invitation(booking.id)  # the sweep's copy beside the first
    assert queue.run_pending_tasks() >= 2  # both copies (and the event's delivery task)
    assert len(smtp_server.wait(1)) == 1
    assert owed() == 0


def test_a_mail_being_sent_by_another_worker_is_left_to_it(settings, make_booking, smtp_server):
    booking = make_booking(arrival_in=5)
    assert tasks.invite_upcoming.call_local() == 1
    assert pending.claim(service.INVITATION_MAIL, booking.id, lease_seconds=60) == 1  # the other
    queue.run_pending_tasks()
    assert smtp_server.messages == []
    clock.travel(dt.timedelta(seconds=tasks.SWEEP_GRACE + 61))  # that worker died with the lease
    assert tasks.sweep_owed_invitations.call_local() == 1
    queue.run_pending_tasks()
    assert len(smtp_server.wait(1)) == 1


def test_a_refused_address_is_owed_no_more(settings, make_booking, smtp_server):
    make_booking(arrival_in=5)
    smtp_server.refuse_with = "550 5.1.1 no such user"
    assert tasks.invite_upcoming.call_local() == 1
    queue.run_pending_tasks()
    assert owed() == 0
