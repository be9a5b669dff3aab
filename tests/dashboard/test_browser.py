"""The dashboard in headless Chromium (Debian's, driven by Playwright) against the real server on
a loopback port: set a password from the one-time link, sign in, create a key and use it against
the API, revoke it and see the API refuse it, register a webhook and see a test delivery's result,
find a booking. Screenshots of every page at phone and desktop widths go to
tests/artifacts/dashboard/ (git-ignored).
"""

from __future__ import annotations

import datetime as dt
import os
import re
import time
from pathlib import Path

import pytest

from rentalcomply.bookings import service as bookings
from rentalcomply.bookings.fees import FeeRates
from rentalcomply.core import clock
from rentalcomply.core.db import atomic
from rentalcomply.core.models import Booking, ChannelConnection, Property
from rentalcomply.dashboard import users
from rentalcomply.properties import service as properties
from rentalcomply.webhooks import service as webhooks
from tests.axe import violations
from tests.checkin.conftest import smtp_server  # noqa: F401 - the fixture
from tests.conftest import bootstrapped_settings
from tests.dashboard.conftest import DASHBOARD_ENV
from tests.serverutil import running_server
from tests.webhooks.conftest import Receiver

playwright_api = pytest.importorskip("playwright.sync_api")

pytestmark = [pytest.mark.server, pytest.mark.long]

CHROMIUM = "/usr/bin/chromium"
LAUNCH_ARGS = ["--no-sandbox", "--disable-gpu", "--disable-background-networking",
               "--disable-component-update", "--disable-sync", "--no-first-run"]
ARTIFACTS = Path(__file__).resolve().parents[1] / "artifacts" / "dashboard"
VIEWPORTS = {"phone": {"width": 390, "height": 844}, "desktop": {"width": 1280, "height": 800}}
from tests.dashboard.conftest import PASSWORD  # noqa: E402

# Which elements reach past the screen's right edge (to name the culprit of a sideways scroll).
WIDER_THAN_SCREEN = """[...document.querySelectorAll('body *')]
  .filter(e => e.getBoundingClientRect().right > window.innerWidth + 0.5)
  .slice(0, 5).map(e => e.tagName + '.' + e.className + ' ' + Math.round(e.getBoundingClientRect().right))"""

if not os.path.exists(CHROMIUM):
    pytest.skip("Chromium is not installed (apt-get install chromium)", allow_module_level=True)


@pytest.fixture
def settings(tmp_path, smtp_server):  # noqa: F811
    """The dashboard's test settings, with guest e-mails going to a loopback SMTP server."""
    with bootstrapped_settings(tmp_path, RENTALCOMPLY_SMTP_HOST="127.0.0.1",
                               RENTALCOMPLY_SMTP_PORT=smtp_server.port,
                               **DASHBOARD_ENV) as settings:
        users.configure(settings)
        users.forget_failures()
        yield settings


@pytest.fixture
def chromium():
    with playwright_api.sync_playwright() as driver:
        browser = driver.chromium.launch(executable_path=CHROMIUM, args=LAUNCH_ARGS)
        yield browser
        browser.close()


@pytest.fixture
def server(wsgi_app):
    with running_server(wsgi_app, threads=4) as running:
        yield running


@pytest.fixture
def receiver():
    started = Receiver().start()
    yield started
    started.stop()


def _sign_in(page, base: str, email: str) -> None:
    page.goto(base + "/dashboard/sign-in")
    page.get_by_label("E-mail address").fill(email)
    page.get_by_label("Password").fill(PASSWORD)
    page.get_by_role("button", name="Sign in").click()
    page.wait_for_url(re.compile(r".*/dashboard/today$"))


def open_menu(page) -> None:
    """On a phone the menu, the languages and signing out are behind the header's menu button."""
    button = page.locator(".menu-button")
    if button.is_visible():
        button.click()


def sign_out(page) -> None:
    open_menu(page)
    page.get_by_role("button", name="Sign out", exact=True).click()
    page.wait_for_url(re.compile(r".*/dashboard/sign-in"))


def visible(locator, timeout: float = 30.0) -> None:
    """The element comes to be shown (a click that navigates returns before the next page has
    loaded); the timeout only bounds a failure."""
    playwright_api.expect(locator).to_be_visible(timeout=timeout * 1000)


