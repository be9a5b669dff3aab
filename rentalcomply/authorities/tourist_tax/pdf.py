"""A tourist tax return, and Italy's annual declaration, as a PDF for the host: the figures of
files.py as tables, with what to do with them. DejaVu Sans, the font the reports print with
(shipped in the package under authorities/aade/fonts: read as a file, no code shared), so a
structure's or a comune's name prints whatever its letters."""

from __future__ import annotations

import functools
import warnings
from importlib import resources

from rentalcomply.authorities.tourist_tax.files import declaration_rows, return_rows
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
HEADS = {"rule_set": "Rule set", "authority": "Authority", "month": "Month", "stays": "Stays",
         "guests": "Guests", "nights": "Nights", "person_nights_charged": "Person-nights",
         "exempt_guests": "Exempt", "tax_due": "Tax due", "collected": "Collected",
         "to_collect": "To collect", "collected_by_platforms": "By platforms",
         "comune": "Comune", "structure": "Structure"}


def _font_path(name: str) -> str:
    return str(resources.files("rentalcomply.authorities").joinpath("aade", "fonts", name))


@functools.cache
def _document_class() -> type:
    from fpdf import FPDF  # fpdf2 costs its import only where a PDF is made

    class Document(FPDF):
        def __init__(self, footer_text: str):
            super().__init__(orientation="L", unit="mm", format="A4")
            self.footer_text = footer_text
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
            self.cell(0, 4, f"Page {self.page_no()} of {{nb}}", align="R")

    return Document


def _head(text: str) -> str:
    if text.startswith("exempt_") and text != "exempt_guests":
        return "Exempt: " + text[len("exempt_"):].replace("_", " ")
    return HEADS.get(text, text.replace("_", " ").capitalize())


def _cell(value) -> str:
    if isinstance(value, float):
        return f"{value:,.2f}"
    return str(value)


def _table(pdf, rows: list[list], skip: tuple[int, ...], widths: dict[int, float]) -> None:
    """The rows as a table (the first the header), leaving out the columns `skip`; a total row
    filled."""
    columns = [index for index in range(len(rows[0])) if index not in skip]
    fixed = sum(widths.get(index, 0) for index in columns)
    rest = [index for index in columns if index not in widths]
    each = (pdf.epw - fixed) / max(len(rest), 1)
    width = {index: widths.get(index, each) for index in columns}
    pdf.set_font(FONT, "B", 7.5)
    pdf.set_fill_color(*HEAD_FILL)
    for index in columns:
        pdf.multi_cell(width[index], ROW, _head(rows[0][index]), border=1, fill=True,
                       new_x="RIGHT", new_y="TOP", max_line_height=ROW / 2 + 0.5)
    pdf.ln(ROW)
    for row in rows[1:]:
        total = "total" in row
        pdf.set_font(FONT, "B" if total else "", 7.5)
        pdf.set_fill_color(*TOTAL_FILL)
        for index in columns:
            numeric = isinstance(row[index], (int, float))
            pdf.cell(width[index], ROW, _cell(row[index])[:60], border=1, fill=total,
                     align="R" if numeric else "L")
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


def return_pdf(figures: PeriodReturn, how: str) -> bytes:
    pdf = _document_class()(f"Tourist tax return · {figures.property_name} · {figures.period} · "
                            f"made {clock.utcnow():%Y-%m-%d %H:%M} UTC")
    pdf.set_title(f"Tourist tax return {figures.period}")
    pdf.set_author("RentalComply")
    authorities = ", ".join(dict.fromkeys(one.authority for one in figures.sets)) or "none"
    _title(pdf, f"Tourist tax return {figures.period}",
           [f"Property: {figures.property_name}",
            f"Period: {figures.first.isoformat()} to {figures.last.isoformat()}",
            f"Authority: {authorities}"],
           how + " Each stay counts in the month it arrives; a cancelled stay owes nothing.")
    rows = return_rows(figures)
    if len(rows) == 1:
        pdf.cell(pdf.epw, 6, "No rule set of the property files a return for this period.")
    else:
        _table(pdf, rows, skip=(1, len(rows[0]) - 1), widths={0: 40, 2: 20})
    for problem in figures.incomplete:
        pdf.multi_cell(pdf.epw, 4.5, "Not counted yet: " + problem, new_x="LMARGIN",
                       new_y="NEXT")
    return bytes(pdf.output())


def declaration_pdf(declaration: AnnualDeclaration, how: str) -> bytes:
    pdf = _document_class()(f"Imposta di soggiorno · dichiarazione {declaration.year} · "
                            f"made {clock.utcnow():%Y-%m-%d %H:%M} UTC")
    pdf.set_title(f"Imposta di soggiorno: annual declaration {declaration.year}")
    pdf.set_author("RentalComply")
    _title(pdf, f"Imposta di soggiorno: annual declaration {declaration.year}",
           ["Model of DM 29 April 2022 (GU 110 of 12 May 2022), due by 30 June "
            f"{declaration.year + 1}", "The year's figures per comune and structure"],
           how + " One declaration covers all your structures.")
    rows = declaration_rows(declaration)
    _table(pdf, rows, skip=(0, 2, 4), widths={1: 40, 3: 45, 5: 30})
    for problem in declaration.incomplete:
        pdf.multi_cell(pdf.epw, 4.5, "Not counted yet: " + problem, new_x="LMARGIN",
                       new_y="NEXT")
    return bytes(pdf.output())
