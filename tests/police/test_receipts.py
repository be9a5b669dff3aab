"""The day's Alloggiati Web receipt (`Ricevuta`): fetched once the day of the filings has ended,
kept sealed with them, downloaded through a signed link, retried when the service has none."""

import datetime as dt
import sqlite3
from pathlib import Path
from zoneinfo import ZoneInfo

import pytest

from rentalcomply.core import clock
from rentalcomply.core.models import Booking
from rentalcomply.filings import receipts, tasks
from rentalcomply.filings.models import Filing, PoliceReceipt
from rentalcomply.properties import service as properties
from tests.police.conftest import CREDENTIALS, family, put_guests, travel_to

ROME = ZoneInfo("Europe/Rome")


def rome(day: dt.date, hour: int) -> dt.datetime:
    """That hour of Italian time, as the naive UTC the clock speaks."""
    return (dt.datetime.combine(day, dt.time(hour), ROME).astimezone(dt.timezone.utc)
            .replace(tzinfo=None))


@pytest.fixture
def filed(frozen_clock, owner, double, make_booking):
    """A booking filed at 15:00 Italian time on 10 July 2026 (its receipt: of that day)."""
    travel_to(rome(dt.date(2026, 7, 10), 15))
    booking = make_booking()
    put_guests(owner, booking.id, family())
    assert Booking.get_by_id(booking.id).report_status == "SUBMITTED"
    return booking


def run_receipts():
    """The worker's quarter-hourly task, run here and now (filings/tasks.py)."""
    done = tasks.fetch_receipts.call_local()
    done.pop("owed")
    return done


def test_a_days_filings_get_their_receipt_fetched_the_next_day(filed, double):
    double.receipt_days.clear()
    assert run_receipts() == {"kept": 0, "retried": 0, "failed": 0}  # the day has not ended
    travel_to(rome(dt.date(2026, 7, 10), 23) + dt.timedelta(minutes=59))
    run_receipts()
    assert PoliceReceipt.select().count() == 0 and double.receipt_days == []
    travel_to(rome(dt.date(2026, 7, 11), 0) + dt.timedelta(minutes=15))
    assert run_receipts()["kept"] == 1
    assert double.receipt_days == [dt.date(2026, 7, 10)]
    row = PoliceReceipt.get()
    assert (row.day, row.status, row.account_user) == (dt.date(2026, 7, 10), "kept", "RM012345")
    assert receipts.of_booking(filed.id) == [row]
    # Fetched once: later runs ask nothing more.
    run_receipts()
    travel_to(rome(dt.date(2026, 7, 12), 9))
    run_receipts()
    assert double.receipt_days == [dt.date(2026, 7, 10)] and PoliceReceipt.select().count() == 1


def test_a_receipt_is_kept_sealed_and_its_bytes_are_not_in_the_database_file(filed, double,
                                                                             settings):
    travel_to(rome(dt.date(2026, 7, 11), 8))
    run_receipts()
    row = PoliceReceipt.get()
    assert "%PDF" not in row.pdf_sealed and "Ricevuta" not in row.pdf_sealed
    data, name = receipts.read(row.account_id, row.id)
    assert data.startswith(b"%PDF") and b"2026-07-10" in data
    assert name == "ricevuta-alloggiati-2026-07-10.pdf"
    if settings.database.url:
        return  # PostgreSQL: no database file to read
    from rentalcomply.core.db import db
    db.execute_sql("PRAGMA wal_checkpoint(TRUNCATE)")
    raw = b"".join(path.read_bytes() for path in Path(settings.data_dir).glob("rentalcomply.db*"))
    # The day's receipt's own text, as the double writes it (the one kept on the filing too is
    # sealed; neither is in the file in clear).
    assert b"% Ricevuta 2026-07-10" not in raw and b"%PDF-1.4" not in raw


