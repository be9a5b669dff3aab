"""Reports hold what happened: a month still running gives a provisional report of the stays that
have ended, regenerated as final once the month has closed; the lead guest's ΑΦΜ or passport
number from the check-in is in every file as downloaded, and in no file of the data directory."""

import csv
import datetime as dt
import io
import pathlib
import urllib.parse

import pytest
from lxml import etree

from rentalcomply.authorities.aade import xmlfile
from rentalcomply.bookings import service as bookings
from rentalcomply.checkin import service as checkin
from rentalcomply.core import clock
from rentalcomply.core.models import Account, Event
from rentalcomply.properties import service as properties
from rentalcomply.reports import tasks
from tests.conftest import ON_POSTGRES
from tests.helpers import assert_error
from tests.reports.test_files import pdf_text
from tests.reports.test_schedule import travel_to_athens

AFM = "094019245"  # a valid Greek tax number (check digit)
PASSPORT = "YA7730551"
NS = {"r": xmlfile.NAMESPACE}


@pytest.fixture
def november(settings, account_a, rates):
    """On 23 November 2026 (noon, Athens): one stay ended (10 -> 15), one under way (20 -> 29),
    one to come (26 -> 28, in the loft). Eleni (Greek) gave her ΑΦΜ at check-in, John (British) his
    passport."""
    travel_to_athens(dt.datetime(2026, 11, 23, 12, 0))
    Account.update(created_at=dt.datetime(2025, 1, 1)).where(Account.id == account_a).execute()
    studio = properties.create_property(account_a, name="Studio Plaka", address="Adrianou 12",
                                        aade_property_id="00000000001")
    loft = properties.create_property(account_a, name="Loft Psyrri", address="Psyrri",
                                      aade_property_id="00000000002")

    def book(name, arrival, departure, price, prop=studio):
        return bookings.create_booking(account_a, rates=rates, property_id=prop.id,
                                       guest_name=name, arrival_date=arrival,
                                       departure_date=departure, guest_count=1,
                                       total_price=price, payment_method="cash").id

    ids = {"ended": book("Eleni Georgiou", "2026-11-10", "2026-11-15", 500),
           "under_way": book("John Smith", "2026-11-20", "2026-11-29", 900),
           "to_come": book("Maria Later", "2026-11-26", "2026-11-28", 200, loft)}
    checkin.put_guests(account_a, ids["ended"], [{
        "first_name": "Eleni", "last_name": "Georgiou", "birth_date": "1980-05-01",
        "nationality": "GR", "document_type": "id_card", "document_number": "AK123456",
        "document_country": "GR", "tax_id": AFM, "email": "eleni@example.org"}])
    checkin.put_guests(account_a, ids["under_way"], [{
        "first_name": "John", "last_name": "Smith", "birth_date": "1975-02-03",
        "nationality": "GB", "document_type": "passport", "document_number": PASSPORT,
        "document_country": "GB", "email": "john@example.org"}])
    yield ids
    clock.reset()


def download(actor, anonymous, fmt, report="rep_2026_11"):
    link = actor.get(f"/api/v1/reports/{report}/download?format={fmt}").json["data"]
    parts = urllib.parse.urlsplit(link["download_url"])
    return anonymous.get(parts.path + "?" + parts.query).body


def test_a_report_of_the_running_month_is_provisional_and_holds_only_the_stays_that_ended(
        owner, anonymous, november, tmp_path):
    owner.post_json("/api/v1/reports", {"period": "2026-11"}, status=202)
    report = owner.get("/api/v1/reports/rep_2026_11").json["data"]
    assert report["status"] == "completed" and report["provisional"] is True
    assert report["as_of"] == "2026-11-23"
    assert report["booking_count"] == 1 and report["total_revenue"] == 500.0
    # The nights that have passed: 10-14 (Eleni) and 20-22 (John), 8 winter nights at 2.00.
    assert report["climate_fee_total"] == 16.0
    shape_b = owner.get("/api/v1/reports?period=2026-11").json["data"][0]
    assert shape_b["provisional"] is True

    text = pdf_text(download(owner, anonymous, "pdf"), tmp_path)
    assert "ΠΡΟΣΩΡΙΝΗ ΑΝΑΦΟΡΑ" in text and "23/11/2026" in text
    assert "Eleni Georgiou" in text and "John Smith" not in text and "Maria Later" not in text
    document = etree.fromstring(download(owner, anonymous, "xml"))
    assert document.get("status") == "provisional" and document.get("asOf") == "2026-11-23"
    rows = list(csv.DictReader(io.StringIO(download(owner, anonymous, "csv").decode("utf-8-sig"))))
    assert [(r["renter_name"], r["report_status"], r["as_of"]) for r in rows] == [
        ("Eleni Georgiou", "provisional", "2026-11-23")]

    # Not to be filed: the host files the final report.
    response = owner.post_json("/api/v1/reports/rep_2026_11/submission", {"reference": "X-1"},
                               status=409)
    assert "provisional" in assert_error(response, 409, "REPORT_NOT_READY")["message"]


