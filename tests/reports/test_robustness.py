"""No stray byte or crash stops a report: text already stored with control characters is
written (as U+FFFD), and a generation is recorded and announced once, whoever runs it, even after
its process died."""

import csv
import datetime as dt
import io
import subprocess
import sys
import urllib.parse

from lxml import etree

from rentalcomply.authorities.aade import safetext, xmlfile
from rentalcomply.core import clock
from rentalcomply.core.models import Account, Booking, Event, Property
from rentalcomply.filings import leases
from rentalcomply.reports import generation, tasks
from rentalcomply.reports.models import Report
from tests.conftest import ON_POSTGRES
from tests.reports.test_files import pdf_text


def download(actor, anonymous, fmt, report="rep_2026_03"):
    link = actor.get(f"/api/v1/reports/{report}/download?format={fmt}").json["data"]
    parts = urllib.parse.urlsplit(link["download_url"])
    return anonymous.get(parts.path + "?" + parts.query).body


def ready_events() -> int:
    return Event.select().where(Event.type == "report.ready").count()


# --- control characters already stored -----------------------------------------------------------

def test_a_report_over_rows_holding_control_characters_completes(owner, anonymous, month,
                                                                tmp_path):
    # Written straight into the database, as text stored before the API refused it would be.
    Booking.update(guest_name="Eleni\x01Georgiou", external_ref="REF\x0b1").where(
        Booking.id == month["B1"]).execute()
    # PostgreSQL stores no NUL in text at all; SQLite does.
    end = "" if ON_POSTGRES else "\x00"
    Booking.update(guest_name="John\x1fSmith" + end).where(Booking.id == month["B3"]).execute()
    Booking.update(guest_name="Anna\x07Noprice").where(Booking.id == month["B6"]).execute()
    Property.update(name="Studio\x1bPlaka", address="Adrianou\n12\x0c").where(
        Property.id == month["studio"]).execute()
    Account.update(name="Agency\x02A").where(Account.id == owner.account_id).execute()

    owner.post_json("/api/v1/reports", {"period": "2026-03"}, status=202)
    report = owner.get("/api/v1/reports/rep_2026_03").json["data"]
    assert report["status"] == "completed" and report["booking_count"] == 3, report["error"]

    content = download(owner, anonymous, "xml")
    xmlfile.validate_bytes(content)
    document = etree.fromstring(content)
    names = [n.text for n in document.iterfind(".//{%s}renter/{%s}name" % (xmlfile.NAMESPACE,
                                                                           xmlfile.NAMESPACE))]
    assert "Eleni\ufffdGeorgiou" in names
    assert "John\ufffdSmith" + ("" if ON_POSTGRES else "\ufffd") in names
    text = pdf_text(download(owner, anonymous, "pdf"), tmp_path)
    assert "Eleni\ufffdGeorgiou" in text and "Studio\ufffdPlaka" in text
    assert "Anna\ufffdNoprice" in text  # in the needs-attention list
    rows = list(csv.DictReader(io.StringIO(download(owner, anonymous, "csv").decode("utf-8-sig"))))
    assert rows[0]["renter_name"] == "Eleni\ufffdGeorgiou" and rows[0]["platform_reference"] == \
        "REF\ufffd1"


def test_the_writers_keep_tab_and_newline_in_xml_and_make_one_line_in_the_pdf():
    assert safetext.for_xml("a\tb\nc\x01d\ufffee") == "a\tb\nc\ufffdd\ufffde"
    assert safetext.for_line("a\tb\nc\x01d\x7f") == "a b c\ufffdd\ufffd"
    assert safetext.for_xml(None) is None and safetext.for_line("") == ""


# --- leases ----------------------------------------------------------------------------------------

def dead_pid() -> int:
    finished = subprocess.run([sys.executable, "-c", "import os; print(os.getpid())"],
                              capture_output=True, text=True, check=True)
    return int(finished.stdout)


def stalled(account_id, owner_id, expires_in: dt.timedelta) -> Report:
    """A March report left `generating` by a process that stopped."""
    report = generation.request_generation(account_id, 2026, 3)
    Report.update(status="generating", job="running", lease_owner=owner_id,
                  lease_expires_at=clock.utcnow() + expires_in).where(
        Report.id == report.id).execute()
    return report


