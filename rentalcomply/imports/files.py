"""A spreadsheet file as rows of text cells, whatever the kind: old Excel (.xls), XLSX or CSV.

The kind is told by the content, never by the name: an OLE2 compound file is old Excel (what
Booking.com's extranet downloads), a zip is XLSX, anything else is text CSV whose encoding
(UTF-8 with or without BOM, UTF-16 as Excel saves it, else Windows-1252) and delimiter (`,`, `;`,
tab) are sniffed from the first line. Each row keeps its number in the file (the header is
row 1), so that a refusal can name it.

Every kind is read as a stream of rows counted against the import limits (limits.py), so a file
that declares or holds more rows, columns or cells than an export can have is refused before
it is built. Reading touches no database: the caller reads and plans a file before it opens
any transaction.
"""

from __future__ import annotations

import csv
import io
import struct
from dataclasses import dataclass
from typing import Iterator

from rentalcomply.imports.limits import Limits, RowCounter, TooLarge, UnreadableFile, spoken
from rentalcomply.imports.xlsx import cell_text, xlsx_rows

__all__ = ["Limits", "Sheet", "TooLarge", "UnreadableFile", "read_sheet", "spoken"]

OLE2_MAGIC = b"\xd0\xcf\x11\xe0\xa1\xb1\x1a\xe1"
ZIP_MAGIC = b"PK\x03\x04"
DELIMITERS = (",", ";", "\t")


@dataclass
class Sheet:
    kind: str  # "xls", "xlsx" or "csv"
    header: list[str]
    rows: list[tuple[int, list[str]]]  # (row number in the file, cells as text)


def read_sheet(content: bytes, limits: Limits | None = None) -> Sheet:
    limits = limits or Limits()
    if not content.strip():
        raise UnreadableFile("The file is empty.")
    if content.startswith(OLE2_MAGIC):
        numbered, kind = _xls_rows(content, limits), "xls"
    elif content.startswith(ZIP_MAGIC):
        numbered, kind = xlsx_rows(content, limits), "xlsx"
    else:
        numbered, kind = _csv_rows(content, limits), "csv"
    kept = [(number, _trimmed(row)) for number, row in numbered
            if any(cell.strip() for cell in row)]
    if not kept:
        raise UnreadableFile("The file has no rows.")
    (_, header), rows = kept[0], kept[1:]
    return Sheet(kind, [cell.strip().lstrip("\ufeff") for cell in header], rows)


def _trimmed(row: list[str]) -> list[str]:
    """The row without its empty cells at the end (a reader asks for any column it needs)."""
    end = len(row)
    while end and not row[end - 1]:
        end -= 1
    return row if end == len(row) else row[:end]


# --- CSV ------------------------------------------------------------------------------------------

def _csv_rows(content: bytes, limits: Limits) -> Iterator[tuple[int, list[str]]]:
    text = _decoded(content)
    first_line = text.split("\n", 1)[0]
    delimiter = max(DELIMITERS, key=first_line.count)
    counter = RowCounter(limits)
    try:
        for number, row in enumerate(csv.reader(io.StringIO(text, newline=""),
                                                delimiter=delimiter), start=1):
            counter.row(number, len(row))
            yield number, row
    except csv.Error as error:
        raise UnreadableFile("The file is neither a spreadsheet nor readable CSV ({error}).",
                             error=str(error)) from None


def _decoded(content: bytes) -> str:
    if content.startswith((b"\xff\xfe", b"\xfe\xff")):
        return _strictly(content, "utf-16")
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


def _strictly(content: bytes, encoding: str) -> str:
    """Text that says what it is (a byte order mark) and is not that is refused, naming the row
    where it stops being so: a truncated or damaged file, not one to guess at."""
    try:
        return content.decode(encoding)
    except UnicodeDecodeError as error:
        row = content[:error.start].decode(encoding, errors="replace").count("\n") + 1
        raise UnreadableFile("Row {row}: the file says it is {encoding} text, but byte {byte} "
                             "is not ({reason}); save it again from the spreadsheet program.",
                             row=row, encoding=encoding.upper(), byte=error.start,
                             reason=error.reason) from None


