"""Writes the agency's files (files/agency_*): a new agency with twelve listings in Florence,
Barcelona and Madrid, whose channels call them by their marketing titles, not by the names the
agency gave its properties here (conftest.AGENCY).

- `agency_airbnb_oct.csv`: Airbnb's reservations CSV (English account, US dates) of all twelve
  listings, as Reservations › Export gives it: the guest's phone in "Contact", the booking date
  in "Booked", a party with an infant on a two-guest listing, a cancellation.
- `agency_airbnb_jan.csv`: the next export of the same listings (nothing to ask again).
- `agency_booking.xls`: Booking.com's reservations download of a group account (three
  properties, the old Excel format the extranet gives): "Booked by" last name first, the
  booker's country and phone, the "Property name" beside a unit type that says only
  "Apartment".

Run once by hand (`pip install xlwt && python -m tests.imports.make_listing_files`); the files
are committed.
"""

from __future__ import annotations

import csv
import datetime as dt
import io
from pathlib import Path

HERE = Path(__file__).parent / "files"

# Airbnb's listing title -> (the agency's own name of the property, city, max guests).
AIRBNB_LISTINGS = {
    "Bright 2BR flat in Oltrarno with balcony": ("FLR Oltrarno 2BR", "Florence", 4),
    "Duomo view loft · 5 min walk to the Uffizi": ("FLR Duomo Loft", "Florence", 2),
    "Quiet studio near Santa Croce, fast WiFi": ("FLR Santa Croce Studio", "Florence", 2),
    "Family apartment by Piazza Santo Spirito (A/C)": ("FLR Santo Spirito Family", "Florence", 6),
    "Sunny Gràcia apartment with private terrace": ("BCN Gràcia Terrace", "Barcelona", 4),
    "Modernist 3BR on Passeig de Gràcia": ("BCN Passeig 3BR", "Barcelona", 6),
    "Cosy El Born studio, 10 min to the beach": ("BCN Born Studio", "Barcelona", 2),
    "Sagrada Família view 2BR with lift": ("BCN Sagrada 2BR", "Barcelona", 4),
    "Malasaña loft with balcony – metro Tribunal": ("MAD Malasaña Loft", "Madrid", 2),
    "Elegant 3BR steps from Retiro Park": ("MAD Retiro 3BR", "Madrid", 6),
    "La Latina attic with rooftop views": ("MAD La Latina Attic", "Madrid", 3),
    "Bright studio in Chamberí, work desk": ("MAD Chamberí Studio", "Madrid", 2),
}
# Booking.com's property name -> the agency's property (the same places, other names).
BOOKING_PROPERTIES = {
    "Oltrarno Bright Flat": "FLR Oltrarno 2BR",
    "Casa Gràcia with Terrace": "BCN Gràcia Terrace",
    "Retiro Elegant Suites": "MAD Retiro 3BR",
}

AIRBNB_HEADER = ["Confirmation code", "Status", "Guest name", "Contact", "# of adults",
                 "# of children", "# of infants", "Start date", "End date", "# of nights",
                 "Booked", "Listing", "Earnings"]
GUESTS = [("Emma Schneider", "+49 151 23456789"), ("Lucas Martin", "+33 6 12 34 56 78"),
          ("Olivia Brown", "+44 7700 900123"), ("Mateo Fernández", "+34 612 345 678"),
          ("Sofia Bianchi", "+39 347 123 4567"), ("Noah Jansen", "+31 6 12345678"),
          ("Mia Kowalska", "+48 512 345 678"), ("Liam O'Connor", "+353 87 123 4567"),
          ("Chloé Dubois", "+33 7 98 76 54 32"), ("Ethan Miller", "+1 415 555 0134"),
          ("Aiko Tanaka", "+81 90 1234 5678"), ("Lena Novak", "+386 41 234 567")]


def airbnb_rows(month_start: dt.date, prefix: str, extra: bool) -> list[list[str]]:
    rows = []
    for index, title in enumerate(AIRBNB_LISTINGS):
        guest, phone = GUESTS[index]
        arrival = month_start + dt.timedelta(days=2 * index)
        nights = 3 + index % 3
        adults, children, infants = 2, 0, 0
        if AIRBNB_LISTINGS[title][2] >= 4:
            children = 1
        if title.startswith("Duomo view loft"):
            infants = 1  # a two-guest loft and a baby: Airbnb does not count infants
        rows.append([f"{prefix}{index:02d}K7QZW", "Confirmed", guest, phone, str(adults),
                     str(children), str(infants), arrival.strftime("%m/%d/%Y"),
                     (arrival + dt.timedelta(days=nights)).strftime("%m/%d/%Y"), str(nights),
                     (arrival - dt.timedelta(days=40 + index)).strftime("%m/%d/%Y"), title,
                     f"€{95 * nights + 12.5 * index:,.2f}"])
    if extra:  # a second stay of two listings, and one the guest cancelled
        first, sixth = list(AIRBNB_LISTINGS)[0], list(AIRBNB_LISTINGS)[5]
        rows.append([f"{prefix}90K7QZW", "Confirmed", "Hannah Müller", "+49 170 5550123", "2",
                     "0", "0", "10/25/2026", "10/28/2026", "3", "09/30/2026", first, "€318.00"])
        rows.append([f"{prefix}91K7QZW", "Past guest", "Jonas Berg", "+46 70 123 45 67", "3", "0",
                     "0", "10/26/2026", "10/30/2026", "4", "08/02/2026", sixth, "€760.00"])
        rows.append([f"{prefix}92K7QZW", "Canceled by guest", "Pedro Alves", "", "2", "0", "0",
                     "10/30/2026", "11/02/2026", "3", "09/12/2026", sixth, "€0.00"])
    return rows