def test_a_receipt_is_downloaded_through_the_apis_signed_link(filed, owner, anonymous):
    travel_to(rome(dt.date(2026, 7, 11), 8))
    run_receipts()
    listed = owner.get(f"/api/v1/bookings/{filed.id}/police/receipts").json["data"]
    assert listed["booking_id"] == filed.id
    [shown] = listed["receipts"]
    assert (shown["date"], shown["status"], shown["authority"]) == ("2026-07-10", "kept",
                                                                    "alloggiati")
    url = shown["download_url"]
    assert url.startswith("https://stay.example.org/files/police-receipts/")
    answer = anonymous.get(url.split("https://stay.example.org", 1)[1])
    assert answer.content_type == "application/pdf" and answer.body.startswith(b"%PDF")
    assert "ricevuta-alloggiati-2026-07-10.pdf" in answer.headers["Content-Disposition"]


def test_another_accounts_receipt_is_404(filed, owner, outsider, anonymous):
    travel_to(rome(dt.date(2026, 7, 11), 8))
    run_receipts()
    outsider.get(f"/api/v1/bookings/{filed.id}/police/receipts", status=404)
    row = PoliceReceipt.get()
    with pytest.raises(Exception) as refused:
        receipts.read(outsider.account_id, row.id)
    assert refused.value.__class__.__name__ == "NotFound"
    # A link signed for the other account's path never opens this one.
    url = owner.get(f"/api/v1/bookings/{filed.id}/police/receipts").json["data"]["receipts"][0][
        "download_url"].split("https://stay.example.org", 1)[1]
    moved = url.replace(f"/{owner.account_id}/", f"/{outsider.account_id}/")
    anonymous.get(moved, status=403)


def test_an_expired_link_is_refused(filed, owner, anonymous):
    travel_to(rome(dt.date(2026, 7, 11), 8))
    run_receipts()
    url = owner.get(f"/api/v1/bookings/{filed.id}/police/receipts").json["data"]["receipts"][0][
        "download_url"].split("https://stay.example.org", 1)[1]
    clock.travel(dt.timedelta(hours=1, seconds=1))
    answer = anonymous.get(url, status=410)
    assert answer.json["error"]["code"] == "LINK_EXPIRED"
    anonymous.get(url.replace("signature=", "signature=x"), status=403)


def test_a_failing_ricevuta_is_retried_and_never_blocks_filing(filed, owner, double,
                                                                make_booking):
    travel_to(rome(dt.date(2026, 7, 11), 8))
    double.receipt_failures = 3
    assert run_receipts()["retried"] == 1
    row = PoliceReceipt.get()
    assert row.status == "pending" and row.attempts == 1 and "non disponibile" in row.error
    listed = owner.get(f"/api/v1/bookings/{filed.id}/police/receipts").json["data"]["receipts"]
    assert listed[0]["status"] == "pending" and listed[0]["download_url"] is None
    # Filing goes on meanwhile: another property's guests are filed at once, though the
    # service refuses their Ricevuta too.
    second = properties.create_property(owner.account_id, name="Casa Mare", address="Via Mare 2",
                                        country="IT", max_guests=6)
    owner.patch_json(f"/api/v1/properties/{second.id}",
                     {"police_connector": "alloggiati", "police_credentials": CREDENTIALS})
    other = make_booking(prop=second)
    put_guests(owner, other.id, family("YA7654321"))
    assert Booking.get_by_id(other.id).report_status == "SUBMITTED"
    assert double.receipt_failures == 1
    # Not due again before its delay; then once more refused, then kept.
    assert run_receipts()["retried"] == 0
    clock.travel(receipts.backoff(1))
    assert run_receipts()["retried"] == 1
    clock.travel(receipts.backoff(2))
    assert run_receipts()["kept"] >= 1
    assert PoliceReceipt.get_by_id(row.id).status == "kept"
    assert receipts.backoff(1) < receipts.backoff(2) <= receipts.LONGEST_DELAY


def test_a_service_down_is_retried_and_the_retries_end_in_failed(filed, double):
    travel_to(rome(dt.date(2026, 7, 11), 8))
    double.down()
    for attempt in range(1, receipts.MAX_ATTEMPTS + 1):
        run_receipts()
        clock.travel(receipts.backoff(attempt))
    row = PoliceReceipt.get()
    assert (row.status, row.attempts) == ("failed", receipts.MAX_ATTEMPTS)
    assert "cannot be reached" in row.error
    assert Filing.get(Filing.booking == filed.id).status == "submitted"


