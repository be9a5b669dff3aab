"""The pages call the domain functions: same validation messages, same events, an activity record
in the transaction of each change."""

from __future__ import annotations

import datetime as dt
import re
from pathlib import Path

from rentalcomply.bookings import service as bookings
from rentalcomply.bookings.fees import FeeRates
from rentalcomply.core import clock
from rentalcomply.core.activity import Activity
from rentalcomply.core.db import atomic
from rentalcomply.core.models import ApiKey, Booking, ChannelConnection, Event, Property
from rentalcomply.dashboard import i18n
from rentalcomply.properties import service as properties
from rentalcomply.webhooks import service as webhooks
from rentalcomply.webhooks.models import WebhookDelivery


def _property(account_id, name="Sea View"):
    return properties.create_property(account_id, name=name, address="Akti 1, Piraeus")


def _booking(settings, account_id, prop, guest="Maria Rossi", in_days=1, nights=3, **extra):
    arrival = clock.today() + dt.timedelta(days=in_days)
    with atomic():
        return bookings.create_booking(account_id, rates=FeeRates.from_settings(settings),
                                       property_id=prop.id, guest_name=guest, arrival_date=arrival,
                                       departure_date=arrival + dt.timedelta(days=nights),
                                       guest_count=2, **extra)


# --- activity -----------------------------------------------------------------------------------

def test_an_api_write_is_recorded_with_its_key_route_and_resource(owner):
    created = owner.post_json("/api/v1/properties", {"name": "Loft", "address": "Ermou 3"},
                              status=201).json["data"]
    [row] = Activity.select()
    assert (row.actor_type, row.actor_id, row.action, row.resource_id) == (
        "key", owner.key_id, "POST /api/v1/properties", created["id"])
    owner.patch_json(f"/api/v1/properties/{created['id']}", {"name": "Loft 2"})
    assert Activity.select().count() == 2


def test_a_refused_api_write_records_nothing(owner):
    owner.post_json("/api/v1/properties", {"name": ""}, status=400)
    assert Activity.select().count() == 0


def test_the_activity_page_lists_keys_and_users_newest_first_and_only_its_account(
        anna, owner, outsider):
    owner.post_json("/api/v1/properties", {"name": "Loft", "address": "Ermou 3"}, status=201)
    outsider.post_json("/api/v1/properties", {"name": "Other", "address": "Elsewhere"}, status=201)
    page = anna.get("/dashboard/properties/new")
    anna.post("/dashboard/properties", {"csrf": anna.csrf(page), "name": "Studio",
                                        "address": "Athinas 5", "country": "GR",
                                        "timezone": "Europe/Athens", "climate_fee_category": "standard",
                                        "police_connector": "none", "status": "active"}, status=303)
    text = anna.get("/dashboard/activity").text
    assert text.count("added a property") == 2  # the page's and the key's, not the outsider's
    assert anna.email in text and "test key" in text
    assert text.index(anna.email) < text.index("test key")  # newest first
    assert "POST /api/v1/properties" not in text and "property.create" not in text


# --- properties -----------------------------------------------------------------------------------

def test_a_property_form_shows_the_domains_validation_messages(anna):
    page = anna.get("/dashboard/properties/new")
    response = anna.post("/dashboard/properties", {"csrf": anna.csrf(page), "name": "",
                                                   "address": "x", "country": "Greece",
                                                   "timezone": "Mars/Olympus"}, status=400)
    assert 'aria-invalid="true"' in response.text
    assert Property.select().count() == 0
    assert Activity.select().count() == 0


