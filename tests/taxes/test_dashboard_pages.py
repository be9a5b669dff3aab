"""The dashboard's tourist taxes: the rule set editor (list, create, edit, delete; the shipped
sets read-only), the booking page's tax with its "collected" buttons, and today's arrivals whose
tax is still to collect on Today and in the morning e-mail."""

from __future__ import annotations

import datetime as dt

from rentalcomply.bookings import service as bookings
from rentalcomply.bookings.fees import FeeRates
from rentalcomply.core import clock
from rentalcomply.core.db import atomic
from rentalcomply.dashboard import i18n, morning
from rentalcomply.dashboard import service as dashboard
from rentalcomply.properties import service as properties
from rentalcomply.taxes import service as taxes
from rentalcomply.taxes.models import BookingTax, TaxRuleSet
from tests.dashboard.conftest import anna, browser_for, settings  # noqa: F401 - fixtures
from tests.taxes.conftest import own_rule_set

RATES = FeeRates(800, 200, 1500, 400, frozenset(range(4, 11)))


def new_set_form(page):
    form = page.forms[[f.action for f in page.forms.values()].index("/dashboard/taxes")]
    form["name"] = "Imposta di soggiorno, Lucca"
    form["authority"] = "Comune di Lucca"
    form["country"] = "it"
    form["source"] = "https://www.comune.lucca.it/imposta"
    form.set("rate_from", "2026-01-01", index=0)
    form.set("rate_amount", "2,50", index=0)
    form.set("rate_source", "delibera 12/2025", index=0)
    form["max_nights"] = "5"
    form.set("age_below", "14", index=0)
    form.set("age_percent", "0", index=0)
    form["exemption_reasons"] = "driver: Coach or bus driver\npatient_companion: A patient's companion"
    form["returns_every"] = "quarter"
    form["returns_due_day"] = "16"
    return form


def test_the_owner_creates_edits_and_deletes_a_rule_set(anna, account_a):
    page = anna.get("/dashboard/taxes")
    assert "Lisbon" in page.text or "pt-lisboa" in page.text
    made = new_set_form(page).submit().follow()
    row = TaxRuleSet.get(TaxRuleSet.account == account_a)
    assert made.request.path == f"/dashboard/taxes/{row.id}"
    assert "The tax rule set is saved" in made.text
    assert row.body["rates"] == [{"from": "2026-01-01", "to": None, "amount": 2.5, "months": None,
                                  "category": None, "source": "delibera 12/2025"}]
    assert row.body["exemption_reasons"][1] == {"code": "patient_companion",
                                                "label": "A patient's companion"}
    assert row.body["returns"] == {"every": "quarter", "due_day": 16, "due_months_after": 1}
    assert (row.body["country"], row.body["max_nights"], row.body["age_rates"]) == (
        "IT", 5, [{"below": 14, "percent": 0}])

    edit = made.forms[[f.action for f in made.forms.values()].index(f"/dashboard/taxes/{row.id}")]
    edit.set("rate_from", "2027-01-01", index=1)
    edit.set("rate_amount", "3", index=1)
    edit.submit().follow()
    row = TaxRuleSet.get_by_id(row.id)
    assert [rate["amount"] for rate in row.body["rates"]] == [2.5, 3]
    assert row.version == 2

    delete = anna.get(f"/dashboard/taxes/{row.id}")
    confirm = delete.forms[[f.action for f in delete.forms.values()].index(
        f"/dashboard/taxes/{row.id}/delete")].submit()
    assert "Delete this tax rule set?" in confirm.text
    confirm.forms[[f.action for f in confirm.forms.values()].index(
        f"/dashboard/taxes/{row.id}/delete")].submit().follow()
    assert TaxRuleSet.get_or_none(TaxRuleSet.id == row.id) is None


