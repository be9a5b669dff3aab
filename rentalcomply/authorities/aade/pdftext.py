"""Text written straight into a report page's content: table lines, wrapped reasons, footers.

fpdf2's `cell()` and `multi_cell()` lay each text out afresh (fragments, a copy of the graphics
state, line breaking measured character by character): about 0.13 ms a value for `cell()` and
5 ms a row for a wrapped reason. A month of 5,000 stays is 50,000 values, 187 pages and dozens of
needs-attention rows whose few reasons recur from row to row, so these writers emit the operators
those calls would (a text operator per value at the position they compute, the fill as a
rectangle), measure with cached character widths and wrap each distinct text once per document.

They lean on `_out`, `_set_font_for_page` and the font's `encode_text`, stable within fpdf2 2.x
(pinned below 3 in pyproject.toml); the tests read every value back with pdftotext. fpdf2 itself
is imported by pdffile.py, with the first report (see `_document_class` there).
"""

from __future__ import annotations

import functools
import itertools
from collections.abc import Callable
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from fpdf import FPDF

# Where fpdf2 puts a one-line cell's baseline below the cell's middle, in font sizes.
CELL_BASELINE = 0.3
# fpdf2 reserves the width of "000" for the page count alias `{nb}` and starts the count there.
PAGE_COUNT_ROOM = "000"


def table_line(pdf: FPDF, aligns, values, y: float, height: float, fill: bool = False) -> None:
    """Write a table line's values at computed positions as one piece, then move below it; with
    `fill`, the line's width is filled in the current fill colour first (as `rect()` fills).

    The line is written the way `text()` writes each value (the same PDF operators, font and
    colour) but in one piece. Only the baseline changes from one line to the next: a value's
    operator before and after it (its left edge, and its text mapped to the font subset) is
    remembered per column and font within the document (`_placed`, in `pdf.placed`), since a
    month's table repeats the same few hundred dates, amounts, names and platforms thousands of
    times.
    """
    if not pdf.current_font_is_set_on_page:
        pdf._out(pdf._set_font_for_page(pdf.current_font, pdf.font_size_pt))
    baseline = f"{(pdf.h - (y + (height + pdf.font_size * 0.7) / 2)) * pdf.k:.2f}"
    aligns = tuple(aligns)
    key = (pdf.current_font.fontkey, pdf.font_size_pt, pdf.l_margin, aligns)
    columns = pdf.placed.get(key)
    if columns is None:
        # Per column: its left edge, width and alignment, and the operators of the values it
        # has held so far.
        lefts = itertools.accumulate((width for width, _ in aligns), initial=pdf.l_margin)
        columns = pdf.placed[key] = [(left, width, align, {})
                                     for left, (width, align) in zip(lefts, aligns)]
    texts = []
    for (x, width, align, placed), value in zip(columns, values):
        if value:
            around = placed.get(value)
            if around is None:
                around = placed[value] = _placed(pdf, x, width, align, value)
            texts.append(around[0] + baseline + around[1])
    parts = []
    if fill:
        k = pdf.k
        parts.append(f"{pdf.l_margin * k:.2f} {(pdf.h - y) * k:.2f} "
                     f"{sum(width for width, _ in aligns) * k:.2f} {-height * k:.2f} re f")
    if texts:
        # As text() does: the text colour is set inside a q/Q pair, leaving the state as it was.
        parts += ["q", colour_operator(pdf.text_color), *texts, "Q"]
    if parts:
        pdf._out(" ".join(parts))
    pdf.set_xy(pdf.l_margin, y + height)


def _placed(pdf: FPDF, x: float, width: float, align: str, value: str) -> tuple[str, str]:
    """A value's text operator in its column, in two parts: before the baseline and after it.

    Mapping a text to the font subset picks its new characters into the subset in the order they
    come; since a value is mapped the first time it appears, as it always was, the subset and
    every operator stay the same."""
    k = pdf.k
    padding = pdf.c_margin
    left = x + width - padding - text_width(pdf, value) if align == "R" else x + padding
    return f"BT {left * k:.2f} ", f" Td {pdf.current_font.encode_text(value)} ET"