def test_a_property_is_created_edited_and_gets_a_channel(anna, settings):
    page = anna.get("/dashboard/properties/new")
    values = {"csrf": anna.csrf(page), "name": "Studio", "address": "Athinas 5", "country": "GR",
              "timezone": "Europe/Athens", "climate_fee_category": "standard",
              "police_connector": "none", "status": "active", "max_guests": "4"}
    location = anna.post("/dashboard/properties", values, status=303).headers["Location"]
    prop = Property.get()
    assert location == f"/dashboard/properties/{prop.id}?done=created"
    assert "The property is created." in anna.get(location).text
    anna.post(f"/dashboard/properties/{prop.id}", {**values, "name": "Studio Ω"}, status=303)
    assert Property.get_by_id(prop.id).name == "Studio Ω"
    assert Property.get_by_id(prop.id).max_guests == 4
    bad = anna.post(f"/dashboard/properties/{prop.id}/channels",
                    {"csrf": values["csrf"], "provider": "airbnb", "ical_url": "ftp://x"}, status=400)
    assert "ical_url-error" in bad.text
    anna.post(f"/dashboard/properties/{prop.id}/channels",
              {"csrf": values["csrf"], "provider": "airbnb",
               "ical_url": "https://www.airbnb.com/calendar/ical/123.ics?s=abcdef0123456789abcd"},
              status=303)
    connection = ChannelConnection.get()
    assert "abcdef0123456789abcd" not in anna.get(f"/dashboard/properties/{prop.id}").text
    anna.post(f"/dashboard/properties/{prop.id}/channels/{connection.id}/delete",
              {"csrf": values["csrf"]}, status=303)
    assert ChannelConnection.select().count() == 0
    actions = [a.action for a in Activity.select().order_by(Activity.created_at)]
    assert actions == ["property.create", "property.update", "channel.add", "channel.delete"]


# --- bookings -------------------------------------------------------------------------------------

def test_bookings_are_found_by_guest_name_and_filtered(anna, settings, account_a):
    prop = _property(account_a)
    _booking(settings, account_a, prop, guest="Maria Rossi", in_days=2)
    _booking(settings, account_a, prop, guest="Jean Dupont", in_days=10)
    text = anna.get("/dashboard/bookings?guest=rossi").text
    assert "Maria Rossi" in text and "Jean Dupont" not in text
    assert "Jean Dupont" in anna.get("/dashboard/bookings?checkin=NOT_STARTED").text
    assert "No bookings match." in anna.get("/dashboard/bookings?status=cancelled").text
    assert "must be a date" in anna.get("/dashboard/bookings?from=yesterday").text


def test_the_bookings_guest_filter_finds_as_the_header_search_does(anna, settings, account_a):
    prop = _property(account_a)
    _booking(settings, account_a, prop, guest="Lucía Ferrari Gómez", in_days=2)
    _booking(settings, account_a, prop, guest="Jean Dupont", in_days=10)
    for typed in ("lucia", "ferrari lucia", "GOMEZ", "rrari"):  # the last: a part, as typed
        text = anna.get(f"/dashboard/bookings?guest={typed}").text
        assert "Lucía Ferrari Gómez" in text and "Jean Dupont" not in text, typed
    filtered = anna.get("/dashboard/bookings?guest=lucia&status=cancelled").text
    assert "No bookings match." in filtered  # the other filters still apply


def test_cancelling_in_the_page_emits_the_event_like_the_api(anna, settings, account_a):
    prop = _property(account_a)
    booking = _booking(settings, account_a, prop)
    page = anna.get(f"/dashboard/bookings/{booking.id}")
    assert "Maria Rossi" in page.text
    anna.post(f"/dashboard/bookings/{booking.id}/cancel", {"csrf": anna.csrf(page), "confirm": "yes"},
              status=303)
    assert Booking.get_by_id(booking.id).status == "cancelled"
    assert Event.select().where(Event.type == "booking.cancelled").count() == 1
    [row] = Activity.select()
    assert (row.actor_type, row.action, row.resource_id) == ("user", "booking.cancel", booking.id)


def test_today_lists_arrivals_and_what_needs_a_person(anna, settings, account_a):
    prop = _property(account_a)
    _booking(settings, account_a, prop, guest="Soon Arriving", in_days=1)
    _booking(settings, account_a, prop, guest="Later Arriving", in_days=5)
    text = anna.get("/dashboard/today").text
    needs = text[text.index("Needs a person"):text.index("Arrivals, next 7 days")]
    assert "Soon Arriving" in needs and "Later Arriving" not in needs
    arrivals = text[text.index("Arrivals, next 7 days"):]
    assert "Soon Arriving" in arrivals and "Later Arriving" in arrivals


