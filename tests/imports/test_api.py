"""POST /api/v1/imports: the file as the body, write scope, the account's own bookings."""

from __future__ import annotations

from rentalcomply.core.models import Booking
from tests.imports.conftest import (AIRBNB_ENGLISH, AIRBNB_US_ROWS, airbnb_english, booking_xls,
                                    booking_xlsx, csv_bytes)

XLS = "application/vnd.ms-excel"
XLSX = "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet"


def post(actor, content: bytes, content_type: str, query: str = "", status=200):
    return actor.post(f"/api/v1/imports{query}", content, content_type=content_type,
                      status=status)


def test_a_dry_run_answers_every_row_and_changes_nothing_then_the_import_applies_it(
        owner, places, feed_bookings):
    preview = post(owner, booking_xls(), XLS, "?dry_run=true").json["data"]
    assert (preview["channel"], preview["file_kind"], preview["dry_run"]) == ("booking", "xls", True)
    assert preview["totals"] == {"created": 1, "updated": 1, "unchanged": 1, "conflict": 0}
    hans = next(row for row in preview["rows"] if row["code"] == "6547074679")
    assert hans["action"] == "updated" and hans["booking_id"] == feed_bookings["hans"]
    assert hans["changes"]["guest_name"] == ["Booking.com guest", "Müller, Hans"]
    assert Booking.get_by_id(feed_bookings["hans"]).external_ref is None

    done = post(owner, booking_xls(), XLS, f"?dry_run=false&plan={preview['plan_digest']}")
    assert done.json["data"]["totals"] == preview["totals"]
    assert Booking.get_by_id(feed_bookings["hans"]).external_ref == "6547074679"
    again = post(owner, booking_xlsx(), XLSX).json["data"]
    assert again["totals"] == {"created": 0, "updated": 0, "unchanged": 3, "conflict": 0}
    booking = owner.get(f"/api/v1/bookings/{feed_bookings['hans']}").json["data"]
    assert (booking["adults"], booking["children"], booking["total_price"]) == (2, 1, 378.63)


def test_a_csv_goes_as_text_csv_and_a_broken_one_is_refused_naming_the_cell(owner, places,
                                                                           feed_bookings):
    assert post(owner, airbnb_english(), "text/csv").json["data"]["totals"]["updated"] == 2
    rows = [list(row) for row in AIRBNB_US_ROWS]
    rows[1][5] = "many"
    refused = post(owner, csv_bytes(AIRBNB_ENGLISH, rows), "text/csv", status=422).json
    assert refused["error"]["code"] == "EXPORT_UNREADABLE"
    assert "Row 3, column '# of children'" in refused["error"]["message"]


def test_the_import_needs_the_write_scope(reader, places):
    refused = post(reader, airbnb_english(), "text/csv", status=403).json
    assert refused["error"]["code"] == "INSUFFICIENT_SCOPE"


def test_another_account_neither_sees_nor_changes_our_bookings(outsider, places, feed_bookings):
    answer = post(outsider, airbnb_english(), "application/octet-stream").json["data"]
    assert all(row["booking_id"] is None for row in answer["rows"])
    assert Booking.get_by_id(feed_bookings["jane"]).guest_name == "Airbnb guest"
    post(outsider, airbnb_english(), "text/csv", f"?property_id={places['villa']}", status=404)


def test_json_a_too_large_file_and_a_stale_plan_are_refused_clearly(owner, places, feed_bookings):
    post(owner, b'{"file": "x"}', "application/json", status=415)
    too_large = post(owner, b"a,b\n" * (300 * 1024), "text/csv", status=413).json
    assert too_large["error"]["code"] == "PAYLOAD_TOO_LARGE"
    stale = post(owner, booking_xls(), XLS, "?plan=" + "0" * 64, status=409).json
    assert stale["error"]["code"] == "IMPORT_PLAN_CHANGED"
    assert Booking.get_by_id(feed_bookings["hans"]).external_ref is None


def test_the_route_is_in_the_openapi_document(owner):
    document = owner.get("/api/v1/openapi.json").json
    operation = document["paths"]["/api/v1/imports"]["post"]
    assert set(operation["requestBody"]["content"]) == {
        "text/csv", XLS, XLSX, "application/octet-stream"}
    assert operation["x-scope"] == "write"


def test_an_idempotency_key_replays_the_same_import_and_refuses_another(owner, places,
                                                                        feed_bookings):
    headers = {"Idempotency-Key": "import-july"}
    first = owner.post("/api/v1/imports?dry_run=true", booking_xls(), headers=headers,
                       content_type=XLS, status=200)
    again = owner.post("/api/v1/imports?dry_run=true", booking_xls(), headers=headers,
                       content_type=XLS, status=200)
    assert again.headers["Idempotent-Replayed"] == "true" and again.json == first.json
    owner.post("/api/v1/imports?dry_run=false", booking_xls(), headers=headers,
               content_type=XLS, status=409)
    assert Booking.get_by_id(feed_bookings["hans"]).external_ref is None


def test_a_file_beyond_a_limit_is_refused_in_the_documented_shape_naming_the_setting(owner, places):
    from tests.imports.bombs import xlsx_far_row
    refused = post(owner, xlsx_far_row(), XLSX, "?dry_run=true", status=422).json["error"]
    assert refused["code"] == "EXPORT_TOO_LARGE"
    assert refused["details"] == [{"field": "imports.max_rows", "message": refused["message"]}]
    assert "row 99999999999 is beyond the limit imports.max_rows" in refused["message"]
    document = owner.get("/api/v1/openapi.json").json
    assert "422" in document["paths"]["/api/v1/imports"]["post"]["responses"]