class Texts:
    """Texts at given positions written as one piece in the current font and text colour: the
    operators `cell()` would write for one-line cells at the same places."""

    def __init__(self, pdf: FPDF):
        self.pdf = pdf
        self.parts: list[str] = ["q", colour_operator(pdf.text_color)]
        self.any = False

    def cell(self, x: float, y: float, width: float, height: float, align: str, value: str,
             measured: str | None = None) -> None:
        """`value` where `cell(width, height, value, align=align)` at (x, y) writes it; aligned
        right as if it read `measured`, when given."""
        pdf = self.pdf
        if not value:
            return
        left = x + width - pdf.c_margin - text_width(pdf, measured or value) if align == "R" \
            else x + pdf.c_margin
        baseline = pdf.h - (y + 0.5 * height + CELL_BASELINE * pdf.font_size)
        self.parts.append(f"BT {left * pdf.k:.2f} {baseline * pdf.k:.2f} Td "
                          f"{pdf.current_font.encode_text(value)} ET")
        self.any = True

    def colour(self, r: int, g: int, b: int) -> None:
        """The texts after this one in this colour."""
        self.pdf.set_text_color(r, g, b)
        self.parts.append(colour_operator(self.pdf.text_color))

    def write(self) -> None:
        pdf = self.pdf
        if not self.any:
            return
        if not pdf.current_font_is_set_on_page:
            pdf._out(pdf._set_font_for_page(pdf.current_font, pdf.font_size_pt))
        pdf._out(" ".join([*self.parts, "Q"]))


def text_line(pdf: FPDF, width: float, height: float, text: str) -> None:
    """What `cell(width, height, text, new_x="LMARGIN", new_y="NEXT")` writes (a line of text
    at the current position, on a new page if it does not fit), for the heading and the line
    under it of each of a month's hundreds of properties."""
    if pdf.will_page_break(height):
        pdf.add_page()
    texts = Texts(pdf)
    texts.cell(pdf.x, pdf.y, width, height, "L", text)
    texts.write()
    pdf.set_xy(pdf.l_margin, pdf.y + height)


def wrapped(pdf: FPDF, width: float, text: str) -> tuple[str, ...]:
    """The lines `multi_cell(width, ..., text, align="L")` breaks `text` into, in the current
    font: worked out once per text and document (fpdf2's line breaking is slow, and the same few
    reasons recur on every row), by the very call that used to write them."""
    key = (pdf.current_font.fontkey, pdf.font_size_pt, width, text)
    lines = pdf.wrapped_lines.get(key)
    if lines is None:
        lines = pdf.wrapped_lines[key] = tuple(pdf.multi_cell(
            width, pdf.font_size, text, align="L", dry_run=True, output="LINES")) or ("",)
    return lines


def footers(pdf: FPDF, text: str, counted: Callable[[int], str]) -> None:
    """Every page's footer in the current font and text colour, once the page count is known:
    `text` on the left and `counted(page)` ("Page 3 of ") then the count on the right of a line
    10 mm above the bottom edge, where two `cell()` calls with fpdf2's page count alias `{nb}`
    put them (the count starting where the alias reserved room for three digits)."""
    last = pdf.page
    height, y = 4, pdf.h - 10
    for number in range(1, last + 1):
        # fpdf2 lets a document go back to a page by setting `page`, warning that the instance's
        # graphics state is then not the page's: these operators set the font and colour they
        # use (the colour inside q/Q), and draw nothing else.
        pdf.page = number
        pdf.current_font_is_set_on_page = False
        texts = Texts(pdf)
        texts.cell(pdf.l_margin, y, pdf.epw, height, "L", text)
        words = counted(number)
        texts.cell(pdf.l_margin, y, pdf.epw, height, "R", words + str(last),
                   measured=words + PAGE_COUNT_ROOM)
        texts.write()
    pdf.page = last


@functools.lru_cache(maxsize=64)  # a report writes text in a few colours, 5,000 times over
def colour_operator(colour) -> str:
    """The operator that sets fpdf2's `colour` for text (the fill colour, in lower case)."""
    return colour.serialize().lower()


_char_widths: dict[tuple, dict[str, float]] = {}


def text_width(pdf: FPDF, text: str) -> float:
    """get_string_width() summed from cached character widths: the same figure (no kerning
    without text shaping) at a fraction of the cost for thousands of amounts."""
    table = _char_widths.setdefault((pdf.font_family, pdf.font_style, pdf.font_size_pt), {})
    total = 0.0
    for char in text:
        width = table.get(char)
        if width is None:
            width = table[char] = pdf.get_string_width(char)
        total += width
    return total