def _shows(page, text: str, timeout: float = 15.0) -> bool:
    """Whether the page comes to hold `text`. A click that submits a form returns before the next
    page has loaded, and `content()` read in between is empty, so the page is read until it says
    it or the time is up."""
    deadline = time.monotonic() + timeout
    while True:
        try:
            if text in page.content():
                return True
        except Exception:  # the page is between documents: read it again
            pass
        if time.monotonic() > deadline:
            return False
        page.wait_for_timeout(50)


def _seed(settings, account_id: str) -> dict:
    """An agency's month: three homes, stays on several channels, a block, a double booking,
    a feed in error, a rejected police filing, a failing webhook."""
    rates = FeeRates.from_settings(settings)
    today = clock.today()
    homes = [properties.create_property(account_id, name=name, address=address,
                                        aade_property_id=ama)
             for name, address, ama in (
                 ("Seaside Studio", "Akti Miaouli 12, Piraeus", "00001234567"),
                 ("Plaka Loft", "Adrianou 40, Athens", "00007654321"),
                 ("Hydra Stone House", "Kamini, Hydra", None))]
    # The police columns the pages show: a Greek property is refused the `file` connector now
    # (no police format for GR), so the month's data has it as one set up before that was.
    Property.update(police_connector="file").where(
        Property.id.in_([home.id for home in homes])).execute()
    guests = [("Maria Rossi", 0, 1, 4), ("Jean Dupont", 0, 6, 3), ("Anna Schmidt", 1, 0, 2),
              ("Γιώργος Παπαδόπουλος", 1, 3, 5), ("Emma Johnson", 2, 2, 7),
              ("Lukas Novak", 0, 11, 4), ("Sofia García", 1, 9, 3), ("Oliver Brown", 2, 12, 6)]
    made = []
    for name, home, in_days, nights in guests:
        arrival = today + dt.timedelta(days=in_days)
        with atomic():
            made.append(bookings.create_booking(
                account_id, rates=rates, property_id=homes[home].id, guest_name=name,
                arrival_date=arrival, departure_date=arrival + dt.timedelta(days=nights),
                guest_count=2, guest_email=name.split()[0].lower() + "@example.com",
                total_price=120 * nights))
    channel_for = ["airbnb", "booking", "manual", "vrbo", "airbnb", "booking", "manual", "airbnb"]
    for booking, channel in zip(made, channel_for):
        Booking.update(channel=channel).where(Booking.id == booking.id).execute()
    from rentalcomply.checkin import service as checkin
    from tests.checkin.conftest import greek_party
    checkin.put_guests(account_id, made[2].id, greek_party())
    Booking.update(checkin_status="COMPLETED", report_status="SUBMITTED").where(
        Booking.id == made[2].id).execute()
    Booking.update(checkin_status="INVITED").where(Booking.id == made[3].id).execute()
    Booking.update(report_status="REJECTED",
                   report_error="Document number does not match the nationality").where(
        Booking.id == made[4].id).execute()
    # Last month, a stay at the house without an AADE registry number: its report needs attention.
    last_month = (today.replace(day=1) - dt.timedelta(days=1)).replace(day=3)
    Booking.create(id="book_lastmonth1", account=account_id, property=homes[2].id,
                   guest_name="Eleni Markou", arrival_date=last_month,
                   departure_date=last_month + dt.timedelta(days=3), channel="airbnb",
                   guest_count=2, total_price_cents=36000)
    # A channel block and an overlapping import on the studio: a double booking to solve.
    Booking.create(id="book_block1", account=account_id, property=homes[0].id,
                   guest_name="Not available", arrival_date=today + dt.timedelta(days=16),
                   departure_date=today + dt.timedelta(days=19), channel="booking", is_block=True)
    Booking.create(id="book_overlap1", account=account_id, property=homes[0].id,
                   guest_name="Chen Wei", arrival_date=today + dt.timedelta(days=3),
                   departure_date=today + dt.timedelta(days=6), channel="booking", guest_count=2,
                   report_status="PENDING")
    connection = properties.add_channel(
        account_id, homes[1].id, provider="airbnb",
        ical_url="https://www.airbnb.com/calendar/ical/1234567.ics?s=0123456789abcdef0123")
    ChannelConnection.update(status="error", last_error="The feed answered HTTP 404").where(
        ChannelConnection.id == connection.id).execute()
    properties.add_channel(account_id, homes[0].id, provider="booking",
                           ical_url="https://admin.booking.com/hotel/hoteladmin/ical.html?t=abcdef0123456789abcdef")
    endpoint, _ = webhooks.create_endpoint(account_id, "https://pms.example.com/hooks/rentalcomply",
                                           ["booking.created", "booking.cancelled"],
                                           "Property-management system")
    from rentalcomply.webhooks.models import WebhookEndpoint
    WebhookEndpoint.update(failing_since=clock.utcnow() - dt.timedelta(hours=5)).where(
        WebhookEndpoint.id == endpoint.id).execute()
    # Its deliveries: one answered 200, one failed for good with a 500, the rest waiting.
    from rentalcomply.webhooks.models import WebhookDelivery
    webhooks.dispatch_pending_events()
    deliveries = list(WebhookDelivery.select().where(WebhookDelivery.endpoint == endpoint.id)
                      .order_by(WebhookDelivery.created_at))
    now = clock.utcnow()
    WebhookDelivery.update(status="succeeded", attempts=1, last_status_code=200,
                           completed_at=now, last_attempt_at=now).where(
        WebhookDelivery.id == deliveries[0].id).execute()
    WebhookDelivery.update(status="failed", attempts=8, last_status_code=500,
                           last_error="HTTP 500", completed_at=now, last_attempt_at=now).where(
        WebhookDelivery.id == deliveries[1].id).execute()
    WebhookDelivery.update(attempts=2, last_status_code=503, last_error="HTTP 503",
                           last_attempt_at=now).where(
        WebhookDelivery.id.in_([d.id for d in deliveries[2:]])).execute()
    # Two keys of the agency's tools, one used an hour ago.
    from rentalcomply.accounts import service as accounts
    from rentalcomply.core.models import ApiKey
    used, _ = accounts.create_key(account_id, ["read", "write"], name="Channel manager")
    ApiKey.update(last_used_at=clock.utcnow() - dt.timedelta(hours=1)).where(
        ApiKey.id == used.id).execute()
    accounts.create_key(account_id, ["read"], name="Monthly export", expires_in_days=90)
    # Last month's report, made and waiting to be filed.
    from rentalcomply.reports import generation
    last = today.replace(day=1) - dt.timedelta(days=1)
    generation.request_generation(account_id, last.year, last.month)
    report = generation.generate(settings, account_id, last.year, last.month)
    return {"homes": homes, "bookings": made, "endpoint": endpoint, "report": report}


