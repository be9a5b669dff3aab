"""A tourist tax return's figures as the CSV and the XLSX the host types into the authority's
form: per rule set and month, the stays, guests, nights, person-nights charged, exempt guests by
reason, the tax due, what of it was collected and what the platforms collected; then each set's
total. Italy's annual declaration: per comune and structure.

The files are for people: their column headings and the word for a total are in the account's
language (the `messages` catalogue, `Words`). The figures stay values a spreadsheet reads in any
language: amounts in euros with two decimals and a dot in the CSV (numbers in the XLSX), months as
YYYY-MM. The rows are built with keys (`return_rows`, `declaration_rows`, which the PDF reads too)
and put in words only when written (`in_words`)."""

from __future__ import annotations

import csv
import io

from rentalcomply.locale import Catalogue, catalogue
from rentalcomply.taxes.returns import AnnualDeclaration, Figures, PeriodReturn

XLSX_TYPE = "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet"
TOTAL = "total"
FIGURE_HEADS = ("stays", "guests", "nights", "person_nights_charged", "exempt_guests")
MONEY_HEADS = ("tax_due", "collected", "to_collect", "collected_by_platforms")
EXEMPT_PREFIX = "exempt_"


class Words:
    """The `messages` catalogue of a language, for the returns' files: `t(english)`.

    Each heading is written out as `t("…")` so that the extraction finds it (locale/extract.py)."""

    def __init__(self, lang: str = "en"):
        self.lang = lang
        self.catalogue: Catalogue = catalogue("messages", lang)

    def t(self, text: str) -> str:
        return self.catalogue.text(text)

    def heading(self, key: str) -> str:
        t = self.t
        headings = {
            "rule_set": t("Rule set"), "authority": t("Authority"), "month": t("Month"),
            "stays": t("Stays"), "guests": t("Guests"), "nights": t("Nights"),
            "person_nights_charged": t("Person-nights charged"),
            "exempt_guests": t("Exempt guests"), "tax_due": t("Tax due"),
            "collected": t("Collected"), "to_collect": t("To collect"),
            "collected_by_platforms": t("Collected by platforms"), "currency": t("Currency"),
            "year": t("Year"), "comune": t("Comune"), "structure": t("Structure"),
            "address": t("Address"), "cin": t("CIN"),
        }
        if key in headings:
            return headings[key]
        if key.startswith(EXEMPT_PREFIX):
            # The reason is the rule set's own code (`driver`, `age`): the set names its reasons.
            return t("Exempt: {reason}").format(
                reason=key[len(EXEMPT_PREFIX):].replace("_", " "))
        return key.replace("_", " ").capitalize()

    def total(self) -> str:
        return self.t("Total")


def reason_head(reason: str) -> str:
    return f"{EXEMPT_PREFIX}{reason}"


def _numbers(figures: Figures, reasons: list[str]) -> list:
    return [figures.stays, figures.guests, figures.nights, figures.person_nights,
            figures.exempt_guests, *[figures.exempt.get(reason, 0) for reason in reasons],
            figures.due_cents / 100, figures.collected_cents / 100,
            figures.to_collect_cents / 100, figures.platform_cents / 100]


def return_rows(figures: PeriodReturn) -> list[list]:
    """The header (keys), then a row per rule set and month and each set's total (TOTAL)."""
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
    """The header (keys), then a row per comune and structure, each comune's total, the year's."""
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


def in_words(rows: list[list], words: Words) -> list[list]:
    """The rows with their headings and the TOTAL marks in the language of `words`."""
    total = words.total()
    return [[words.heading(key) for key in rows[0]]] + [
        [total if value == TOTAL else value for value in row] for row in rows[1:]]


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
    # A sheet's name: at most 31 characters, none of []:*?/\ (openpyxl refuses them).
    sheet.title = "".join(ch for ch in title if ch not in "[]:*?/\\")[:31]
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


def return_csv(figures: PeriodReturn, words: Words | None = None) -> bytes:
    return _csv(in_words(return_rows(figures), words or Words()))


def return_xlsx(figures: PeriodReturn, words: Words | None = None) -> bytes:
    words = words or Words()
    return _xlsx(in_words(return_rows(figures), words),
                 words.t("Return {period}").format(period=figures.period))


def declaration_csv(declaration: AnnualDeclaration, words: Words | None = None) -> bytes:
    return _csv(in_words(declaration_rows(declaration), words or Words()))


def declaration_xlsx(declaration: AnnualDeclaration, words: Words | None = None) -> bytes:
    words = words or Words()
    return _xlsx(in_words(declaration_rows(declaration), words),
                 words.t("Declaration {year}").format(year=declaration.year))
