"""What the worker does on its own: the month just closed on the 1st, the year in January, and
`report.due_soon` five days before the deadline — and the real Huey consumer generating."""

import datetime as dt

import pytest

from rentalcomply.authorities.aade.building import ATHENS
from rentalcomply.core import clock, queue
from rentalcomply.core.models import Event
from rentalcomply.reports import generation, submission, tasks
from rentalcomply.reports.models import Report
from tests.helpers import poll


def travel_to_athens(moment: dt.datetime) -> None:
    """Set the clock so that Athens local time is `moment` (naive, Athens)."""
    target = moment.replace(tzinfo=ATHENS).astimezone(dt.timezone.utc).replace(tzinfo=None)
    clock.reset()
    clock.travel(target - clock.utcnow_precise())


@pytest.fixture
def old_account(account_a):
    from rentalcomply.core.models import Account
    Account.update(created_at=dt.datetime(2025, 1, 1)).where(Account.id == account_a).execute()
    return account_a


def test_before_the_hour_on_the_first_nothing_is_due(settings, old_account):
    travel_to_athens(dt.datetime(2026, 12, 1, 2, 59))
    assert generation.periods_due_for_generation(3) == []


def test_from_the_hour_on_the_first_the_month_just_closed_is_generated_once(settings, old_account):
    travel_to_athens(dt.datetime(2026, 12, 1, 3, 5))
    assert tasks.schedule_reports.call_local() == 1
    report = Report.get(Report.code == "rep_2026_11")
    assert report.status == "completed" and report.account_id == old_account
    assert tasks.schedule_reports.call_local() == 0


def test_in_january_the_year_just_closed_is_generated_too(settings, old_account):
    travel_to_athens(dt.datetime(2027, 1, 1, 4, 0))
    due = {(y, m) for _, y, m in generation.periods_due_for_generation(3)}
    assert due == {(2026, 12), (2026, None)}


def test_a_server_that_was_off_at_the_hour_catches_up_later(settings, old_account):
    travel_to_athens(dt.datetime(2026, 12, 3, 9, 0))
    assert {(y, m) for _, y, m in generation.periods_due_for_generation(3)} == {(2026, 11)}


def test_an_account_created_after_the_month_gets_no_report_for_it(settings, account_a):
    travel_to_athens(dt.datetime(2026, 12, 1, 3, 5))
    from rentalcomply.core.models import Account
    Account.update(created_at=dt.datetime(2026, 12, 1)).where(Account.id == account_a).execute()
    assert generation.periods_due_for_generation(3) == []


def test_due_soon_is_announced_once_five_days_before_the_deadline(settings, old_account):
    generation.request_generation(old_account, 2026, 11)  # due 20 December 2026
    travel_to_athens(dt.datetime(2026, 12, 14, 12, 0))
    assert submission.announce_due_soon() == 0
    travel_to_athens(dt.datetime(2026, 12, 15, 12, 0))
    assert submission.announce_due_soon() == 1
    assert submission.announce_due_soon() == 0
    [event] = Event.select().where(Event.type == "report.due_soon")
    assert event.data["id"] == "rep_2026_11" and event.data["due_date"] == "2026-12-20"


def test_a_submitted_report_is_not_announced(settings, old_account, owner):
    travel_to_athens(dt.datetime(2026, 12, 2, 12, 0))  # November has closed: a final report
    generation.request_generation(old_account, 2026, 11)
    generation.generate(settings, old_account, 2026, 11)
    submission.record_submission(old_account, "rep_2026_11", "R-77")
    travel_to_athens(dt.datetime(2026, 12, 16, 12, 0))
    assert submission.announce_due_soon() == 0


@pytest.fixture
def consumer_settings(tmp_path):
    from tests.conftest import bootstrapped_settings, task_queue_url
    with bootstrapped_settings(tmp_path, RENTALCOMPLY_QUEUE_URL=task_queue_url(tmp_path)) as s:
        yield s


def test_the_real_consumer_generates_a_report_posted_to_the_api(consumer_settings, tmp_path):
    from rentalcomply.accounts import service as accounts
    from rentalcomply.web.app import create_app
    from tests.conftest import make_actor
    account = accounts.create_account("Agency Q").id
    owner = make_actor(create_app(consumer_settings), account, ["read", "write"])
    started = queue.start_embedded_consumer(workers=2)
    try:
        posted = owner.post_json("/api/v1/reports", {"period": "2026-03"}, status=202).json["data"]
        assert posted["status"] == "pending"
        # Under the API's limit however long the consumer takes (tests/helpers.py).
        report = poll(lambda: owner.get("/api/v1/reports/rep_2026_03", expect_errors=True),
                      lambda answer: answer.status_int == 200 and answer.json["data"]["status"]
                      in ("completed", "failed"), what="the report generated").json["data"]
    finally:
        started.stop(graceful=True)
    assert report["status"] == "completed" and report["generation_count"] == 1
    assert Event.select().where(Event.type == "report.ready").count() == 1
