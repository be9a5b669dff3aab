"""Spain beyond SES on the dashboard: a Catalan property still on SES.Hospedajes shown on the
wrong authority (property page, Today) and moved only when the host confirms; a Basque booking's
held filing with its words, its party to type into the Ertzaintza's portal and its "mark filed";
a Spanish property without its licence number in "Needs a person"."""

from __future__ import annotations

import datetime as dt

from rentalcomply.bookings import service as bookings
from rentalcomply.bookings.fees import FeeRates
from rentalcomply.core import clock
from rentalcomply.core.models import Booking, Property
from rentalcomply.dashboard import service
from rentalcomply.filings import sweep
from rentalcomply.properties import service as properties
from tests.police.test_ses_siba_filing import SPANISH_FAMILY


def _spanish(account_id, region=None, connector="none", **extra):
    prop = properties.create_property(account_id, name="Pis Gràcia", address="Carrer 1",
                                      country="ES", timezone="Europe/Madrid",
                                      police_connector=connector, **extra)
    Property.update(region=region).where(Property.id == prop.id).execute()
    return Property.get_by_id(prop.id)


def _section(text: str, element_id: str) -> str:
    start = text.index(f'id="{element_id}"')
    return text[start:text.index("</div>", start)]


def test_a_catalan_property_on_ses_is_shown_on_the_wrong_authority_and_moved_when_confirmed(
        anna, account_a):
    prop = _spanish(account_a, connector="ses_hospedajes", licence_number="HUTB-012345")
    Property.update(region="ES-CT").where(Property.id == prop.id).execute()  # derived later
    page = anna.get(f"/dashboard/properties/{prop.id}?lang=en")
    notice = _section(page.text, "wrong-authority")
    assert "its guests are registered with Mossos d&#039;Esquadra" in notice
    assert "Move to Mossos d&#039;Esquadra" in notice
    assert Property.get_by_id(prop.id).police_connector == "ses_hospedajes"  # never silently
    today = anna.get("/dashboard/today?lang=en").text
    assert "Properties filing with the wrong police authority" in today
    assert [p.id for p, _ in service.today(account_a).wrong_authority] == [prop.id]
    anna.post(f"/dashboard/properties/{prop.id}/police/move",
              {"csrf": anna.csrf(page), "police_connector": "mossos"}, status=303)
    assert Property.get_by_id(prop.id).police_connector == "mossos"
    page = anna.get(f"/dashboard/properties/{prop.id}?lang=en").text
    assert 'id="wrong-authority"' not in page
    choices = page[page.index('id="police_connector"'):]
    choices = choices[:choices.index("</select>")]
    assert 'value="mossos"' in choices and 'value="ses_hospedajes"' not in choices
    assert service.today(account_a).wrong_authority == []
    # In Greek too.
    assert "Μεταφορά" not in anna.get(f"/dashboard/properties/{prop.id}?lang=el").text
    Property.update(police_connector="ses_hospedajes").where(Property.id == prop.id).execute()
    assert "Μεταφορά στην αρχή" in anna.get(f"/dashboard/properties/{prop.id}?lang=el").text


def test_a_basque_booking_shows_its_party_to_type_and_is_marked_filed_on_its_page(
        anna, owner, account_a, settings):
    prop = _spanish(account_a, region="ES-PV", licence_number="EVI00123")
    owner.patch_json(f"/api/v1/properties/{prop.id}", {"police_connector": "ertzaintza"})
    booking = bookings.create_booking(
        account_a, rates=FeeRates.from_settings(settings), property_id=prop.id,
        guest_name="Núñez, José", guest_email="jose@example.es", arrival_date=clock.today(),
        departure_date=clock.today() + dt.timedelta(days=2), guest_count=2)
    owner.put_json(f"/api/v1/bookings/{booking.id}/guests", {"guests": SPANISH_FAMILY})
    sweep.run_due()
    page = anna.get(f"/dashboard/bookings/{booking.id}?lang=en")
    filings = page.text[page.text.index('class="filings"'):]
    assert "file these guests in the Ertzaintza’s portal" in filings.replace("&#039;", "’") \
        or "file these guests in the Ertzaintza" in filings
    party = _section(page.text, "police-hand-entry")
    for shown in ("José", "Núñez Peña", "12345678Z", "BAA000589", "Calle Mayor 5", "Lucía",
                  "parent"):
        assert shown in party
    anna.post(f"/dashboard/bookings/{booking.id}/police/filed",
              {"csrf": anna.csrf(page), "reference": "ERTZ-1"}, status=303)
    assert Booking.get_by_id(booking.id).report_status == "SUBMITTED"
    assert 'id="police-hand-entry"' not in anna.get(f"/dashboard/bookings/{booking.id}").text


