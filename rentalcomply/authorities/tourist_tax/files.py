"""A tourist tax return's figures as the CSV and the XLSX the host types into the authority's
form: per rule set and month, the stays, guests, nights, person-nights charged, exempt guests by
reason, the tax due, what of it was collected and what the platforms collected; then each set's
total. Italy's annual declaration: per comune and structure. Amounts in euros with two decimals,
a dot for the decimal point (the CSV is for a spreadsheet; the XLSX holds numbers)."""

from __future__ import annotations

import csv
import io

from rentalcomply.taxes.returns import AnnualDeclaration, Figures, PeriodReturn

XLSX_TYPE = "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet"
TOTAL = "total"
FIGURE_HEADS = ("stays", "guests", "nights", "person_nights_charged", "exempt_guests")
MONEY_HEADS = ("tax_due", "collected", "to_collect", "collected_by_platforms")


def reason_head(reason: str) -> str:
    return f"exempt_{reason}"


def _numbers(figures: Figures, reasons: list[str]) -> list:
    return [figures.stays, figures.guests, figures.nights, figures.person_nights,
            figures.exempt_guests, *[figures.exempt.get(reason, 0) for reason in reasons],
            figures.due_cents / 100, figures.collected_cents / 100,
            figures.to_collect_cents / 100, figures.platform_cents / 100]


def return_rows(figures: PeriodReturn) -> list[list]:
    """The header, then a row per rule set and month and each set's total."""
    reasons = figures.reasons
    rows = [["rule_set", "authority", "month", *FIGURE_HEADS,
             *[reason_head(reason) for reason in reasons], *MONEY_HEADS, "currency"]]
    for one in figures.sets:
        for month, month_figures in one.months.items():
            rows.append([one.rule_set_id, one.authority, month,
                         *_numbers(month_figures, reasons), one.currency])
        rows.append([one.rule_set_id, one.authority, TOTAL, *_numbers(one.total, reasons),
                     one.currency])
    return rows


def declaration_rows(declaration: AnnualDeclaration) -> list[list]:
    """The header, then a row per comune and structure, each comune's total, the year's."""
    reasons = declaration.reasons
    rows = [["year", "comune", "rule_set", "structure", "address", "cin", *FIGURE_HEADS,
             *[reason_head(reason) for reason in reasons], *MONEY_HEADS]]
    for comune in declaration.comuni:
        for structure in comune.structures:
            rows.append([declaration.year, comune.authority, comune.rule_set_id, structure.name,
                         structure.address, structure.cin,
                         *_numbers(structure.figures, reasons)])
        rows.append([declaration.year, comune.authority, comune.rule_set_id, TOTAL, "", "",
                     *_numbers(comune.total, reasons)])
    rows.append([declaration.year, TOTAL, "", "", "", "", *_numbers(declaration.total, reasons)])
    return rows


def _csv(rows: list[list]) -> bytes:
    buffer = io.StringIO()
    writer = csv.writer(buffer, lineterminator="\r\n")
    for row in rows:
        writer.writerow([f"{value:.2f}" if isinstance(value, float) else value for value in row])
    # With a byte-order mark: a spreadsheet opening the file then reads its accents as UTF-8.
    return ("\ufeff" + buffer.getvalue()).encode("utf-8")


def _xlsx(rows: list[list], title: str) -> bytes:
    from openpyxl import Workbook  # openpyxl costs its import only where a workbook is made
    from openpyxl.styles import Font

    book = Workbook()
    sheet = book.active
    sheet.title = title[:31]
    for row in rows:
        sheet.append(row)
    for cell in sheet[1]:
        cell.font = Font(bold=True)
    for row in sheet.iter_rows(min_row=2):
        for cell in row:
            if isinstance(cell.value, float):
                cell.number_format = "0.00"
    sheet.freeze_panes = "A2"
    buffer = io.BytesIO()
    book.save(buffer)
    return buffer.getvalue()


def return_csv(figures: PeriodReturn) -> bytes:
    return _csv(return_rows(figures))


def return_xlsx(figures: PeriodReturn) -> bytes:
    return _xlsx(return_rows(figures), f"Return {figures.period}")


def declaration_csv(declaration: AnnualDeclaration) -> bytes:
    return _csv(declaration_rows(declaration))


def declaration_xlsx(declaration: AnnualDeclaration) -> bytes:
    return _xlsx(declaration_rows(declaration), f"Declaration {declaration.year}")
