"""Importing the channels' exports into account A's bookings, from the domain function."""

import pytest

from rentalcomply.bookings import service as bookings
from rentalcomply.core.errors import NotFound
from rentalcomply.core.models import Booking, Event
from rentalcomply.imports.service import ExportUnreadable, PlanChanged, import_export
from tests.imports.conftest import (AIRBNB_ENGLISH, AIRBNB_US_ROWS, airbnb_english,
                                    airbnb_spanish, booking_csv, booking_xls, csv_bytes)


def snapshot():
    return ([tuple(row) for row in Booking.select().order_by(Booking.id).tuples()],
            Event.select().count())


def by_code(report):
    return {row.code: row for row in report.rows}


def test_an_airbnb_file_fills_the_feed_bookings_by_code_and_creates_nothing_from_a_cancelled_row(
        account_a, places, feed_bookings, rates):
    report = import_export(account_a, airbnb_english(), rates=rates)
    rows = by_code(report)
    assert report.totals == {"created": 0, "updated": 2, "unchanged": 1, "conflict": 0}
    assert rows["HMQQ7PL2MN"].reason.startswith("cancelled in the channel")
    jane = Booking.get_by_id(feed_bookings["jane"])
    assert (jane.guest_name, jane.adults, jane.children, jane.infants, jane.guest_count) == (
        "Jane Doe", 2, 1, 1, 4)
    assert (jane.total_price_cents, jane.currency, jane.host_fields) == (102000, "EUR", [])
    assert Booking.get_by_id(feed_bookings["ken"]).total_price_cents == 41250
    assert Booking.select().where(Booking.external_ref == "HMQQ7PL2MN").count() == 0
    assert Event.select().where(Event.type == "booking.updated").count() == 2


def test_the_spanish_file_of_the_same_stays_changes_nothing_after_the_english_one(
        account_a, places, feed_bookings, rates):
    import_export(account_a, airbnb_english(), rates=rates)
    before = snapshot()
    report = import_export(account_a, airbnb_spanish(), rates=rates)
    assert report.totals == {"created": 0, "updated": 0, "unchanged": 3, "conflict": 0}
    assert snapshot() == before


def test_a_booking_com_xls_gives_the_feed_booking_its_number_and_creates_the_new_stay(
        account_a, places, feed_bookings, rates):
    report = import_export(account_a, booking_xls("en"), rates=rates)
    rows = by_code(report)
    assert [rows[code].action for code in ("6547074679", "6547074680", "6547074681")] == [
        "updated", "unchanged", "created"]
    hans = Booking.get_by_id(feed_bookings["hans"])
    assert (hans.external_ref, hans.guest_name, hans.guest_count, hans.total_price_cents) == (
        "6547074679", "Müller, Hans", 3, 37863)
    marie = Booking.get_by_id(rows["6547074681"].booking_id)
    assert (marie.channel, marie.source, marie.property_id, marie.guest_name) == (
        "booking", None, places["studio"], "Dubois, Marie")
    assert (marie.adults, marie.children, marie.total_price_cents) == (2, 0, 61250)
    assert Event.select().where(Event.type == "booking.created").count() == 3 + 1


def test_the_italian_csv_after_the_english_xls_changes_nothing(account_a, places, feed_bookings,
                                                               rates):
    import_export(account_a, booking_xls("en"), rates=rates)
    before = snapshot()
    assert import_export(account_a, booking_csv("it"), rates=rates).totals["unchanged"] == 3
    assert import_export(account_a, booking_xls("it"), rates=rates).totals["unchanged"] == 3
    assert snapshot() == before


def test_a_dry_run_changes_nothing_and_plans_what_the_import_then_does(
        account_a, places, feed_bookings, rates):
    before = snapshot()
    preview = import_export(account_a, booking_xls(), rates=rates, dry_run=True)
    assert snapshot() == before
    applied = import_export(account_a, booking_xls(), rates=rates,
                            expected_plan=preview.plan_digest)
    assert [r.action for r in applied.rows] == [r.action for r in preview.rows]


def test_a_preview_whose_bookings_changed_meanwhile_is_not_applied(account_a, places,
                                                                   feed_bookings, rates):
    preview = import_export(account_a, booking_xls(), rates=rates, dry_run=True)
    bookings.update_booking(account_a, feed_bookings["hans"], rates=rates, guest_name="Hans M.")
    before = snapshot()
    with pytest.raises(PlanChanged):
        import_export(account_a, booking_xls(), rates=rates, expected_plan=preview.plan_digest)
    assert snapshot() == before


