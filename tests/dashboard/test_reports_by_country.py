"""The Reports page by country: AADE's reports only where the account has a Greek property; for
Italian, Spanish and Portuguese properties the police filings of a month per property (filed,
held, refused, not filed yet) with a link to those stays in the Bookings list."""

from __future__ import annotations

import datetime as dt
import re

import pytest

from rentalcomply.bookings import service as bookings
from rentalcomply.bookings.fees import FeeRates
from rentalcomply.core import clock
from rentalcomply.core.db import atomic
from rentalcomply.core.ids import new_id
from rentalcomply.core.models import Booking
from rentalcomply.filings.models import Filing
from rentalcomply.filings.views import period_counts
from rentalcomply.properties import service as properties

MONTH = dt.date(2030, 3, 1)


@pytest.fixture
def march(frozen_clock):
    clock.travel(dt.datetime(2030, 3, 20, 12) - clock.utcnow())
    return frozen_clock


def _italian(account_id, name="Casa Limone"):
    return properties.create_property(account_id, name=name, address="Via Roma 1, Firenze",
                                      country="IT", police_connector="alloggiati")


def _spanish(account_id, name="Casa del Mar"):
    return properties.create_property(account_id, name=name, address="Calle Mayor 1, Madrid",
                                      country="ES", timezone="Europe/Madrid",
                                      police_connector="ses_hospedajes")


def _stay(settings, account_id, prop, arrival, guest="Giulia Bianchi", nights=2):
    with atomic():
        return bookings.create_booking(account_id, rates=FeeRates.from_settings(settings),
                                       property_id=prop.id, guest_name=guest,
                                       arrival_date=arrival,
                                       departure_date=arrival + dt.timedelta(days=nights),
                                       guest_count=1)


def _filing(account_id, prop, booking, status, kind="arrival"):
    """A filing of the stay in that state (the engine's states, set directly)."""
    Filing.delete().where((Filing.booking == booking.id) & (Filing.kind == kind)).execute()
    return Filing.create(id=new_id("fil"), account=account_id, authority=prop.police_connector,
                         kind=kind, booking=booking.id, property=prop.id, status=status,
                         deadline=dt.datetime.combine(booking.arrival_date, dt.time(23)))


def _only(account_id, prop, booking, status):
    Filing.delete().where(Filing.booking == booking.id).execute()
    return _filing(account_id, prop, booking, status)


def _row(text, name):
    """The table row of a property, as its cells' texts."""
    row = re.search(rf"<tr>\s*<td data-label=\"Property\"><a [^>]*>{name}</a>.*?</tr>", text,
                    re.S).group(0)
    return [re.sub(r"<[^>]+>", "", cell).strip() for cell in re.findall(r"<td[^>]*>(.*?)</td>",
                                                                         row, re.S)]


def test_an_italian_and_spanish_account_sees_its_police_filings_and_no_aade_section(
        march, anna, settings, account_a):
    casa, mar = _italian(account_a), _spanish(account_a)
    filed = _stay(settings, account_a, casa, MONTH.replace(day=3), "Anna Rossi")
    held = _stay(settings, account_a, casa, MONTH.replace(day=10), "Luca Ferrari")
    refused = _stay(settings, account_a, mar, MONTH.replace(day=12), "Javier Ruiz")
    waiting = _stay(settings, account_a, mar, MONTH.replace(day=25), "Lucía Gómez")
    april = _stay(settings, account_a, casa, dt.date(2030, 4, 5), "Marco Neri")
    _only(account_a, casa, filed, "submitted")
    _only(account_a, casa, held, "held")
    _only(account_a, mar, refused, "rejected")
    _only(account_a, mar, waiting, "waiting")
    _only(account_a, casa, april, "submitted")
    text = anna.get("/dashboard/reports").text
    assert "Greece: tax reports for AADE" not in text and "Generate a report" not in text
    assert "0 stays" not in text
    assert "Police filings: Italy, Spain, Portugal" in text and "March 2030" in text
    # Property, authority, filed, held, refused, not filed yet, the link.
    assert _row(text, "Casa Limone")[1:6] == ["Alloggiati Web", "1", "1", "0", "0"]
    assert _row(text, "Casa del Mar")[1:6] == ["SES.Hospedajes", "0", "0", "1", "1"]
    link = (f'href="/dashboard/bookings?property={casa.id}&amp;from=2030-03-01&amp;'
            f'to=2030-03-31"')
    assert link in text
    listed = anna.get(f"/dashboard/bookings?property={casa.id}&from=2030-03-01&to=2030-03-31")
    assert "Anna Rossi" in listed.text and "Luca Ferrari" in listed.text
    assert "Marco Neri" not in listed.text
    april_text = anna.get("/dashboard/reports?month=2030-04").text
    assert "April 2030" in april_text
    assert _row(april_text, "Casa Limone")[2:6] == ["1", "0", "0", "0"]


