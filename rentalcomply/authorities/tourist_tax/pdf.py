"""A tourist tax return, and Italy's annual declaration, as a PDF for the host: the figures of
files.py as tables, with what to do with them, in the account's language (files.Words: the
`messages` catalogue; dates, months, numbers and money through Babel in its CLDR locale). DejaVu Sans, the font the reports print with
(shipped in the package under authorities/aade/fonts: read as a file, no code shared), so a
structure's or a comune's name prints whatever its letters."""

from __future__ import annotations

import datetime as dt
import functools
import warnings
from importlib import resources

import babel.dates
import babel.numbers

from rentalcomply.accounts.language import locale_of
from rentalcomply.authorities.tourist_tax.files import TOTAL, Words, declaration_rows, return_rows
from rentalcomply.core import clock
from rentalcomply.taxes.returns import AnnualDeclaration, PeriodReturn

# fpdf2 warns on import where Pillow is absent; the PDF has no image.
warnings.filterwarnings("ignore", message="Pillow could not be imported", category=UserWarning)

FONT = "DejaVu"
INK = (33, 37, 41)
MUTED = (108, 117, 125)
ACCENT = (13, 71, 120)
HEAD_FILL = (222, 226, 230)
TOTAL_FILL = (245, 246, 248)
ROW = 5.5
HEAD_LINE = 3.2


def _font_path(name: str) -> str:
    return str(resources.files("rentalcomply.authorities").joinpath("aade", "fonts", name))


@functools.cache
def _document_class() -> type:
    from fpdf import FPDF  # fpdf2 costs its import only where a PDF is made

    class Document(FPDF):
        def __init__(self, footer_text: str, page_words: str):
            super().__init__(orientation="L", unit="mm", format="A4")
            self.footer_text = footer_text
            self.page_words = page_words  # "Page {page} of {pages}" in the reader's language
            self.add_font(FONT, "", _font_path("DejaVuSans.ttf"))
            self.add_font(FONT, "B", _font_path("DejaVuSans-Bold.ttf"))
            self.set_margins(12, 12, 12)
            self.set_auto_page_break(True, margin=14)

        def footer(self):
            self.set_y(-10)
            self.set_font(FONT, "", 7.5)
            self.set_text_color(*MUTED)
            self.cell(0, 4, self.footer_text, align="L")
            self.set_x(self.l_margin)
            # fpdf2 puts the number of pages where the text says {nb}, once all are made.
            self.cell(0, 4, self.page_words.format(page=self.page_no(), pages="{nb}"),
                      align="R")

    return Document


class Writing:
    """The words (files.Words) and the CLDR locale of the reader's language."""

    def __init__(self, lang: str):
        self.words = Words(lang)
        self.t = self.words.t
        self.locale = locale_of(lang)

    def date(self, day: dt.date) -> str:
        return babel.dates.format_date(day, "long", locale=self.locale)

    def month(self, month: str) -> str:
        """A YYYY-MM month as its name and year ("gennaio 2027"); any other text as it is."""
        try:
            first = dt.date(int(month[:4]), int(month[5:7]), 1)
        except ValueError:
            return month
        return babel.dates.format_skeleton("yMMMM", first, locale=self.locale)

    def made(self) -> str:
        """When the file was made, in UTC."""
        return babel.dates.format_datetime(clock.utcnow(), "short", tzinfo=dt.timezone.utc,
                                           locale=self.locale) + " UTC"

    def cell(self, key: str, value) -> str:
        if key == "year":
            return str(value)
        if value == TOTAL:
            return self.words.total()
        if isinstance(value, float):
            return babel.numbers.format_decimal(value, "#,##0.00", locale=self.locale)
        if isinstance(value, int):
            return babel.numbers.format_decimal(value, locale=self.locale)
        if key == "month":
            return self.month(value)
        return str(value)


