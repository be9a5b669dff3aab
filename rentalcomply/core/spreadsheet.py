"""CSV files a person opens in a spreadsheet: text that can never run as a formula.

A cell starting with `=`, `+`, `-` or `@` (or a tab or carriage return, which some programs skip
before looking) is a formula to Excel and LibreOffice: a guest's name from a channel such as
`=HYPERLINK(...)` would run on the accountant's machine. Which character separates the cells is
the reader's guess, not ours (Excel in Greek, Italian or Spanish settings splits on `;`, others on
`,` or a tab), so `Ana;=1+1;x` is as dangerous as `=1+1` even in a comma-separated file.

So every CSV the product writes goes through `writer()` (every cell quoted: a reader that honours
quotes never splits a cell) and puts text through `text_cell()`: a formula character at the start
of the cell, or right after anything a reader might take for a separator or a line break, gets a
`'` before it, which spreadsheets show as text and do not display.
"""

from __future__ import annotations

import csv
import re

FORMULA_STARTS = ("=", "+", "-", "@", "\t", "\r")
# A formula character after a possible separator or line break (and any spaces): a cell of its
# own for a reader that splits there.
_AFTER_SEPARATOR = re.compile(r"([,;|\t\r\n][ ]*)([=+\-@])")


def text_cell(value: str | None) -> str:
    """`value` as a cell no spreadsheet takes for a formula, whatever the separator."""
    value = value or ""
    if value.lstrip(" ")[:1] in FORMULA_STARTS:
        value = "'" + value
    return _AFTER_SEPARATOR.sub(r"\1'\2", value)


def writer(buffer):
    """A CSV writer for a spreadsheet: comma-separated, CRLF rows, every cell quoted."""
    return csv.writer(buffer, lineterminator="\r\n", quoting=csv.QUOTE_ALL)
