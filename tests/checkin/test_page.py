"""The guest page and its endpoints, in-process: the HTML, the JSON endpoints, the refusals."""

import datetime as dt
import re

import pytest

from rentalcomply.core import clock
from rentalcomply.core.models import Booking, Event
from tests.checkin.conftest import greek_party, italian_party, spanish_party
from tests.conftest import documented_app


@pytest.fixture
def guest(wsgi_app):
    """A visitor without an API key."""
    return documented_app(wsgi_app)


@pytest.fixture
def invited(owner, make_booking):
    def invite(country="GR", **extra):
        booking = make_booking(country, **extra)
        url = owner.post_json("/api/v1/checkins/resend", {"booking_id": booking.id},
                              status=202).json["data"]["checkin_url"]
        return booking, "/checkin/" + url.rsplit("/", 1)[1]
    return invite


def test_the_page_opens_in_the_guests_language_with_a_strict_policy(guest, invited):
    booking, path = invited("GR", guest_language="el")
    page = guest.get(path)
    assert page.content_type == "text/html"
    assert '<html lang="el">' in page.text
    assert "Ηλεκτρονικό check-in" in page.text and "Villa Anemoi" in page.text
    policy = page.headers["Content-Security-Policy"]
    assert "default-src 'self'" in policy and "'unsafe-inline'" not in policy
    assert "<script>" not in page.text and " style=" not in page.text
    assert page.text.count('class="card guest"') == 1  # a Greek stay declares its lead alone
    assert page.headers["Cache-Control"] == "no-store"


def test_the_language_can_be_switched(guest, invited):
    _, path = invited("GR")
    for lang, word in [("it", "Cognome"), ("es", "Nacionalidad"), ("de", "Nachname"),
                       ("fr", "Prénom"), ("en", "Last name")]:
        assert word in guest.get(path + f"?lang={lang}").text


def test_a_greek_page_asks_only_what_the_declaration_to_aade_needs(guest, invited):
    _, path = invited("GR", guest_count=3)
    page = guest.get(path + "?lang=en").text
    asked = set(re.findall(r'name="g\d+\.(\w+)"', page))
    assert asked == {"first_name", "last_name", "nationality", "tax_id", "document_number",
                     "email", "phone"}
    assert 'name="g1.' not in page and "Passport number (optional)" in page
    assert "The law requires" not in page and "police" not in page
    assert "Greek tax authority" in page


def test_a_page_where_nothing_is_filed_asks_the_lead_guests_name_and_contact(guest, invited):
    _, path = invited("FR", guest_count=3)
    page = guest.get(path + "?lang=en").text
    assert set(re.findall(r'name="g\d+\.(\w+)"', page)) == {"first_name", "last_name", "email",
                                                            "phone"}
    assert 'class="scan"' not in page  # no document asked, no document to scan
    assert "name and how to reach them before you arrive" in page


def test_the_opening_line_says_what_the_property_country_files_without_naming_it(guest, invited):
    _, portuguese = invited("PT")
    _, italian = invited("IT", arrival_in=30)
    _, french = invited("FR", arrival_in=60)
    assert "report foreign guests to the immigration authorities (SIBA)" in guest.get(portuguese).text
    assert "register every guest with the police" in guest.get(italian).text
    assert "law" not in guest.get(french).text.split('class="lead">')[1].split("</p>")[0]


def test_the_fields_follow_the_property_country(guest, invited):
    _, greek = invited("GR")
    _, spanish = invited("ES", arrival_in=30)
    _, italian = invited("IT", arrival_in=60)
    assert 'name="g0.signature"' not in guest.get(greek).text
    assert 'name="g0.signature"' in guest.get(spanish).text
    assert 'name="g0.address_street"' in guest.get(spanish).text
    assert 'name="g1.relationship"' in guest.get(italian).text
    assert 'name="g0.birth_province"' in guest.get(italian).text


def test_the_assets_are_served_locally(guest):
    css = guest.get("/static/css/rentalcomply.css")
    assert css.content_type == "text/css"
    assert guest.get("/static/js/checkin.js").status_int == 200
    guest.get("/static/templates/checkin.tpl", status=404)
    guest.get("/static/../pyproject.toml", status=404)