def test_a_report_queued_twice_is_generated_and_announced_once(settings, month, account_a):
    generation.request_generation(account_a, 2026, 3)
    first = generation.run_queued(settings, account_a, 2026, 3)
    second = generation.run_queued(settings, account_a, 2026, 3)  # a duplicate task
    assert first.status == second.status == "completed"
    assert Report.get().generation_count == 1 and ready_events() == 1


def test_a_generation_whose_lease_ran_out_is_queued_again_by_the_sweep(settings, month,
                                                                       account_a):
    stalled(account_a, "elsewhere:4242:feedbeef:abc123", -dt.timedelta(seconds=1))
    assert tasks.sweep() == 1  # memory:// runs the queued task at once
    report = Report.get()
    assert report.status == "completed" and report.job is None and report.lease_owner is None
    assert report.generation_count == 1 and ready_events() == 1
    assert tasks.sweep() == 0


def test_a_generation_of_a_dead_process_on_this_machine_is_taken_over_at_once(settings, month,
                                                                              account_a):
    owner_id = f"{leases._HOST}:{dead_pid()}:0badcafe:abc123"
    stalled(account_a, owner_id, dt.timedelta(minutes=5))
    assert tasks.sweep() == 1
    assert Report.get().status == "completed" and ready_events() == 1


def test_a_live_generation_elsewhere_is_left_alone_until_its_lease_runs_out(settings, month,
                                                                            account_a):
    stalled(account_a, "elsewhere:4242:feedbeef:abc123", dt.timedelta(seconds=30))
    assert tasks.sweep() == 0
    assert generation.run_queued(settings, account_a, 2026, 3).status == "generating"
    assert ready_events() == 0
    clock.travel(dt.timedelta(seconds=31))
    assert tasks.sweep() == 1 and Report.get().status == "completed" and ready_events() == 1


def test_a_generation_that_lost_its_lease_records_nothing(settings, month, account_a,
                                                          monkeypatch):
    from rentalcomply.authorities.aade import building

    real = building.build_report

    def superseded_midway(*args, **kwargs):
        # Another process takes the report over while this one reads the bookings.
        Report.update(lease_owner="elsewhere:1:feedbeef:abc123").execute()
        return real(*args, **kwargs)

    monkeypatch.setattr(generation, "build_report", superseded_midway)
    generation.request_generation(account_a, 2026, 3)
    report = generation.run_queued(settings, account_a, 2026, 3)
    assert report.generation_count == 0 and report.files is None and ready_events() == 0
    from rentalcomply.reports.models import ReportFile
    assert ReportFile.select().count() == 0


def test_the_schedule_leaves_a_stalled_month_to_the_sweep_which_finishes_it(settings,
                                                                          account_a):
    Account.update(created_at=dt.datetime(2025, 1, 1)).where(Account.id == account_a).execute()
    from tests.reports.test_schedule import travel_to_athens
    travel_to_athens(dt.datetime(2026, 12, 1, 3, 5))
    report = generation.request_generation(account_a, 2026, 11)
    Report.update(status="generating", job="running", lease_owner="elsewhere:1:feedbeef:abc",
                  lease_expires_at=clock.utcnow() - dt.timedelta(seconds=1)).where(
        Report.id == report.id).execute()
    assert generation.periods_due_for_generation(3) == []  # in flight: not queued twice
    assert tasks.sweep() == 1
    report = Report.get()
    assert report.status == "completed" and not report.provisional and ready_events() == 1
    assert generation.periods_due_for_generation(3) == []


def test_the_migration_marks_reports_made_before_their_period_closed_as_provisional(settings,
                                                                                   account_a):
    import importlib
    from rentalcomply.core.db import db
    migration = importlib.import_module("rentalcomply.migrations.0012_report_leases")
    early = generation.request_generation(account_a, 2026, 11)
    final = generation.request_generation(account_a, 2026, 10)
    Report.update(generated_at=dt.datetime(2026, 11, 23, 9, 0)).execute()
    assert migration.mark_early_reports_provisional(db.obj) == 1
    early, final = Report.get_by_id(early.id), Report.get_by_id(final.id)
    assert early.provisional and early.as_of == dt.date(2026, 11, 23)
    assert not final.provisional
