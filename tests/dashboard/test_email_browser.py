"""The e-mail page in Chromium, at phone and desktop width: an owner sets up the mail server
(the loopback SMTP server), sends a test e-mail that arrives, and the page says so in words; the
password is never shown back. A refused check-in e-mail is said on the booking page with what to
do. The screenshots go to tests/artifacts/dashboard/."""

from __future__ import annotations

import pytest

from rentalcomply.core import mailer
from rentalcomply.properties import service as properties
from tests.checkin.conftest import smtp_server  # noqa: F401 - the fixture
from tests.dashboard.conftest import make_user
from tests.dashboard.test_browser import (ARTIFACTS, VIEWPORTS, _shows, _sign_in, chromium,  # noqa: F401
                                          server, settings, visible)

pytestmark = [pytest.mark.server, pytest.mark.long, pytest.mark.browser]


@pytest.mark.parametrize("size", ["phone", "desktop"])
def test_the_owner_sets_up_e_mail_and_sends_a_test_mail(  # noqa: F811
        settings, account_a, server, chromium, smtp_server, size):  # noqa: F811
    make_user(account_a, "owner@agency.example")
    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    context = chromium.new_context(viewport=VIEWPORTS[size])
    page = context.new_page()
    _sign_in(page, server.base_url, "owner@agency.example")

    def shot(name):
        overflow = page.evaluate("document.documentElement.scrollWidth - window.innerWidth")
        page.screenshot(path=str(ARTIFACTS / f"{name}-{size}.png"), full_page=True)
        assert overflow <= 0, (name, size, overflow)

    page.goto(server.base_url + "/dashboard/settings/account")
    page.get_by_role("link", name="Set up e-mail").click()
    visible(page.get_by_role("heading", name="Mail server"))
    page.get_by_role("textbox", name="Server").fill("127.0.0.1")
    page.get_by_role("spinbutton", name="Port").fill(str(smtp_server.port))
    page.locator("#security").select_option("none")
    page.locator("#username").fill("")
    page.locator("#password").fill("a-secret-never-shown")
    page.locator("#from_address").fill("Villa Anemoi <stay@villa-anemoi.example>")
    page.locator("form[action$='/smtp'] button.primary").click()
    assert _shows(page, "The mail server is saved")
    assert "a-secret-never-shown" not in page.content()
    assert page.locator("#password").input_value() == ""
    page.locator("#test_to").fill("owner@agency.example")
    page.get_by_role("button", name="Send a test e-mail").click()
    assert _shows(page, "was accepted by 127.0.0.1")
    [message] = smtp_server.wait(1)
    assert message["To"] == "owner@agency.example"
    assert message["From"] == "Villa Anemoi <stay@villa-anemoi.example>"
    assert "a-secret-never-shown" not in page.content()
    shot("email-test-sent")

    # A server that refuses: the page says what happened in words.
    smtp_server.refuse_with = "554 5.7.1 relaying denied"
    page.get_by_role("button", name="Send a test e-mail").click()
    assert _shows(page, "was not sent. The mail server refused the message.")
    shot("email-test-refused")
    page.goto(server.base_url + "/dashboard/today")
    visible(page.locator("#mail-warning"))
    shot("today-mail-warning")
    smtp_server.refuse_with = None
    assert mailer.setting_of(account_a).smtp_host == "127.0.0.1"
    context.close()


def test_a_refused_check_in_e_mail_is_said_on_the_booking_page(  # noqa: F811
        settings, account_a, server, chromium, smtp_server):  # noqa: F811
    import datetime as dt

    from rentalcomply.bookings import service as bookings
    from rentalcomply.bookings.fees import FeeRates
    from rentalcomply.checkin import tasks
    from rentalcomply.core import clock
    make_user(account_a, "owner@agency.example")
    prop = properties.create_property(account_a, name="Seaside Studio", address="Akti 12",
                                      max_guests=4)
    smtp_server.refuse_recipient_with = "550 5.1.1 no such user"
    booking = bookings.create_booking(
        account_a, rates=FeeRates.from_settings(settings), property_id=prop.id,
        arrival_date=clock.today() + dt.timedelta(days=1),
        departure_date=clock.today() + dt.timedelta(days=3), guest_count=2,
        guest_name="Nikos Walker", guest_email="nikos@example.com")
    tasks.invite_upcoming.call_local()
    page = chromium.new_page(viewport=VIEWPORTS["phone"])
    _sign_in(page, server.base_url, "owner@agency.example")
    assert "Check-in e-mails that did not reach the guest" in page.content()
    page.goto(server.base_url + f"/dashboard/bookings/{booking.id}")
    problem = page.locator("#invitation-problem")
    visible(problem)
    text = problem.inner_text()
    assert "The check-in e-mail did not reach the guest." in text
    assert "refused the guest's e-mail address" in text and "550" not in text
    assert "Correct the e-mail address on the booking" in text
    problem.scroll_into_view_if_needed()
    page.screenshot(path=str(ARTIFACTS / "booking-invitation-refused-phone.png"), full_page=True)
    page.close()


def test_the_owner_rewrites_the_reminder_and_previews_it(settings, account_a, server,  # noqa: F811
                                                         chromium):  # noqa: F811
    make_user(account_a, "owner@agency.example")
    page = chromium.new_page(viewport=VIEWPORTS["phone"])
    _sign_in(page, server.base_url, "owner@agency.example")
    page.goto(server.base_url + "/dashboard/settings/email")
    page.get_by_role("row", name="Check-in reminder").get_by_role("link", name="English").click()
    visible(page.get_by_role("heading", name="The default text"))
    page.locator("#subject").fill("Please check in, {guest_name}")
    page.locator("#body").fill("Hello {guest_name},\n\nyour stay at {property} starts on "
                               "{arrival}.\n\n{link}\n\n{host_name}")
    page.get_by_role("button", name="Preview").click()
    visible(page.locator("#message-preview"))
    assert "Please check in, Maria Papadopoulou" in page.locator("#message-preview").inner_text()
    page.screenshot(path=str(ARTIFACTS / "message-preview-phone.png"), full_page=True)
    page.get_by_role("button", name="Save changes").click()
    assert _shows(page, "The text is saved")
    page.get_by_role("button", name="Reset to the default text").click()
    assert _shows(page, "The default text is back.")
    page.close()
