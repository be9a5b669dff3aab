"""The human-readable report: a PDF a host can hand to an accountant.

Landscape A4, DejaVu Sans (shipped in the package: fpdf2's core fonts have no Greek). The page is
laid out here; the tables, headings, needs-attention rows and page footers are written by
pdftext.py, in the PDF operators `cell()` and `multi_cell()` would write but without their cost
per call (`pdf.table()` costs about six times as much per row as `cell()` again): a month of
5,000 stays, 187 pages, must render in a fraction of a second.

Stored text is written through `safetext.for_line` (a control character shows as U+FFFD, never
breaks a table line). A provisional report (the period still running) says so under its title and
in the footer of every page.
"""

from __future__ import annotations

import datetime as dt
import functools
import warnings
from importlib import resources
from typing import TYPE_CHECKING

from rentalcomply.authorities.aade import labels as L
from rentalcomply.authorities.aade.building import ATHENS, ReportData
from rentalcomply.authorities.aade.pdftext import Texts, footers, table_line, text_line, wrapped
from rentalcomply.authorities.aade.safetext import for_line
from rentalcomply.bookings.reference import short_reference

if TYPE_CHECKING:
    from fpdf import FPDF

# The one-file binary leaves Pillow out (fpdf2 needs it only for images, and the report has none),
# and fpdf2 warns of it on import.
warnings.filterwarnings("ignore", message="Pillow could not be imported", category=UserWarning)

FONT = "DejaVu"
ROW_HEIGHT = 5.2
REASON_LINE = 4.0  # wrapped reasons sit closer than table rows
INK = (33, 37, 41)
MUTED = (108, 117, 125)
RULE = (173, 181, 189)
HEAD_FILL = (222, 226, 230)
STRIPE_FILL = (245, 246, 248)
ACCENT = (13, 71, 120)
WARN = (160, 60, 0)

# (label key, width in mm, align) of the stays table: the declaration form's order.
STAY_COLUMNS = (("arrival", 21, "L"), ("departure", 21, "L"), ("nights_short", 11, "R"),
                ("renter", 48, "L"), ("renter_id", 33, "L"), ("reference", 28, "L"),
                ("platform", 23, "L"), ("payment", 26, "L"), ("gross_short", 22, "R"),
                ("fee_short", 18, "R"), ("net_short", 22, "R"))


def _font_path(name: str) -> str:
    return str(resources.files("rentalcomply.authorities.aade").joinpath("fonts").joinpath(name))


@functools.cache
def _document_class() -> type:
    """The report's FPDF subclass, defined on first use.

    fpdf2 imports fontTools, Pillow and parts of cryptography: about 0.3 s and 15 MiB that every
    start of the server, the worker and the command line would pay for a report it may never
    make (the one-file binary's start-up and idle memory above all), so only a report imports it.
    """
    from fpdf import FPDF

    class Document(FPDF):
        def __init__(self, footer_text: str):
            super().__init__(orientation="L", unit="mm", format="A4")
            self.footer_text = footer_text
            self.add_font(FONT, "", _font_path("DejaVuSans.ttf"))
            self.add_font(FONT, "B", _font_path("DejaVuSans-Bold.ttf"))
            self.set_margins(12, 12, 12)
            self.set_auto_page_break(True, margin=14)
            self.repeat_header = None  # redrawn at the top of a page a table continues on
            # A table value's text operator per font and column: see `pdftext.table_line`.
            self.placed: dict[tuple, list] = {}
            self.wrapped_lines: dict[tuple, tuple[str, ...]] = {}  # see `pdftext.wrapped`

        def footer(self):
            """Nothing while the pages are written: `_footers` writes every page's footer at
            the end, when the page count is known."""

    return Document