def test_on_the_first_the_schedule_regenerates_it_final_with_every_stay_of_the_month(
        owner, anonymous, november, tmp_path):
    owner.post_json("/api/v1/reports", {"period": "2026-11"}, status=202)
    travel_to_athens(dt.datetime(2026, 12, 1, 3, 5))
    assert tasks.schedule_reports.call_local() == 1
    report = owner.get("/api/v1/reports/rep_2026_11").json["data"]
    assert report["provisional"] is False and report["as_of"] is None
    assert report["status"] == "completed" and report["generation_count"] == 2
    assert report["booking_count"] == 3 and report["total_revenue"] == 1600.0
    ready = [e.data for e in Event.select().where(Event.type == "report.ready")
             .order_by(Event.created_at)]
    assert [(e["provisional"], e["booking_count"]) for e in ready] == [(True, 1), (False, 3)]
    assert tasks.schedule_reports.call_local() == 0  # final now: nothing more to do

    text = pdf_text(download(owner, anonymous, "pdf"), tmp_path)
    assert "ΠΡΟΣΩΡΙΝΗ" not in text and "John Smith" in text and "Maria Later" in text
    assert etree.fromstring(download(owner, anonymous, "xml")).get("status") == "final"
    owner.post_json("/api/v1/reports/rep_2026_11/submission", {"reference": "X-1"}, status=200)


def test_the_renters_afm_or_passport_is_in_every_file_as_downloaded(owner, anonymous, november,
                                                                     tmp_path):
    travel_to_athens(dt.datetime(2026, 12, 1, 3, 5))
    owner.post_json("/api/v1/reports", {"period": "2026-11"}, status=202)

    text = pdf_text(download(owner, anonymous, "pdf"), tmp_path)
    assert f"ΑΦΜ {AFM}" in text and f"Διαβ. {PASSPORT}" in text

    content = download(owner, anonymous, "xml")
    schema_path = pathlib.Path(xmlfile.__file__).with_name("aade-report.xsd")
    document = etree.fromstring(content)
    assert etree.XMLSchema(etree.parse(str(schema_path))).validate(document)
    ids = {stay.find("r:renter/r:name", NS).text: (stay.find("r:renter/r:id", NS).get("type"),
                                                   stay.find("r:renter/r:id", NS).text)
           for stay in document.iterfind("r:property/r:stay", NS)
           if stay.find("r:renter/r:id", NS) is not None}
    assert ids == {"Eleni Georgiou": ("afm", AFM), "John Smith": ("passport", PASSPORT)}

    rows = list(csv.DictReader(io.StringIO(download(owner, anonymous, "csv").decode("utf-8-sig"))))
    assert [(r["renter_name"], r["renter_id_type"], r["renter_id"]) for r in rows] == [
        ("Eleni Georgiou", "afm", AFM), ("John Smith", "passport", PASSPORT),
        ("Maria Later", "", "")]


def test_no_file_of_the_data_directory_holds_the_afm_or_passport_in_clear(owner, anonymous,
                                                                          november, settings):
    travel_to_athens(dt.datetime(2026, 12, 1, 3, 5))
    owner.post_json("/api/v1/reports", {"period": "2026-11"}, status=202)
    assert AFM.encode() in download(owner, anonymous, "csv")  # the download has it ...
    files = [path for path in pathlib.Path(settings.data_dir).rglob("*") if path.is_file()]
    from rentalcomply.reports.models import ReportFile
    assert ReportFile.select().count() == 3  # the files are kept in the database, checked here:
    # every value of every table, as the database gives it back (PostgreSQL or SQLite) ...
    assert values_holding(AFM, PASSPORT) == []
    if not ON_POSTGRES:  # ... and on SQLite the database file itself, byte for byte, below
        assert any(path.name.startswith("rentalcomply.db") for path in files)
    for path in files:  # ... the disk does not: the report files are sealed like the party
        raw = path.read_bytes()
        for secret in (AFM, PASSPORT):
            assert secret.encode() not in raw, path
            assert secret.encode("utf-16-le") not in raw, path


def values_holding(*secrets: str) -> list[tuple[str, str]]:
    """(table, value excerpt) of every value in the application's database that holds one of
    the secrets in clear (text, or bytes as UTF-8 or UTF-16)."""
    from rentalcomply.core.db import db
    found = []
    for table in db.get_tables():
        for row in db.execute_sql(f'SELECT * FROM "{table}"').fetchall():
            for value in row:
                if isinstance(value, (bytes, bytearray, memoryview)):
                    raw = bytes(value)
                    text = raw.decode("utf-8", "replace") + raw.decode("utf-16-le", "replace")
                else:
                    text = str(value)
                found += [(table, text[:80]) for secret in secrets if secret in text]
    return found