def test_the_calendar_marks_overlapping_stays_as_conflicts(anna, settings, account_a):
    prop = _property(account_a)
    first = _booking(settings, account_a, prop, guest="First Guest", in_days=3)
    # A channel import may overlap (a double booking the host must solve): written directly.
    Booking.create(id="book_overlap", account=account_a, property=prop.id, guest_name="Second Guest",
                   arrival_date=first.arrival_date + dt.timedelta(days=1),
                   departure_date=first.departure_date + dt.timedelta(days=1), channel="airbnb",
                   guest_count=1)
    month = first.arrival_date.strftime("%Y-%m")
    text = anna.get(f"/dashboard/calendar?property={prop.id}&month={month}").text
    assert "has-conflict" in text and "conflicted" in text
    assert "First Guest" in text and "Second Guest" in text
    assert "must be a month" in anna.get(f"/dashboard/calendar?property={prop.id}&month=2027-13").text


# --- webhooks -------------------------------------------------------------------------------------

def test_a_failed_delivery_can_be_sent_again(anna, account_a):
    from rentalcomply.webhooks import service as webhooks
    endpoint, _ = webhooks.create_endpoint(account_a, "http://127.0.0.1:9/nothing-listens", ["*"])
    with atomic():
        event = webhooks.send_test(account_a, endpoint.id)
    webhooks.dispatch_pending_events()
    delivery = WebhookDelivery.get(WebhookDelivery.event == event.id)
    WebhookDelivery.update(status="failed", attempts=8, last_error="connection refused",
                           completed_at=clock.utcnow()).where(
        WebhookDelivery.id == delivery.id).execute()
    page = anna.get(f"/dashboard/settings/webhooks/{endpoint.id}")
    assert "Send again" in page.text and "Your endpoint could not be reached." in page.text
    assert "connection refused" not in page.text  # the technical text is for the log
    anna.post(f"/dashboard/settings/webhooks/{endpoint.id}/deliveries/{delivery.id}/resend",
              {"csrf": anna.csrf(page)}, status=303)
    again = WebhookDelivery.get_by_id(delivery.id)
    assert again.attempts == 9  # one more attempt was made at once (memory queue)
    assert Activity.get().action == "webhook.resend"


# --- languages ------------------------------------------------------------------------------------

def test_every_text_of_the_templates_has_its_greek(anna):
    folder = Path(i18n.__file__).parent / "templates"
    texts = set()
    for template in folder.glob("*.tpl"):
        texts.update(re.findall(r"(?<!\w)_\('((?:[^'\\]|\\.)+)'", template.read_text()))
    # the pages' modules (dashboard/pages/) and what surrounds them
    for module in [folder.parent / "web.py", *sorted((folder.parent / "pages").glob("*.py"))]:
        source = module.read_text()
        # a text may be written as adjacent literals over several lines: join them
        for literals in re.findall(r'_\(\s*((?:"(?:[^"\\]|\\.)*"\s*)+)', source):
            texts.add("".join(re.findall(r'"((?:[^"\\]|\\.)*)"', literals)))
    texts.update(key for key in i18n.catalogue("en").contexts if key.startswith("done:"))
    texts.update(["There is nothing here.", "This form has expired. Reload the page and try again.",
                  "Something went wrong on our side."])  # _error_page translates its message
    missing = sorted(t for t in texts if not i18n.has_translation("el", t) and not t.endswith(":"))
    assert not missing


def test_the_language_switch_shows_greek_and_remembers_it(anna):
    text = anna.get("/dashboard/today?lang=el").text
    assert 'lang="el"' in text and "Σήμερα" in text and "Χρειάζεται προσοχή" in text
    assert "Κρατήσεις" in anna.get("/dashboard/bookings").text
    assert "Bookings" in anna.get("/dashboard/bookings?lang=en").text