def render_pdf(data: ReportData, generated_at: dt.datetime, language: str = "el") -> bytes:
    t = lambda key: L.text(key, language)  # noqa: E731 - a short local alias reads best here
    # Remembered for the document: the tables repeat the same few hundred amounts and dates.
    money = functools.cache(lambda cents: L.money(cents, language))
    day = functools.cache(lambda value: L.date(value, language))
    platform = functools.cache(lambda name: L.text("platform:" + name, language))
    payment = functools.cache(lambda method: _payment(method, language))
    period = L.period_name(data.year, data.month, language)
    generated_local = generated_at.replace(tzinfo=dt.timezone.utc).astimezone(ATHENS)
    generated_text = generated_local.strftime("%d/%m/%Y %H:%M") + " (Europe/Athens)" \
        if language == "el" else generated_local.strftime("%Y-%m-%d %H:%M") + " (Europe/Athens)"

    account_name = for_line(data.account_name)
    marker = f"{t('provisional_mark')} · " if data.provisional else ""
    pdf = _document_class()(f"{marker}{data.code} · {account_name} · {period} · {t('generated')} "
                            f"{generated_text}")
    pdf.set_title(f"{t('title_month' if data.month else 'title_year')} {period}")
    pdf.set_author("RentalComply")
    pdf.add_page()
    width = pdf.epw

    # -- title block ---------------------------------------------------------------------------
    pdf.set_text_color(*ACCENT)
    pdf.set_font(FONT, "B", 16)
    pdf.cell(width, 8, t("title_month" if data.month else "title_year"), new_x="LMARGIN",
             new_y="NEXT")
    pdf.set_font(FONT, "B", 13)
    pdf.cell(width, 7, f"{period} · {t('for_aade')}", new_x="LMARGIN", new_y="NEXT")
    pdf.set_text_color(*INK)
    pdf.ln(1.5)
    if data.provisional:
        pdf.set_fill_color(255, 243, 224)
        pdf.set_draw_color(*WARN)
        pdf.set_text_color(*WARN)
        pdf.set_font(FONT, "B", 10)
        as_of = day(data.as_of) if data.as_of else ""
        pdf.multi_cell(width, 5.2, t("provisional_banner").format(date=as_of), border=1,
                       fill=True, align="L", new_x="LMARGIN", new_y="NEXT", padding=1.5)
        pdf.set_text_color(*INK)
        pdf.ln(1.5)
    # People read this page: the account by its name, a booking by the reference its page shows
    # (the ids are in the CSV, for tools).
    facts = [(t("account"), account_name),
             (t("period"), f"{day(data.start)} – {day(data.end - dt.timedelta(days=1))}"),
             (t("generated"), generated_text)]
    if data.due_date:
        facts += [(t("due_stays"), day(data.due_date)), (t("due_fee"), day(data.fee_due_date))]
    for label, value in facts:
        pdf.set_font(FONT, "B", 9)
        pdf.cell(62, 5, label + ":")
        pdf.set_font(FONT, "", 9)
        pdf.cell(width - 62, 5, value, new_x="LMARGIN", new_y="NEXT")
    pdf.ln(3)

    # -- summary -------------------------------------------------------------------------------
    _heading(pdf, t("summary"))
    summary = [(t("stays"), str(data.booking_count)), (t("nights"), str(data.nights)),
               (t("gross"), money(data.total_revenue_cents)),
               (t("stay_fee"), money(data.stay_fee_cents)),
               (t("net"), money(data.net_revenue_cents)),
               (t("fee_period"), money(data.climate_fee_total_cents)),
               (t("cancellations"), str(data.cancellation_count)),
               (t("amount_kept"), money(data.amount_kept_cents)),
               (t("attention_count"), str(len(data.attention)))]
    half = (len(summary) + 1) // 2
    top = pdf.get_y()
    for column, items in enumerate((summary[:half], summary[half:])):
        for row, (label, value) in enumerate(items):
            pdf.set_xy(pdf.l_margin + column * (width / 2 + 4), top + row * 5.6)
            pdf.set_fill_color(*(STRIPE_FILL if row % 2 == 0 else (255, 255, 255)))
            pdf.set_font(FONT, "", 9.5)
            pdf.cell(width / 2 - 44, 5.6, label, fill=True)
            pdf.set_font(FONT, "B", 9.5)
            pdf.cell(40, 5.6, value, align="R", fill=True)
    pdf.set_xy(pdf.l_margin, top + half * 5.6 + 2)
    pdf.set_font(FONT, "", 7.5)
    pdf.set_text_color(*MUTED)
    pdf.multi_cell(width, 3.8, t("fee_note") + " " + t("renter_note"), new_x="LMARGIN",
                   new_y="NEXT")
    pdf.set_text_color(*INK)
    pdf.ln(2)

    # -- per property --------------------------------------------------------------------------
    for section in data.sections:
        if pdf.will_page_break(28):
            pdf.add_page()
        _heading(pdf, f"{for_line(section.name)} · {t('ama')} {for_line(section.ama)}")
        pdf.set_font(FONT, "", 8.5)
        pdf.set_text_color(*MUTED)
        text_line(pdf, width, 4.5,
                  f"{for_line(section.address)} · {t('category')}: {t(section.category)} · "
                  f"{t('fee_period')}: {money(section.fee_in_period_cents)} "
                  f"({section.fee_nights} {t('nights').lower()})")
        pdf.set_text_color(*INK)
        if not section.stays:
            pdf.set_font(FONT, "", 8.5)
            pdf.cell(width, 5, t("no_stays"), new_x="LMARGIN", new_y="NEXT")
        else:
            header = [(t(key), w, align) for key, w, align in STAY_COLUMNS]
            _table_header(pdf, header)
            aligns = tuple((w, align) for _, w, align in STAY_COLUMNS)
            for index, stay in enumerate(section.stays):
                _row(pdf, header, aligns, index, (
                    day(stay.arrival), day(stay.departure), str(stay.nights),
                    _clip(stay.guest_name, 27), _renter_id(stay.renter_id, language),
                    _clip(stay.renter_reference or "—", 15),
                    platform(stay.platform), payment(stay.payment_method),
                    money(stay.gross_cents), money(stay.fee_cents), money(stay.net_cents)))
            pdf.repeat_header = None
            _total_row(pdf, aligns, (t("total"), "", str(section.nights), "", "", "", "", "",
                                     money(section.gross_cents), money(section.stay_fee_cents),
                                     money(section.net_cents)))
        if section.cancellations:
            pdf.ln(1.5)
            pdf.set_font(FONT, "B", 9)
            pdf.cell(width, 5, t("cancellation_heading"), new_x="LMARGIN", new_y="NEXT")
            columns = ((t("arrival"), 21, "L"), (t("departure"), 21, "L"),
                       (t("cancelled_on"), 22, "L"), (t("renter"), 59, "L"),
                       (t("renter_id"), 33, "L"), (t("reference"), 33, "L"), (t("platform"), 23, "L"),
                       (t("payment"), 26, "L"), (t("amount_kept"), 35, "R"))
            header = [(label, w, align) for label, w, align in columns]
            _table_header(pdf, header)
            aligns = tuple((w, align) for _, w, align in columns)
            for index, item in enumerate(section.cancellations):
                _row(pdf, header, aligns, index, (
                    day(item.arrival), day(item.departure), day(item.cancelled_on),
                    _clip(item.guest_name, 34), _renter_id(item.renter_id, language),
                    _clip(item.renter_reference or "—", 18),
                    platform(item.platform), payment(item.payment_method),
                    money(item.amount_kept_cents)))
            pdf.repeat_header = None
            _total_row(pdf, aligns, (t("total"), "", "", "", "", "", "", "",
                                     money(section.amount_kept_cents)))
        pdf.ln(3)

    # -- the fee by month and season -----------------------------------------------------------
    if pdf.will_page_break(30):
        pdf.add_page()
    _heading(pdf, t("fee_heading"))
    if not data.fee_lines:
        pdf.set_font(FONT, "", 8.5)
        pdf.cell(width, 5, t("no_fee"), new_x="LMARGIN", new_y="NEXT")
    else:
        columns = ((t("month"), 40, "L"), (t("season"), 45, "L"), (t("category"), 98, "L"),
                   (t("nights"), 25, "R"), (t("rate"), 30, "R"), (t("fee_short"), 35, "R"))
        header = [(label, w, align) for label, w, align in columns]
        _table_header(pdf, header)
        aligns = tuple((w, align) for _, w, align in columns)
        for index, line in enumerate(data.fee_lines):
            _row(pdf, header, aligns, index, (
                L.period_name(line.year, line.month, language),
                t("summer" if line.summer else "winter"), t(line.category), str(line.nights),
                money(line.rate_cents), money(line.fee_cents)))
        pdf.repeat_header = None
        _total_row(pdf, aligns, (t("total"), "", "", str(data.fee_nights_in_period), "",
                                 money(data.climate_fee_total_cents)))
    pdf.ln(3)

    # -- needs attention -----------------------------------------------------------------------
    if pdf.will_page_break(30):
        pdf.add_page()
    _heading(pdf, t("attention_heading"), colour=WARN if data.attention else ACCENT)
    if not data.attention:
        pdf.set_font(FONT, "", 8.5)
        pdf.cell(width, 5, t("attention_none"), new_x="LMARGIN", new_y="NEXT")
    else:
        columns = ((t("booking"), 51, "L"), (t("property"), 45, "L"), (t("guest"), 40, "L"),
                   (t("arrival"), 21, "L"), (t("departure"), 21, "L"), (t("reason"), 95, "L"))
        header = [(label, w, align) for label, w, align in columns]
        _table_header(pdf, header)
        for index, item in enumerate(data.attention):
            _attention_row(pdf, header, columns, index, item, language, day)
        pdf.repeat_header = None

    _footers(pdf, language)
    return bytes(pdf.output())