def _table(pdf, writing: Writing, rows: list[list], skip: tuple[int, ...],
           widths: dict[int, float]) -> None:
    """The rows as a table (the first the header, keys), leaving out the columns `skip`; a total
    row filled."""
    columns = [index for index in range(len(rows[0])) if index not in skip]
    fixed = sum(widths.get(index, 0) for index in columns)
    rest = [index for index in columns if index not in widths]
    each = (pdf.epw - fixed) / max(len(rest), 1)
    width = {index: widths.get(index, each) for index in columns}
    keys = rows[0]
    pdf.set_font(FONT, "B", 6.5)
    pdf.set_fill_color(*HEAD_FILL)
    # A heading wraps to as many lines as its language needs: the header row is as tall as the
    # tallest, each heading a box of that height.
    headings = {index: writing.words.heading(keys[index]) for index in columns}
    lines = max(len(pdf.multi_cell(width[index] - 2 * pdf.c_margin, HEAD_LINE, headings[index],
                                   dry_run=True, output="LINES")) for index in columns)
    height = max(ROW, lines * HEAD_LINE + 1)
    top = pdf.get_y()
    if top + height + ROW > pdf.page_break_trigger:
        pdf.add_page()
        top = pdf.get_y()
    x = pdf.l_margin
    for index in columns:
        pdf.rect(x, top, width[index], height, style="DF")
        pdf.set_xy(x, top + 0.5)
        pdf.multi_cell(width[index], HEAD_LINE, headings[index], align="L")
        x += width[index]
    pdf.set_xy(pdf.l_margin, top + height)
    for row in rows[1:]:
        total = TOTAL in row
        pdf.set_font(FONT, "B" if total else "", 7.5)
        pdf.set_fill_color(*TOTAL_FILL)
        for index in columns:
            numeric = isinstance(row[index], (int, float))
            pdf.cell(width[index], ROW, writing.cell(keys[index], row[index])[:60], border=1,
                     fill=total, align="R" if numeric else "L")
        pdf.ln(ROW)


def _title(pdf, title: str, lines: list[str], how: str) -> None:
    pdf.add_page()
    pdf.set_text_color(*ACCENT)
    pdf.set_font(FONT, "B", 15)
    pdf.cell(pdf.epw, 8, title, new_x="LMARGIN", new_y="NEXT")
    pdf.set_text_color(*INK)
    pdf.set_font(FONT, "", 9.5)
    for line in lines:
        pdf.cell(pdf.epw, 5, line, new_x="LMARGIN", new_y="NEXT")
    pdf.set_text_color(*MUTED)
    pdf.multi_cell(pdf.epw, 4.5, how, new_x="LMARGIN", new_y="NEXT")
    pdf.set_text_color(*INK)
    pdf.ln(2)


def _not_counted(pdf, writing: Writing, problems: list[str]) -> None:
    pdf.set_font(FONT, "", 7.5)
    for problem in problems:
        pdf.multi_cell(pdf.epw, 4.5, writing.t("Not counted yet: {problem}").format(
            problem=problem), new_x="LMARGIN", new_y="NEXT")


def return_pdf(figures: PeriodReturn, how: str, lang: str = "en") -> bytes:
    """The return in the language `lang`; `how` is the English of what the host does with it
    (a text of the catalogue)."""
    writing = Writing(lang)
    t = writing.t
    title = t("Tourist tax return {period}").format(period=figures.period)
    pdf = _document_class()(" · ".join([
        t("Tourist tax return"), figures.property_name, figures.period,
        t("made {when}").format(when=writing.made())]), t("Page {page} of {pages}"))
    pdf.set_title(title)
    pdf.set_author("RentalComply")
    authorities = ", ".join(dict.fromkeys(one.authority for one in figures.sets)) or t("none")
    _title(pdf, title,
           [t("Property: {name}").format(name=figures.property_name),
            t("Period: {first} to {last}").format(first=writing.date(figures.first),
                                                  last=writing.date(figures.last)),
            t("Authority: {authority}").format(authority=authorities)],
           t(how) + " " + t("Each stay counts in the month it arrives; a cancelled stay owes "
                            "nothing."))
    rows = return_rows(figures)
    if len(rows) == 1:
        pdf.cell(pdf.epw, 6, t("No rule set of the property files a return for this period."))
    else:
        _table(pdf, writing, rows, skip=(1, len(rows[0]) - 1), widths={0: 36, 2: 25})
    _not_counted(pdf, writing, figures.incomplete)
    return bytes(pdf.output())


def declaration_pdf(declaration: AnnualDeclaration, how: str, lang: str = "en") -> bytes:
    """Italy's annual declaration in the language `lang` (see return_pdf)."""
    writing = Writing(lang)
    t = writing.t
    title = t("Imposta di soggiorno: annual declaration {year}").format(year=declaration.year)
    pdf = _document_class()(" · ".join([
        title, t("made {when}").format(when=writing.made())]), t("Page {page} of {pages}"))
    pdf.set_title(title)
    pdf.set_author("RentalComply")
    due = writing.date(dt.date(declaration.year + 1, 6, 30))
    _title(pdf, title,
           [t("Model of DM 29 April 2022 (GU 110 of 12 May 2022), due by {date}").format(
               date=due), t("The year's figures per comune and structure")],
           t(how) + " " + t("One declaration covers all your structures."))
    _table(pdf, writing, declaration_rows(declaration), skip=(0, 2, 4),
           widths={1: 34, 3: 36, 5: 28})
    _not_counted(pdf, writing, declaration.incomplete)
    return bytes(pdf.output())
