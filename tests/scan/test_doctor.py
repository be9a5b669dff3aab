"""`doctor` says whether guests can scan their documents, and why not; the guest page shows the
button only when they can."""

import sys

from rentalcomply.checkin import service as checkin
from rentalcomply.ops.doctor import run_checks
from rentalcomply.scan import reader
from tests.scan.conftest import needs_scanner


def scanning_check(settings):
    return {check.name: check for check in run_checks(settings)}["document scanning"]


@needs_scanner
def test_doctor_says_scanning_is_on_with_the_extra(settings):
    check = scanning_check(settings)
    assert check.ok and check.detail.startswith("on (OpenCV reader, OCR-B templates from /usr")


def test_without_the_extra_doctor_says_scanning_is_off_and_why(settings, monkeypatch):
    monkeypatch.setitem(sys.modules, "cv2", None)  # as if opencv-python-headless were absent
    check = scanning_check(settings)
    assert check.ok  # an optional part: never a failure
    assert check.detail.startswith("off: the optional part is not installed (pip install "
                                   "'rentalcomply[scan]'")


def test_without_the_ocr_b_font_doctor_says_so(settings, monkeypatch):
    monkeypatch.setattr(reader, "OCR_B_PATHS", ("/nonexistent/OCRB.otf",))
    assert "apt-get install fonts-ocr-b" in scanning_check(settings).detail


def test_without_the_extra_the_guest_page_has_no_scan_button(guest_page, make_booking,
                                                             monkeypatch):
    monkeypatch.setitem(sys.modules, "cv2", None)
    booking = make_booking("GR")
    page = guest_page.get("/checkin/" + checkin.token_for(booking.id) + "?lang=en")
    assert "Scan the document" not in page.text and 'capture="environment"' not in page.text
