"""Every table that grows is kept for its retention and no longer: each purge on a stepped
clock, and a purge of 100,000 rows that never keeps a writer waiting."""

from __future__ import annotations

import datetime as dt
import threading
import time

from rentalcomply.accounts import service as accounts
from rentalcomply.core import activity, clock
from rentalcomply.core import pending as owed
from rentalcomply.core.activity import Activity
from rentalcomply.core.db import db, insert_rows
from rentalcomply.core.ids import new_id
from rentalcomply.core.models import Booking, Event, IdempotencyRecord, Property
from rentalcomply.core.pending import PendingTask
from rentalcomply.ops import retention
from rentalcomply.filings import retention as police_retention
from rentalcomply.filings.models import Filing
from rentalcomply.webhooks import service as webhooks


def record_activity(account_id: str, action: str = "POST /bookings") -> None:
    with db.atomic():
        activity.record(account_id, "key", "key_1", "agency tool", action, "book_1")


def test_the_activity_log_is_kept_its_days_and_no_longer(settings, frozen_clock):
    account = accounts.create_account("A").id
    record_activity(account, "old")
    clock.travel(dt.timedelta(days=settings.retention.activity_days - 1))
    record_activity(account, "recent")
    assert retention.purge_past_retention(settings)["activity"] == 0
    clock.travel(dt.timedelta(days=1, seconds=1))
    assert retention.purge_past_retention(settings)["activity"] == 1
    assert [row.action for row in Activity.select()] == ["recent"]


def test_idempotency_records_are_kept_their_hours(settings, frozen_clock):
    account = accounts.create_account("A").id
    IdempotencyRecord.create(account=account, key="k", request_hash="h", status=201, body="{}",
                             created_at=clock.utcnow())
    clock.travel(dt.timedelta(hours=settings.retention.idempotency_hours))
    assert retention.purge_past_retention(settings)["idempotency_record"] == 0
    clock.travel(dt.timedelta(seconds=1))
    assert retention.purge_past_retention(settings)["idempotency_record"] == 1


def test_owed_work_still_undone_past_its_days_is_given_up_with_a_warning(settings, frozen_clock,
                                                                       caplog):
    with db.atomic():
        owed.record("checkin.invitation", "book_1")
    clock.travel(dt.timedelta(days=settings.retention.pending_tasks_days))
    with db.atomic():
        owed.record("checkin.invitation", "book_2")
    assert retention.purge_past_retention(settings)["pending_task"] == 0
    clock.travel(dt.timedelta(seconds=1))
    assert retention.purge_past_retention(settings)["pending_task"] == 1
    assert [row.key for row in PendingTask.select()] == ["book_2"]
    assert "gave up checkin.invitation for book_1" in caplog.text


def test_delivered_events_go_after_their_days_with_their_deliveries_in_batches(settings,
                                                                               frozen_clock):
    account = accounts.create_account("A").id
    old = clock.utcnow_precise()
    with db.atomic():
        insert_rows(Event, [{"id": new_id("evt"), "account": account, "type": "booking.created",
                             "data": {}, "created_at": old, "dispatched_at": old}
                            for _ in range(1200)])  # more than two batches
    clock.travel(dt.timedelta(days=settings.retention.events_days, seconds=1))
    with db.atomic():
        insert_rows(Event, [{"id": new_id("evt"), "account": account, "type": "booking.created",
                             "data": {}, "created_at": clock.utcnow_precise(),
                             "dispatched_at": clock.utcnow_precise()}])
    assert webhooks.purge_old_events() == 1200
    assert Event.select().count() == 1


def make_filing(account: str, country: str, departed: dt.date) -> str:
    prop = Property.create(id=new_id("prop"), account=account, name="Flat", address="Via 1",
                           country=country)
    booking = Booking.create(id=new_id("book"), account=account, property=prop, guest_name="G",
                             arrival_date=departed - dt.timedelta(days=3),
                             departure_date=departed)
    return Filing.create(id=new_id("pf"), account=account, booking=booking,
                               authority="file", deadline=clock.utcnow(), status="submitted",
                               receipt_sealed="sealed receipt", receipt_type="application/pdf",
                               reference="REF-1").id


def years_ago(years: int, days: int = 0) -> dt.date:
    today = clock.today()
    return today.replace(year=today.year - years) - dt.timedelta(days=days)


def test_police_receipts_are_kept_as_long_as_each_country_says(settings, frozen_clock):
    account = accounts.create_account("A").id
    italy_old = make_filing(account, "IT", years_ago(5, days=1))
    italy_kept = make_filing(account, "IT", years_ago(4, days=300))
    spain_old = make_filing(account, "ES", years_ago(3, days=1))
    spain_kept = make_filing(account, "ES", years_ago(2, days=300))
    elsewhere_kept = make_filing(account, "FR", years_ago(4))
    erased = police_retention.erase_receipts(police_retention.receipt_retention(settings))
    assert erased == 2
    for filing_id in (italy_old, spain_old):
        filing = Filing.get_by_id(filing_id)
        assert filing.receipt_sealed is None and filing.reference == "REF-1"  # the outcome stays
    for filing_id in (italy_kept, spain_kept, elsewhere_kept):
        assert Filing.get_by_id(filing_id).receipt_sealed == "sealed receipt"


def test_purging_a_hundred_thousand_activity_rows_never_keeps_a_writer_waiting(settings,
                                                                             frozen_clock):
    account = accounts.create_account("A").id
    old = clock.utcnow_precise()
    for _ in range(20):
        with db.atomic():
            insert_rows(Activity, [{"id": new_id("act"), "account": account, "actor_type": "key",
                                    "actor_id": "key_1", "actor_label": "tool",
                                    "action": "POST /bookings", "resource_id": "book_1",
                                    "created_at": old} for _ in range(5000)])
    clock.travel(dt.timedelta(days=settings.retention.activity_days, seconds=1))
    purged: list[int] = []

    def purge():
        try:
            purged.append(retention.purge_activity(settings.retention.activity_days))
        finally:
            db.close()

    purger = threading.Thread(target=purge)
    purger.start()
    waits = []
    while purger.is_alive():
        started = time.monotonic()
        record_activity(account, "written meanwhile")
        waits.append(time.monotonic() - started)
        time.sleep(0.005)
    purger.join()
    assert purged == [100_000]
    # The writes went on while the purge ran, each one made (a write held past the busy timeout
    # raises); how long the slowest waited is printed, a figure rather than a check.
    assert len(waits) > 10
    print(f"\n100,000 activity rows purged beside {len(waits)} writes: slowest "
          f"{max(waits) * 1000:.0f} ms")
    assert Activity.select().count() == len(waits)
