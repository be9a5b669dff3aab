"""Reading the channels' files: kinds by content, headers by name in several languages, dates in
each file's own order, amounts in each locale."""

import datetime as dt

import pytest

from rentalcomply.imports.channels import read_export
from rentalcomply.imports.files import UnreadableFile, read_sheet
from rentalcomply.imports.values import parse_amount
from tests.imports.conftest import (AIRBNB_ENGLISH, AIRBNB_US_ROWS, airbnb_english,
                                    airbnb_spanish, booking_csv, booking_xls, booking_xlsx,
                                    csv_bytes)


def read(content: bytes):
    return read_export(read_sheet(content))


def test_an_english_airbnb_file_is_read_with_us_dates_fixed_by_the_whole_column():
    export = read(airbnb_english())
    assert (export.channel, export.kind) == ("airbnb", "csv")
    jane, ken, ola = export.reservations
    assert (jane.arrival, jane.departure) == (dt.date(2026, 7, 5), dt.date(2026, 7, 9))
    assert (jane.code, jane.guest_name, jane.listing) == ("HMCH8MD3BQ", "Jane Doe", "Villa Oia")
    assert (jane.adults, jane.children, jane.infants, jane.guest_count) == (2, 1, 1, 4)
    assert (jane.price_cents, jane.currency) == (102000, "EUR")
    assert (ken.price_cents, ola.cancelled, jane.cancelled) == (41250, True, False)


def test_a_spanish_airbnb_file_saved_by_excel_is_read_day_first_with_decimal_commas():
    export = read(airbnb_spanish())
    assert export.channel == "airbnb"
    jane, ken, ola = export.reservations
    assert (jane.arrival, jane.departure) == (dt.date(2026, 7, 5), dt.date(2026, 7, 9))
    assert (jane.price_cents, ken.price_cents, ola.price_cents) == (102000, 41250, 5000)
    assert ola.cancelled and not ken.cancelled


def test_a_file_whose_dates_all_fit_both_orders_takes_its_languages_order_and_says_so():
    rows = [row[:7] + ["07/05/2026", "07/09/2026"] + row[9:] for row in AIRBNB_US_ROWS[:1]]
    export = read(csv_bytes(AIRBNB_ENGLISH, rows))
    assert export.reservations[0].arrival == dt.date(2026, 7, 5)
    assert export.notes[0][1] == {"format": "MM/DD/YYYY"}


@pytest.mark.parametrize("make", [lambda: booking_xls("en"), lambda: booking_xls("it"),
                                  lambda: booking_csv("en"), lambda: booking_csv("it"),
                                  lambda: booking_xlsx("en")],
                         ids=["xls-en", "xls-it", "csv-en", "csv-it", "xlsx-en"])
def test_booking_com_downloads_read_alike_whatever_the_kind_and_language(make):
    export = read(make())
    assert export.channel == "booking"
    hans, anna, marie = export.reservations
    assert (hans.code, hans.guest_name, hans.listing) == ("6547074679", "Müller, Hans",
                                                          "Studio Plaka")
    assert (hans.arrival, hans.departure) == (dt.date(2026, 7, 3), dt.date(2026, 7, 6))
    assert (hans.adults, hans.children, hans.price_cents, hans.currency) == (2, 1, 37863, "EUR")
    assert anna.cancelled and not marie.cancelled
    assert marie.price_cents == 61250


def test_the_kind_is_told_by_the_content_not_the_name():
    assert read_sheet(booking_xls()).kind == "xls"
    assert read_sheet(booking_xlsx()).kind == "xlsx"
    assert read_sheet(booking_csv()).kind == "csv"


@pytest.mark.parametrize("text, cents, currency", [
    ("$412.50", 41250, "USD"), ("$1,020.00", 102000, "USD"), ("€100", 10000, "EUR"),
    ("-$50.00", -5000, "USD"), ("$\u00a093,53", 9353, "USD"), ("$ 0.00", 0, "USD"),
    ("126.6314 EUR", 12663, "EUR"), ("1.020,50 €", 102050, "EUR"), ("412.5", 41250, None),
])
def test_amounts_are_read_with_their_symbols_separators_and_signs(text, cents, currency):
    assert parse_amount(text) == (cents, currency)


def test_a_file_without_the_required_columns_is_refused_naming_them():
    content = csv_bytes(["Confirmation code", "Status", "Guest name", "Listing"],
                        [["HMCH8MD3BQ", "Confirmed", "Jane", "Villa"]])
    with pytest.raises(UnreadableFile, match="'Start date', 'End date'"):
        read(content)


def test_a_bad_cell_is_refused_naming_its_row_and_column():
    rows = [list(row) for row in AIRBNB_US_ROWS]
    rows[1][12] = "twelve euros"
    with pytest.raises(UnreadableFile, match=r"Row 3, column 'Earnings'"):
        read(csv_bytes(AIRBNB_ENGLISH, rows))
    rows = [list(row) for row in AIRBNB_US_ROWS]
    rows[2][8] = "31/02/2026"
    with pytest.raises(UnreadableFile, match=r"Row 4, column 'End date'"):
        read(csv_bytes(AIRBNB_ENGLISH, rows))


def test_a_file_of_another_kind_is_refused():
    with pytest.raises(UnreadableFile, match="not a reservations export"):
        read(b"name,amount\nx,1\n")
    with pytest.raises(UnreadableFile, match="old Excel"):
        read(booking_xls()[:600])
