"""A property's access instructions on its dashboard page: set, kept write-only, replaced,
removed."""

from __future__ import annotations

from rentalcomply.core.activity import Activity
from rentalcomply.core.models import Property
from rentalcomply.properties import service as properties

INSTRUCTIONS = "Key box left of the door, code 4812.\nWi-Fi: Anemoi / sunset2027"


def _property(account_id):
    return properties.create_property(account_id, name="Villa Anemoi", address="Oia, Santorini")


def _save(anna, prop, status=303, **fields):
    page = anna.get(f"/dashboard/properties/{prop.id}")
    return anna.post(f"/dashboard/properties/{prop.id}/access",
                     {"csrf": anna.csrf(page), "hours_before": "24", **fields}, status=status)


def test_the_host_sets_them_and_the_page_never_shows_them_again(anna, account_a):
    prop = _property(account_a)
    assert "Not set" in anna.get(f"/dashboard/properties/{prop.id}").text
    _save(anna, prop, access_instructions=INSTRUCTIONS, hours_before="6")
    page = anna.get(f"/dashboard/properties/{prop.id}?done=access_saved").text
    assert "The access instructions are saved." in page and "4812" not in page
    stored = Property.get_by_id(prop.id)
    assert properties.open_access_instructions(stored) == INSTRUCTIONS
    assert stored.access_instructions_hours_before == 6
    assert Activity.get().action == "property.access_instructions"


def test_an_empty_box_keeps_them_and_the_checkbox_removes_them(anna, account_a):
    prop = _property(account_a)
    _save(anna, prop, access_instructions=INSTRUCTIONS)
    _save(anna, prop, access_instructions="", hours_before="48")
    stored = Property.get_by_id(prop.id)
    assert properties.open_access_instructions(stored) == INSTRUCTIONS
    assert stored.access_instructions_hours_before == 48
    _save(anna, prop, remove="yes")
    assert Property.get_by_id(prop.id).access_instructions_sealed is None


def test_wrong_hours_are_refused_without_showing_the_text_typed(anna, account_a):
    prop = _property(account_a)
    refused = _save(anna, prop, status=400, access_instructions=INSTRUCTIONS, hours_before="200")
    assert "must be a whole number from 0 to 168" in refused.text
    assert "4812" not in refused.text
    assert Property.get_by_id(prop.id).access_instructions_sealed is None


def test_another_accounts_property_is_404(anna, account_b):
    prop = _property(account_b)
    page = anna.get("/dashboard/today")
    anna.post(f"/dashboard/properties/{prop.id}/access",
              {"csrf": anna.csrf(page), "access_instructions": "x", "hours_before": "24"},
              status=404)
    assert Property.get_by_id(prop.id).access_instructions_sealed is None