# --- old Excel (.xls) ------------------------------------------------------------------------------

# The BIFF records that hold a cell, each starting with its row and column (16 bits each), and
# MULRK/MULBLANK, whose last column ends the record.
_CELL_RECORDS = {0x0006, 0x0406, 0x0206, 0x0201, 0x0203, 0x0204, 0x0205, 0x027E, 0x00D6, 0x00FD}
_MULTI_CELL_RECORDS = {0x00BD, 0x00BE}
_DIMENSIONS, _EOF = {0x0200, 0x0000}, 0x000A


def _xls_rows(content: bytes, limits: Limits) -> Iterator[tuple[int, list[str]]]:
    import xlrd  # only for .xls; xlrd 2 reads nothing else
    try:
        # on_demand: the sheets are not read yet, so their records can be counted first;
        # ragged_rows: xlrd keeps each row as long as its cells, never pads it to the widest.
        book = xlrd.open_workbook(file_contents=content, on_demand=True, ragged_rows=True,
                                  logfile=_Quiet())
        _check_xls_sheet(book, 0, limits)
        sheet = book.sheet_by_index(0)
    except (UnreadableFile, MemoryError):
        raise
    except Exception as error:  # xlrd raises many kinds for a damaged file
        raise UnreadableFile("The file looks like old Excel (.xls) but cannot be read ({error}).",
                             error=str(error)[:200] or type(error).__name__) from None
    counter = RowCounter(limits)
    for index in range(sheet.nrows):
        width = sheet.row_len(index)
        counter.row(index + 1, width)
        yield index + 1, [_xls_cell(cell, book.datemode) for cell in sheet.row(index)]


class _Quiet:
    """Where xlrd writes its warnings about a damaged file (by default the server's stdout):
    the refusal says what matters, and the log stays the product's own."""

    def write(self, text: str) -> None:
        pass


def _check_xls_sheet(book, index: int, limits: Limits) -> None:
    """Read the sheet's records without building anything: its declared dimensions and every
    cell's row and column are checked against the limits before xlrd reads the sheet (whose
    rows it would make as long as the furthest cell, however far)."""
    # xlrd's own record of where each sheet's records start (kept by xlrd 2.0, the last
    # version: it is no longer developed), and the workbook stream it read them from.
    positions = getattr(book, "_sh_abs_posn", [])
    if index >= len(positions):
        raise UnreadableFile("The file looks like old Excel (.xls) but cannot be read ({error}).",
                             error="no sheet")
    data, position, cells = book.mem, positions[index], 0
    biff8 = book.biff_version >= 80
    while position + 4 <= len(data):
        code, length = struct.unpack_from("<HH", data, position)
        body = data[position + 4:position + 4 + length]
        position += 4 + length
        if code == _EOF:
            return
        if code in _DIMENSIONS and len(body) >= (14 if biff8 else 10):
            last_row, last_column = (struct.unpack_from("<4xI2xH", body) if biff8
                                     else struct.unpack_from("<2xH2xH", body))
            limits.check_row(last_row)  # one past the last, as the header is row 1
            limits.check_column(last_column, last_row)
        elif code in _CELL_RECORDS | _MULTI_CELL_RECORDS and len(body) >= 6:
            row, column = struct.unpack_from("<HH", body)
            if code in _MULTI_CELL_RECORDS:
                cells += max(0, struct.unpack_from("<H", body, len(body) - 2)[0] - column)
                column = struct.unpack_from("<H", body, len(body) - 2)[0]
            cells += 1
            limits.check_row(row + 1)
            limits.check_column(column + 1, row + 1)
            limits.check_cells(cells)


def _xls_cell(cell, datemode) -> str:
    import xlrd
    if cell.ctype == xlrd.XL_CELL_DATE:
        try:
            return cell_text(xlrd.xldate.xldate_as_datetime(cell.value, datemode))
        except (ValueError, OverflowError, xlrd.xldate.XLDateError):  # before 1900, or too late
            return cell_text(cell.value)
    if cell.ctype == xlrd.XL_CELL_NUMBER:
        return cell_text(cell.value)
    return "" if cell.value is None else str(cell.value)
