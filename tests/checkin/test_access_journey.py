"""Access instructions in a real browser: Debian's Chromium at a phone's (390x844) and a laptop's
size (1280x800) against
the real server in its own process. Before check-in the page says the instructions come once it
is complete and shows none of them; once the guest has checked in (inside the window: 168 hours
before an arrival two days away) the page shows them, and the e-mail with them arrives once.

Screenshots are saved in tests/artifacts/.
"""

from __future__ import annotations

import datetime as dt

import pytest

from rentalcomply.core import clock
from tests.checkin.test_journey import (ARTIFACTS, api, browser, fill_guest,  # noqa: F401
                                        pytestmark, smtp)
from tests.e2e.conftest import start_server  # noqa: F401 - fixture

INSTRUCTIONS = "Key box left of the door, code 481273.\nWi-Fi: Anemoi / sunset2027"


SIZES = {"phone": {"width": 390, "height": 844}, "desktop": {"width": 1280, "height": 800}}


@pytest.mark.parametrize("size", list(SIZES))
def test_access_instructions_are_hidden_before_check_in_and_shown_after(size, start_server,  # noqa: F811
                                                                         tmp_path, smtp,  # noqa: F811
                                                                         browser):  # noqa: F811
    inbox, smtp_port = smtp
    server = start_server(tmp_path / "data", env={
        "RENTALCOMPLY_SMTP_HOST": "127.0.0.1", "RENTALCOMPLY_SMTP_PORT": str(smtp_port)})
    prop = api(server, "POST", "/properties", {"name": "Villa Anemoi", "address": "Oia 1",
                                               "country": "GR"}, 201)
    shown = api(server, "PATCH", f"/properties/{prop['id']}",
                {"access_instructions": INSTRUCTIONS, "access_instructions_hours_before": 168})
    assert shown["access_instructions_set"] is True and "481273" not in str(shown)
    # A Greek stay's page asks the lead guest alone, what the declaration to AADE needs.
    party = [{"first_name": "Μαρία", "last_name": "Παπαδοπούλου", "nationality": "GR",
              "tax_id": "094259216", "email": "maria@example.com"}]
    arrival = clock.today() + dt.timedelta(days=2)
    booking = api(server, "POST", "/bookings", {
        "property_id": prop["id"], "guest_name": "Maria Papadopoulou",
        "guest_email": "maria@example.com", "guest_language": "en",
        "arrival_date": arrival.isoformat(),
        "departure_date": (arrival + dt.timedelta(days=3)).isoformat(),
        "guest_count": 2}, 201)
    api(server, "POST", "/checkins/resend", {"booking_id": booking["id"]}, 202)
    inbox.wait(1)
    link = inbox.link(0)

    ARTIFACTS.mkdir(exist_ok=True)
    phone = size == "phone"
    context = browser.new_context(viewport=SIZES[size], locale="en-GB",
                                  device_scale_factor=2 if phone else 1, is_mobile=phone,
                                  has_touch=phone)
    page = context.new_page()
    page.goto(link)
    note = page.locator("#access-note")
    assert "appear on this page once check-in is complete" in note.inner_text()
    assert "481273" not in page.content()
    page.screenshot(path=str(ARTIFACTS / f"access-before-checkin-{size}.png"))

    for index, guest in enumerate(party):  # one guest a step, then the consent's step
        fill_guest(page, index, guest)
        page.click("button.step-next")
    page.locator("#consent").wait_for()
    page.check("#consent")
    page.click("button[type=submit]")
    page.wait_for_selector("#done-title")
    instructions = page.locator("#access .access-text")
    instructions.wait_for()
    assert instructions.inner_text() == INSTRUCTIONS  # line breaks kept
    assert instructions.is_visible()
    page.screenshot(path=str(ARTIFACTS / f"access-after-checkin-{size}.png"), full_page=True)
    context.close()

    mails = inbox.wait(2)
    assert mails[1]["Subject"] == "How to get into Villa Anemoi"
    assert "481273" in mails[1].get_body(("plain",)).get_content()
    server.stop(15)
    assert len(inbox.messages) == 2  # the invitation and the instructions, each once
    log = "".join(server.lines) + "".join(server.stderr_lines)
    assert "481273" not in log and "sunset2027" not in log