def test_a_wrong_rate_is_refused_beside_its_row_and_nothing_is_kept(anna, account_a):
    form = new_set_form(anna.get("/dashboard/taxes"))
    form.set("rate_amount", "lots", index=0)
    refused = form.submit(status=400)
    assert "Rate 1: must be a number from 0 to 1000 with at most two decimals" in refused.text
    assert TaxRuleSet.select().count() == 0
    # The typed values are kept for the correction.
    assert 'value="Comune di Lucca"' in refused.text


def test_a_shipped_rule_set_is_shown_read_only(anna):
    page = anna.get("/dashboard/taxes/pt-lisboa")
    assert "A shipped rule set cannot be changed" in page.text
    assert not [f for f in page.forms.values() if f.action == "/dashboard/taxes/pt-lisboa"]


def taxed_arrival_today(account_a, guest="Ana Silva"):
    prop = properties.create_property(account_a, name="Casa Alfama", address="Lisboa",
                                      country="PT", timezone="Europe/Lisbon")
    today = dashboard.account_day(account_a)
    with atomic():
        taxes.set_property_rules(account_a, prop, ["pt-lisboa"])
        return bookings.create_booking(account_a, rates=RATES, property_id=prop.id,
                                       guest_name=guest, arrival_date=today,
                                       departure_date=today + dt.timedelta(days=3),
                                       guest_count=2)


def test_the_booking_page_shows_the_tax_and_marks_it_collected_by_card(anna, account_a):
    booking = taxed_arrival_today(account_a)
    page = anna.get(f"/dashboard/bookings/{booking.id}")
    section = page.html.select_one("#tourist-tax")
    assert "€24.00" in section.get_text() and "to collect" in section.get_text()
    assert "2 guests × 3 nights × €4.00 = €24.00" in section.get_text()
    form = page.forms[[f.action for f in page.forms.values()].index(
        f"/dashboard/bookings/{booking.id}/tourist-tax/collected")]
    done = form.submit("method", index=1).follow()  # cash, card, transfer, platform
    assert "The tourist tax is marked collected" in done.text
    row = BookingTax.get(BookingTax.booking == booking.id)
    assert (row.status, row.collected_method) == ("collected", "card")
    assert "Collected" in done.html.select_one("#tourist-tax").get_text()


def test_today_and_the_morning_mail_list_the_tax_still_to_collect(anna, account_a):
    booking = taxed_arrival_today(account_a, guest="Rui Costa")
    today = anna.get("/dashboard/today")
    listed = today.html.select_one("#tax-to-collect")
    assert "Rui Costa" in listed.get_text() and "€24.00" in listed.get_text()
    day = dashboard.today(account_a)
    sections = dict(morning.lines(day, "en", i18n.Formatter("en", "UTC"),
                                  "https://rentals.example.org/dashboard"))
    [line] = sections["Tourist tax to collect from today’s arrivals"]
    assert (line.label, line.url) == (
        "Rui Costa", f"https://rentals.example.org/dashboard/bookings/{booking.id}#tourist-tax")
    assert "€24.00" in line.details
    taxes.mark_collected(account_a, booking, "cash")
    assert dashboard.today(account_a).tax_to_collect == []


def test_the_property_page_names_its_tax_return_without_a_form_to_fill(anna, account_a):
    prop = properties.create_property(account_a, name="Casa Trastevere", address="Roma",
                                      country="IT", timezone="Europe/Rome")
    with atomic():
        taxes.set_property_rules(account_a, prop, ["it-roma"])
    page = anna.get(f"/dashboard/properties/{prop.id}")
    section = page.html.select_one("#obligation-tourist_tax_it").find_parent("section")
    assert section.h2.get_text() == "Tourist tax returns (Italy)"
    assert "type them into the authority’s portal" in section.get_text()
    assert section.form is None
    greek = anna.get(f"/dashboard/properties/{prop.id}?lang=el")
    assert "πύλη της αρχής" in greek.html.select_one("#obligation-tourist_tax_it").find_parent(
        "section").get_text()
