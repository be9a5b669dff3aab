"""The whole journey against real parts: the real server in its own process, the invitation
received by an SMTP server on loopback, the link taken from the e-mail, the page filled in by
Debian's Chromium (driven by Playwright) for a Greek, an Italian and a Spanish property, the
booking COMPLETED and `checkin.completed` delivered to a webhook receiver on loopback. Then no
document number may appear in clear in any file of the data directory nor in the server's log.

Screenshots of the page at 390x844 are saved in tests/artifacts/.
"""

from __future__ import annotations

import datetime as dt
import json
import os
from pathlib import Path

import pytest
from aiosmtpd.controller import Controller

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
         "birth_date": (dt.date.today() - dt.timedelta(days=16 * 365)).isoformat(),
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
        if element.evaluate("e => e.tagName") == "SELECT":
            element.select_option(values[name])
        else:
            element.fill(values[name])


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

    stays = [("GR", "none", "el", greek_party()),
             ("IT", "alloggiati", "it", italian_party()),
             ("ES", "ses_hospedajes", "es", spanish_browser_party())]
    arrival = dt.date.today() + dt.timedelta(days=12)
    booking_ids = []
    for number, (country, connector, language, party) in enumerate(stays):
        prop = api(server, "POST", "/properties", {
            "name": {"GR": "Villa Anemoi", "IT": "Casa Limone", "ES": "Casa del Mar"}[country],
            "address": "Main street 1", "country": country, "police_connector": connector,
            **({"timezone": "Europe/Madrid"} if country == "ES" else {})}, 201)
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

        locale = {"el": "el-GR", "it": "it-IT", "es": "es-ES"}[language]
        context = browser.new_context(viewport={"width": 390, "height": 844}, locale=locale,
                                      device_scale_factor=2, is_mobile=True, has_touch=True)
        page = context.new_page()
        console_errors = []
        page.on("console", lambda m: console_errors.append(m.text) if m.type == "error" else None)
        page.goto(link)
        assert page.locator("html").get_attribute("lang") == language
        if country == "GR":
            page.screenshot(path=str(ARTIFACTS / "checkin-greek.png"))
            page.click("nav.languages a[hreflang='en']")
            page.wait_for_url("**lang=en")
            page.screenshot(path=str(ARTIFACTS / "checkin-english.png"))
            page.screenshot(path=str(ARTIFACTS / "checkin-english-full.png"), full_page=True)
        for index, guest in enumerate(party):
            fill_guest(page, index, guest)
        # A mistake first: the server's answer is shown beside the field.
        page.fill("#g0-birth_date", "2099-01-01")
        page.check("#consent")
        page.click("button[type=submit]")
        page.wait_for_selector("#g0-birth_date-error:not([hidden])")
        if country == "GR":
            page.screenshot(path=str(ARTIFACTS / "checkin-english-error.png"), full_page=True)
        assert page.locator("#g0-birth_date").get_attribute("aria-invalid") == "true"
        page.fill("#g0-birth_date", party[0]["birth_date"])
        if country == "ES":  # a passport needs no support number; a Spanish DNI does
            assert page.locator("#g1-document_support_number").is_hidden()
            assert page.locator("#g0-document_support_number").is_visible()
            page.screenshot(path=str(ARTIFACTS / "checkin-spanish-filled.png"), full_page=True)
        page.click("button[type=submit]")
        page.wait_for_selector("#done-title")
        page.screenshot(path=str(ARTIFACTS / f"checkin-done-{country.lower()}.png"))
        assert not [e for e in console_errors if "Content Security Policy" in e], console_errors
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
    # Handed to the police filing at once: Alloggiati without credentials fails, and says why.
    italian = api(server, "GET", f"/bookings/{booking_ids[1]}")
    assert italian["report_status"] == "FAILED"
    assert "missing credentials" in italian["report_error"]

    numbers = [g["document_number"] for _, _, _, party in stays for g in party
               if g.get("document_number")] + ["CAA123456", "RCCMNL83S18D969H", "094259216"]
    assert not scan_for(data_dir, numbers)  # while running: the WAL files hold the latest writes
    server.stop(15)
    log = "".join(server.lines) + "".join(server.stderr_lines)
    assert not scan_for(data_dir, numbers)
    assert not [n for n in numbers if n in log]
    for body in (r.body for r in delivered):
        assert not [n for n in numbers if n.encode() in body]
