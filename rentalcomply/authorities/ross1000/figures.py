"""The month's figures for a region on another statistics system (ISPAT, SPOT, VIT, OTRS, or one
not known): what a host types into their region's portal, as a PDF titled for that system and a
CSV of the same.

The figures are ISTAT's model C/59 (italy-statistics-and-tax.md, "ISTAT movement survey"): per
day, whether the property was open, the arrivals (arrivi), departures (partenze) and the nights
spent that night (presenze), the rooms occupied and the rooms and beds available; for the month,
arrivals, departures and nights by origin: the Italian province of residence for residents of
Italy, the country of residence otherwise (residence, not citizenship, drives the figures). They
are computed by movement.py from the same MonthInput as ROSS 1000's file, so a region's system
and ROSS 1000 never disagree.

The PDF uses fpdf2's core font (Helvetica, Latin-1): the Italian and country names it prints
are Latin-1, and anything else is replaced visibly rather than failing the file. It needs no
font file of another authority's folder (authorities never share code).
"""

from __future__ import annotations

import csv
import dataclasses
import datetime as dt
import io
import unicodedata
import warnings
from dataclasses import dataclass

from rentalcomply import codes
from rentalcomply.authorities.ross1000.movement import ITALY, MonthInput, month_days, totals

# fpdf2 warns on import where Pillow is absent; the figures have no image.
warnings.filterwarnings("ignore", message="Pillow could not be imported", category=UserWarning)

MONTHS = ("January", "February", "March", "April", "May", "June", "July", "August",
          "September", "October", "November", "December")
INK = (33, 37, 41)
MUTED = (108, 117, 125)
HEAD_FILL = (222, 226, 230)
CLOSED_FILL = (245, 246, 248)
ROW = 5.0


@dataclass(frozen=True)
class DayFigures:
    date: dt.date
    open: bool
    arrivals: int
    departures: int
    nights: int  # guests who slept there that night (presenze)
    rooms_occupied: int
    rooms_available: int
    beds_available: int


@dataclass(frozen=True)
class OriginFigures:
    origin: str  # the province (two letters) of a resident of Italy, else the state code
    label: str  # "Italy, province RM" / "GERMANIA (100000216)"
    italian: bool
    arrivals: int
    departures: int
    nights: int


@dataclass(frozen=True)
class MonthFigures:
    system_title: str  # the region's system, as the PDF's title names it
    region_name: str
    property_name: str
    structure_code: str
    year: int
    month: int
    days: tuple[DayFigures, ...]
    origins: tuple[OriginFigures, ...]  # Italian provinces first, then countries, by label

    @property
    def open_days(self) -> int:
        return sum(1 for d in self.days if d.open)

    @property
    def arrivals(self) -> int:
        return sum(d.arrivals for d in self.days)

    @property
    def departures(self) -> int:
        return sum(d.departures for d in self.days)

    @property
    def nights(self) -> int:
        return sum(d.nights for d in self.days)

    @property
    def period(self) -> str:
        return f"{MONTHS[self.month - 1]} {self.year}"


def month_figures(month: MonthInput, *, system_title: str, region_name: str,
                  property_name: str) -> MonthFigures:
    """The month's figures. movement.MovementError for data that cannot make truthful ones."""
    # Another system has no ROSS 1000 structure code; movement.check asks one of a ROSS file.
    days = month_days(dataclasses.replace(month, structure_code=month.structure_code or "-"))
    total = totals(days)
    per_day = tuple(DayFigures(
        date=d.date, open=d.open, arrivals=len(d.arrivals), departures=len(d.departures),
        nights=sum(d.nights.values()), rooms_occupied=d.rooms_occupied,
        rooms_available=d.rooms_available, beds_available=d.beds_available) for d in days)
    italian = {g.origin for s in month.stays for g in s.guests if g.residence_country == ITALY}
    origins = sorted(set(total.arrivals) | set(total.departures) | set(total.nights))
    rows = [OriginFigures(origin=o, label=_label(o, o in italian), italian=o in italian,
                          arrivals=total.arrivals[o], departures=total.departures[o],
                          nights=total.nights[o]) for o in origins]
    rows.sort(key=lambda r: (not r.italian, r.label))
    return MonthFigures(system_title=system_title, region_name=region_name,
                        property_name=property_name, structure_code=month.structure_code,
                        year=month.year, month=month.month, days=per_day, origins=tuple(rows))


def _label(origin: str, italian: bool) -> str:
    if italian:
        return f"Italy, province {origin}"
    states = codes.table("IT", "stati").by_code.get(origin) or []
    name = states[0].name if states else "state"
    return f"{name} ({origin})"


# --- CSV -----------------------------------------------------------------------------------------

CSV_HEADER = ("section", "date_or_origin", "label", "open", "arrivals", "departures", "nights",
              "rooms_occupied", "rooms_available", "beds_available")


def csv_bytes(figures: MonthFigures) -> bytes:
    """One CSV: a `day` row per day, an `origin` row per origin, a `total` row (UTF-8, CRLF).
    A cell starting with = + - @ is prefixed with ' so no spreadsheet reads it as a formula."""
    buffer = io.StringIO()
    writer = csv.writer(buffer, lineterminator="\r\n")
    writer.writerow(CSV_HEADER)
    for d in figures.days:
        writer.writerow(("day", d.date.isoformat(), d.date.strftime("%a"), "yes" if d.open else "no",
                         d.arrivals, d.departures, d.nights, d.rooms_occupied, d.rooms_available,
                         d.beds_available))
    for o in figures.origins:
        writer.writerow(("origin", o.origin, _cell(o.label), "", o.arrivals, o.departures,
                         o.nights, "", "", ""))
    writer.writerow(("total", f"{figures.year}-{figures.month:02d}", "month", figures.open_days,
                     figures.arrivals, figures.departures, figures.nights, "", "", ""))
    return buffer.getvalue().encode("utf-8")


