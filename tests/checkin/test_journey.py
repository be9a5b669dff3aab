"""The whole journey against real parts: the real server in its own process, the invitation
received by an SMTP server on loopback, the link taken from the e-mail, the page filled in by
Debian's Chromium (driven by Playwright) for a Greek property on a wide screen (1280x800), an
Italian and a Spanish one on a phone (390x844), the booking COMPLETED and `checkin.completed`
delivered to a webhook receiver on loopback. Then no document number may appear in clear in any
file of the data directory nor in the server's log.

On the way the party walks the page's steps (one guest each, then signatures and consent): Next
refuses a step with a missing or wrong field, and each message goes as soon as its field is
right (the Spanish "sign in the box" with the stroke that signs). Without JavaScript the same
page is the whole party at once.

Screenshots are saved in tests/artifacts/.
"""

from __future__ import annotations

import datetime as dt
import functools
import json
import os
from pathlib import Path

import pytest
from aiosmtpd.controller import Controller

from rentalcomply.checkin import i18n
from rentalcomply.core import clock
from tests.axe import violations
from tests.checkin.conftest import PNG_DATA_URL, Inbox, free_port, greek_party, italian_party
from tests.e2e.conftest import start_server  # noqa: F401 - fixture
from tests.webhooks.conftest import Receiver

CHROMIUM = "/usr/bin/chromium"
ARTIFACTS = Path(__file__).resolve().parents[1] / "artifacts"
LAUNCH_ARGS = ["--no-sandbox", "--disable-gpu", "--disable-background-networking",
               "--disable-component-update", "--disable-sync", "--no-first-run"]

pytestmark = [
    pytest.mark.server,
    pytest.mark.skipif(not os.path.exists(CHROMIUM),
                       reason=f"browser tests need Debian's Chromium at {CHROMIUM} "
                              "(apt-get install chromium)"),
]

# Fields that make others appear: filled first.
FIRST = ("birth_date", "birth_country", "nationality", "document_type", "document_country")


def spanish_browser_party() -> list[dict]:
    return [
        {"first_name": "Lucía", "last_name": "García", "second_last_name": "López", "sex": "F",
         "birth_date": "1990-01-15", "nationality": "ES", "document_type": "id_card",
         "document_country": "ES", "document_number": "12345678Z",
         "document_support_number": "CAA123456", "address_street": "Calle Mayor 1",
         "address_city": "Madrid", "address_postcode": "28013", "address_country": "ES",
         "signature": PNG_DATA_URL},
        {"first_name": "Daniel", "last_name": "García", "second_last_name": "Ruiz", "sex": "M",
         "birth_date": (clock.today() - dt.timedelta(days=16 * 365)).isoformat(),
         "nationality": "ES", "minor_relationship": "parent", "document_type": "passport",
         "document_country": "ES", "document_number": "PAB654321",
         "signature": "typed:Daniel García Ruiz"},  # signed from the keyboard
    ]


def api(server, method, path, body=None, expect=200):
    status, data, _ = server.request(method, "/api/v1" + path, body)
    assert status == expect, (status, data)
    return data["data"] if data else None


def draw_signature(page, field_id: str) -> None:
    canvas = page.locator(f".signature[data-target='{field_id}'] canvas")
    canvas.scroll_into_view_if_needed()
    box = canvas.bounding_box()
    x, y = box["x"] + 20, box["y"] + box["height"] * 0.6
    page.mouse.move(x, y)
    page.mouse.down()
    for step in range(1, 25):
        page.mouse.move(x + step * 10, y - 25 * ((step % 6) - 3) / 3, steps=2)
    page.mouse.up()


def next_step(page, expected: str) -> None:
    """Next, and the progress line says the step it moved to."""
    page.click("button.step-next")
    page.wait_for_function("t => document.getElementById('progress-text').textContent === t",
                           arg=expected)


def page_height(page) -> int:
    return page.evaluate("document.documentElement.scrollHeight")


def fill_guest(page, index: int, values: dict) -> None:
    ordered = [k for k in FIRST if k in values] + [k for k in values if k not in FIRST]
    for name in ordered:
        field_id = f"g{index}-{name}"
        if name == "signature":
            if values[name].startswith("typed:"):
                page.locator(f"#{field_id}-typed").press_sequentially(values[name][6:])
            else:
                draw_signature(page, field_id)
            assert page.input_value(f"#{field_id}").startswith("data:image/png;base64,")
            continue
        element = page.locator(f"#{field_id}")
        if element.get_attribute("data-search"):  # a country list, searched as a guest would
            choose_country(page, field_id, values[name])
        elif element.evaluate("e => e.tagName") == "SELECT":
            element.select_option(values[name])
        else:
            element.fill(values[name])