def test_an_owner_sets_a_password_signs_in_manages_keys_webhooks_reports_and_bookings(
        settings, account_a, server, chromium, receiver, smtp_server):  # noqa: F811
    base = server.base_url
    seeded = _seed(settings, account_a)
    _, token = users.create_user(account_a, "owner@agency.example")
    page = chromium.new_page(viewport=VIEWPORTS["desktop"])

    # The one-time link: choose the password.
    page.goto(users.link_url(base, token))
    page.get_by_label("New password").fill(PASSWORD)
    page.get_by_label("The same password again").fill(PASSWORD)
    page.get_by_role("button", name="Set password").click()
    # Signed in at once: no second sign-in after choosing the password.
    page.wait_for_url(re.compile(r".*/dashboard/today\?done=password_set_signed_in"))
    assert _shows(page, "Your password is set, and you are signed in.")
    visible(page.get_by_role("heading", name="Today"))

    # A key, created in the page and used against the API.
    page.get_by_role("link", name="API keys").click()
    page.get_by_label("Name").fill("Accounting export")
    page.get_by_role("button", name="Create key").click()
    key = page.locator("#secret-value").input_value()
    assert re.fullmatch(r"rc_[A-Za-z0-9]{40}", key)
    visible(page.get_by_role("button", name="Copy"))  # the script showed it
    status, body, _ = server.request("GET", "/api/v1/properties", key=key)
    assert status == 200 and len(body["data"]) == 3

    # Revoked in the page: the API refuses it at once.
    page.get_by_role("link", name="Done, back to the keys").click()
    assert key not in page.content()
    # Revoking asks first, naming what stops: "No, keep it" leaves the key working.
    page.get_by_role("button", name="Revoke key Accounting export").click()
    visible(page.get_by_role("heading", name="Revoke this API key?"))
    assert "Accounting export" in page.locator("main").inner_text()
    page.get_by_role("link", name="No, keep it").click()
    status, _, _ = server.request("GET", "/api/v1/properties", key=key)
    assert status == 200
    page.get_by_role("button", name="Revoke key Accounting export").click()
    page.get_by_role("button", name="Yes, revoke the key").click()
    assert _shows(page, "The key is revoked")
    status, body, _ = server.request("GET", "/api/v1/properties", key=key)
    assert status == 401 and body["error"]["code"] == "INVALID_API_KEY"

    # A webhook to a receiver on loopback, and a test delivery's result.
    page.get_by_role("link", name="Webhooks", exact=True).click()
    page.get_by_label("Address (https://…)").fill(receiver.url)
    page.get_by_label("Description").fill("Loopback receiver")
    page.get_by_role("button", name="Register").click()
    assert page.locator("#secret-value").input_value().startswith("whsec_")
    page.get_by_role("link", name="Done, to the endpoint").click()
    page.get_by_role("button", name="Send a test").click()
    page.wait_for_load_state()
    row = page.locator("tr.delivery", has_text="webhook.test")
    _reload_until(page, lambda: row.count() and "Succeeded" in row.inner_text(),
                  "the test delivery shown as succeeded")
    assert "200" in row.inner_text()
    assert "webhook.test" in [r.headers["X-RentalComply-Event"] for r in receiver.requests]

    # Find a booking and open it.
    page.get_by_role("link", name="Bookings").click()
    page.get_by_label("Guest or reservation code").fill("rossi")
    page.get_by_role("button", name="Find").click()
    page.get_by_role("link", name="Maria Rossi").click()
    visible(page.get_by_role("heading", name="Maria Rossi"))
    assert _shows(page, seeded["bookings"][0].id)
    # ... and send the guest the check-in link: a real e-mail arrives.
    page.get_by_role("button", name="E-mail the link to the guest").click()
    assert _shows(page, "The check-in link was sent to the guest.")
    [message] = smtp_server.wait(1)
    assert message["To"] == "maria@example.com"
    assert page.locator("#checkin-link").input_value() == smtp_server.link()

    # A tax report: generated in the page, its PDF downloaded, marked as filed.
    page.get_by_role("link", name="Reports", exact=True).click()
    # Last month, closed: a report of the month still running is provisional, never filed.
    period = (clock.today().replace(day=1) - dt.timedelta(days=1)).strftime("%Y-%m")
    page.get_by_label("Month (YYYY-MM) or year (YYYY)").fill(period)
    page.get_by_role("button", name="Generate", exact=True).click()
    page.wait_for_url(re.compile(r".*/dashboard/reports/rep_\d{4}_\d{2}(\?done=generating)?$"))
    # Made by the worker a moment later.
    _reload_until(page, lambda: page.get_by_role("link", name="Download PDF").count(),
                  "the report's files")
    # Loaded once the report was made: the page says so, and the address has dropped the
    # "being made" message.
    assert "being made" not in page.content() and "done=" not in page.url, page.url
    with page.expect_download() as download:
        page.get_by_role("link", name="Download PDF").click()
    assert download.value.suggested_filename.endswith(".pdf")
    assert Path(download.value.path()).read_bytes().startswith(b"%PDF")
    page.get_by_label("myAADE reference").fill("ΑΑΔΕ-2026-000777")
    # Last month's stay at the house without a registry number is named, and filing asks.
    visible(page.get_by_role("heading", name="Bookings that need attention"))
    page.get_by_label("File anyway, without the bookings that need attention").check()
    page.get_by_role("button", name="Mark as filed").click()
    assert _shows(page, "The report is marked as filed.")

    # The activity log names the user and what was done, newest first.
    page.get_by_role("link", name="Activity").click()
    text = page.locator("main").inner_text()
    assert text.index("marked a tax report as filed with AADE") \
        < text.index("sent a test to a webhook endpoint") < text.index("revoked an API key") \
        < text.index("made an API key") < text.index("signed in")

    # Keyboard: the first Tab reaches the skip link, which is visible when focused.
    page.keyboard.press("Tab")
    assert page.evaluate("document.activeElement.className") == "skip"

    # Sign out: the pages ask for a sign-in again.
    page.get_by_role("button", name="Sign out").click()
    page.goto(base + "/dashboard/today")
    assert "/dashboard/sign-in" in page.url