def _cell(text: str) -> str:
    return "'" + text if text[:1] in ("=", "+", "-", "@") else text


# --- PDF -----------------------------------------------------------------------------------------

DAY_COLUMNS = (("Day", 26, "L"), ("Open", 14, "C"), ("Arrivals", 22, "R"),
               ("Departures", 24, "R"), ("Nights", 20, "R"), ("Rooms occupied", 28, "R"),
               ("Rooms available", 28, "R"), ("Beds available", 24, "R"))
ORIGIN_COLUMNS = (("Origin (residence)", 100, "L"), ("Arrivals", 26, "R"),
                  ("Departures", 30, "R"), ("Nights", 30, "R"))


def latin1(text: str) -> str:
    """What the core font can print: Latin-1, other letters by their base letter, the rest '?'."""
    out = []
    for char in str(text):
        if ord(char) < 256 and (char.isprintable() or char == " "):
            out.append(char)
            continue
        base = "".join(c for c in unicodedata.normalize("NFKD", char)
                       if not unicodedata.combining(c) and ord(c) < 256)
        out.append(base or "?")
    return "".join(out)


def pdf_bytes(figures: MonthFigures) -> bytes:
    from fpdf import FPDF  # fpdf2 costs its import only where a PDF is made

    title = latin1(f"{figures.system_title}: monthly tourism figures")
    footer = latin1(f"{figures.property_name} - {figures.period} - made by RentalComply from the "
                    "stays and check-ins; type these figures into the region's portal, then mark "
                    "the month filed.")

    class Document(FPDF):
        def footer(self):
            self.set_y(-10)
            self.set_font("Helvetica", "", 7)
            self.set_text_color(*MUTED)
            self.cell(0, 4, footer[:150], align="L")
            self.cell(0, 4, f"Page {self.page_no()}", align="R")

    pdf = Document(orientation="P", unit="mm", format="A4")
    pdf.set_title(title)
    pdf.set_creator("RentalComply")
    pdf.set_margins(14, 12, 14)
    pdf.set_auto_page_break(True, margin=14)
    pdf.add_page()
    pdf.set_text_color(*INK)
    pdf.set_font("Helvetica", "B", 14)
    pdf.cell(0, 8, title, new_x="LMARGIN", new_y="NEXT")
    pdf.set_font("Helvetica", "", 9.5)
    for line in (f"ISTAT survey IST-00139, model C/59 - {figures.period}",
                 f"Property: {figures.property_name}"
                 + (f" (structure code {figures.structure_code})" if figures.structure_code else ""),
                 f"Region: {figures.region_name}"):
        pdf.cell(0, 5, latin1(line), new_x="LMARGIN", new_y="NEXT")
    pdf.ln(2)
    pdf.set_font("Helvetica", "B", 10)
    pdf.cell(0, 6, latin1(
        f"The month: {figures.open_days} days open, {len(figures.days) - figures.open_days} "
        f"closed; {figures.arrivals} arrivals (arrivi), {figures.departures} departures "
        f"(partenze), {figures.nights} nights (presenze)"), new_x="LMARGIN", new_y="NEXT")
    pdf.ln(2)
    _table_head(pdf, "By origin: Italian province or country of residence", ORIGIN_COLUMNS)
    for o in figures.origins:
        _row(pdf, ORIGIN_COLUMNS, (o.label, o.arrivals, o.departures, o.nights))
    if not figures.origins:
        _row(pdf, ORIGIN_COLUMNS, ("No guests this month", 0, 0, 0))
    pdf.set_font("Helvetica", "B", 9)
    _row(pdf, ORIGIN_COLUMNS, ("Total", figures.arrivals, figures.departures, figures.nights))
    pdf.ln(4)
    _table_head(pdf, "Day by day", DAY_COLUMNS)
    for d in figures.days:
        shown = (d.date.strftime("%a %d/%m"), "yes" if d.open else "CLOSED", d.arrivals,
                 d.departures, d.nights, d.rooms_occupied, d.rooms_available, d.beds_available)
        _row(pdf, DAY_COLUMNS, shown, fill=not d.open)
    return bytes(pdf.output())


def _table_head(pdf, caption: str, columns) -> None:
    pdf.set_font("Helvetica", "B", 10)
    pdf.cell(0, 6, latin1(caption), new_x="LMARGIN", new_y="NEXT")
    pdf.set_font("Helvetica", "B", 8.5)
    pdf.set_fill_color(*HEAD_FILL)
    for name, width, align in columns:
        pdf.cell(width, ROW + 1, name, border=1, align=align, fill=True)
    pdf.ln(ROW + 1)
    pdf.set_font("Helvetica", "", 8.5)


def _row(pdf, columns, values, fill: bool = False) -> None:
    pdf.set_fill_color(*CLOSED_FILL)
    for (_, width, align), value in zip(columns, values):
        pdf.cell(width, ROW, latin1(str(value)), border=1, align=align, fill=fill)
    pdf.ln(ROW)
    pdf.set_font("Helvetica", "", 8.5)


def filename(figures: MonthFigures, system: str, extension: str) -> str:
    """`<system>-<year>-<month>.<ext>`, e.g. spot-2026-06.pdf."""
    return f"{system}-{figures.year}-{figures.month:02d}.{extension}"
