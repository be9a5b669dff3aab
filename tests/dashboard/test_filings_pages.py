"""The Filings page: every filing of the account, booking and period alike, the latest deadline
first; its filters as a GET form; the status in words with the booking page's badges; the file
and the receipt; Refile and Mark as filed with the CSRF token; another account's filings
invisible and their actions 404; in English and Greek."""

from __future__ import annotations

import datetime as dt
import itertools

import pytest

from rentalcomply.bookings import service as bookings
from rentalcomply.bookings.fees import FeeRates
from rentalcomply.core import activity, clock, sealing
from rentalcomply.core.db import atomic
from rentalcomply.dashboard import users
from rentalcomply.filings import receipts
from rentalcomply.filings.engine import DOCUMENT_PURPOSE
from rentalcomply.filings.models import Filing, PoliceReceipt, PoliceReceiptFiling
from rentalcomply.properties import service as properties

_ids = itertools.count(1)
PDF = b"%PDF-1.4\n% Ricevuta\n%%EOF\n"


def _filing(account_id, **fields) -> Filing:
    fields.setdefault("deadline", clock.utcnow() + dt.timedelta(days=3))
    fields.setdefault("authority", "alloggiati")
    return Filing.create(id=f"pf_page{next(_ids):04d}", account=account_id, **fields)


@pytest.fixture
def filed(settings, account_a):
    """Account A: a Roman property with a booking's arrival filing (submitted, with its day
    receipt) and a March movement (its file ready to upload), a Venetian one with a refused
    quarter; the latest deadline is the quarter's."""
    rome = properties.create_property(account_a, name="Casa Limone", address="Via Roma 1",
                                      country="IT", timezone="Europe/Rome")
    venice = properties.create_property(account_a, name="Ca' d'Oro", address="Cannaregio 3932",
                                        country="IT", timezone="Europe/Rome")
    arrival = clock.today()
    with atomic():
        booking = bookings.create_booking(account_a, rates=FeeRates.from_settings(settings),
                                          property_id=rome.id, guest_name="Giulia Bianchi",
                                          arrival_date=arrival,
                                          departure_date=arrival + dt.timedelta(days=3),
                                          guest_count=2)
    now = clock.utcnow().replace(microsecond=0)
    stay = _filing(account_a, booking=booking.id, property=rome.id, kind="arrival",
                   status="submitted", reference="RICEVUTA 7", submitted_at=now,
                   deadline=now + dt.timedelta(days=1))
    receipt = PoliceReceipt.create(id=f"prc_{account_a[-8:]}", account=account_a,
                                   property=rome.id, authority="alloggiati",
                                   account_user="RM012345", day=clock.today(), status="kept")
    receipt.pdf_sealed = sealing.seal(receipts.seal_purpose(receipt), PDF)
    receipt.save()
    PoliceReceiptFiling.create(receipt=receipt.id, filing=stay.id)
    march = _filing(account_a, property=rome.id, period="2026-03", kind="month",
                    authority="file", status="ready", deadline=now + dt.timedelta(days=2),
                    at_risk_at=now,
                    file_name="movimento-2026-03.xml", file_type="application/xml")
    march.file_sealed = sealing.seal(DOCUMENT_PURPOSE + march.id, b"<movimenti/>")
    march.save()
    quarter = _filing(account_a, property=venice.id, period="2026-Q1", kind="quarter",
                      authority="file", status="rejected", error="record 3: wrong country",
                      deadline=now + dt.timedelta(days=9))
    return {"rome": rome, "venice": venice, "booking": booking, "stay": stay, "march": march,
            "quarter": quarter}


def _rows(page):
    return page.html.select("table.filing-list tbody tr")


def test_every_filing_is_listed_latest_deadline_first_in_words(anna, filed):
    page = anna.get("/dashboard/filings")
    assert [row["id"] for row in _rows(page)] == [filed["quarter"].id, filed["march"].id,
                                                  filed["stay"].id]
    quarter, march, stay = _rows(page)
    assert "Quarter 1 of 2026" in quarter.text and "Ca' d'Oro" in quarter.text
    assert "Return of the quarter" in quarter.text
    assert quarter.select_one(".badge.s-rejected").text == "Refused by the authority"
    assert march.select_one(".badge.s-ready").text == "File ready to upload"
    assert "March 2026" in march.text
    assert march.select_one("td[data-label=Deadline] .badge.s-at_risk").text == "At risk"
    assert not stay.select(".s-at_risk")
    assert stay.select_one(".badge.s-submitted").text == "Filed"
    assert stay.find("a", string="Giulia Bianchi")["href"] == \
        f"/dashboard/bookings/{filed['booking'].id}"
    assert "RICEVUTA 7" in stay.text
    # The deadline in the property's time (Rome's, whatever the account's zone).
    deadline = stay.select_one("td[data-label=Deadline]").text
    assert "CET" in deadline or "CEST" in deadline, deadline
    nav = page.html.select_one("#menu")
    links = [a.text for a in nav.select("a")]
    assert links.index("Filings") == links.index("Reports") + 1


def test_the_actions_show_where_they_apply(anna, filed):
    quarter, march, stay = _rows(anna.get("/dashboard/filings"))
    assert quarter.find("button", string="Refile") and not quarter.select("form.mark-filed")
    assert march.select("form.mark-filed") and not march.find("button", string="Refile")
    assert not stay.find("form")
    assert march.find("a", string="The file") and stay.find("a", string="The receipt")
    assert not quarter.find("a", string="The file")


