"""An XLSX file's first sheet as a stream of rows, read within the import limits.

Not openpyxl's reader, because of what it does with a hostile file (issue 35): it pads every row
to its last cell's column and fills every missing row up to a row's number (20,000 rows of
`<c r="XFD1"/>` took 2.7 GB; one `<row r="99999999999">` ran until the memory cap), reads the
whole shared-strings table and styles into memory whatever their size, and keeps every parsed
element of a row until the row ends. Here the zip's parts are unpacked at most to the size
their directory declares (zipfile stops there), and that sum is checked first; the XML is
parsed as a stream (defusedxml: no DTD, no entities) whose elements are dropped once read; a
row's number and each cell's column are checked against the limits when their start tag is
read, before anything is built for them. openpyxl still says which number formats are dates
and turns serial numbers into dates, so values read as they did.
"""

from __future__ import annotations

import datetime as dt
import io
import posixpath
import re
import struct
import zipfile
import zlib
from typing import Callable, Iterator
from xml.etree.ElementTree import ParseError

from defusedxml import DefusedXmlException
from defusedxml.ElementTree import iterparse

from rentalcomply.imports.limits import Limits, RowCounter, UnreadableFile

MAIN = "{http://schemas.openxmlformats.org/spreadsheetml/2006/main}"
DOC_REL = "{http://schemas.openxmlformats.org/officeDocument/2006/relationships}"
PKG_REL = "{http://schemas.openxmlformats.org/package/2006/relationships}"
ROW, CELL, SHEET_DATA = MAIN + "row", MAIN + "c", MAIN + "sheetData"
# Excel itself allows 64,000 cell formats; more is no spreadsheet program's file.
MAX_FORMATS = 65_536
# A cell holds one value, or one rich text of a few runs; more elements in one cell is a trick.
MAX_ELEMENTS_IN_CELL = 1_000
# A sheet's XML nests five deep (worksheet, sheetData, row, c, v), a rich text a few more.
MAX_DEPTH = 32
_COLUMN = re.compile(r"([A-Z]{1,3})[0-9]*")
UNREADABLE = "The file looks like XLSX but cannot be read ({error})."
# What zipfile, zlib and the XML parser raise for a damaged zip or part, a wrong CRC, an
# encrypted part, an unknown compression or zip version, a DTD: none is the server's fault.
# (MemoryError is not among them: it is the server's, and never a file's "cannot be read".)
DAMAGED = (KeyError, ValueError, IndexError, ParseError, DefusedXmlException, zipfile.BadZipFile,
           zipfile.LargeZipFile, zlib.error, struct.error, EOFError, OSError, RuntimeError,
           NotImplementedError)


def xlsx_rows(content: bytes, limits: Limits) -> Iterator[tuple[int, list[str]]]:
    """(row number, cells as text) of the first sheet's rows that have a cell, in order."""
    try:
        archive = zipfile.ZipFile(io.BytesIO(content))
        infos = archive.infolist()
    except DAMAGED as error:
        raise _unreadable(error) from None
    limits.check_unpacked(sum(info.file_size for info in infos))
    names = {info.filename for info in infos}
    try:
        workbook = _office_document(archive, names)
        sheet_path, strings_path, styles_path, date1904 = _workbook(archive, names, workbook)
        strings = _shared_strings(archive, strings_path, limits) if strings_path else []
        dates = _date_styles(archive, styles_path) if styles_path else []
        converter = _Converter(strings, dates, date1904)
        yield from _sheet_rows(archive, sheet_path, limits, converter)
    except (UnreadableFile, MemoryError):
        raise
    except DAMAGED as error:
        raise _unreadable(error) from None


def _unreadable(error: Exception) -> UnreadableFile:
    reason = str(error)[:200] or type(error).__name__
    return UnreadableFile(UNREADABLE, error=reason)


