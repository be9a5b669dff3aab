"""Stray bytes through the dashboard: a control character in any form is refused naming the
field, and a `next` carrying CR/LF (or leading elsewhere) signs in and goes home, no header
injected, no 500, also over a real socket."""

import http.client
import re
import urllib.parse

import pytest

from rentalcomply.core.models import ApiKey, Property
from tests.dashboard.conftest import PASSWORD, make_user, new_browser
from tests.serverutil import running_server

UNIT_SEPARATOR = "\u001f"
INJECTED = "/dashboard/x\r\nSet-Cookie: a=1"


def property_form(anna, **change):
    page = anna.get("/dashboard/properties/new")
    return {"csrf": anna.csrf(page), "name": "Studio", "address": "Athinas 5", "country": "GR",
            "timezone": "Europe/Athens", "climate_fee_category": "standard",
            "police_connector": "none", "status": "active", **change}


def test_a_property_form_with_a_control_character_is_refused_naming_the_field(anna):
    response = anna.post("/dashboard/properties",
                         property_form(anna, name=f"Stu{UNIT_SEPARATOR}dio"), status=400)
    assert "name: must not contain control characters (U+001F" in response.text
    assert Property.select().count() == 0


def test_a_key_name_with_a_line_break_is_refused(anna):
    page = anna.get("/dashboard/settings/keys")
    response = anna.post("/dashboard/settings/keys", {"csrf": anna.csrf(page), "name": "tool\nx",
                                                      "scopes": "read"}, status=400)
    assert "name: must not contain control characters" in response.text
    assert ApiKey.select().where(ApiKey.name.contains("tool")).count() == 0


@pytest.mark.parametrize("target", [INJECTED, "/dashboard/x\nLocation: https://evil.example",
                                    "https://evil.example/dashboard/", "//evil.example",
                                    "/dashboard/\\evil"])
def test_signing_in_with_a_bad_next_goes_home(wsgi_app, account_a, target):
    make_user(account_a, "ann@example.com")
    browser = new_browser(wsgi_app)
    page = browser.get("/dashboard/sign-in?" + urllib.parse.urlencode({"next": target}))
    response = browser.post("/dashboard/sign-in", {"csrf": browser.csrf(page),
                                                   "email": "ann@example.com",
                                                   "password": PASSWORD, "next": target},
                            status=303)
    assert response.headers["Location"].endswith("/dashboard/today")
    assert [name for name, _ in response.headerlist if name.lower() == "location"] == ["Location"]
    assert all("a=1" not in value for name, value in response.headerlist
               if name.lower() == "set-cookie")
    assert any(value.startswith("rc_session=") for value in response.headers.getall("Set-Cookie"))


def test_a_good_next_with_letters_beyond_ascii_is_kept_and_encoded(wsgi_app, account_a):
    make_user(account_a, "ann@example.com")
    browser = new_browser(wsgi_app)
    page = browser.get("/dashboard/sign-in")
    response = browser.post("/dashboard/sign-in", {"csrf": browser.csrf(page),
                                                   "email": "ann@example.com", "password": PASSWORD,
                                                   "next": "/dashboard/bookings?guest=Νίκος"},
                            status=303)
    assert response.headers["Location"].endswith(
        "/dashboard/bookings?guest=" + urllib.parse.quote("Νίκος"))


def test_over_a_real_socket_the_injected_next_signs_in_and_goes_home(wsgi_app, account_a):
    make_user(account_a, "ann@example.com")
    with running_server(wsgi_app) as server:
        connection = http.client.HTTPConnection("127.0.0.1", server.port, timeout=10)
        connection.request("GET", "/dashboard/sign-in?next=/dashboard/x%0d%0aSet-Cookie:%20a=1")
        page = connection.getresponse()
        text = page.read().decode()
        anon = re.search(r"rc_anon=([^;]+)", page.getheader("Set-Cookie")).group(1)
        csrf = re.search(r'name="csrf" value="([^"]+)"', text).group(1)
        form = ("csrf=" + csrf + "&email=ann%40example.com&password="
                + urllib.parse.quote(PASSWORD) + "&next=/dashboard/x%0d%0aSet-Cookie:%20a=1")
        connection.request("POST", "/dashboard/sign-in", body=form, headers={
            "Content-Type": "application/x-www-form-urlencoded", "Cookie": "rc_anon=" + anon})
        response = connection.getresponse()
        response.read()
        connection.close()
    assert response.status == 303
    assert response.getheader("Location").endswith("/dashboard/today")
    cookies = [value for name, value in response.getheaders() if name.lower() == "set-cookie"]
    assert any(value.startswith("rc_session=") for value in cookies)
    assert not any(value.startswith("a=1") for value in cookies)