def _reload_until(page, shown, what: str, timeout: float = 30.0) -> None:
    """Reload the page until `shown()` is true: the worker's part comes a moment later. The
    timeout only bounds a failure."""
    deadline = time.monotonic() + timeout
    while not shown():
        assert time.monotonic() < deadline, f"{what}: not within {timeout:.0f} s"
        time.sleep(0.2)
        page.reload()


def test_every_page_at_phone_and_desktop_width_in_english_and_greek(settings, account_a, server,
                                                                       chromium):
    base = server.base_url
    seeded = _seed(settings, account_a)
    from tests.dashboard.conftest import make_user
    make_user(account_a, "owner@agency.example")
    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    booking = seeded["bookings"][4]
    pages = {
        "today": "/dashboard/today",
        "calendar": "/dashboard/calendar",
        "calendar-month": "/dashboard/calendar?span=month",
        "calendar-property": f"/dashboard/calendar?property={seeded['homes'][0].id}",
        "bookings": "/dashboard/bookings",
        "booking": f"/dashboard/bookings/{booking.id}",
        "booking-guests": f"/dashboard/bookings/{seeded['bookings'][2].id}",
        "booking-new": "/dashboard/bookings/new",
        "booking-edit": f"/dashboard/bookings/{booking.id}/edit",
        "properties": "/dashboard/properties",
        "property": f"/dashboard/properties/{seeded['homes'][1].id}",
        "property-new": "/dashboard/properties/new",
        "keys": "/dashboard/settings/keys",
        "webhooks": "/dashboard/settings/webhooks",
        "webhook": f"/dashboard/settings/webhooks/{seeded['endpoint'].id}",
        "reports": "/dashboard/reports",
        "report": f"/dashboard/reports/{seeded['report'].code}",
        "activity": "/dashboard/activity",
        "account": "/dashboard/settings/account",
    }
    for size, viewport in VIEWPORTS.items():
        context = chromium.new_context(viewport=viewport)
        page = context.new_page()
        _, token = users.create_user(account_a, f"new.colleague.{size}@agency.example")
        page.goto(users.link_url(base, token))
        page.screenshot(path=str(ARTIFACTS / f"password-{size}.png"), full_page=True)
        assert violations(page) == []  # choosing a password
        page.goto(base + "/dashboard/sign-in")
        page.screenshot(path=str(ARTIFACTS / f"sign-in-{size}.png"), full_page=True)
        assert violations(page) == []
        _sign_in(page, base, "owner@agency.example")
        page.goto(base + "/dashboard/bookings/book_not_yours")
        page.screenshot(path=str(ARTIFACTS / f"not-found-{size}.png"), full_page=True)
        for lang in ("en", "el"):
            for name, path in pages.items():
                page.goto(base + path + ("&" if "?" in path else "?") + f"lang={lang}")
                visible(page.locator("h1").first)
                # Nothing wider than the screen: the page never scrolls sideways.
                overflow = page.evaluate("document.documentElement.scrollWidth - window.innerWidth")
                page.screenshot(path=str(ARTIFACTS / f"{name}-{lang}-{size}.png"), full_page=True)
                assert overflow <= 0, (name, size, overflow, page.evaluate(WIDER_THAN_SCREEN))
                assert violations(page) == [], (name, lang, size)  # axe-core, every rule
                page.screenshot(path=str(ARTIFACTS / f"{name}-{lang}-{size}.png"), full_page=True)
        page.goto(base + "/dashboard/settings/keys?lang=en")
        page.get_by_label("Name").fill("Channel manager")
        page.get_by_role("button", name="Create key").click()
        page.screenshot(path=str(ARTIFACTS / f"key-created-{size}.png"), full_page=True)
        context.close()
    assert len(list(ARTIFACTS.glob("*.png"))) >= 2 * (3 + 2 * len(pages) + 1)