def choose_country(page, field_id: str, code: str) -> None:
    """Type the country's name (as the list shows it) into its search box and press Enter."""
    name = page.locator(f"#{field_id} option[value='{code}']").first.text_content()
    box = page.locator(f"#{field_id}-search")
    box.fill("")
    box.press_sequentially(name[:5])
    box.press("Enter")
    assert page.input_value(f"#{field_id}") == code, (field_id, code, name)


def scan_for(directory: Path, secrets: list[str]) -> list[str]:
    found = []
    for path in directory.rglob("*"):
        if path.is_file():
            raw = path.read_bytes()
            for secret in secrets:
                for encoded in {secret.encode("utf-8"), secret.encode("utf-16-le")}:
                    if encoded in raw:
                        found.append(f"{secret} in {path.name}")
    return found


@pytest.fixture
def smtp():
    inbox = Inbox()
    controller = Controller(inbox, hostname="127.0.0.1", port=free_port())
    controller.start()
    yield inbox, controller.port
    controller.stop()


@pytest.fixture
def hooks():
    receiver = Receiver().start()
    yield receiver
    receiver.stop()


@pytest.fixture
def browser():
    from playwright.sync_api import sync_playwright
    with sync_playwright() as playwright:
        chromium = playwright.chromium.launch(executable_path=CHROMIUM, args=LAUNCH_ARGS)
        yield chromium
        chromium.close()


