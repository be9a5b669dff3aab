"""The activity page in plain words, in English and Greek, linked to what each row names,
filterable by who, what and when; sign-ins, failed sign-ins and sign-outs are in it."""

from __future__ import annotations

import datetime as dt

from rentalcomply.core import clock
from rentalcomply.core.activity import Activity
from rentalcomply.dashboard import activitylog
from tests.dashboard.conftest import new_browser, sign_in


def _studio(anna):
    page = anna.get("/dashboard/properties/new")
    anna.post("/dashboard/properties", {"csrf": anna.csrf(page), "name": "Studio",
                                        "address": "Athinas 5", "country": "GR",
                                        "timezone": "Europe/Athens",
                                        "climate_fee_category": "standard",
                                        "police_connector": "none", "status": "active"},
              status=303)
    return Activity.get(Activity.action == "property.create").resource_id


def test_rows_say_in_plain_words_what_was_done_and_link_to_it(anna, owner):
    prop_id = _studio(anna)
    owner.post_json("/api/v1/properties", {"name": "Loft", "address": "Ermou 3"}, status=201)
    text = anna.get("/dashboard/activity").text
    assert "added a property" in text and f'href="/dashboard/properties/{prop_id}"' in text
    greek = anna.get("/dashboard/activity?lang=el").text
    assert "πρόσθεσε κατάλυμα" in greek and "added a property" not in greek


def test_every_recorded_code_has_words_in_both_languages():
    assert activitylog.describe("POST /api/v1/bookings/<booking_id>/cancel", "en") \
        == "cancelled a booking"
    assert activitylog.describe("api_key.revoke", "el") == "ανακάλεσε κλειδί API"
    for code, (kind, english, greek) in activitylog.ACTIONS.items():
        assert kind in activitylog.KINDS and english and greek and english != greek, code


def test_sign_ins_failed_sign_ins_and_sign_outs_are_recorded(wsgi_app, anna):
    visitor = new_browser(wsgi_app)
    sign_in(visitor, anna.email, "not the password", status=401)
    sign_in(visitor, anna.email)
    page = visitor.get("/dashboard/today")
    visitor.post("/dashboard/sign-out", {"csrf": visitor.csrf(page)}, status=303)
    actions = [a.action for a in Activity.select().order_by(Activity.created_at)]
    assert actions == ["session.sign_in_failed", "session.sign_in", "session.sign_out"]
    text = anna.get("/dashboard/activity?kind=session").text
    assert "failed to sign in (wrong password)" in text and "signed out" in text


def test_the_log_is_filtered_by_who_what_and_when(anna, owner):
    _studio(anna)
    owner.post_json("/api/v1/properties", {"name": "Loft", "address": "Ermou 3"}, status=201)
    page = anna.get("/dashboard/activity")
    assert f'<option value="{owner.key_id}"' in page.text
    by_key = anna.get(f"/dashboard/activity?who={owner.key_id}").text
    assert by_key.count("added a property") == 1 and anna.email not in by_key.split("<main")[1] \
        .split("</select>")[1]
    assert "Nothing matches." in anna.get("/dashboard/activity?kind=webhook").text
    assert anna.get("/dashboard/activity?kind=property").text.count("added a property") == 2
    tomorrow = (clock.today() + dt.timedelta(days=2)).isoformat()
    assert "Nothing matches." in anna.get(f"/dashboard/activity?from={tomorrow}").text
    assert 'id="from-error"' in anna.get("/dashboard/activity?from=yesterday").text


def test_a_showing_of_the_access_instructions_names_the_guest_and_links_the_booking(
        anna, account_a, settings):
    from rentalcomply.bookings import service as bookings
    from rentalcomply.bookings.fees import FeeRates
    from rentalcomply.core import activity
    from rentalcomply.core.db import atomic
    from rentalcomply.core.models import Property
    prop = Property.create(id="prop_studio", account=account_a, name="Studio", address="Athinas 5")
    arrival = clock.today() + dt.timedelta(days=3)
    with atomic():
        booking = bookings.create_booking(
            account_a, rates=FeeRates.from_settings(settings), property_id=prop.id,
            arrival_date=arrival, departure_date=arrival + dt.timedelta(days=2), guest_count=1,
            guest_name="Eleni Papadaki")
        activity.record(account_a, "guest", booking.id, "guest page",
                        "access_instructions.shown", booking.id)
    text = anna.get("/dashboard/activity").text
    assert "was shown the access instructions" in text and "Eleni Papadaki" in text
    assert f'href="/dashboard/bookings/{booking.id}"' in text
    assert "Guest</span>" in text
    assert "Eleni Papadaki" not in anna.get("/dashboard/activity").html.find("select").text
