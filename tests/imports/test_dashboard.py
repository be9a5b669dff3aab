"""The dashboard's "Import reservations" page: upload, a preview of every change, apply."""

from __future__ import annotations

import re

from rentalcomply.bookings import service as bookings
from rentalcomply.core.models import Booking
from rentalcomply.dashboard import i18n
from rentalcomply.imports.service import import_export
from tests.dashboard.conftest import browser_for, anna, boris  # noqa: F401  (fixtures)
from tests.imports.conftest import AIRBNB_ENGLISH, AIRBNB_US_ROWS, booking_xls, csv_bytes


def upload(browser, content: bytes, name: str = "Check-in 2026-07-01 to 2026-07-31.xls",
           status=200, **fields):
    page = browser.get("/dashboard/bookings/import")
    return browser.post("/dashboard/bookings/import",
                        {"csrf": browser.csrf(page), "property_id": "", **fields},
                        upload_files=[("file", name, content)], status=status)


def apply(browser, preview, status=200):
    form = preview.forms["apply-form"]
    return form.submit(status=status)


def test_bookings_link_to_the_import_page(anna):
    assert 'href="/dashboard/bookings/import"' in anna.get("/dashboard/bookings").text


def test_the_preview_shows_every_change_and_changes_nothing_until_applied(anna, places,
                                                                         feed_bookings):
    preview = upload(anna, booking_xls())
    text = preview.text
    assert "Preview: 1 new, 1 filled in, 1 unchanged, 0 conflicts." in text
    assert "Booking.com guest → <strong>Müller, Hans</strong>" in text
    assert "cancelled in the channel: no booking is made from it" in text
    assert Booking.get_by_id(feed_bookings["hans"]).guest_name == "Booking.com guest"
    assert "Müller, Hans" not in re.search(r'name="preview" value="([^"]*)"', text).group(1)

    done = apply(anna, preview)
    assert "Imported: 1 new, 1 filled in, 1 unchanged, 0 conflicts." in done.text
    assert Booking.get_by_id(feed_bookings["hans"]).guest_name == "Müller, Hans"
    apply(anna, preview, status=404)  # a preview is applied once


def test_a_preview_that_no_longer_holds_is_shown_again_not_applied(anna, places, feed_bookings,
                                                                   rates, account_a):
    preview = upload(anna, booking_xls())
    bookings.update_booking(account_a, feed_bookings["hans"], rates=rates, guest_name="H. Müller")
    again = apply(anna, preview, status=409)
    assert "The bookings changed since the preview" in again.text
    assert "the guest name was set by hand" in again.text
    assert Booking.get_by_id(feed_bookings["hans"]).external_ref is None


def test_another_users_preview_cannot_be_applied(anna, boris, places, feed_bookings):
    preview = upload(anna, booking_xls())
    preview_id = re.search(r'name="preview" value="([^"]*)"', preview.text).group(1)
    page = boris.get("/dashboard/bookings/import")
    boris.post("/dashboard/bookings/import/apply",
               {"csrf": boris.csrf(page), "preview": preview_id, "plan": "0" * 64}, status=404)
    assert Booking.get_by_id(feed_bookings["hans"]).external_ref is None


def test_a_broken_file_is_refused_naming_row_and_column(anna, places):
    rows = [list(row) for row in AIRBNB_US_ROWS]
    rows[0][12] = "lots"
    refused = upload(anna, csv_bytes(AIRBNB_ENGLISH, rows), name="reservations.csv", status=422)
    assert "Row 2, column &#039;Earnings&#039;" in refused.text or "Row 2, column 'Earnings'" in refused.text


def test_the_page_speaks_greek_reasons_included(anna, places, feed_bookings):
    anna.get("/dashboard/bookings/import?lang=el")
    preview = upload(anna, booking_xls())
    assert "Εισαγωγή κρατήσεων" in preview.text
    assert "ακυρώθηκε στην πλατφόρμα: δεν δημιουργείται κράτηση" in preview.text
    assert "Εφαρμογή αυτών των αλλαγών" in preview.text


def test_every_reason_an_import_gives_has_its_greek(account_a, places, feed_bookings, rates):
    bookings.update_booking(account_a, feed_bookings["jane"], rates=rates, guest_name="J. Doe")
    rows = [list(row) for row in AIRBNB_US_ROWS] + [
        ["HMXX0000AA", "Confirmed", "Late Row", "", "9", "0", "0", "07/16/2026", "07/17/2026",
         "1", "06/01/2026", "Nowhere", "-€5.00"]]
    rows[1][12] = "$412.50"
    templates = set()
    for content in (csv_bytes(AIRBNB_ENGLISH, rows), booking_xls()):
        for outcome in import_export(account_a, content, rates=rates, dry_run=True).rows:
            templates |= {template for template, _ in outcome.reasons}
    assert len(templates) >= 6
    assert sorted(t for t in templates if not i18n.has_translation("el", t)) == []


def test_an_applied_import_is_in_the_activity_log_in_words(anna, places, feed_bookings):
    apply(anna, upload(anna, booking_xls()))
    assert "imported a channel&#039;s reservations file" in anna.get("/dashboard/activity").text \
        or "imported a channel's reservations file" in anna.get("/dashboard/activity").text


def test_a_broken_file_is_refused_in_greek_too(anna, places):
    anna.get("/dashboard/bookings/import?lang=el")
    rows = [list(row) for row in AIRBNB_US_ROWS]
    rows[0][12] = "lots"
    refused = upload(anna, csv_bytes(AIRBNB_ENGLISH, rows), name="reservations.csv", status=422)
    assert "Γραμμή 2, στήλη «Earnings»: αναμενόταν ποσό όπως" in refused.text


def test_every_refusal_of_a_file_has_its_greek():
    import ast
    from pathlib import Path
    import rentalcomply.imports as package
    texts = set()
    for path in Path(package.__file__).parent.glob("*.py"):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.Call) and getattr(node.func, "id", "") in (
                    "UnreadableFile", "BadValue", "refuse") and node.args:
                for arg in node.args[:3]:
                    for part in ast.walk(arg):
                        if isinstance(part, ast.Constant) and isinstance(part.value, str) \
                                and " " in part.value:  # a text, not a field's or value's name
                            texts.add(part.value)
    assert len(texts) >= 12
    assert sorted(t for t in texts if not i18n.has_translation("el", t)) == []


def test_a_spreadsheet_bomb_is_refused_on_the_page_naming_the_limit_in_greek_too(anna, places):
    from tests.imports.bombs import xlsx_far_columns
    refused = upload(anna, xlsx_far_columns(), name="bomb.xlsx", status=422)
    assert "beyond the 200 columns an export may have (imports.max_columns)" in refused.text
    anna.get("/dashboard/bookings/import?lang=el")
    refused = upload(anna, xlsx_far_columns(), name="bomb.xlsx", status=422)
    assert "πέρα από τις 200 στήλες" in refused.text
    assert Booking.select().count() == 0