def test_progress_is_saved_and_the_status_moves_to_in_progress(guest, invited):
    booking, path = invited("GR")
    party = greek_party()
    response = guest.post_json(path + "/progress", {"guests": [party[0], {}], "lang": "en"})
    assert response.json["status"] == "IN_PROGRESS"
    assert Booking.get_by_id(booking.id).checkin_status == "IN_PROGRESS"
    assert 'value="Παπαδοπούλου"' in guest.get(path).text


def test_submitting_a_valid_party_completes_and_shows_the_confirmation(guest, invited):
    booking, path = invited("GR")
    response = guest.post_json(path + "/submit", {"guests": greek_party(), "consent": True,
                                                  "lang": "en"})
    assert response.json == {"status": "COMPLETED", "next": path + "?lang=en"}
    assert Booking.get_by_id(booking.id).checkin_status == "COMPLETED"
    checkin_events = [e for e in Event.select().order_by(Event.created_at, Event.id)
                      if e.type.startswith("checkin.")]
    assert sorted(e.type for e in checkin_events) == ["checkin.completed", "checkin.invited"]
    versions = {e.type: e.data["version"] for e in checkin_events}
    assert versions["checkin.completed"] > versions["checkin.invited"] > 1
    assert Booking.get_by_id(booking.id).version == versions["checkin.completed"]
    confirmation = guest.get(path)
    assert "Check-in complete" in confirmation.text and "Μαρία Παπαδοπούλου" in confirmation.text


def test_consent_is_required(guest, invited):
    _, path = invited("GR")
    response = guest.post_json(path + "/submit", {"guests": greek_party(), "consent": False},
                               status=422)
    assert [e["field"] for e in response.json["errors"]] == ["consent"]


def test_problems_come_back_per_field_in_the_page_language(guest, invited):
    _, path = invited("IT", guest_language="el")
    party = italian_party()
    party[0].pop("birth_province")
    party[0]["tax_id"] = "RCCMNL83S18D969X"
    response = guest.post_json(path + "/submit", {"guests": party, "consent": True}, status=422)
    errors = {e["field"]: e["message"] for e in response.json["errors"]}
    assert errors["guests[0].birth_province"] == "Συμπληρώστε αυτό το πεδίο."
    assert "έγκυρος" in errors["guests[0].tax_id"]


def test_bad_input_through_the_page(guest, invited):
    _, path = invited("ES")
    party = spanish_party()
    party[0]["first_name"] = "x" * 10_000
    party[0]["document_number"] = "12345678A"
    party[1]["birth_date"] = (clock.today() + dt.timedelta(days=1)).isoformat()
    party[0]["signature"] = "data:image/png;base64,bm90IGEgcG5n"
    errors = {e["field"] for e in guest.post_json(path + "/submit", {"guests": party, "consent": True},
                                                  status=422).json["errors"]}
    assert errors >= {"guests[0].first_name", "guests[0].document_number", "guests[1].birth_date",
                      "guests[0].signature"}


def test_script_in_a_name_is_shown_as_text(guest, invited):
    _, path = invited("GR")
    party = greek_party()
    party[0]["first_name"] = "<script>alert(1)</script>"
    guest.post_json(path + "/submit", {"guests": party, "consent": True})
    page = guest.get(path).text
    assert "<script>alert(1)</script>" not in page
    assert "&lt;script&gt;alert(1)&lt;/script&gt;" in page


def test_the_form_works_without_javascript(guest, invited):
    booking, path = invited("GR")
    party = greek_party()
    fields = {f"g{i}.{k}": v for i, g in enumerate(party) for k, v in g.items()}
    refused = guest.post(path, {**fields, "g0.first_name": ""}, status=422)
    assert "Please fill this in." in refused.text
    done = guest.post(path, {**fields, "consent": "yes"}, status=303)
    assert done.headers["Location"].endswith(path + "?lang=en")
    assert Booking.get_by_id(booking.id).checkin_status == "COMPLETED"


