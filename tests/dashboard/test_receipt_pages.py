"""The day receipts of the police on a booking's page: a "Receipt of <date>" link that downloads
the PDF, in the page's language; another account's receipt is a 404."""

from __future__ import annotations

import datetime as dt

from rentalcomply.bookings import service as bookings
from rentalcomply.bookings.fees import FeeRates
from rentalcomply.core import clock, sealing
from rentalcomply.core.db import atomic
from rentalcomply.filings import receipts
from rentalcomply.filings.models import Filing, PoliceReceipt, PoliceReceiptFiling
from rentalcomply.properties import service as properties

PDF = b"%PDF-1.4\n% Ricevuta 2026-07-10\n%%EOF\n"


def _filed_with_receipt(settings, account_id, status="kept"):
    prop = properties.create_property(account_id, name="Casa Limone", address="Via Roma 1",
                                      country="IT", timezone="Europe/Rome")
    arrival = clock.today()
    with atomic():
        booking = bookings.create_booking(account_id, rates=FeeRates.from_settings(settings),
                                          property_id=prop.id, guest_name="Giulia Bianchi",
                                          arrival_date=arrival,
                                          departure_date=arrival + dt.timedelta(days=3),
                                          guest_count=2)
    filing = Filing.create(id=f"pf_{account_id[-8:]}", account=account_id, booking=booking.id,
                           kind="arrival", authority="alloggiati", status="submitted",
                           deadline=clock.utcnow(), submitted_at=clock.utcnow())
    row = PoliceReceipt.create(id=f"prc_{account_id[-8:]}", account=account_id, property=prop.id,
                               authority="alloggiati", account_user="RM012345",
                               day=dt.date(2026, 7, 10), status=status)
    if status == "kept":
        PoliceReceipt.update(pdf_sealed=sealing.seal(receipts.seal_purpose(row), PDF),
                             content_type="application/pdf").where(
            PoliceReceipt.id == row.id).execute()
    PoliceReceiptFiling.create(receipt=row.id, filing=filing.id)
    return booking, row


def test_the_booking_page_links_the_receipt_of_each_day_and_downloads_it(anna, settings,
                                                                         account_a):
    booking, row = _filed_with_receipt(settings, account_a)
    page = anna.get(f"/dashboard/bookings/{booking.id}")
    link = page.html.find("a", string=lambda s: s and s.startswith("Receipt of "))
    assert link is not None and "10 Jul 2026" in link.text
    moved = anna.get(link["href"], status=303)
    assert "/files/police-receipts/" in moved.location
    answer = anna.get(moved.location.split("localhost", 1)[-1].split("stay.example.org", 1)[-1])
    assert answer.content_type == "application/pdf" and answer.body == PDF


def test_a_receipt_not_given_yet_is_said_without_a_link_and_in_greek(anna, settings, account_a):
    booking, _ = _filed_with_receipt(settings, account_a, status="pending")
    page = anna.get(f"/dashboard/bookings/{booking.id}")
    assert "not given yet" in page.text
    assert not page.html.find("a", string=lambda s: s and s.startswith("Receipt of "))
    from rentalcomply.dashboard import i18n
    assert i18n.translate("el", "Receipt of {date}", date="x") == "Απόδειξη της x"


def test_another_accounts_receipt_is_404_on_the_dashboard(anna, settings, account_a, account_b):
    mine, _ = _filed_with_receipt(settings, account_a)
    theirs, row = _filed_with_receipt(settings, account_b)
    anna.get(f"/dashboard/bookings/{theirs.id}/police/receipts/{row.id}", status=404)
    anna.get(f"/dashboard/bookings/{mine.id}/police/receipts/{row.id}", status=404)