def test_what_the_host_typed_is_kept_and_shown_as_a_conflict(account_a, places, feed_bookings,
                                                             rates):
    bookings.update_booking(account_a, feed_bookings["jane"], rates=rates,
                            guest_name="Jane Doe-Smith", total_price=1100)
    report = import_export(account_a, airbnb_english(), rates=rates)
    jane_row = by_code(report)["HMCH8MD3BQ"]
    assert jane_row.action == "conflict"
    assert "guest name was set by hand" in jane_row.reason and "price was set by hand" in jane_row.reason
    jane = Booking.get_by_id(feed_bookings["jane"])
    assert (jane.guest_name, jane.total_price_cents) == ("Jane Doe-Smith", 110000)
    assert (jane.guest_count, jane.adults) == (4, 2)  # not typed by the host: filled
    assert sorted(jane.host_fields) == ["guest_name", "total_price_cents"]


def test_a_manual_booking_on_the_same_nights_is_a_conflict_not_a_second_booking(
        account_a, places, rates):
    bookings.create_booking(account_a, rates=rates, property_id=places["studio"],
                            guest_name="Walk In", arrival_date="2026-07-21",
                            departure_date="2026-07-23", guest_count=1)
    rows = by_code(import_export(account_a, booking_xls(), rates=rates))
    assert rows["6547074681"].action == "conflict" and "overlap" in rows["6547074681"].reason
    assert rows["6547074679"].action == "created"


def test_a_confirmed_booking_the_channel_cancelled_is_reported_and_left_for_the_host(
        account_a, places, feed_bookings, rates):
    rows = [list(row) for row in AIRBNB_US_ROWS]
    rows[1][1] = "Canceled by guest"
    report = import_export(account_a, csv_bytes(AIRBNB_ENGLISH, rows), rates=rates)
    assert "cancel it on its page" in by_code(report)["HMZZ4KD8WX"].reason
    assert Booking.get_by_id(feed_bookings["ken"]).status == "confirmed"


def test_a_price_in_another_currency_is_left_to_the_host(account_a, places, feed_bookings, rates):
    rows = [list(row) for row in AIRBNB_US_ROWS]
    rows[1][12] = "$412.50"
    report = import_export(account_a, csv_bytes(AIRBNB_ENGLISH, rows), rates=rates)
    assert "USD, not euros" in by_code(report)["HMZZ4KD8WX"].reason
    assert Booking.get_by_id(feed_bookings["ken"]).total_price_cents is None


def test_a_listing_of_no_property_needs_the_property_chosen(account_a, places, rates):
    rows = [row[:11] + ["Sunset loft"] + row[12:] for row in AIRBNB_US_ROWS]
    content = csv_bytes(AIRBNB_ENGLISH, rows)
    assert import_export(account_a, content, rates=rates, dry_run=True).totals["conflict"] == 2
    report = import_export(account_a, content, rates=rates, property_id=places["villa"])
    assert report.totals["created"] == 2
    with pytest.raises(NotFound):
        import_export(account_a, content, rates=rates, property_id="prop_nope")


def test_a_broken_file_is_refused_naming_row_and_column_with_nothing_changed(
        account_a, places, feed_bookings, rates):
    rows = [list(row) for row in AIRBNB_US_ROWS]
    rows[2][4] = "two"
    before = snapshot()
    with pytest.raises(ExportUnreadable, match="Row 4, column '# of adults'"):
        import_export(account_a, csv_bytes(AIRBNB_ENGLISH, rows), rates=rates)
    assert snapshot() == before


def test_another_accounts_bookings_are_never_matched(account_a, account_b, places, feed_bookings,
                                                     rates):
    report = import_export(account_b, airbnb_english(), rates=rates)
    assert report.totals["updated"] == 0 and report.totals["conflict"] == 2  # no property there
    assert Booking.get_by_id(feed_bookings["jane"]).guest_name == "Airbnb guest"


def test_a_double_booked_feed_stay_gets_its_name_but_keeps_its_count_until_solved(
        account_a, places, feed_bookings, rates):
    # A sync writes overlapping stays of two sources as they come (a double booking to solve).
    walk_in = bookings.create_booking(account_a, rates=rates, property_id=places["villa"],
                                      guest_name="Walk In", arrival_date="2026-08-12",
                                      departure_date="2026-08-15", guest_count=1)
    Booking.update(arrival_date="2026-07-16", departure_date="2026-07-19").where(
        Booking.id == walk_in.id).execute()
    report = import_export(account_a, airbnb_english(), rates=rates)
    ken_row = by_code(report)["HMZZ4KD8WX"]
    assert ken_row.action == "conflict" and "number of guests stays" in ken_row.reason
    ken = Booking.get_by_id(feed_bookings["ken"])
    assert (ken.guest_name, ken.guest_count, ken.total_price_cents) == ("Ken Ito", 1, 41250)