def _footers(pdf: FPDF, language: str) -> None:
    pdf.set_font(FONT, "", 7.5)
    pdf.set_text_color(*MUTED)
    footers(pdf, pdf.footer_text,
            lambda page: f"{L.text('page', language)} {page} {L.text('of', language)} ")


def _heading(pdf: FPDF, title: str, colour=ACCENT) -> None:
    pdf.set_font(FONT, "B", 11)
    pdf.set_text_color(*colour)
    text_line(pdf, pdf.epw, 6.5, title)
    pdf.set_draw_color(*colour)
    pdf.set_line_width(0.4)
    pdf.line(pdf.l_margin, pdf.get_y(), pdf.l_margin + pdf.epw, pdf.get_y())
    pdf.set_text_color(*INK)
    pdf.ln(1.2)


def _table_header(pdf: FPDF, header) -> None:
    pdf.repeat_header = header
    height = ROW_HEIGHT + 0.6
    x, y = pdf.l_margin, pdf.y
    width = sum(w for _, w, _ in header)
    pdf.set_fill_color(*HEAD_FILL)
    pdf.rect(x, y, width, height, style="F")
    pdf.set_draw_color(*RULE)
    pdf.set_line_width(0.2)
    pdf.line(x, y, x + width, y)
    pdf.line(x, y + height, x + width, y + height)
    pdf.set_font(FONT, "B", 8)
    table_line(pdf, tuple((w, align) for _, w, align in header),
               [label for label, _, _ in header], y, height)
    pdf.set_font(FONT, "", 8)


