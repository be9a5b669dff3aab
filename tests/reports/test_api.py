"""The report endpoints: generation on demand, both list shapes, a report, filing, and the edges."""

import datetime as dt

import pytest

from rentalcomply.core import clock
from rentalcomply.core.models import Booking, Event
from rentalcomply.reports.models import Report
from tests.helpers import assert_error
from tests.reports.conftest import MARCH


def generate(actor, period="2026-03"):
    return actor.post_json("/api/v1/reports", {"period": period}, status=202).json["data"]


def test_post_reports_generates_the_month_with_the_hand_computed_figures(owner, month):
    data = generate(owner)
    # memory:// runs the queued task at once, so the answer already holds the result
    report = owner.get("/api/v1/reports/rep_2026_03").json["data"]
    assert data["id"] == report["id"] == "rep_2026_03"
    assert report["status"] == "completed" and report["period"] == {"year": 2026, "month": 3}
    assert {key: report[key] for key in MARCH} == MARCH
    assert report["due_date"] == "2026-04-20" and report["fee_due_date"] == "2026-04-30"
    assert report["overdue"] is True and report["outdated"] is False
    assert report["format"] == "PDF" and report["file_size"] == report["files"]["pdf"]["size"] > 1000
    assert report["property_id"] is None and report["generation_count"] == 1
    [ready] = Event.select().where(Event.type == "report.ready")
    assert ready.data["id"] == "rep_2026_03" and ready.data["booking_count"] == 3


def test_regenerating_replaces_the_files_and_records_when(owner, month, settings):
    generate(owner)
    first = Report.get(Report.code == "rep_2026_03")
    clock.travel(dt.timedelta(hours=2))
    generate(owner)
    again = owner.get("/api/v1/reports/rep_2026_03").json["data"]
    assert again["generation_count"] == 2 and again["generated_at"] > clock.iso(first.generated_at)
    assert again["version"] > first.version
    from rentalcomply.reports.models import ReportFile
    assert ReportFile.select().count() == 3  # one set of files: the newest


def test_a_report_whose_bookings_changed_after_generation_says_it_is_outdated(owner, month):
    generate(owner)
    clock.travel(dt.timedelta(minutes=1))
    owner.patch_json(f"/api/v1/bookings/{month['B6']}", {"total_price": 90})
    report = owner.get("/api/v1/reports/rep_2026_03").json["data"]
    assert report["outdated"] is True
    generate(owner)
    report = owner.get("/api/v1/reports/rep_2026_03").json["data"]
    assert report["outdated"] is False
    # B6, 12 -> 14 March at 90.00 cash, now a valid stay: 2 winter nights at 2.00
    assert report["booking_count"] == 4 and report["total_revenue"] == 1590.0
    assert report["climate_fee_total"] == 32.0 and report["needs_attention_count"] == 1


def test_a_change_to_another_month_does_not_make_the_report_outdated(owner, month):
    generate(owner)
    clock.travel(dt.timedelta(minutes=1))
    owner.patch_json(f"/api/v1/bookings/{month['B3']}", {"guest_name": "J. Smith"})
    assert owner.get("/api/v1/reports/rep_2026_03").json["data"]["outdated"] is True
    generate(owner, "2026-04")
    assert owner.get("/api/v1/reports/rep_2026_04").json["data"]["outdated"] is False


def test_the_yearly_report_is_rep_yyyy(owner, month):
    data = generate(owner, "2026")
    assert data["id"] == "rep_2026" and data["period"] == {"year": 2026, "month": None}
    report = owner.get("/api/v1/reports/rep_2026").json["data"]
    assert report["booking_count"] == 4 and report["climate_fee_total"] == 42.0
    assert report["due_date"] is None and report["overdue"] is False


@pytest.mark.parametrize("period", ["2026-13", "2026-00", "26-03", "2026-3", "", "2099-01", "1999"])
def test_a_bad_or_future_period_is_refused(owner, period):
    response = owner.post_json("/api/v1/reports", {"period": period}, status=400)
    assert assert_error(response, 400, "VALIDATION_ERROR")["details"][0]["field"] == "period"


def test_generating_needs_the_write_scope(reader):
    assert_error(reader.post_json("/api/v1/reports", {"period": "2026-03"}, status=403), 403,
                 "INSUFFICIENT_SCOPE")


def test_shape_a_lists_reports_newest_first_and_filters_by_year_and_month(owner, month):
    for period in ("2026-02", "2026-03", "2026", "2025-12"):
        generate(owner, period)
    listed = owner.get("/api/v1/reports").json
    assert [r["id"] for r in listed["data"]] == ["rep_2026", "rep_2026_03", "rep_2026_02", "rep_2025_12"]
    assert listed["pagination"] == {"page": 1, "limit": 20, "total": 4, "has_more": False}
    assert [r["id"] for r in owner.get("/api/v1/reports?year=2026").json["data"]] == [
        "rep_2026", "rep_2026_03", "rep_2026_02"]
    assert [r["id"] for r in owner.get("/api/v1/reports?year=2026&month=3").json["data"]] == ["rep_2026_03"]
    page = owner.get("/api/v1/reports?page=2&limit=3").json
    assert [r["id"] for r in page["data"]] == ["rep_2025_12"]
    assert page["pagination"] == {"page": 2, "limit": 3, "total": 4, "has_more": False}
    assert owner.get("/api/v1/reports?page=9").json["data"] == []