def _elements(archive: zipfile.ZipFile, path: str, keep: Callable[[list], bool] = lambda s: False):
    """('start' or 'end', element, depth) of a part, each element dropped from its parent once
    it has ended, unless `keep(stack)` says its parent still needs it (a cell's value)."""
    stack: list = []
    with archive.open(path) as stream:
        for event, element in iterparse(stream, events=("start", "end"), forbid_dtd=True):
            if event == "start":
                stack.append(element)
                if len(stack) > MAX_DEPTH:
                    raise UnreadableFile(UNREADABLE, error=f"{path} nests too deep")
                yield event, element, len(stack)
                continue
            yield event, element, len(stack)
            stack.pop()
            if stack and not keep(stack):
                stack[-1].clear()


def _relationships(archive, names, part: str) -> dict[str, tuple[str, str]]:
    """A part's relationships: id -> (type's last word, target path in the zip)."""
    folder, name = posixpath.split(part)
    rels = posixpath.join(folder, "_rels", name + ".rels")
    found: dict[str, tuple[str, str]] = {}
    if rels not in names:
        return found
    for event, element, _ in _elements(archive, rels):
        if event == "end" and element.tag == PKG_REL + "Relationship":
            target = element.get("Target", "")
            path = target.lstrip("/") if target.startswith("/") else \
                posixpath.normpath(posixpath.join(folder, target))
            found[element.get("Id", "")] = (element.get("Type", "").rsplit("/", 1)[-1], path)
            if len(found) > MAX_FORMATS:
                raise UnreadableFile(UNREADABLE, error="too many parts")
    return found


def _office_document(archive, names) -> str:
    for kind, path in _relationships(archive, names, "").values():
        if kind == "officeDocument" and path in names:
            return path
    return "xl/workbook.xml"


def _workbook(archive, names, workbook: str) -> tuple[str, str | None, str | None, bool]:
    relations = _relationships(archive, names, workbook)
    first_sheet, date1904 = None, False
    for event, element, _ in _elements(archive, workbook):
        if event != "start":
            continue
        if element.tag == MAIN + "workbookPr":
            date1904 = element.get("date1904", "false").lower() in ("1", "true")
        elif element.tag == MAIN + "sheet" and first_sheet is None:
            first_sheet = element.get(DOC_REL + "id")
    if first_sheet is None or first_sheet not in relations:
        raise UnreadableFile(UNREADABLE, error="no sheet")
    by_kind = {kind: path for kind, path in relations.values()}
    return relations[first_sheet][1], by_kind.get("sharedStrings"), by_kind.get("styles"), date1904


def _text_of(element) -> str:
    """A string item's text: its `t`, or its runs' `t`, never the phonetic guide (`rPh`)."""
    parts = []
    for child in element:
        if child.tag == MAIN + "t":
            parts.append(child.text or "")
        elif child.tag == MAIN + "r":
            parts.extend(t.text or "" for t in child if t.tag == MAIN + "t")
    return "".join(parts)


def _inside_item(stack) -> bool:
    return any(element.tag in (MAIN + "si", CELL) for element in stack[1:])


def _shared_strings(archive, path: str, limits: Limits) -> list[str]:
    strings: list[str] = []
    in_item = 0
    for event, element, depth in _elements(archive, path, keep=_inside_item):
        if event == "start":
            in_item = 0 if depth <= 2 else in_item + 1
            if in_item > MAX_ELEMENTS_IN_CELL:
                raise UnreadableFile(UNREADABLE, error="a shared string of too many parts")
            continue
        if element.tag == MAIN + "si":
            strings.append(_text_of(element).replace("_x005F_", "_"))
            limits.check_cells(len(strings))
    return strings


