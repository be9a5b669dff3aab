"""The month's figures for a region on another system (authorities/ross1000/figures.py): the
C/59 figures of the hand-worked June month of test_ross1000, as a CSV and as a PDF titled for the
region's system, read back with pdftotext; one page rendered to PNG with pdftoppm."""

from __future__ import annotations

import csv
import io
import shutil
import subprocess

import pytest

from rentalcomply.authorities.ross1000 import figures, regions
from rentalcomply.authorities.ross1000.movement import MonthInput
from tests.authorities.test_ross1000 import ARRIVALS, CLOSED, DEPARTURES, MONTH, NIGHTS, STATE

SPOT = regions.get("IT-75")


def month_figures(month=MONTH):
    return figures.month_figures(month, system_title=SPOT.system_title, region_name=SPOT.name,
                                 property_name="Trullo Bianco")


def needs(tool: str) -> None:
    if shutil.which(tool) is None:
        pytest.skip(f"reading the PDF back needs {tool} (apt-get install poppler-utils)")


def test_the_figures_match_the_hand_worked_month():
    result = month_figures()
    assert (result.arrivals, result.departures, result.nights) == (31, 30, 86)
    assert result.open_days == 29
    by_origin = {o.origin: (o.arrivals, o.departures, o.nights) for o in result.origins}
    assert by_origin == {origin: (ARRIVALS[origin], DEPARTURES[origin], NIGHTS[origin])
                         for origin in ARRIVALS}
    # Italian provinces first, then countries; the countries named from the states table.
    assert [o.label for o in result.origins][:3] == ["Italy, province MI", "Italy, province NA",
                                                     "Italy, province RM"]
    assert f"GERMANIA ({STATE['DE']})" in [o.label for o in result.origins]
    closed = next(d for d in result.days if d.date == CLOSED)
    assert (closed.open, closed.rooms_available, closed.beds_available, closed.nights) == (
        False, 0, 0, 0)


def test_the_csv_holds_the_same_figures():
    rows = list(csv.DictReader(io.StringIO(figures.csv_bytes(month_figures()).decode("utf-8"))))
    days = [r for r in rows if r["section"] == "day"]
    assert len(days) == 30
    assert sum(int(r["nights"]) for r in days) == 86
    assert next(r for r in days if r["date_or_origin"] == CLOSED.isoformat())["open"] == "no"
    origins = {r["date_or_origin"]: r for r in rows if r["section"] == "origin"}
    assert origins["RM"]["nights"] == str(NIGHTS["RM"])
    assert origins[STATE["ES"]]["departures"] == "2"
    total = rows[-1]
    assert (total["section"], total["date_or_origin"], total["open"], total["arrivals"],
            total["departures"], total["nights"]) == ("total", "2026-06", "29", "31", "30", "86")


def test_the_pdf_is_titled_for_the_system_and_reads_back(tmp_path):
    needs("pdftotext")
    data = figures.pdf_bytes(month_figures())
    assert data.startswith(b"%PDF")
    path = tmp_path / figures.filename(month_figures(), SPOT.system, "pdf")
    assert path.name == "spot-2026-06.pdf"
    path.write_bytes(data)
    text = subprocess.run(["pdftotext", "-layout", str(path), "-"], check=True,
                          capture_output=True, text=True).stdout
    assert "SPOT (Sistema Puglia per l'Osservatorio Turistico): monthly tourism figures" in text
    assert "June 2026" in text and "Trullo Bianco" in text and "Region: Puglia" in text
    assert "29 days open, 1 closed; 31 arrivals (arrivi), 30 departures (partenze), 86 nights" in text
    assert " ".join("Italy, province RM   5   5   13".split()) in " ".join(text.split())
    assert " ".join(f"GERMANIA ({STATE['DE']}) 3 3 8".split()) in " ".join(text.split())
    assert " ".join("Wed 10/06 CLOSED 0 0 0 0 0 0".split()) in " ".join(text.split())
    assert " ".join("Total 31 30 86".split()) in " ".join(text.split())


def test_an_empty_month_says_no_guests(tmp_path):
    needs("pdftotext")
    empty = MonthInput(structure_code="", year=2026, month=2, rooms_available=2, beds_available=4)
    path = tmp_path / "empty.pdf"
    path.write_bytes(figures.pdf_bytes(month_figures(empty)))
    text = subprocess.run(["pdftotext", "-layout", str(path), "-"], check=True,
                          capture_output=True, text=True).stdout
    assert "No guests this month" in text and "28 days open, 0 closed; 0 arrivals" in text


def test_one_page_renders_to_png(tmp_path):
    needs("pdftoppm")
    path = tmp_path / "figures.pdf"
    path.write_bytes(figures.pdf_bytes(month_figures()))
    subprocess.run(["pdftoppm", "-png", "-r", "60", "-f", "1", "-l", "1", str(path),
                    str(tmp_path / "page")], check=True)
    page = next(tmp_path.glob("page*.png"))
    assert page.stat().st_size > 5000
    shutil.copy(page, tmp_path.parent / "ross1000-figures-page1.png")
