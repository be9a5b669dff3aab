"""Small files that unfold into huge sheets, as issue 35's review built them, and the XLSX they
hide in: each is a few KB on the wire."""

from __future__ import annotations

import io
import struct
import zipfile

from tests.imports.conftest import booking_xls

CONTENT_TYPES = (
    '<?xml version="1.0" encoding="UTF-8"?>'
    '<Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types">'
    '<Default Extension="rels" ContentType="application/vnd.openxmlformats-package.relationships+xml"/>'
    '<Default Extension="xml" ContentType="application/xml"/>'
    '<Override PartName="/xl/workbook.xml" ContentType="application/vnd.openxmlformats-'
    'officedocument.spreadsheetml.sheet.main+xml"/>'
    '<Override PartName="/xl/worksheets/sheet1.xml" ContentType="application/vnd.openxmlformats-'
    'officedocument.spreadsheetml.worksheet+xml"/></Types>')
ROOT_RELS = (
    '<?xml version="1.0" encoding="UTF-8"?>'
    '<Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships">'
    '<Relationship Id="rId1" Type="http://schemas.openxmlformats.org/officeDocument/2006/'
    'relationships/officeDocument" Target="xl/workbook.xml"/></Relationships>')
WORKBOOK = (
    '<?xml version="1.0" encoding="UTF-8"?>'
    '<workbook xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main" '
    'xmlns:r="http://schemas.openxmlformats.org/officeDocument/2006/relationships">'
    '<sheets><sheet name="Sheet1" sheetId="1" r:id="rId1"/></sheets></workbook>')
WORKBOOK_RELS = (
    '<?xml version="1.0" encoding="UTF-8"?>'
    '<Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships">'
    '<Relationship Id="rId1" Type="http://schemas.openxmlformats.org/officeDocument/2006/'
    'relationships/worksheet" Target="worksheets/sheet1.xml"/></Relationships>')


def xlsx_with_sheet_data(sheet_data: str, dimension: str = "A1") -> bytes:
    """An XLSX whose first sheet's <sheetData> is `sheet_data`, deflated."""
    sheet = ('<?xml version="1.0" encoding="UTF-8"?>'
             '<worksheet xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main">'
             f'<dimension ref="{dimension}"/><sheetData>{sheet_data}</sheetData></worksheet>')
    out = io.BytesIO()
    with zipfile.ZipFile(out, "w", zipfile.ZIP_DEFLATED, compresslevel=9) as archive:
        archive.writestr("[Content_Types].xml", CONTENT_TYPES)
        archive.writestr("_rels/.rels", ROOT_RELS)
        archive.writestr("xl/workbook.xml", WORKBOOK)
        archive.writestr("xl/_rels/workbook.xml.rels", WORKBOOK_RELS)
        archive.writestr("xl/worksheets/sheet1.xml", sheet)
    return out.getvalue()


def xlsx_far_columns(rows: int = 20_000) -> bytes:
    """Issue 35's 2.7 KB file: every row has one cell, in the last column (XFD)."""
    return xlsx_with_sheet_data('<row><c r="XFD1"/></row>' * rows, dimension="A1:XFD20000")


def xlsx_far_row() -> bytes:
    """One row numbered 99,999,999,999: openpyxl made every row before it."""
    return xlsx_with_sheet_data('<row r="1"><c r="A1" t="inlineStr"><is><t>Book number</t></is>'
                                '</c></row><row r="99999999999"><c r="A99999999999"/></row>')


def xls_far_cell() -> bytes:
    """Issue 35's 5.6 KB .xls: Booking.com's download with its last text cell moved to row 65535,
    column 255 (xlrd padded every row to that column: 65,536 x 256 cells)."""
    data = bytearray(booking_xls())
    labels = [at for at in range(len(data) - 4) if data[at:at + 4] == struct.pack("<HH", 0xFD, 10)]
    struct.pack_into("<HH", data, labels[-1] + 4, 65535, 255)
    return bytes(data)


def xls_without_sheets() -> bytes:
    """Booking.com's download whose one sheet record (BOUNDSHEET) is renamed away: a workbook of
    no sheet, which old code asked for its first sheet outside its `try` (a 500)."""
    data = bytearray(booking_xls())
    at = next(at for at in range(len(data) - 4) if data[at:at + 4] == struct.pack("<HH", 0x85, 20))
    struct.pack_into("<H", data, at, 0x86)
    return bytes(data)


def airbnb_stays(rows: int) -> bytes:
    """An Airbnb reservations CSV of `rows` one-night stays at Villa Oia, two days apart, in the
    columns issue 35's 8,000-row file had (about 230 KB for 8,000)."""
    import csv
    import datetime as dt
    out = io.StringIO(newline="")
    writer = csv.writer(out, lineterminator="\r\n")
    writer.writerow(["Confirmation code", "Guest name", "# of adults", "Start date", "End date",
                     "Listing"])
    start = dt.date(2027, 1, 1)
    for index in range(rows):
        arrival = start + dt.timedelta(days=2 * index)
        writer.writerow([f"HM{index:08d}", f"G{index}", "2", f"{arrival:%m/%d/%Y}",
                         f"{arrival + dt.timedelta(days=1):%m/%d/%Y}", "Villa Oia"])
    return out.getvalue().encode()