def test_a_receipt_is_erased_after_the_police_receipts_retention(filed, settings):
    travel_to(rome(dt.date(2026, 7, 11), 8))
    run_receipts()
    from rentalcomply.filings.retention import receipt_retention
    retention = receipt_retention(settings)
    travel_to(rome(dt.date(2031, 7, 12), 8))   # five years after the departure on the 13th
    assert receipts.erase_past(retention) == 0
    travel_to(rome(dt.date(2031, 7, 14), 8))
    assert receipts.erase_past(retention) == 1
    assert PoliceReceipt.select().count() == 0


def test_a_receipt_is_restored_from_a_backup(filed, owner, anonymous, settings, tmp_path):
    if settings.database.url:
        pytest.skip("PostgreSQL is backed up with pg_dump (ops/backup.py)")
    from rentalcomply.core.db import db
    from rentalcomply.ops.backup import create_backup, restore_backup
    travel_to(rome(dt.date(2026, 7, 11), 8))
    run_receipts()
    kept, _ = receipts.read(owner.account_id, PoliceReceipt.get().id)
    archive, _ = create_backup(settings, tmp_path / "site.tar.gz")
    PoliceReceipt.delete().execute()  # lost after the backup
    assert owner.get(f"/api/v1/bookings/{filed.id}/police/receipts").json["data"][
        "receipts"] == []
    db.close()
    restore_backup(settings, archive)
    [shown] = owner.get(f"/api/v1/bookings/{filed.id}/police/receipts").json["data"]["receipts"]
    assert shown["date"] == "2026-07-10" and shown["status"] == "kept"
    answer = anonymous.get(shown["download_url"].split("https://stay.example.org", 1)[1])
    assert answer.body == kept


def test_a_day_with_two_bookings_has_one_receipt_and_a_refiling_joins_its_own_day(
        frozen_clock, owner, double, make_booking, italian_property):
    travel_to(rome(dt.date(2026, 7, 10), 15))
    first = make_booking(nights=2)
    put_guests(owner, first.id, family())
    second = make_booking(arrival=dt.date(2026, 7, 12))
    put_guests(owner, second.id, family("INVALIDO"))  # the lead refused, the member accepted
    assert Filing.get(Filing.booking == second.id).status == "rejected"
    travel_to(rome(dt.date(2026, 7, 11), 9))
    run_receipts()
    [day] = PoliceReceipt.select()
    assert receipts.of_booking(first.id) == [day] == receipts.of_booking(second.id)
    # Corrected and filed again later on the 11th: that day's receipt lists it too.
    clock.travel(dt.timedelta(hours=2))
    put_guests(owner, second.id, family())
    owner.post(f"/api/v1/bookings/{second.id}/police/refile", status="*")
    assert Filing.get(Filing.booking == second.id).status == "submitted"
    run_receipts()
    assert PoliceReceipt.select().count() == 1  # the 11th has not ended
    travel_to(rome(dt.date(2026, 7, 12), 9))
    run_receipts()
    assert [r.day for r in receipts.of_booking(second.id)] == [dt.date(2026, 7, 10),
                                                               dt.date(2026, 7, 11)]
    assert [r.day for r in receipts.of_booking(first.id)] == [dt.date(2026, 7, 10)]
    assert double.receipt_days[-1] == dt.date(2026, 7, 11)


def test_the_served_openapi_document_describes_the_receipts_and_their_download(anonymous):
    document = anonymous.get("/api/v1/openapi.json").json
    listing = document["paths"]["/api/v1/bookings/{booking_id}/police/receipts"]["get"]
    assert "Ricevuta" in listing["description"] and "one hour" in listing["description"]
    assert "PoliceReceipt" in document["components"]["schemas"]
    download = document["paths"]["/files/police-receipts/{account_id}/{receipt_id}"]["get"]
    assert "application/pdf" in download["responses"]["200"]["content"]
    assert {"403", "404", "410"} <= set(download["responses"])