def test_guests_check_in_from_the_e_mail_link_in_a_real_browser(start_server, tmp_path, smtp,  # noqa: F811
                                                                  hooks, browser):
    inbox, smtp_port = smtp
    data_dir = tmp_path / "data"
    server = start_server(data_dir, env={
        "RENTALCOMPLY_SMTP_HOST": "127.0.0.1", "RENTALCOMPLY_SMTP_PORT": str(smtp_port),
        "RENTALCOMPLY_WEBHOOKS_ALLOW_HTTP": "true",
        "RENTALCOMPLY_WEBHOOKS_ALLOW_PRIVATE_ADDRESSES": "true"})
    api(server, "POST", "/webhooks", {"url": hooks.url, "events": ["checkin.completed"]}, 201)
    ARTIFACTS.mkdir(exist_ok=True)

    # A Greek stay declares its lead guest alone, and a French one files nothing (checkin/
    # guests.py): the wide-screen party of two is a Greek family staying in Portugal, whose
    # property asks every guest (its police filing off here, so no alert joins the inbox).
    lives = {"residence_country": "GR", "residence_place": "Αθήνα"}
    portuguese_stay = [{**{k: v for k, v in guest.items() if k != "tax_id"}, **lives, "sex": sex}
                       for guest, sex in zip(greek_party(), ("F", "M"))]
    stays = [("PT", "none", "el", portuguese_stay),
             ("IT", "alloggiati", "it", italian_party()),
             ("ES", "ses_hospedajes", "es", spanish_browser_party())]
    arrival = clock.today() + dt.timedelta(days=12)
    booking_ids = []
    for number, (country, connector, language, party) in enumerate(stays):
        prop = api(server, "POST", "/properties", {
            "name": {"PT": "Casa Azul", "IT": "Casa Limone", "ES": "Casa del Mar"}[country],
            "address": "Main street 1", "country": country, "police_connector": connector,
            "timezone": {"PT": "Europe/Lisbon", "IT": "Europe/Rome", "ES": "Europe/Madrid"}[country]},
            201)
        booking = api(server, "POST", "/bookings", {
            "property_id": prop["id"], "guest_name": party[0]["first_name"] + " " + party[0]["last_name"],
            "guest_email": f"guest{number}@example.com", "guest_language": language,
            "arrival_date": arrival.isoformat(),
            "departure_date": (arrival + dt.timedelta(days=4)).isoformat(),
            "guest_count": len(party)}, 201)
        booking_ids.append(booking["id"])
        invitation = api(server, "POST", "/checkins/resend", {"booking_id": booking["id"]}, 202)
        inbox.wait(number + 1)
        link = inbox.link(number)
        assert link == invitation["checkin_url"]
        assert inbox.messages[number]["To"] == f"guest{number}@example.com"
        stay = i18n.stay(language, arrival, arrival + dt.timedelta(days=4), len(party))
        counted = f"{stay['nights']} · {stay['guests']}"  # "4 notti · 2 ospiti"
        assert counted in inbox.messages[number].get_body(("plain",)).get_content()

        locale = {"el": "el-GR", "it": "it-IT", "es": "es-ES"}[language]
        if country == "IT":  # without JavaScript: every guest on one page, posted as a form
            context = browser.new_context(viewport={"width": 390, "height": 844}, locale=locale,
                                          java_script_enabled=False)
            page = context.new_page()
            page.goto(link)
            assert page.locator("#g0-first_name").is_visible()
            assert page.locator("#g1-first_name").is_visible()
            assert page.locator("button[type=submit]").is_visible()
            assert page.locator(".progress").count() == 0
            page.screenshot(path=str(ARTIFACTS / "checkin-italian-no-script.png"), full_page=True)
            context.close()
        wide = country == "PT"
        viewport = {"width": 1280, "height": 800} if wide else {"width": 390, "height": 844}
        context = browser.new_context(viewport=viewport, locale=locale,
                                      device_scale_factor=1 if wide else 2, is_mobile=not wide,
                                      has_touch=not wide)
        page = context.new_page()
        console_errors = []
        page.on("console", lambda m: console_errors.append(m.text) if m.type == "error" else None)
        script_errors = []
        page.on("pageerror", lambda error: script_errors.append(str(error)))
        page.goto(link)
        assert page.locator("html").get_attribute("lang") == language
        assert page.text_content(".stay").endswith(counted)
        if country == "PT":
            page.screenshot(path=str(ARTIFACTS / "checkin-greek.png"))
            page.click("nav.languages a[hreflang='en']")
            page.wait_for_url("**lang=en")
            page.wait_for_selector(".progress")
            page.screenshot(path=str(ARTIFACTS / "checkin-english.png"))
            page.screenshot(path=str(ARTIFACTS / "checkin-english-full.png"), full_page=True)
            language = "en"
        t = functools.partial(i18n.text, language)
        name = country.lower()
        heights = []

        # Step 1, the lead guest: only their fields, the submit button not yet.
        assert page.text_content("#progress-text") == t("page.step_guest", n=1, total=2)
        assert page.locator("#g0-first_name").is_visible()
        assert page.locator("#g1-first_name").is_hidden()
        assert page.locator("button[type=submit]").is_hidden()
        assert page.locator(".step-nav .step-back").is_hidden()
        # The booking's name is filled in; the guest clears the surname to see it asked for.
        assert page.input_value("#g0-first_name") and page.input_value("#g0-last_name")
        lead = {k: v for k, v in party[0].items() if k not in ("signature", "last_name")}
        fill_guest(page, 0, {**lead, "last_name": "", "birth_date": "2099-01-01"})
        heights.append(page_height(page))
        next_step(page, t("page.step_guest", n=1, total=2))  # refused: two problems
        page.wait_for_selector("#g0-last_name-error:not([hidden])")
        page.wait_for_selector("#g0-birth_date-error:not([hidden])")
        assert page.text_content("#g0-last_name-error") == t("msg.required")
        assert page.text_content("#g0-birth_date-error") == t("msg.future")
        assert page.get_attribute("#g0-last_name", "aria-invalid") == "true"
        assert page.locator("#summary").is_visible()
        page.screenshot(path=str(ARTIFACTS / f"checkin-{name}-step-error.png"))
        assert violations(page) == []  # axe-core: the errors, the summary, the invalid fields
        # A required field filled: its message goes at once; a date in the future goes when
        # the server agrees that the new one is right.
        page.fill("#g0-last_name", party[0]["last_name"])
        assert page.locator("#g0-last_name-error").is_hidden()
        assert page.get_attribute("#g0-last_name", "aria-invalid") == "false"
        assert page.locator("#g0-birth_date-error").is_visible()
        page.fill("#g0-birth_date", party[0]["birth_date"])
        page.wait_for_selector("#g0-birth_date-error", state="hidden")
        assert page.get_attribute("#g0-birth_date", "aria-invalid") == "false"
        assert page.locator("#summary").is_hidden()
        page.screenshot(path=str(ARTIFACTS / f"checkin-{name}-step-1.png"))
        page.screenshot(path=str(ARTIFACTS / f"checkin-{name}-step-1-full.png"), full_page=True)

        # Step 2, the second guest; Back and Next again keep what was typed.
        next_step(page, t("page.step_guest", n=2, total=2))
        assert page.locator("#g0-first_name").is_hidden()
        fill_guest(page, 1, {k: v for k, v in party[1].items() if k != "signature"})
        page.click(".step-nav .step-back")
        page.wait_for_function("t => document.getElementById('progress-text').textContent === t",
                               arg=t("page.step_guest", n=1, total=2))
        assert page.input_value("#g0-last_name") == party[0]["last_name"]
        next_step(page, t("page.step_guest", n=2, total=2))
        if country == "ES":  # a passport needs no support number; a Spanish DNI does
            assert page.locator("#g1-document_support_number").is_hidden()
        heights.append(page_height(page))
        page.screenshot(path=str(ARTIFACTS / f"checkin-{name}-step-2.png"))

        # The last step: signatures where the form has them, the consent, the submit button.
        last = t("page.step_sign") if country == "ES" else t("page.step_confirm")
        next_step(page, last)
        assert page.locator("button[type=submit]").is_visible()
        assert page.locator(".step-nav").is_hidden()
        assert page.locator(".actions .step-back").is_visible()
        heights.append(page_height(page))
        if country == "ES":
            page.check("#consent")
            page.click("button[type=submit]")
            page.wait_for_selector("#g0-signature-error:not([hidden])")
            assert page.text_content("#g0-signature-error") == t("msg.signature")
            assert page.locator("#g1-signature-error").is_visible()
            assert page.get_attribute(".signature[data-target='g0-signature'] canvas",
                                      "aria-invalid") == "true"
            page.screenshot(path=str(ARTIFACTS / "checkin-spanish-sign-error.png"))
            assert violations(page) == []  # the signature boxes, drawn and typed
            draw_signature(page, "g0-signature")  # the stroke's end clears "sign in the box"
            assert page.locator("#g0-signature-error").is_hidden()
            assert page.get_attribute(".signature[data-target='g0-signature'] canvas",
                                      "aria-invalid") == "false"
            page.locator("#g1-signature-typed").press_sequentially(party[1]["signature"][6:])
            assert page.locator("#g1-signature-error").is_hidden()
            assert page.locator("#summary").is_hidden()
            page.screenshot(path=str(ARTIFACTS / "checkin-spanish-filled.png"), full_page=True)
        else:
            page.click("button[type=submit]")
            page.wait_for_selector("#consent-error:not([hidden])")
            assert page.get_attribute("#consent", "aria-invalid") == "true"
            page.check("#consent")
            assert page.locator("#consent-error").is_hidden()
            assert page.get_attribute("#consent", "aria-invalid") == "false"
        page.screenshot(path=str(ARTIFACTS / f"checkin-{name}-step-last.png"))
        if viewport["width"] < 1000:
            print(country, "page height per step at 390x844:", heights)
            # The whole party on one page is about 4,000; the last step holds the review of
            # every guest, the signatures and the privacy notice. An Italian guest's step also
            # asks where they live (country, and comune or town) for the monthly statistics.
            assert max(heights[:-1]) < 2250 and heights[-1] < 3300, heights
        page.click("button[type=submit]")
        page.wait_for_selector("#done-title")
        page.screenshot(path=str(ARTIFACTS / f"checkin-done-{country.lower()}.png"))
        assert not [e for e in console_errors if "Content Security Policy" in e], console_errors
        assert not script_errors, script_errors
        context.close()
        assert api(server, "GET", f"/bookings/{booking['id']}")["checkin_status"] == "COMPLETED"

    context = browser.new_context(viewport={"width": 390, "height": 844}, locale="el-GR")
    page = context.new_page()
    response = page.goto(f"{server.base}/checkin/{'0' * 32}")
    assert response.status == 404
    page.screenshot(path=str(ARTIFACTS / "checkin-not-found-greek.png"))
    context.close()

    delivered = hooks.wait_for(3, timeout=30)
    events = [json.loads(r.body) for r in delivered]
    assert sorted(e["data"]["id"] for e in events) == sorted(booking_ids)
    assert {e["type"] for e in events} == {"checkin.completed"}
    shown = api(server, "GET", f"/bookings/{booking_ids[2]}/guests")
    assert shown["guests"][0]["document_number"].endswith("78Z")
    assert shown["guests"][1]["signed"] is True
    # Handed to the police filing at once: Alloggiati without its set-up is held, nothing sent,
    # saying what is missing.
    italian = api(server, "GET", f"/bookings/{booking_ids[1]}")
    assert italian["report_status"] == "QUEUED"
    assert italian["report_error"] == "set-up needed: user, password, wskey"

    numbers = [g["document_number"] for _, _, _, party in stays for g in party
               if g.get("document_number")] + ["CAA123456", "RCCMNL83S18D969H", "094259216"]
    assert not scan_for(data_dir, numbers)  # while running: the WAL files hold the latest writes
    server.stop(15)
    log = "".join(server.lines) + "".join(server.stderr_lines)
    assert not scan_for(data_dir, numbers)
    assert not [n for n in numbers if n in log]
    for body in (r.body for r in delivered):
        assert not [n for n in numbers if n.encode() in body]
