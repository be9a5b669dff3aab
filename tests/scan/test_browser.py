"""Scanning in headless Chromium at phone size (390×844) against the real server on a loopback
port: the guest picks a generated photo of their passport and sees the fields filled, with and
without JavaScript. Screenshots go to tests/artifacts/checkin/ (git-ignored)."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from rentalcomply.checkin import service as checkin
from tests.axe import violations
from tests.dashboard.test_browser import _shows, chromium, server  # noqa: F401 - fixtures
from tests.scan.conftest import document_photo, needs_scanner, passport_values

pytest.importorskip("playwright.sync_api")

pytestmark = [pytest.mark.server, needs_scanner]

CHROMIUM = "/usr/bin/chromium"
PHONE = {"width": 390, "height": 844}
ARTIFACTS = Path(__file__).resolve().parents[1] / "artifacts" / "checkin"

if not os.path.exists(CHROMIUM):
    pytest.skip("Chromium is not installed (apt-get install chromium)", allow_module_level=True)


def _shot(page, name: str, script: bool) -> None:
    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(ARTIFACTS / f"{name}.png"), full_page=True)
    if script:  # axe-core runs in the page: not where scripts are off
        assert violations(page) == [], name


@pytest.fixture
def photo(tmp_path):
    path = tmp_path / "passport.png"
    path.write_bytes(document_photo(passport_values()))
    return path


@pytest.mark.parametrize("script", [True, False], ids=["with-javascript", "without-javascript"])
def test_a_guest_scans_a_passport_and_sees_the_fields_filled(make_booking, server, chromium,  # noqa: F811
                                                            photo, script):
    booking = make_booking("PT", guest_count=1)
    url = f"{server.base_url}/checkin/{checkin.token_for(booking.id)}?lang=en"
    context = chromium.new_context(viewport=PHONE, java_script_enabled=script)
    page = context.new_page()
    page.goto(url)
    page.get_by_text("Scan the document").click()  # the box opens
    page.set_input_files("#g0-scan", str(photo))
    if not script:
        page.get_by_role("button", name="Read the document").click()
    assert _shows(page, "Read from your document", timeout=30)
    number = page.locator("#g0-document_number")
    number.wait_for()
    assert number.input_value() == "AB1234567"
    assert page.locator("#g0-last_name").input_value() == "Papadopoulou"
    assert page.locator("#g0-birth_date").input_value() == "1985-04-23"
    # The nationality shows as the guest sees it: the searchable box with script, the list without.
    if script:
        assert page.locator("#g0-nationality-search").input_value() == "Greece"
    else:
        assert page.locator("#g0-nationality").input_value() == "GR"
    page.locator(".scan-note").scroll_into_view_if_needed()
    _shot(page, f"scan-{'script' if script else 'noscript'}-phone", script)
    context.close()


@pytest.mark.parametrize("case", ["too-large", "too-many-pixels", "not-an-image"])
def test_without_javascript_a_refused_photo_is_said_on_the_page_in_the_guests_language(
        make_booking, settings, chromium, tmp_path, case):  # noqa: F811
    """On the real server as `serve` sets it up: a photo over the limit is refused by Waitress
    before the application, and the guest still gets the form, in German, saying why."""
    from tests.scan.files import MIB, png_declaring
    from tests.scan.test_server_limits import real_server
    photo = tmp_path / "photo.jpg"
    photo.write_bytes({"too-large": b"\xff\xd8\xff\xe0" + b"\x00" * (12 * MIB),
                       "too-many-pixels": png_declaring(30000, 30000),
                       "not-an-image": b"%PDF-1.7 a scan of a passport"}[case])
    said = {"too-large": "Das Foto ist größer als 10 MB",
            "too-many-pixels": "Das Foto hat zu viele Pixel",
            "not-an-image": "Diese Datei ist kein JPEG- oder PNG-Foto"}[case]
    booking = make_booking("PT", guest_count=1)
    with real_server(settings) as port:
        context = chromium.new_context(viewport=PHONE, java_script_enabled=False)
        page = context.new_page()
        page.goto(f"http://127.0.0.1:{port}/checkin/{checkin.token_for(booking.id)}?lang=de")
        page.get_by_text("Dokument scannen").click()
        page.set_input_files("#g0-scan", str(photo))
        page.get_by_role("button", name="Dokument lesen").click()
        assert _shows(page, said, timeout=30)
        assert page.locator("#checkin-form").count() == 1  # the form, not a message or JSON
        page.locator(".scan-note").scroll_into_view_if_needed()
        _shot(page, f"scan-noscript-refused-{case}-phone", False)
        context.close()