def csv_file(rows: list[list[str]]) -> bytes:
    out = io.StringIO(newline="")
    writer = csv.writer(out, lineterminator="\r\n")
    writer.writerow(AIRBNB_HEADER)
    writer.writerows(rows)
    return out.getvalue().encode()


BOOKING_HEADER = ["Book number", "Booked by", "Guest name(s)", "Check-in", "Check-out",
                  "Booked on", "Status", "Rooms", "Persons", "Adults", "Children",
                  "Children's age(s)", "Price", "Commission %", "Commission amount",
                  "Payment status", "Payment method (Payment Provider)", "Remarks",
                  "Booker group", "Booker country", "Travel purpose", "Device", "Unit type",
                  "Property name", "Duration (nights)", "Cancellation date", "Address",
                  "Phone number"]
# (number, booked by, guest names, arrival, nights, booked on, persons, adults, children,
#  country, property, phone)
BOOKING_ROWS = [
    (5012345601, "Schmidt, Anna", "Anna Schmidt, Jonas Schmidt", dt.date(2026, 12, 4), 3,
     "2026-11-20 09:41:07", 2, 2, 0, "de", "Oltrarno Bright Flat", "+49 30 901820"),
    (5012345602, "García López, Javier", "Javier García López", dt.date(2026, 12, 3), 4,
     "2026-11-21 18:02:55", 3, 2, 1, "es", "Casa Gràcia with Terrace", "+34 655 10 20 30"),
    (5012345603, "Rossi, Marco", "Marco Rossi, Giulia Rossi", dt.date(2026, 12, 10), 2,
     "2026-11-22 11:15:00", 2, 2, 0, "it", "Casa Gràcia with Terrace", "+39 335 765 4321"),
    (5012345604, "Dubois, Claire", "Claire Dubois", dt.date(2026, 12, 2), 5,
     "2026-11-19 22:30:12", 1, 1, 0, "fr", "Retiro Elegant Suites", "+33 6 45 67 89 01"),
    (5012345605, "Smith, John", "John Smith, Mary Smith", dt.date(2026, 12, 12), 3,
     "2026-11-23 07:55:40", 4, 2, 2, "gb", "Retiro Elegant Suites", "+44 20 7946 0958"),
    (5012345606, "Kowalski, Piotr", "Piotr Kowalski", dt.date(2026, 12, 15), 2,
     "2026-11-24 13:20:00", 2, 2, 0, "pl", "Oltrarno Bright Flat", "+48 601 234 567"),
]


def write_booking(path: Path) -> None:
    import xlwt
    book = xlwt.Workbook(encoding="utf-8")
    sheet = book.add_sheet("Reservations")
    day = xlwt.easyxf(num_format_str="YYYY-MM-DD")
    for column, title in enumerate(BOOKING_HEADER):
        sheet.write(0, column, title)
    for index, (number, booker, guests, arrival, nights, booked, persons, adults, children,
                country, name, phone) in enumerate(BOOKING_ROWS, start=1):
        price = f"{110 * nights:.4f} EUR"
        values = [float(number), booker, guests, arrival, arrival + dt.timedelta(days=nights),
                  booked, "ok", 1, persons, adults, children, "6" if children else "", price,
                  "15 %", f"{110 * nights * 0.15:.4f} EUR", "Paid online",
                  "Payments by Booking.com", "", "", country, "Leisure", "Desktop",
                  "Apartment", name, nights, "", "", phone]
        for column, value in enumerate(values):
            if isinstance(value, dt.date):
                sheet.write(index, column, value, day)
            else:
                sheet.write(index, column, value)
    book.save(str(path))


if __name__ == "__main__":
    (HERE / "agency_airbnb_oct.csv").write_bytes(
        csv_file(airbnb_rows(dt.date(2026, 10, 3), "HMA", extra=True)))
    (HERE / "agency_airbnb_jan.csv").write_bytes(
        csv_file(airbnb_rows(dt.date(2027, 1, 8), "HMJ", extra=False)))
    write_booking(HERE / "agency_booking.xls")
