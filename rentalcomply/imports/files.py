"""A spreadsheet file as rows of text cells, whatever the kind: old Excel (.xls), XLSX or CSV.

The kind is told by the content, never by the name: an OLE2 compound file is old Excel (what
Booking.com's extranet downloads), a zip is XLSX, anything else is text CSV whose encoding
(UTF-8 with or without BOM, UTF-16 as Excel saves it, else Windows-1252) and delimiter (`,`, `;`,
tab) are sniffed from the first line. Each row keeps its number in the file (the header is
row 1), so that a refusal can name it.
"""

from __future__ import annotations

import csv
import datetime as dt
import io
from dataclasses import dataclass

OLE2_MAGIC = b"\xd0\xcf\x11\xe0\xa1\xb1\x1a\xe1"
ZIP_MAGIC = b"PK\x03\x04"
DELIMITERS = (",", ";", "\t")


class UnreadableFile(Exception):
    """The file cannot be read as an export; the message says where and why. Also as an English
    template and its values (`spoken`), for the dashboard to translate; a value may itself be a
    (template, values) pair."""

    def __init__(self, template: str, **values):
        super().__init__(spoken(template, values))
        self.template, self.values = template, values


def spoken(template: str, values: dict, translate=lambda text: text) -> str:
    """The template filled with its values, each pair among them spoken first, all translated."""
    filled = {name: spoken(*value, translate) if isinstance(value, tuple) else value
              for name, value in values.items()}
    return translate(template).format(**filled)


@dataclass
class Sheet:
    kind: str  # "xls", "xlsx" or "csv"
    header: list[str]
    rows: list[tuple[int, list[str]]]  # (row number in the file, cells as text)


def read_sheet(content: bytes) -> Sheet:
    if not content.strip():
        raise UnreadableFile("The file is empty.")
    if content.startswith(OLE2_MAGIC):
        table, kind = _xls_rows(content), "xls"
    elif content.startswith(ZIP_MAGIC):
        table, kind = _xlsx_rows(content), "xlsx"
    else:
        table, kind = _csv_rows(content), "csv"
    numbered = [(number, row) for number, row in enumerate(table, start=1)
                if any(cell.strip() for cell in row)]
    if not numbered:
        raise UnreadableFile("The file has no rows.")
    (_, header), rows = numbered[0], numbered[1:]
    return Sheet(kind, [cell.strip().lstrip("\ufeff") for cell in header], rows)


def _csv_rows(content: bytes) -> list[list[str]]:
    text = _decoded(content)
    first_line = text.split("\n", 1)[0]
    delimiter = max(DELIMITERS, key=first_line.count)
    try:
        return [row for row in csv.reader(io.StringIO(text, newline=""), delimiter=delimiter)]
    except csv.Error as error:
        raise UnreadableFile("The file is neither a spreadsheet nor readable CSV ({error}).",
                             error=str(error)) from None


def _decoded(content: bytes) -> str:
    if content.startswith((b"\xff\xfe", b"\xfe\xff")):
        return content.decode("utf-16")
    if content.startswith(b"\xef\xbb\xbf"):
        return content[3:].decode("utf-8", errors="replace")
    start = content[:200]
    if start.count(b"\x00") * 4 > len(start):  # UTF-16 without its byte order mark
        return content.decode("utf-16-le" if content[1:2] == b"\x00" else "utf-16-be",
                              errors="replace")
    try:
        return content.decode("utf-8")
    except UnicodeDecodeError:
        return content.decode("cp1252", errors="replace")


def _xls_rows(content: bytes) -> list[list[str]]:
    import xlrd  # only for .xls; xlrd 2 reads nothing else
    try:
        book = xlrd.open_workbook(file_contents=content)
    except Exception as error:  # xlrd raises many kinds for a damaged file
        raise UnreadableFile("The file looks like old Excel (.xls) but cannot be read ({error}).",
                             error=str(error)) \
            from None
    sheet = book.sheet_by_index(0)
    rows = []
    for index in range(sheet.nrows):
        rows.append([_xls_cell(cell, book.datemode) for cell in sheet.row(index)])
    return rows


def _xls_cell(cell, datemode) -> str:
    import xlrd
    if cell.ctype == xlrd.XL_CELL_DATE:
        return _cell_text(xlrd.xldate.xldate_as_datetime(cell.value, datemode))
    if cell.ctype == xlrd.XL_CELL_NUMBER:
        return _cell_text(cell.value)
    return "" if cell.value is None else str(cell.value)


def _xlsx_rows(content: bytes) -> list[list[str]]:
    import openpyxl
    try:
        book = openpyxl.load_workbook(io.BytesIO(content), read_only=True, data_only=True)
    except Exception as error:  # openpyxl raises many kinds for a damaged or foreign zip
        raise UnreadableFile("The file looks like XLSX but cannot be read ({error}).",
                             error=str(error)) from None
    try:
        sheet = book.worksheets[0]
        return [[_cell_text(value) for value in row] for row in sheet.iter_rows(values_only=True)]
    except Exception as error:
        raise UnreadableFile("The file looks like XLSX but cannot be read ({error}).",
                             error=str(error)) from None
    finally:
        book.close()


def _cell_text(value) -> str:
    """A spreadsheet value as the text a CSV export would hold: 6547074679.0 -> 6547074679."""
    if value is None:
        return ""
    if isinstance(value, dt.datetime):
        return value.date().isoformat() if value.time() == dt.time() else \
            value.isoformat(sep=" ", timespec="seconds")
    if isinstance(value, dt.date):
        return value.isoformat()
    if isinstance(value, float) and value.is_integer():
        return str(int(value))
    return str(value)