def test_each_filter_is_a_get_form(anna, filed):
    def shown(query):
        return [row["id"] for row in _rows(anna.get("/dashboard/filings?" + query))]

    assert shown(f"property={filed['rome'].id}") == [filed["march"].id, filed["stay"].id]
    assert shown("authority=alloggiati") == [filed["stay"].id]
    assert shown("status=rejected") == [filed["quarter"].id]
    assert shown("period=2026-03") == [filed["march"].id]
    assert shown("period=2026-Q2") == []
    refused = anna.get("/dashboard/filings?period=March")
    assert "must be a month" in refused.html.select_one(".notice.error").text
    form = anna.get("/dashboard/filings?status=ready").html.select_one("form.filters")
    assert form["method"] == "get"
    assert form.select_one("#status option[selected]")["value"] == "ready"


def test_the_file_and_the_receipt_download_by_their_signed_links(anna, filed):
    moved = anna.get(f"/dashboard/filings/{filed['march'].id}/file", status=303)
    assert "/files/police/" in moved.location
    assert anna.get(moved.location.split("example.org", 1)[-1]).body == b"<movimenti/>"
    moved = anna.get(f"/dashboard/filings/{filed['stay'].id}/receipt", status=303)
    assert anna.get(moved.location.split("example.org", 1)[-1]).body == PDF
    anna.get(f"/dashboard/filings/{filed['quarter'].id}/file", status=404)
    anna.get(f"/dashboard/filings/{filed['quarter'].id}/receipt", status=404)


def test_mark_as_filed_with_a_reference_keeps_the_filters(anna, filed):
    page = anna.get(f"/dashboard/filings?property={filed['rome'].id}")
    form = page.html.select_one(f"tr#{filed['march'].id} form.mark-filed")
    answer = anna.post(form["action"], {"csrf": anna.csrf(page), "reference": "ROSS 2026-03"},
                       status=303)
    assert f"property={filed['rome'].id}" in answer.location and "done=filing_filed" in answer.location
    row = Filing.get_by_id(filed["march"].id)
    assert (row.status, row.reference) == ("submitted", "ROSS 2026-03")
    done = anna.get(answer.location.split("example.org", 1)[-1])
    assert "recorded as filed" in done.text
    assert activity.Activity.get(activity.Activity.action == "filing.filed").resource_id == row.id


def test_refile_hands_a_refused_period_filing_back_to_its_engine(anna, filed):
    before = Filing.get_by_id(filed["quarter"].id)
    page = anna.get("/dashboard/filings")
    form = page.html.select_one(f"tr#{filed['quarter'].id} form")
    anna.post(form["action"], {"csrf": anna.csrf(page)}, status=303)
    row = Filing.get_by_id(filed["quarter"].id)
    # Queued again from attempt 0 (the worker may already have taken it: its verdict is its own).
    assert row.status != "rejected" and row.version > before.version and row.attempts <= 1
    # A filing with nothing to file again is said on the page.
    submitted = Filing.get_by_id(filed["quarter"].id)
    Filing.update(status="submitted").where(Filing.id == submitted.id).execute()
    again = anna.post(form["action"], {"csrf": anna.csrf(page)}, status=409)
    assert "Nothing to file again" in again.html.select_one(".notice.error").text


def test_an_action_without_its_csrf_token_is_refused(anna, filed):
    anna.post(f"/dashboard/filings/{filed['quarter'].id}/refile", {}, status=403)
    assert Filing.get_by_id(filed["quarter"].id).status == "rejected"


def test_a_too_long_reference_is_said_beside_its_field(anna, filed):
    page = anna.get("/dashboard/filings")
    answer = anna.post(f"/dashboard/filings/{filed['march'].id}/filed",
                       {"csrf": anna.csrf(page), "reference": "R" * 201}, status=400)
    field = answer.html.select_one(f"#reference-{filed['march'].id}")
    assert field["aria-invalid"] == "true"
    assert Filing.get_by_id(filed["march"].id).status == "ready"


def test_a_member_sees_and_acts_as_on_the_booking_page(anna, browser_for, account_a, filed):
    # The booking page's filing actions are every member's: so are the Filings page's.
    member = browser_for(account_a)
    users.change_role(account_a, member.user.id, "member")
    page = member.get("/dashboard/filings")
    assert len(_rows(page)) == 3
    form = page.html.select_one(f"tr#{filed['quarter'].id} form")
    member.post(form["action"], {"csrf": member.csrf(page)}, status=303)


def test_another_accounts_filings_are_invisible_and_404(boris, filed):
    page = boris.get("/dashboard/filings")
    assert _rows(page) == [] and "No filings match." in page.text
    assert boris.get(f"/dashboard/filings?property={filed['rome'].id}").html.select(
        "table.filing-list") == []
    boris.post(f"/dashboard/filings/{filed['quarter'].id}/refile",
               {"csrf": boris.csrf(page)}, status=404)
    boris.post(f"/dashboard/filings/{filed['march'].id}/filed",
               {"csrf": boris.csrf(page)}, status=404)
    boris.get(f"/dashboard/filings/{filed['march'].id}/file", status=404)
    assert Filing.get_by_id(filed["march"].id).status == "ready"


def test_the_page_speaks_greek(anna, filed):
    page = anna.get("/dashboard/filings?lang=el")
    assert page.html.select_one("h1").text == "Δηλώσεις"
    quarter = _rows(page)[0]
    assert "1ο τρίμηνο 2026" in quarter.text
    assert quarter.find("button", string="Νέα υποβολή")
    assert "Μάρτιος 2026" in _rows(page)[1].text
