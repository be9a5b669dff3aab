"""Documents for the scanner's tests: made in the test's own folder by the repository's generator
(scripts/scan_documents.py), a few at a time, with check digits real or deliberately wrong."""

import datetime as dt
import io
import random

import pytest

from rentalcomply.core import clock
from rentalcomply.scan import mrz
from scripts import scan_documents
# The guest page's fixtures: a booking on a fresh database, its link, a visitor without a key.
from tests.checkin.conftest import (guest_page, make_booking, make_property,  # noqa: F401
                                    settings, smtp_server)

needs_scanner = pytest.mark.skipif(
    not __import__("rentalcomply.scan.reader", fromlist=["available"]).available()[0],
    reason="the scanner's optional part is not installed")


def yymmdd(day: dt.date) -> str:
    return day.strftime("%y%m%d")


def passport_values(expiry: dt.date | None = None, **changes) -> dict:
    values = dict(document_code="P", issuing_country="GRC", nationality="GRC",
                  name="PAPADOPOULOU<<MARIA<ELENI", number="AB1234567", birth_date="850423",
                  sex="F", expiry_date=yymmdd(expiry or clock.today() + dt.timedelta(days=3000)),
                  optional="")
    values.update(changes)
    return values


def document_photo(values: dict, layout: str = "TD3", *, degraded: bool = False,
                   break_check: bool = False, seed: int = 7) -> bytes:
    """A photo of a document with these values (PNG when clean, a phone JPEG when degraded);
    `break_check` changes the number's last character but keeps its check digit."""
    lines = mrz.compose(layout, **values)
    if break_check:
        row, position = (1, 8) if layout != "TD1" else (0, 13)
        wrong = "7" if lines[row][position] != "7" else "3"
        lines[row] = lines[row][:position] + wrong + lines[row][position + 1:]
    rng = random.Random(seed)
    page = scan_documents.data_page(values, lines, layout, 24.0 if degraded else 12.0, rng)
    buffer = io.BytesIO()
    if degraded:
        scan_documents.degrade(page, rng, size=(1920, 1440)).save(buffer, "JPEG", quality=60)
    else:
        page.save(buffer, "PNG")
    return buffer.getvalue()