def test_a_spanish_property_without_its_licence_number_needs_a_person(anna, account_a):
    prop = _spanish(account_a)
    page = anna.get(f"/dashboard/properties/{prop.id}?lang=en").text
    assert 'id="licence-warning"' in page and 'id="licence_number"' in page
    today = anna.get("/dashboard/today?lang=en").text
    section = today[today.index('id="licence-missing"'):]
    assert f'href="/dashboard/properties/{prop.id}#licence_number"' in section[:section.index("</ul>")]
    properties.update_property(account_a, prop.id, licence_number="HUTB-000001")
    assert service.today(account_a).licence_missing == []
    page = anna.get(f"/dashboard/properties/{prop.id}?lang=en").text
    assert 'id="licence-warning"' not in page
    assert '<span lang="es">HUTB-000001</span>' in page[page.index('id="licence-shown"'):][:200]


def test_a_file_hosts_reservation_is_downloaded_and_marked_filed_on_the_booking_page(
        anna, owner, account_a, settings):
    prop = _spanish(account_a, licence_number="VUT/MA/12345")
    owner.patch_json(f"/api/v1/properties/{prop.id}", {
        "police_connector": "file", "police_settings": {"codigo_establecimiento": "0000012345"}})
    booking = bookings.create_booking(
        account_a, rates=FeeRates.from_settings(settings), property_id=prop.id,
        guest_name="Ortega Ruiz, Ana", guest_email="ana@example.org",
        arrival_date=clock.today() + dt.timedelta(days=9),
        departure_date=clock.today() + dt.timedelta(days=12), guest_count=2)
    sweep.run_due()
    page = anna.get(f"/dashboard/bookings/{booking.id}?lang=en")
    link = f'/dashboard/bookings/{booking.id}/police/file?kind=reservation'
    assert link in page.text
    download = anna.get(link, status=303)
    assert "/files/police/" in download.headers["Location"]
    anna.post(f"/dashboard/bookings/{booking.id}/police/filed",
              {"csrf": anna.csrf(page), "kind": "reservation", "reference": "RH-1"}, status=303)
    from rentalcomply.filings.models import Filing
    row = Filing.get((Filing.booking == booking.id) & (Filing.kind == "reservation"))
    assert (row.status, row.reference) == ("submitted", "RH-1")
    assert Booking.get_by_id(booking.id).report_status == "PENDING"  # the guests' part not done


def test_the_morning_email_names_the_missing_licence_and_the_wrong_authority(settings, account_a):
    from rentalcomply.dashboard import i18n, morning
    prop = _spanish(account_a, region="ES-CT", connector="ses_hospedajes")
    sections = dict(morning.lines(service.today(account_a), "el", i18n.Formatter("el"),
                                  "https://rentals.example.org/dashboard"))
    [line] = sections["Ισπανικά καταλύματα χωρίς αριθμό άδειας"]
    assert line.label == "Pis Gràcia" and line.details.startswith("Καταχωρίστε τον αριθμό")
    assert line.url == f"https://rentals.example.org/dashboard/properties/{prop.id}#licence_number"
    [line] = sections["Καταλύματα που δηλώνουν σε λάθος αστυνομική αρχή"]
    assert line.url == f"https://rentals.example.org/dashboard/properties/{prop.id}#wrong-authority"
    assert "Mossos d'Esquadra" in line.details