def test_without_javascript_every_form_still_works_and_copy_buttons_stay_hidden(
        settings, account_a, server, chromium):
    from tests.dashboard.conftest import make_user
    make_user(account_a, "owner@agency.example")
    context = chromium.new_context(java_script_enabled=False, viewport=VIEWPORTS["phone"])
    page = context.new_page()
    _sign_in(page, server.base_url, "owner@agency.example")
    page.goto(server.base_url + "/dashboard/settings/keys")
    page.get_by_label("Name").fill("No-script tool")
    page.get_by_role("button", name="Create key").click()
    key = page.locator("#secret-value").input_value()
    assert key.startswith("rc_") and not page.locator("button[data-copy]").is_visible()
    page.get_by_role("link", name="Done, back to the keys").click()
    page.get_by_role("button", name="Revoke key No-script tool").click()
    page.get_by_role("button", name="Yes, revoke the key").click()  # the server's second step
    assert _shows(page, "The key is revoked")
    status, _, _ = server.request("GET", "/api/v1/properties", key=key)
    assert status == 401
    context.close()


@pytest.mark.parametrize("size", ["phone", "desktop"])
def test_revoke_asks_a_walk_in_is_made_and_edited_a_member_is_invited_a_password_reset(
        settings, account_a, server, chromium, smtp_server, size):  # noqa: F811
    """At 390×844 and 1280×800: revoke with its confirmation (cancel leaves the key working,
    confirm stops it); a walk-in booking made and edited, its check-in e-mail arriving; a
    colleague invited, signed in as a member who cannot open the keys page; a forgotten
    password reset through the e-mailed link."""
    from rentalcomply.accounts import service as accounts
    from tests.dashboard.conftest import make_user
    base = server.base_url
    make_user(account_a, "owner@agency.example")
    properties.create_property(account_a, name="Seaside Studio", address="Akti 12",
                               max_guests=4)
    _, key = accounts.create_key(account_a, ["read"], name="Channel manager")
    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    context = chromium.new_context(viewport=VIEWPORTS[size])
    page = context.new_page()
    _sign_in(page, base, "owner@agency.example")

    def shot(name):
        overflow = page.evaluate("document.documentElement.scrollWidth - window.innerWidth")
        page.screenshot(path=str(ARTIFACTS / f"{name}-{size}.png"), full_page=True)
        assert overflow <= 0, (name, size, overflow)

    # Revoke asks first: "No, keep it" leaves the key working; "Yes" stops it.
    page.goto(base + "/dashboard/settings/keys")
    page.get_by_role("button", name="Revoke key Channel manager").click()
    visible(page.get_by_role("heading", name="Revoke this API key?"))
    shot("confirm-revoke")
    page.get_by_role("link", name="No, keep it").click()
    assert server.request("GET", "/api/v1/properties", key=key)[0] == 200
    page.get_by_role("button", name="Revoke key Channel manager").click()
    page.get_by_role("button", name="Yes, revoke the key").click()
    assert _shows(page, "The key is revoked")
    assert server.request("GET", "/api/v1/properties", key=key)[0] == 401

    # A walk-in guest: a booking made in the page, its check-in e-mail sent, then edited.
    arrival = clock.today() + dt.timedelta(days=1)
    page.goto(base + "/dashboard/bookings")
    page.get_by_role("link", name="New booking").click()
    page.get_by_label("Guest name").fill("Nikos Walker")
    page.get_by_label("Arrival").fill(arrival.isoformat())
    page.get_by_label("Departure").fill((arrival + dt.timedelta(days=1)).isoformat())
    page.get_by_label("Guests").fill("5")  # more than the studio takes: said on the form
    page.get_by_label("E-mail address").fill("nikos@example.com")
    page.get_by_label("Total price (EUR)").fill("85,50")
    page.get_by_label("Payment method").select_option("cash")
    page.get_by_role("button", name="Create booking").click()
    assert "must be at most 4" in page.locator("#guest_count-error").inner_text()
    shot("booking-new-error")
    page.get_by_label("Guests").fill("1")
    page.get_by_role("button", name="Create booking").click()
    assert _shows(page, "the check-in link is on its way")
    [message] = smtp_server.wait(1)
    assert message["To"] == "nikos@example.com"
    facts = page.locator("dl.facts").first.inner_text()
    assert "1 night" in facts and "1 guest" in facts and "€85.50" in facts
    page.get_by_role("link", name="Edit the booking").click()
    page.get_by_label("Departure").fill((arrival + dt.timedelta(days=3)).isoformat())
    page.get_by_label("Guests").fill("2")
    page.get_by_label("Phone").fill("+30 210 1234567")
    shot("booking-edit")
    page.get_by_role("button", name="Save changes").click()
    facts = page.locator("dl.facts").first.inner_text()
    assert "3 nights" in facts and "2 guests" in facts
    assert _shows(page, "+30 210 1234567")
    shot("booking-walk-in")

    # A colleague invited as a member: the link by e-mail, and no keys page.
    page.goto(base + "/dashboard/settings/account")
    page.locator("#invite-email").fill(f"colleague.{size}@agency.example")
    page.get_by_label("Role", exact=True).select_option("member")
    page.get_by_role("button", name="Send the invitation").click()
    assert _shows(page, "The invitation is on its way")
    shot("account")
    invitation = smtp_server.wait(2)[1]
    assert invitation["To"] == f"colleague.{size}@agency.example"
    link = re.search(r"/dashboard/password/\w+", invitation.get_body(("plain",)).get_content())
    colleague = chromium.new_context(viewport=VIEWPORTS[size]).new_page()
    colleague.goto(base + link.group(0))
    colleague.get_by_label("New password").fill(PASSWORD)
    colleague.get_by_label("The same password again").fill(PASSWORD)
    colleague.get_by_role("button", name="Set password").click()
    colleague.wait_for_url(re.compile(r".*/dashboard/today\?done=password_set_signed_in"))
    assert colleague.get_by_role("link", name="API keys").count() == 0
    response = colleague.goto(base + "/dashboard/settings/keys")
    assert response.status == 403 and "Only an owner" in colleague.content()
    colleague.context.close()

    # A forgotten password: the link by e-mail, a new password, the old one refused.
    sign_out(page)
    page.get_by_role("link", name="Forgot your password?").click()
    page.get_by_label("E-mail address").fill("owner@agency.example")
    page.get_by_role("button", name="Send me a link").click()
    assert _shows(page, "is on its way")
    reset = smtp_server.wait(3)[2]
    assert reset["To"] == "owner@agency.example"
    link = re.search(r"/dashboard/password/\w+", reset.get_body(("plain",)).get_content())
    page.goto(base + link.group(0))
    page.get_by_label("New password").fill("a brand new passphrase")
    page.get_by_label("The same password again").fill("a brand new passphrase")
    page.get_by_role("button", name="Set password").click()
    page.wait_for_url(re.compile(r".*/dashboard/today\?done=password_set_signed_in"))
    sign_out(page)
    page.get_by_label("E-mail address").fill("owner@agency.example")
    page.get_by_label("Password").fill(PASSWORD)
    page.get_by_role("button", name="Sign in").click()
    assert _shows(page, "wrong")
    page.get_by_label("Password").fill("a brand new passphrase")
    page.get_by_role("button", name="Sign in").click()
    page.wait_for_url(re.compile(r".*/dashboard/today$"))
    context.close()