def _date_styles(archive, path: str) -> list[bool]:
    """Whether each cell format (`s` of a cell) shows a date."""
    from openpyxl.styles.numbers import BUILTIN_FORMATS, is_date_format
    custom: dict[int, str] = {}
    dates: list[bool] = []
    inside_cell_formats = False
    for event, element, _ in _elements(archive, path):
        if element.tag == MAIN + "cellXfs":
            inside_cell_formats = event == "start"
        elif event == "start" and element.tag == MAIN + "numFmt":
            if len(custom) < MAX_FORMATS:
                custom[int(element.get("numFmtId", "0"))] = element.get("formatCode", "")
        elif event == "start" and element.tag == MAIN + "xf" and inside_cell_formats:
            if len(dates) >= MAX_FORMATS:
                raise UnreadableFile(UNREADABLE, error="too many cell formats")
            number = int(element.get("numFmtId", "0"))
            code = custom.get(number, BUILTIN_FORMATS.get(number, "General"))
            dates.append(bool(is_date_format(code)))
    return dates


class _Converter:
    """A cell's value as the text a CSV export would hold."""

    def __init__(self, strings: list[str], dates: list[bool], date1904: bool):
        from openpyxl.utils.datetime import CALENDAR_MAC_1904, CALENDAR_WINDOWS_1900
        self.strings, self.dates = strings, dates
        self.epoch = CALENDAR_MAC_1904 if date1904 else CALENDAR_WINDOWS_1900

    def text(self, cell) -> str:
        kind = cell.get("t", "n")
        if kind == "inlineStr":
            inline = cell.find(MAIN + "is")
            return "" if inline is None else _text_of(inline)
        value = cell.findtext(MAIN + "v")
        if value is None:
            return ""
        if kind == "s":
            return self.strings[int(value)]
        if kind == "b":
            return "True" if value.strip() in ("1", "true") else "False"
        if kind == "d":
            try:
                return cell_text(dt.datetime.fromisoformat(value.strip()))
            except ValueError:
                return value
        if kind != "n":  # "str" (a formula's text), "e" (an error such as #N/A)
            return value
        try:
            number = int(value) if value.strip().lstrip("-").isdigit() else float(value)
        except ValueError:  # not a number, or more digits than Python converts
            return value
        style = cell.get("s")
        if style is not None and style.isdigit() and int(style) < len(self.dates) \
                and self.dates[int(style)]:
            from openpyxl.utils.datetime import from_excel
            try:
                return cell_text(from_excel(number, self.epoch))
            except (ValueError, OverflowError, TypeError):
                return cell_text(number)
        return cell_text(number)


def _column(reference: str | None, previous: int) -> int:
    """A cell's column number (A is 1) from its reference (`XFD7`), else the next one."""
    if reference is None:
        return previous + 1
    match = _COLUMN.fullmatch(reference.strip().upper())
    if match is None:
        raise UnreadableFile(UNREADABLE, error=f"a cell's reference {reference[:20]!r}")
    number = 0
    for letter in match.group(1):
        number = number * 26 + ord(letter) - 64
    return number


def _sheet_rows(archive, path: str, limits: Limits, converter: _Converter):
    counter = RowCounter(limits)
    number, column, cells, in_cell = 0, 0, {}, 0
    for event, element, depth in _elements(archive, path, keep=_inside_item):
        tag = element.tag
        if event == "start":
            if tag == ROW:
                given = (element.get("r") or "").strip()
                if given and not given.isdigit():
                    raise UnreadableFile(UNREADABLE, error=f"a row's number {given[:20]!r}")
                # A number of more digits than any limit is refused as it is, never converted.
                number = number + 1 if not given else int(given) if len(given) <= 12 else 10 ** 12
                limits.check_row(number)
                column, cells = 0, {}
            elif tag == CELL:
                column = _column(element.get("r"), column)
                limits.check_column(column, number)
                counter.cells += 1
                limits.check_cells(counter.cells)
                in_cell = 0
            elif depth > 4:  # inside a cell: its value, or a rich text's runs
                in_cell += 1
                if in_cell > MAX_ELEMENTS_IN_CELL:
                    raise UnreadableFile(UNREADABLE, error=f"a cell of row {number}")
            continue
        if tag == CELL:
            text = converter.text(element)
            if text:
                cells[column] = text
        elif tag == ROW and cells:
            row = [""] * max(cells)
            for index, text in cells.items():
                row[index - 1] = text
            yield number, row


def cell_text(value) -> str:
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
