"""Writes files/booking_en.xls and files/booking_it.xls: Booking.com's reservations download in
the old Excel format (BIFF8, an OLE2 compound file) that the extranet gives, in English and
Italian, with the columns and values a real download has (see docs/imports.md).

Run once by hand (`pip install xlwt && python -m tests.imports.make_xls_files`); the .xls files
are committed, so the tests need neither xlwt (unmaintained, hence no test dependency) nor
LibreOffice. The book numbers are numbers and the check-in dates real date cells, as a
spreadsheet program writes them: the reader must give `6547074679`, not `6547074679.0`.
"""

from __future__ import annotations

import datetime as dt
from pathlib import Path

HERE = Path(__file__).parent / "files"

ENGLISH = ["Book number", "Booked by", "Guest name(s)", "Check-in", "Check-out", "Booked on",
           "Status", "Rooms", "Persons", "Adults", "Children", "Children's age(s)", "Price",
           "Commission %", "Commission amount", "Payment status",
           "Payment method (Payment Provider)", "Remarks", "Booker group", "Booker country",
           "Travel purpose", "Device", "Unit type", "Duration (nights)", "Cancellation date",
           "Address", "Phone number"]
ITALIAN = ["N° di prenotazione", "Prenotato da", "Nome ospite(i)", "Arrivo", "Partenza",
           "Prenotato il", "Stato", "Camere", "Persone", "Adulti", "Bambini", "Età dei bambini",
           "Prezzo", "% commissione", "Importo commissione", "Stato del pagamento",
           "Metodo di pagamento", "Note", "Gruppo", "Booker country", "Motivo del viaggio",
           "Dispositivo", "Tipo di unità", "Durata (notti)", "Data di cancellazione", "Indirizzo",
           "Numero di telefono"]

# (number, booked by, guests, check-in, check-out, status, persons, adults, children, ages, price,
#  unit, cancellation date)
ROWS = [
    (6547074679, "Müller, Hans", "Hans Müller, Greta Müller, Lena Müller", dt.date(2026, 7, 3),
     dt.date(2026, 7, 6), "ok", 3, 2, 1, "7", "378.6314 EUR", "Studio Plaka", ""),
    (6547074680, "Rossi, Anna", "Anna Rossi", dt.date(2026, 7, 10), dt.date(2026, 7, 12),
     "cancelled_by_guest", 2, 2, 0, "", "0.0000 EUR", "Studio Plaka", "2026-06-20"),
    (6547074681, "Dubois, Marie", "Marie Dubois", dt.date(2026, 7, 20), dt.date(2026, 7, 25),
     "ok", 2, 2, 0, "", "612.5000 EUR", "Studio Plaka", ""),
]


def write(path: Path, header: list[str]) -> None:
    import xlwt
    book = xlwt.Workbook(encoding="utf-8")
    sheet = book.add_sheet("Reservations")
    day = xlwt.easyxf(num_format_str="YYYY-MM-DD")
    for column, title in enumerate(header):
        sheet.write(0, column, title)
    for index, (number, booker, guests, arrival, departure, status, persons, adults, children,
                ages, price, unit, cancelled) in enumerate(ROWS, start=1):
        nights = (departure - arrival).days
        values = [float(number), booker, guests, arrival, departure, "2026-05-01 10:22:11",
                  status, 1, persons, adults, children, ages, price, "15 %",
                  price.replace(price.split()[0], f"{float(price.split()[0]) * 0.15:.4f}"),
                  "Paid online", "Payments by Booking.com", "", "", "de", "Leisure", "Mobile",
                  unit, nights, cancelled, "", "+49 30 1234567"]
        for column, value in enumerate(values):
            if isinstance(value, dt.date):
                sheet.write(index, column, value, day)
            else:
                sheet.write(index, column, value)
    book.save(str(path))


if __name__ == "__main__":
    write(HERE / "booking_en.xls", ENGLISH)
    write(HERE / "booking_it.xls", ITALIAN)