def _row(pdf: FPDF, header, aligns, index: int, values) -> None:
    if pdf.y + ROW_HEIGHT > pdf.page_break_trigger:
        pdf.add_page()
        _table_header(pdf, header)
    striped = index % 2 == 1
    if striped:
        pdf.set_fill_color(*STRIPE_FILL)
    table_line(pdf, aligns, values, pdf.y, ROW_HEIGHT, fill=striped)


def _total_row(pdf: FPDF, aligns, values) -> None:
    height = ROW_HEIGHT + 0.4
    if pdf.y + height > pdf.page_break_trigger:
        pdf.add_page()
    x, y = pdf.l_margin, pdf.y
    pdf.set_draw_color(*RULE)
    pdf.set_line_width(0.2)
    pdf.line(x, y, x + sum(width for width, _ in aligns), y)
    pdf.set_font(FONT, "B", 8)
    table_line(pdf, aligns, values, y, height)
    pdf.set_font(FONT, "", 8)


def _attention_row(pdf: FPDF, header, columns, index, item, language, day) -> None:
    """A booking that needs attention and its reasons, wrapped in the last column: laid out as
    five `cell()` calls and a `multi_cell()` of the reasons (padded 0.5 mm above and below) lay
    it out, written as one piece (see pdftext.py)."""
    reasons = [for_line(text) for text in item.texts(language)]
    *cells, (_, reason_width, _) = columns
    lines = [part for text in reasons for part in wrapped(pdf, reason_width, text)]
    # The whole row moves to the next page when it does not fit.
    height = max(ROW_HEIGHT, len(lines) * REASON_LINE + 1)
    if pdf.will_page_break(height):
        pdf.add_page()
        _table_header(pdf, header)
    x, top = pdf.l_margin, pdf.get_y()
    cells_width = sum(width for _, width, _ in cells)
    if index % 2 == 1:
        pdf.set_fill_color(*STRIPE_FILL)
        pdf.rect(x, top, cells_width, height, style="F")
        # multi_cell() filled one line's box even for no text at all.
        pdf.rect(x + cells_width, top, reason_width, max(len(lines), 1) * REASON_LINE + 1,
                 style="F")
    texts = Texts(pdf)
    values = (short_reference(item.booking_id), _clip(item.property_name, 28),
              _clip(item.guest_name, 24), day(item.arrival), day(item.departure))
    for (_, width, align), value in zip(cells, values):
        texts.cell(x, top, width, height, align, value)
        x += width
    texts.colour(*WARN)
    for number, text in enumerate(lines):
        texts.cell(x, top + 0.5 + number * REASON_LINE, reason_width, REASON_LINE, "L", text)
    texts.write()
    pdf.set_text_color(*INK)
    pdf.set_xy(pdf.l_margin, top + height)


def _payment(method: str | None, language: str) -> str:
    return L.text("payment:" + method, language) if method else "—"


def _renter_id(renter_id: tuple[str, str] | None, language: str) -> str:
    if not renter_id:
        return "—"
    kind, number = renter_id
    return _clip(f"{L.text(kind, language)} {number}", 21)


@functools.lru_cache(maxsize=4096)  # names and references recur from row to row
def _clip(value: str, length: int) -> str:
    value = for_line(value) or ""
    return value if len(value) <= length else value[:length - 1] + "…"