def test_shape_b_gives_the_period_with_a_fresh_signed_link(owner, month):
    generate(owner)
    first = owner.get("/api/v1/reports?period=2026-03").json["data"]
    again = owner.get("/api/v1/reports?period=2026-03").json["data"]
    assert first[0] == {"id": "rep_2026_03", "period": "2026-03", "status": "completed",
                        "provisional": False,
                        "property_id": None, "download_url": first[0]["download_url"],
                        "submitted_at": None}
    assert "/files/reports/" in first[0]["download_url"] and ".pdf?" in first[0]["download_url"]
    assert first[0]["download_url"] != again[0]["download_url"]
    assert owner.get("/api/v1/reports?period=2026-05").json["data"] == []


@pytest.mark.parametrize("query, field", [
    ("limit=0", "limit"), ("limit=101", "limit"), ("page=0", "page"), ("month=13", "month"),
    ("month=0", "month"), ("period=2026-13", "period"), ("period=2026", "period"),
    ("period=2026-03&year=2026", "period"), ("period=2026-03&month=3", "period"),
    ("month=3", "year"), ("year=abc", "year"), ("colour=red", "colour")])
def test_list_edges_are_400_naming_the_field(owner, query, field):
    response = owner.get(f"/api/v1/reports?{query}", status=400)
    assert assert_error(response, 400, "VALIDATION_ERROR")["details"][0]["field"] == field


def test_limit_100_is_allowed(owner):
    assert owner.get("/api/v1/reports?limit=100").json["pagination"]["limit"] == 100


def test_another_accounts_report_is_404_everywhere(owner, outsider, month):
    generate(owner)
    for path in ("/api/v1/reports/rep_2026_03", "/api/v1/reports/rep_2026_03/download",
                 "/api/v1/reports/download?report_id=rep_2026_03"):
        assert_error(outsider.get(path, status=404), 404, "NOT_FOUND")
    assert_error(outsider.post_json("/api/v1/reports/rep_2026_03/submission",
                                    {"reference": "X"}, status=404), 404, "NOT_FOUND")
    assert outsider.get("/api/v1/reports").json["data"] == []


def test_recording_the_filing_marks_the_report_submitted(owner, month):
    generate(owner)
    data = owner.post_json("/api/v1/reports/rep_2026_03/submission",
                           {"reference": "ΑΑΔΕ-2026-000123"}).json["data"]
    assert data["status"] == "submitted" and data["submission_reference"] == "ΑΑΔΕ-2026-000123"
    assert data["submitted_at"] is not None and data["overdue"] is False
    assert owner.get("/api/v1/reports?period=2026-03").json["data"][0]["submitted_at"] == data["submitted_at"]
    # regenerating a filed report refreshes its files and keeps it submitted
    generate(owner)
    assert owner.get("/api/v1/reports/rep_2026_03").json["data"]["status"] == "submitted"


def test_only_a_completed_report_can_be_marked_filed(owner, month):
    Report.create(account=owner.account_id, code="rep_2026_01", year=2026, month=1,
                  status="failed")
    response = owner.post_json("/api/v1/reports/rep_2026_01/submission", {"reference": "R-1"},
                               status=409)
    assert_error(response, 409, "REPORT_NOT_READY")
    response = owner.post_json("/api/v1/reports/rep_2026_01/submission", {"reference": " "},
                               status=400)
    assert_error(response, 400, "VALIDATION_ERROR")


def test_a_report_without_files_has_no_download_link(owner):
    Report.create(account=owner.account_id, code="rep_2026_01", year=2026, month=1)
    assert_error(owner.get("/api/v1/reports/rep_2026_01/download", status=409), 409,
                 "REPORT_NOT_READY")
    assert owner.get("/api/v1/reports?period=2026-01").json["data"][0]["download_url"] is None


def test_a_failed_generation_is_failed_with_a_reason_and_report_failed(owner, month, monkeypatch,
                                                                       settings):
    from rentalcomply.reports import generation

    def broken(*args, **kwargs):
        raise OSError("disk full")
    monkeypatch.setattr(generation, "render_csv", broken)
    generate(owner)
    report = owner.get("/api/v1/reports/rep_2026_03").json["data"]
    assert report["status"] == "failed" and "OSError" in report["error"]
    assert "disk full" not in report["error"]  # no internals to the client
    assert Event.select().where(Event.type == "report.failed").count() == 1
    # nothing half-written is left behind
    from rentalcomply.reports.models import ReportFile
    assert ReportFile.select().count() == 0


def test_cancelled_booking_amount_kept_appears_in_the_report(owner, month):
    generate(owner)
    report = owner.get("/api/v1/reports/rep_2026_03").json["data"]
    assert report["cancellation_count"] == 1 and report["amount_kept"] == 150.0
    assert Booking.get_by_id(month["B5"]).amount_kept_cents == 15000
