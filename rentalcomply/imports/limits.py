"""What a file may hold before it is read any further, and how a refusal is said.

A spreadsheet is small on the wire and may be huge once read: a 2.7 KB XLSX whose rows each name
column XFD, or an .xls with one cell at row 65535, column 255, made the readers build millions of
empty cells (issue 35). So every reader streams its rows and counts as it goes, and stops at the
first row, column or cell beyond these limits, before building it: memory and time stay bounded
by the limits, whatever the file declares.
"""

from __future__ import annotations

from dataclasses import dataclass


class UnreadableFile(Exception):
    """The file cannot be read as an export; the message says where and why. Also as an English
    template and its values (`spoken`), for the dashboard to translate; a value may itself be a
    (template, values) pair."""

    def __init__(self, template: str, **values):
        super().__init__(spoken(template, values))
        self.template, self.values = template, values


class TooLarge(UnreadableFile):
    """The file goes beyond one of the limits; `setting` names it (`imports.max_rows`)."""

    def __init__(self, setting: str, template: str, **values):
        super().__init__(template, **values)
        self.setting = setting


def spoken(template: str, values: dict, translate=lambda text: text) -> str:
    """The template filled with its values, each pair among them spoken first, all translated."""
    filled = {name: spoken(*value, translate) if isinstance(value, tuple) else value
              for name, value in values.items()}
    return translate(template).format(**filled)


@dataclass(frozen=True)
class Limits:
    """The settings of [imports] (config.py has their reasons and defaults)."""

    max_rows: int = 20_000
    max_columns: int = 200
    max_cells: int = 500_000
    max_unpacked_bytes: int = 32 * 1024 * 1024

    @classmethod
    def from_settings(cls, settings) -> "Limits":
        section = settings.imports
        return cls(section.max_rows, section.max_columns, section.max_cells,
                   section.max_unpacked_mb * 1024 * 1024)

    def check_row(self, number: int) -> None:
        if number > self.max_rows:
            raise TooLarge("imports.max_rows", "The file has more than {limit} rows (row {row} "
                           "is beyond the limit imports.max_rows): export fewer months at a "
                           "time.", limit=self.max_rows, row=number)

    def check_column(self, number: int, row: int) -> None:
        if number > self.max_columns:
            raise TooLarge("imports.max_columns", "Row {row} has a cell in column {column}, "
                           "beyond the {limit} columns an export may have (imports.max_columns).",
                           row=row, column=number, limit=self.max_columns)

    def check_cells(self, count: int) -> None:
        if count > self.max_cells:
            raise TooLarge("imports.max_cells", "The file has more than {limit} cells (the "
                           "limit imports.max_cells): export fewer months at a time.",
                           limit=self.max_cells)

    def check_unpacked(self, size: int) -> None:
        if size > self.max_unpacked_bytes:
            raise TooLarge("imports.max_unpacked_mb", "The spreadsheet unpacks to more than "
                           "{limit} MB (the limit imports.max_unpacked_mb): export fewer months "
                           "at a time.", limit=self.max_unpacked_bytes // (1024 * 1024))


class RowCounter:
    """Counts rows and cells as a reader yields them, refusing at the first one over a limit."""

    def __init__(self, limits: Limits):
        self.limits = limits
        self.cells = 0

    def row(self, number: int, width: int) -> None:
        self.limits.check_row(number)
        self.limits.check_column(width, number)
        self.cells += width
        self.limits.check_cells(self.cells)
