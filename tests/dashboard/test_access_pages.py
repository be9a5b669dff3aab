"""A property's access instructions on its dashboard page: one text per guest language, set,
replaced, removed; read again by an owner who asks (in the activity log), never by a member; no
text on the page unless an owner asked."""

from __future__ import annotations

import re

from rentalcomply.core.activity import Activity
from rentalcomply.core.models import Property
from rentalcomply.dashboard import users
from rentalcomply.properties import access
from rentalcomply.properties import service as properties

INSTRUCTIONS = "Key box left of the door, code 481273.\nWi-Fi: Anemoi / sunset2027"
ITALIANO = "Cassetta delle chiavi a sinistra della porta, codice 481273."


def _property(account_id, **fields):
    return properties.create_property(account_id, name="Villa Anemoi", address="Oia, Santorini",
                                      **fields)


def _save(browser, prop, status=303, **fields):
    page = browser.get(f"/dashboard/properties/{prop.id}")
    return browser.post(f"/dashboard/properties/{prop.id}/access",
                        {"csrf": browser.csrf(page), "hours_before": "24", **fields},
                        status=status)


def _texts(prop):
    return access.texts_of(Property.get_by_id(prop.id))


def _read(browser, prop, status=200):
    page = browser.get(f"/dashboard/properties/{prop.id}")
    return browser.post(f"/dashboard/properties/{prop.id}/access/read",
                        {"csrf": browser.csrf(page)}, status=status)


def test_the_host_sets_them_in_a_language_and_the_page_does_not_show_them_unasked(anna, account_a):
    prop = _property(account_a)
    page = anna.get(f"/dashboard/properties/{prop.id}").text
    assert "Not set" in page
    # A Greek property offers Greek first: its guests' fallback.
    assert re.search(r'<option value="el" selected>Greek \(Ελληνικά\)</option>', page)
    _save(anna, prop, new_language="en", access_new=INSTRUCTIONS, hours_before="6")
    page = anna.get(f"/dashboard/properties/{prop.id}?done=access_saved").text
    assert "The access instructions are saved." in page and "481273" not in page
    assert "In: English" in page
    stored = Property.get_by_id(prop.id)
    assert _texts(prop) == {"en": INSTRUCTIONS}
    assert stored.access_instructions_languages == "en"
    assert stored.access_instructions_hours_before == 6
    assert Activity.get().action == "property.access_instructions"


def test_an_owner_reads_them_again_and_the_reading_is_in_the_activity_log(anna, account_a):
    prop = _property(account_a, country="IT", timezone="Europe/Rome")
    _save(anna, prop, new_language="it", access_new=ITALIANO)
    _save(anna, prop, new_language="en", access_new=INSTRUCTIONS)
    reading = _read(anna, prop)
    shown = reading.text
    assert 'lang="it"' in shown and ITALIANO in shown
    assert "Key box left of the door, code 481273.\nWi-Fi: Anemoi / sunset2027" in shown
    assert 'name="shown" value="yes"' in shown
    assert "property.access_instructions_read" in {a.action for a in Activity.select()}
    # Read, then changed in place: the English box emptied removes English, the Italian edited.
    anna.post(f"/dashboard/properties/{prop.id}/access",
              {"csrf": anna.csrf(reading), "shown": "yes", "hours_before": "24",
               "access_it": ITALIANO + " Wi-Fi: Anemoi", "access_en": ""}, status=303)
    assert _texts(prop) == {"it": ITALIANO + " Wi-Fi: Anemoi"}
    assert "481273" not in anna.get(f"/dashboard/properties/{prop.id}").text


def test_a_member_replaces_a_language_without_reading_it_and_an_empty_box_keeps_it(
        browser_for, account_a):
    owner = browser_for(account_a)
    member = browser_for(account_a)
    users.change_role(account_a, member.user.id, "member")
    prop = _property(account_a)
    _save(owner, prop, new_language="el", access_new="Κωδικός 481273")
    page = member.get(f"/dashboard/properties/{prop.id}").text
    assert "Only an owner of the account can read them again." in page
    assert "481273" not in page and "access/read" not in page
    _read(member, prop, status=403)
    _save(member, prop, access_el="", new_language="en", access_new=INSTRUCTIONS)
    assert _texts(prop) == {"el": "Κωδικός 481273", "en": INSTRUCTIONS}
    _save(member, prop, access_el="Κωδικός 9999", access_en="")
    assert _texts(prop) == {"el": "Κωδικός 9999", "en": INSTRUCTIONS}
    _save(member, prop, remove_en="yes")
    assert _texts(prop) == {"el": "Κωδικός 9999"}
    # A member's "shown" is not an owner's: an empty box still keeps the text.
    _save(member, prop, shown="yes", access_el="")
    assert _texts(prop) == {"el": "Κωδικός 9999"}
    _save(member, prop, remove="yes")
    assert Property.get_by_id(prop.id).access_instructions_sealed is None
    assert Property.get_by_id(prop.id).access_instructions_languages is None


def test_wrong_hours_are_refused_without_showing_the_text_typed(anna, account_a):
    prop = _property(account_a)
    refused = _save(anna, prop, status=400, new_language="en", access_new=INSTRUCTIONS,
                    hours_before="200")
    assert "must be a whole number from 0 to 168" in refused.text
    assert "481273" not in refused.text
    assert Property.get_by_id(prop.id).access_instructions_sealed is None


def test_an_owner_who_asked_gets_the_texts_typed_back_on_a_refused_form(anna, account_a):
    prop = _property(account_a)
    _save(anna, prop, new_language="en", access_new=INSTRUCTIONS)
    shown = _read(anna, prop)
    refused = anna.post(f"/dashboard/properties/{prop.id}/access",
                        {"csrf": anna.csrf(shown), "shown": "yes", "hours_before": "x",
                         "access_en": "New code 5555"}, status=400)
    assert "New code 5555" in refused.text and 'name="shown" value="yes"' in refused.text
    assert _texts(prop) == {"en": INSTRUCTIONS}


def test_a_language_the_guest_page_does_not_speak_is_refused_beside_the_box(anna, account_a):
    prop = _property(account_a)
    refused = _save(anna, prop, status=400, new_language="xx", access_new="Code 1")
    assert re.search(r'id="access-new-error">must be a language of the guest page', refused.text)
    assert Property.get_by_id(prop.id).access_instructions_sealed is None


def test_the_greek_page_says_the_section_in_greek(anna, account_a):
    prop = _property(account_a)
    _save(anna, prop, new_language="el", access_new="Κωδικός 481273")
    page = anna.get(f"/dashboard/properties/{prop.id}?lang=el").text
    assert "Σε: Ελληνικά" in page and "Ανάγνωση" in page
    assert "Προσθήκη γλώσσας" in page


def test_another_accounts_property_is_404(anna, account_b):
    prop = _property(account_b)
    page = anna.get("/dashboard/today")
    anna.post(f"/dashboard/properties/{prop.id}/access",
              {"csrf": anna.csrf(page), "new_language": "en", "access_new": "x",
               "hours_before": "24"}, status=404)
    anna.post(f"/dashboard/properties/{prop.id}/access/read", {"csrf": anna.csrf(page)},
              status=404)
    assert Property.get_by_id(prop.id).access_instructions_sealed is None