def test_a_greek_account_sees_the_aade_reports_and_no_police_section(anna, account_a):
    properties.create_property(account_a, name="Villa Anemoi", address="Oia, Santorini")
    text = anna.get("/dashboard/reports").text
    assert "Greece: tax reports for AADE" in text and "Generate a report" in text
    assert "Police filings" not in text


def test_an_account_with_both_sees_both_and_a_french_property_is_said_to_have_none(
        anna, account_a):
    properties.create_property(account_a, name="Villa Anemoi", address="Oia, Santorini")
    _italian(account_a)
    properties.create_property(account_a, name="Mas des Oliviers", address="Gordes",
                               country="FR")
    text = anna.get("/dashboard/reports").text
    assert "Greece: tax reports for AADE" in text and "Police filings" in text
    assert "Nothing is reported or filed here for properties in these countries: France." in text
    assert "Mas des Oliviers" not in text


def test_an_account_with_no_property_says_where_reports_come_from(anna):
    text = anna.get("/dashboard/reports").text
    assert "No property yet" in text and "Greece: tax reports for AADE" not in text


def test_a_property_without_police_filing_says_so(anna, account_a):
    properties.create_property(account_a, name="Casa Azul", address="Rua 1, Lisboa",
                               country="PT", timezone="Europe/Lisbon")
    assert _row(anna.get("/dashboard/reports").text, "Casa Azul")[1] == "Police filing is off"


def test_counts_leave_out_a_cancelled_stays_unsent_filings_and_add_the_months_returns(
        march, settings, account_a):
    casa = _italian(account_a)
    kept = _stay(settings, account_a, casa, MONTH.replace(day=3))
    cancelled = _stay(settings, account_a, casa, MONTH.replace(day=8))
    sent_then_cancelled = _stay(settings, account_a, casa, MONTH.replace(day=15))
    _only(account_a, casa, kept, "submitted")
    _only(account_a, casa, cancelled, "waiting")
    _only(account_a, casa, sent_then_cancelled, "submitted")
    Booking.update(status="cancelled").where(
        Booking.id.in_([cancelled.id, sent_then_cancelled.id])).execute()
    Filing.create(id=new_id("fil"), account=account_a, authority="alloggiati", kind="arrival",
                  property=casa.id, period="2030-03", status="rejected",
                  deadline=dt.datetime(2030, 4, 5))
    counts = period_counts(account_a, MONTH, dt.date(2030, 3, 31), ("2030-03",))
    assert counts[casa.id] == {"filed": 2, "held": 0, "refused": 1, "not_filed": 0}


def test_another_accounts_filings_are_not_counted(march, anna, settings, account_a, account_b):
    _italian(account_a)
    theirs = _italian(account_b, name="Casa Altrui")
    _only(account_b, theirs, _stay(settings, account_b, theirs, MONTH.replace(day=3)),
          "submitted")
    text = anna.get("/dashboard/reports").text
    assert "Casa Altrui" not in text
    assert _row(text, "Casa Limone")[2:6] == ["0", "0", "0", "0"]


def test_the_greek_page_says_the_police_filings_in_greek(march, anna, account_a):
    _italian(account_a)
    text = anna.get("/dashboard/reports?lang=el").text
    assert "Δηλώσεις στην αστυνομία: Ιταλία, Ισπανία, Πορτογαλία" in text
    assert "Μάρτιος 2030" in text and "Ιταλία" in text