def test_without_javascript_every_guest_is_on_the_one_page(guest, invited):
    _, path = invited("ES", guest_language="es", guest_count=3)
    page = guest.get(path).text
    assert page.count('class="card guest"') == 3
    assert page.count('type="submit"') == 1 and 'class="progress' not in page  # steps: the script's
    assert 'data-step-guest="Huésped {n} de {total}"' in page
    assert 'id="step-final"' in page and 'data-title="Huésped principal"' in page


def test_next_on_a_step_gets_what_the_final_answer_would_still_lack(guest, invited):
    booking, path = invited("PT")
    lead = {k: v for k, v in greek_party()[0].items() if k not in ("last_name", "tax_id")}
    draft = guest.post_json(path + "/progress", {"guests": [lead, {}], "lang": "en"}).json
    assert draft["errors"] == []  # a draft may lack anything
    checked = guest.post_json(path + "/progress", {"guests": [lead, {}], "lang": "en",
                                                   "check": True}).json
    problems = {e["field"]: e for e in checked["errors"]}
    assert problems["guests[0].last_name"] == {"field": "guests[0].last_name",
                                               "message": "Please fill this in.",
                                               "code": "msg.required"}
    assert "guests[1].first_name" in problems and "consent" not in problems
    assert checked["status"] == "IN_PROGRESS"
    assert Booking.get_by_id(booking.id).checkin_status == "IN_PROGRESS"  # and the draft kept
    assert 'value="Μαρία"' in guest.get(path).text


def test_an_unknown_link_is_a_friendly_404_page(guest, invited):
    invited("GR")
    page = guest.get("/checkin/" + "0" * 32, status=404)
    assert page.content_type == "text/html" and "This link does not work" in page.text
    assert guest.get("/checkin/not-even-a-token", status=404).content_type == "text/html"
    assert guest.post_json("/checkin/" + "0" * 32 + "/submit", {"guests": []},
                           status=404).json["error"]["code"] == "NOT_FOUND"


def test_an_expired_link_is_a_friendly_410_page(guest, invited):
    _, path = invited("GR", arrival_in=1, nights=2)
    clock.travel(dt.timedelta(days=5))
    page = guest.get(path, status=410)
    assert "This link has expired" in page.text and "Traceback" not in page.text
    guest.post_json(path + "/submit", {"guests": greek_party(), "consent": True}, status=410)


def test_a_token_of_another_booking_opens_that_booking_only(guest, invited):
    first, first_path = invited("GR")
    second, second_path = invited("GR", arrival_in=40)
    guest.post_json(second_path + "/submit", {"guests": greek_party(), "consent": True})
    assert Booking.get_by_id(second.id).checkin_status == "COMPLETED"
    assert Booking.get_by_id(first.id).checkin_status == "INVITED"


def test_guessing_links_is_limited_per_address(guest, invited):
    _, path = invited("GR")
    for number in range(20):
        guest.get("/checkin/" + f"{number:032x}", status=404)
    limited = guest.get("/checkin/" + "f" * 32, status=429)
    assert "Too many attempts" in limited.text
    guest.get(path, status=429)  # even a right guess now
    other = documented_app(guest.app)
    other.extra_environ = {**guest.extra_environ, "REMOTE_ADDR": "198.51.100.9"}
    other.get(path, status=200)


def test_a_token_in_plain_http_from_afar_is_refused(wsgi_app, invited):
    from webtest import TestApp
    _, path = invited("GR")
    plain = TestApp(wsgi_app, extra_environ={"REMOTE_ADDR": "203.0.113.7", "HTTP_HOST": "x"})
    plain.get(path, status=403)


def test_the_json_endpoints_refuse_what_is_not_a_party(guest, invited):
    _, path = invited("GR")
    assert guest.post(path + "/submit", "guests=1", status=415).json["error"]["code"] == \
        "UNSUPPORTED_MEDIA_TYPE"
    bad = guest.post(path + "/submit", b"{nope", content_type="application/json", status=400)
    assert bad.json["error"]["code"] == "INVALID_JSON" and bad.json["error"]["request_id"]
    guest.post_json(path + "/progress", {"guests": "all of us"}, status=400)
    huge = b'{"guests": ["' + b"x" * (1024 * 1024) + b'"]}'
    guest.post(path + "/progress", huge, content_type="application/json", status=413)