@pytest.mark.parametrize("size", ["phone", "desktop"])
def test_one_address_in_two_accounts_chooses_the_account_after_the_password(
        settings, account_a, account_b, server, chromium, size):
    """The same address and password in two accounts: the sign-in asks which account, in both
    languages, and opens the chosen one's pages."""
    from rentalcomply.dashboard.models import DashboardUser
    from tests.dashboard.conftest import make_user
    base = server.base_url
    make_user(account_a, "owner@agency.example")
    make_user(account_b, "owner@agency.example")
    properties.create_property(account_b, name="Hydra Stone House", address="Kamini, Hydra")
    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    context = chromium.new_context(viewport=VIEWPORTS[size])
    page = context.new_page()
    for lang in ("el", "en"):
        page.goto(base + f"/dashboard/sign-in?lang={lang}")
        page.locator("#email").fill("owner@agency.example")
        page.locator("#password").fill(PASSWORD)
        page.locator("form.stack button[type=submit]").click()
        page.wait_for_selector("form.choices")
        overflow = page.evaluate("document.documentElement.scrollWidth - window.innerWidth")
        page.screenshot(path=str(ARTIFACTS / f"choose-account-{lang}-{size}.png"), full_page=True)
        assert overflow <= 0, (size, overflow, page.evaluate(WIDER_THAN_SCREEN))
        assert page.locator("form.choices button").count() == 2
    page.get_by_role("button", name=re.compile("Agency B")).click()
    page.wait_for_url(re.compile(r".*/dashboard/today$"))
    page.goto(base + "/dashboard/properties")
    assert _shows(page, "Hydra Stone House")
    signed_in = DashboardUser.get((DashboardUser.account == account_b)
                                  & (DashboardUser.email == "owner@agency.example"))
    assert signed_in.last_sign_in_at is not None
    context.close()