def test_an_unknown_dashboard_page_is_an_html_404(anna, wsgi_app):
    response = anna.get("/dashboard/no-such-page", status=404)
    assert "There is nothing here." in response.text
    from tests.dashboard.conftest import new_browser
    assert "/dashboard/sign-in" in new_browser(wsgi_app).get("/dashboard/nope", status=303).headers["Location"]


def test_a_resend_through_the_api_names_the_booking_in_the_activity_log(owner, settings, account_a):
    prop = _property(account_a)
    booking = _booking(settings, account_a, prop, guest_email="maria@example.com")
    owner.post_json("/api/v1/checkins/resend", {"booking_id": booking.id}, status=202)
    [row] = Activity.select()
    assert (row.action, row.resource_id) == ("POST /api/v1/checkins/resend", booking.id)


def test_an_endpoints_events_are_changed_in_its_page(anna, account_a):
    from rentalcomply.webhooks import service as webhooks
    endpoint, _ = webhooks.create_endpoint(account_a, "https://hooks.example.org/in", ["*"])
    page = anna.get(f"/dashboard/settings/webhooks/{endpoint.id}")
    refused = anna.post(f"/dashboard/settings/webhooks/{endpoint.id}/events",
                        {"csrf": anna.csrf(page)}, status=400)
    assert "must name at least one event" in refused.text
    anna.post(f"/dashboard/settings/webhooks/{endpoint.id}/events",
              {"csrf": anna.csrf(page), "events": ["booking.created", "report.ready"]}, status=303)
    assert webhooks.get_endpoint(account_a, endpoint.id).events == ["booking.created", "report.ready"]
    assert Activity.get().action == "webhook.update"


# --- destructive actions ask first ----------------------------------------------------------------

def test_revoking_a_key_first_shows_what_stops_working_and_changes_nothing(anna, key_of_a):
    record, _ = key_of_a
    page = anna.get("/dashboard/settings/keys")
    first = anna.post(f"/dashboard/settings/keys/{record.id}/revoke", {"csrf": anna.csrf(page)},
                      status=200)
    assert "Revoke this API key?" in first.text and "agency tool" in first.text
    assert 'name="confirm" value="yes"' in first.text and "No, keep it" in first.text
    assert ApiKey.get_by_id(record.id).revoked_at is None and Activity.select().count() == 0
    anna.post(f"/dashboard/settings/keys/{record.id}/revoke",
              {"csrf": anna.csrf(first), "confirm": "yes"}, status=303)
    assert ApiKey.get_by_id(record.id).revoked_at is not None
    assert Activity.get().action == "api_key.revoke"


def test_deleting_a_webhook_cancelling_a_booking_and_a_new_feed_address_ask_first(
        anna, settings, account_a):
    from rentalcomply.webhooks.models import WebhookEndpoint
    endpoint, _ = webhooks.create_endpoint(account_a, "https://hooks.example.org/a", ["*"])
    prop = _property(account_a)
    booking = _booking(settings, account_a, prop)
    csrf = anna.csrf(anna.get("/dashboard/today"))
    asked = anna.post(f"/dashboard/settings/webhooks/{endpoint.id}/delete", {"csrf": csrf})
    assert "Delete this webhook endpoint?" in asked.text and "hooks.example.org/a" in asked.text
    asked = anna.post(f"/dashboard/bookings/{booking.id}/cancel",
                      {"csrf": csrf, "amount_kept": "40"}, status=200)
    assert "Cancel this booking?" in asked.text and "check-in link stops" in asked.text
    assert 'name="amount_kept" value="40"' in asked.text  # carried to the second step
    asked = anna.post(f"/dashboard/properties/{prop.id}/ical-token", {"csrf": csrf}, status=200)
    assert "stops working at once" in asked.text
    el = anna.post(f"/dashboard/bookings/{booking.id}/cancel?lang=el", {"csrf": csrf}, status=200)
    assert "Ακύρωση αυτής της κράτησης;" in el.text
    assert WebhookEndpoint.get_by_id(endpoint.id).status == "active"
    assert Booking.get_by_id(booking.id).status == "confirmed"
    assert Activity.select().count() == 0
