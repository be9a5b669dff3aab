"""Account A's places and the channels' files, shaped as the channels export them.

Airbnb's reservations CSV is written here (English with US dates, Spanish with day-first dates
and decimal commas); Booking.com's download is the committed .xls (files/, made once by
make_xls_files.py) or the same rows as CSV/XLSX written here.
"""

from __future__ import annotations

import csv
import io
from pathlib import Path

import pytest

from rentalcomply.bookings import service as bookings
from rentalcomply.bookings.fees import FeeRates
from rentalcomply.properties import service as properties

FILES = Path(__file__).parent / "files"

AIRBNB_ENGLISH = ["Confirmation code", "Status", "Guest name", "Contact", "# of adults",
                  "# of children", "# of infants", "Start date", "End date", "# of nights",
                  "Booked", "Listing", "Earnings"]
AIRBNB_SPANISH = ["Código de confirmación", "Estado", "Nombre del huésped", "Contacto",
                  "Número de adultos", "Número de niños", "Número de bebés", "Fecha de inicio",
                  "Fecha de finalización", "Número de noches", "Reservada", "Anuncio", "Ganancias"]

# Villa Oia's July of Airbnb stays, in the US order of an English account: 07/05 is 5 July
# (the column's 07/15 leaves no other reading).
AIRBNB_US_ROWS = [
    ["HMCH8MD3BQ", "Past guest", "Jane Doe", "+1 555 0100", "2", "1", "1", "07/05/2026",
     "07/09/2026", "4", "05/02/2026", "Villa Oia", "€1,020.00"],
    ["HMZZ4KD8WX", "Confirmed", "Ken Ito", "+81 90 0000 0000", "2", "0", "0", "07/15/2026",
     "07/18/2026", "3", "06/01/2026", "Villa Oia", "€412.50"],
    ["HMQQ7PL2MN", "Canceled by guest", "Ola Nordmann", "", "1", "0", "0", "07/20/2026",
     "07/22/2026", "2", "06/03/2026", "Villa Oia", "€50.00"],
]
# The same stays as a Spanish account exports them: day first without leading zeros, the
# booking date still ISO, amounts with a non-breaking space and a decimal comma.
AIRBNB_SPANISH_ROWS = [
    ["HMCH8MD3BQ", "Estadía en curso", "Jane Doe", "+1 555 0100", "2", "1", "1", "5/7/2026",
     "9/7/2026", "4", "2026-05-02", "Villa Oia", "1.020,00\u00a0€"],
    ["HMZZ4KD8WX", "Confirmada", "Ken Ito", "+81 90 0000 0000", "2", "0", "0", "15/7/2026",
     "18/7/2026", "3", "2026-06-01", "Villa Oia", "€\u00a0412,50"],
    ["HMQQ7PL2MN", "Cancelación por parte del viajero", "Ola Nordmann", "", "1", "0", "0",
     "20/7/2026", "22/7/2026", "2", "2026-06-03", "Villa Oia", "€\u00a050,00"],
]


def csv_bytes(header: list[str], rows: list[list[str]], *, delimiter: str = ",",
              encoding: str = "utf-8") -> bytes:
    out = io.StringIO(newline="")
    writer = csv.writer(out, delimiter=delimiter, lineterminator="\r\n")
    writer.writerow(header)
    writer.writerows(rows)
    return out.getvalue().encode(encoding)


def airbnb_english() -> bytes:
    return csv_bytes(AIRBNB_ENGLISH, AIRBNB_US_ROWS)


def airbnb_spanish() -> bytes:
    """As Excel saves a CSV for a Spanish locale: UTF-8 with BOM, `;` between cells."""
    return csv_bytes(AIRBNB_SPANISH, AIRBNB_SPANISH_ROWS, delimiter=";", encoding="utf-8-sig")


def booking_xls(language: str = "en") -> bytes:
    return (FILES / f"booking_{language}.xls").read_bytes()


def booking_rows_of_xls(language: str = "en") -> tuple[list[str], list[list[str]]]:
    from rentalcomply.imports.files import read_sheet
    sheet = read_sheet(booking_xls(language))
    return sheet.header, [row for _, row in sheet.rows]


def booking_csv(language: str = "en", encoding: str = "utf-16") -> bytes:
    """Booking.com's download saved as CSV by Excel ("Unicode text": UTF-16, tab-separated)."""
    header, rows = booking_rows_of_xls(language)
    return csv_bytes(header, rows, delimiter="\t", encoding=encoding)


def booking_xlsx(language: str = "en") -> bytes:
    import openpyxl
    header, rows = booking_rows_of_xls(language)
    book = openpyxl.Workbook()
    sheet = book.active
    sheet.append(header)
    for row in rows:
        sheet.append([float(row[0])] + row[1:])  # the number as a number, as Excel keeps it
    out = io.BytesIO()
    book.save(out)
    return out.getvalue()


@pytest.fixture
def rates(settings):
    return FeeRates.from_settings(settings)


@pytest.fixture
def places(settings, account_a):
    """Account A's Studio Plaka (Booking.com) and Villa Oia (Airbnb), both with an AMA."""
    studio = properties.create_property(account_a, name="Studio Plaka", address="Adrianou 12",
                                        aade_property_id="00000000001", max_guests=4)
    villa = properties.create_property(account_a, name="Villa Oia", address="Oia",
                                       aade_property_id="00000000002", max_guests=6)
    return {"studio": studio.id, "villa": villa.id}


@pytest.fixture
def feed_bookings(account_a, places, rates):
    """What the calendar feeds brought before any export: Airbnb's July stays with their codes
    and the channel's placeholder name, and Booking.com's first stay without a code."""
    def feed(prop, arrival, departure, channel, name, code=None):
        return bookings.create_booking(account_a, rates=rates, property_id=places[prop],
                                       guest_name=name, arrival_date=arrival,
                                       departure_date=departure, guest_count=1, channel=channel,
                                       external_ref=code).id
    return {
        "jane": feed("villa", "2026-07-05", "2026-07-09", "airbnb", "Airbnb guest", "HMCH8MD3BQ"),
        "ken": feed("villa", "2026-07-15", "2026-07-18", "airbnb", "Airbnb guest", "HMZZ4KD8WX"),
        "hans": feed("studio", "2026-07-03", "2026-07-06", "booking", "Booking.com guest"),
    }


AGENCY_CITIES = {"Florence": ("IT", "Europe/Rome"), "Barcelona": ("ES", "Europe/Madrid"),
                 "Madrid": ("ES", "Europe/Madrid")}


def agency_file(name: str) -> bytes:
    return (FILES / name).read_bytes()


@pytest.fixture
def agency(settings, account_a):
    """Account A as a new agency: its twelve places named its own way (make_listing_files.py
    AIRBNB_LISTINGS), none of them as Airbnb or Booking.com call them. Name -> property id."""
    from tests.imports.make_listing_files import AIRBNB_LISTINGS
    made = {}
    for name, city, max_guests in AIRBNB_LISTINGS.values():
        country, zone = AGENCY_CITIES[city]
        made[name] = properties.create_property(account_a, name=name, address=f"{city} centre",
                                                country=country, timezone=zone,
                                                max_guests=max_guests).id
    return made
