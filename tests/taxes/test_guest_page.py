"""The guest page's tourist tax section: the amount and why (persons × nights × rate, the
exemptions) in the guest's language, and each guest's exemption claimed on the page, kept with
the stay and charged again while the tax is not collected."""

from __future__ import annotations

from rentalcomply.core.db import atomic
from rentalcomply.properties import service as properties
from rentalcomply.taxes import service as taxes
from rentalcomply.taxes.models import BookingTax
from tests.checkin.conftest import (guest_page, make_booking, make_property,  # noqa: F401
                                    token_of)
from tests.taxes.conftest import own_rule_set


def town_with_reasons(owner, make_property):
    """An Italian flat charged €2 a person-night (under 14 free, at most 5 nights), whose town
    exempts a coach driver and a patient's companion."""
    prop = make_property("IT")
    rule = owner.post_json("/api/v1/tax-rules", own_rule_set(), status=201).json["data"]
    owner.patch_json(f"/api/v1/properties/{prop.id}", {"tax_rules": [rule["id"]]})
    return prop


def test_the_guest_reads_the_amount_and_why_in_italian(owner, make_property, make_booking,
                                                       guest_page):
    booking = make_booking(prop=town_with_reasons(owner, make_property), guest_count=2, nights=4)
    page = guest_page.get(f"/checkin/{token_of(booking)}?lang=it")
    section = page.html.select_one("#tourist-tax")
    assert section.h2.get_text() == "Imposta di soggiorno"
    assert "Da pagare a chi La ospita: 16,00\xa0€" in section.get_text()
    assert [li.get_text() for li in section.select(".tax-lines li")] == [
        "2 ospiti × 4 notti × 2,00\xa0€ = 16,00\xa0€"]
    assert "contati come adulti" in section.get_text()
    assert [o.get_text() for o in section.select("#tax-reason-1 option")] == [
        "Nessuna esenzione", "Coach or bus driver",
        "Companion of a patient in a local hospital"]


def test_a_guest_claims_an_exemption_and_the_amount_is_worked_out_again(owner, make_property,
                                                                        make_booking, guest_page):
    booking = make_booking(prop=town_with_reasons(owner, make_property), guest_count=2, nights=4)
    token = token_of(booking)
    form = guest_page.get(f"/checkin/{token}?lang=en").forms[0]
    assert form.action.startswith(f"/checkin/{token}/tourist-tax")
    form["reason-2"] = "driver"
    answer = form.submit()
    assert answer.status_int == 303
    page = answer.follow()
    section = page.html.select_one("#tourist-tax")
    assert "To pay your host: €8.00" in section.get_text()
    assert "Guest 2: exempt: Coach or bus driver" in section.get_text()
    assert section.select_one(".tax-notice").get_text() == (
        "Saved: the amount above is worked out again.")
    stored = BookingTax.get(BookingTax.booking == booking.id)
    assert (stored.exemptions, stored.amount_cents) == ({"2": "driver"}, 800)


def test_once_collected_a_claim_is_refused_in_words_and_the_amount_kept(owner, make_property,
                                                                       make_booking, guest_page):
    booking = make_booking(prop=town_with_reasons(owner, make_property), guest_count=2, nights=4)
    token = token_of(booking)
    form = guest_page.get(f"/checkin/{token}?lang=de").forms[0]
    taxes.mark_collected(owner.account_id, booking, "cash")
    form["reason-1"] = "driver"
    page = form.submit().follow()
    section = page.html.select_one("#tourist-tax")
    assert "Bezahlt: 16,00\xa0€" in section.get_text()
    assert "bereits bezahlt" in section.select_one(".tax-notice").get_text()
    assert BookingTax.get(BookingTax.booking == booking.id).amount_cents == 1600


def test_a_property_without_tax_shows_no_tax_section(make_booking, guest_page):
    booking = make_booking("GR")
    page = guest_page.get(f"/checkin/{token_of(booking)}?lang=en")
    assert page.html.select_one("#tourist-tax") is None
