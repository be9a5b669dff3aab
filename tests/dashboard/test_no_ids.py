"""No page a person reads and no report PDF shows an internal id (`book_…`, `prop_…`, `usr_…`,
`acc_…`): a seeded account's every dashboard page, in English and in Greek, and its report's PDF
read back with pdftotext. Links may carry ids (an href, or an address shown to be copied, is not
words); an API key's visible prefix (`rc_…`) is part of a secret, not an id."""

from __future__ import annotations

import datetime as dt
import re
import shutil
import subprocess

import pytest

from rentalcomply.bookings import service as bookings
from rentalcomply.bookings.fees import FeeRates
from rentalcomply.checkin import service as checkin
from rentalcomply.core import activity, clock, events
from rentalcomply.core.db import atomic
from rentalcomply.demo import seed_demo
from rentalcomply.reports import generation
from rentalcomply.webhooks import service as webhooks
from tests.checkin.conftest import greek_party

ID_SHAPE = re.compile(r"\b(?:book|prop|usr|acc)_[A-Za-z0-9]{3,}")


def _visible_text(page) -> str:
    """What a reader sees: the text nodes of the body, never an attribute (hrefs, values)."""
    body = page.html.find("body")
    for hidden in body.find_all(["script", "style", "template"]):
        hidden.decompose()
    # A link shown to be copied (a check-in link for the channels' messages) is an address,
    # not words: whatever it carries is for the server that answers it.
    return re.sub(r"https?://\S+", "", body.get_text(" "))


@pytest.fixture
def seeded(settings, browser_for):
    """The demo account, with what else a page can show: a guest party, a stay of last month
    (in its tax report, without a price so that it needs attention), a webhook endpoint, a
    colleague invited, activity of people and of the system."""
    demo = seed_demo(settings)
    account_id = demo.account.id
    host = browser_for(account_id, "host@demo-agency.example")
    rates = FeeRates.from_settings(settings)
    last_month = (clock.today().replace(day=1) - dt.timedelta(days=1)).replace(day=10)
    with atomic():
        past = bookings.create_booking(
            account_id, rates=rates, property_id=demo.property_ids[0], guest_name="Eva Lind",
            arrival_date=last_month, departure_date=last_month + dt.timedelta(days=2),
            guest_count=1, guest_email="eva@example.com")
        activity.record(account_id, "user", host.user.id, host.email, "booking.create", past.id)
        for booking_id in demo.booking_ids[:3]:
            activity.record(account_id, "key", "key_demo", "demo key", "POST /api/v1/bookings",
                            booking_id)
        activity.record(account_id, "user", host.user.id, host.email, "property.update",
                        demo.property_ids[2])
        events.emit(account_id, "checkin.completed",
                    bookings.booking_view(bookings.get_booking(account_id, demo.booking_ids[0])))
    from rentalcomply.dashboard import users
    colleague, _ = users.invite(account_id, "maria@demo-agency.example", "member")
    with atomic():
        activity.record(account_id, "user", host.user.id, host.email, "user.invite", colleague.id)
    checkin.put_guests(account_id, demo.booking_ids[1], greek_party())
    endpoint = webhooks.create_endpoint(account_id, "http://127.0.0.1:9/hooks", ["*"],
                                        description="Channel manager")
    endpoint = endpoint[0] if isinstance(endpoint, tuple) else endpoint
    report = generation.generate(settings, account_id, last_month.year, last_month.month)
    return {"host": host, "demo": demo, "past": past, "endpoint": endpoint, "report": report}


def _pages(seeded) -> list[str]:
    demo = seeded["demo"]
    paths = ["/dashboard/today", "/dashboard/calendar", "/dashboard/bookings",
             "/dashboard/bookings/new", "/dashboard/bookings/import", "/dashboard/properties",
             "/dashboard/properties/new", "/dashboard/activity", "/dashboard/reports",
             "/dashboard/filings",
             f"/dashboard/reports/{seeded['report'].code}", "/dashboard/settings/account",
             "/dashboard/settings/keys", "/dashboard/settings/webhooks",
             f"/dashboard/settings/webhooks/{seeded['endpoint'].id}",
             "/dashboard/settings/email", f"/dashboard/bookings/{seeded['past'].id}",
             f"/dashboard/bookings/{seeded['past'].id}/edit"]
    paths += [f"/dashboard/bookings/{booking_id}" for booking_id in demo.booking_ids]
    paths += [f"/dashboard/properties/{property_id}" for property_id in demo.property_ids]
    paths += [f"/dashboard/calendar?property={demo.property_ids[0]}"]
    return paths


@pytest.mark.parametrize("lang", ["en", "el"])
def test_no_page_shows_an_id_to_a_person(seeded, lang):
    host = seeded["host"]
    shown = {}
    for path in _pages(seeded):
        page = host.get(path + ("&" if "?" in path else "?") + f"lang={lang}")
        text = _visible_text(page)
        found = [" ".join(text[max(0, m.start() - 60):m.end() + 20].split())
                 for m in ID_SHAPE.finditer(text)]
        if found:
            shown[path] = found  # each id with what surrounds it on the page
    assert not shown, shown


def test_the_report_pdf_shows_no_id(seeded, tmp_path):
    if shutil.which("pdftotext") is None:
        pytest.skip("reading the PDF back needs pdftotext (apt-get install poppler-utils)")
    host = seeded["host"]
    pdf = host.get(f"/dashboard/reports/{seeded['report'].code}/download/pdf",
                   status=303).follow()
    path = tmp_path / "report.pdf"
    path.write_bytes(pdf.body)
    text = subprocess.run(["pdftotext", "-layout", str(path), "-"], check=True,
                          capture_output=True, text=True).stdout
    assert "Seaside Studio" in text and "Demo Agency" in text
    assert not ID_SHAPE.findall(text), ID_SHAPE.findall(text)
