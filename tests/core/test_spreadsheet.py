"""CSV cells that no spreadsheet takes for a formula, whatever separator it assumes
(core/spreadsheet.py)."""

from __future__ import annotations

import csv
import io

import pytest

from rentalcomply.core import spreadsheet


@pytest.mark.parametrize("value, cell", [
    ("=1+1", "'=1+1"), ("+30 694", "'+30 694"), ("-2", "'-2"), ("@SUM(A1)", "'@SUM(A1)"),
    ("\t=1", "'\t'=1"), ("\r=1", "'\r'=1"), ("  =1+1", "'  =1+1"),
    ("Ana;=1+1;x", "Ana;'=1+1;x"), ("Ana,=1+1", "Ana,'=1+1"), ("Ana\t@x", "Ana\t'@x"),
    ("Ana; -1", "Ana; '-1"), ("Ana|+1", "Ana|'+1"), ("Ana\n=cmd", "Ana\n'=cmd"),
    ("Anne-Marie O'Neil", "Anne-Marie O'Neil"), ("Eleni Georgiou", "Eleni Georgiou"),
    ("", ""), (None, ""),
])
def test_a_cell_never_starts_a_formula_after_any_separator(value, cell):
    assert spreadsheet.text_cell(value) == cell


@pytest.mark.parametrize("separator", [",", ";", "\t", "|"])
def test_no_cell_read_with_any_separator_is_a_formula(separator):
    buffer = io.StringIO()
    writer = spreadsheet.writer(buffer)
    writer.writerow([spreadsheet.text_cell(v) for v in ("Ana;=1+1;x", "=2", "b,@c", "x\t-1")])
    text = buffer.getvalue()
    assert text.startswith('"') and text.endswith('"\r\n')  # every cell quoted
    # A reader honouring quotes sees the four cells; one ignoring them, whatever it splits on,
    # still finds no cell starting a formula.
    assert next(csv.reader(io.StringIO(text))) == ["Ana;'=1+1;x", "'=2", "b,'@c", "x\t'-1"]
    for piece in text.replace('"', "").replace("\r\n", "").split(separator):
        assert piece.strip(" ")[:1] not in ("=", "+", "-", "@"), piece
