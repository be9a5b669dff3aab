"""A property's obligations on the dashboard: the statistics set-up on the property page (saved,
secrets never shown back), an Italian property with no police registration chosen and a month's
statistics held in "Needs a person" and in the morning e-mail, in English and Greek."""

from __future__ import annotations

import datetime as dt

from rentalcomply.core import clock
from rentalcomply.core.ids import new_id
from rentalcomply.core.models import Property
from rentalcomply.dashboard import i18n, morning, service
from rentalcomply.filings import obligations
from rentalcomply.filings.models import Filing
from rentalcomply.properties import service as properties


def _milan(account_id, **extra):
    prop = properties.create_property(account_id, name="Casa Navigli", address="Via Tortona 1",
                                      country="IT", timezone="Europe/Rome", **extra)
    Property.update(region="IT-25", rooms=2, beds=4).where(Property.id == prop.id).execute()
    return Property.get_by_id(prop.id)


def _needs(text: str) -> str:
    return text[text.index("Needs a person"):text.index("Arrivals, next 7 days")]


def _section(text: str, element_id: str) -> str:
    start = text.index(f'id="{element_id}"')
    return text[start:text.index("</section>", start)]


def test_the_property_page_shows_the_statistics_set_up_and_saves_it(anna, account_a):
    prop = _milan(account_a, police_connector="file")
    page = anna.get(f"/dashboard/properties/{prop.id}?lang=en")
    section = _section(page.text, "obligation-ross1000")
    assert "ISTAT tourism statistics (ROSS 1000)" in section
    assert "Nothing can be filed until these are set:" in section and "Structure code" in section
    answer = anna.post(f"/dashboard/properties/{prop.id}/obligations/ross1000",
                       {"csrf": anna.csrf(page), "structure_code": "LOM0001", "deadline_day": "",
                        "username": "ross-user", "password": "segreto"}, status=303)
    assert answer.headers["Location"].endswith("#obligation-ross1000")
    [statistics] = [o for o in obligations.obligations_of(prop) if o["authority"] == "ross1000"]
    assert statistics["setup_complete"] and statistics["credentials_set"] == ["password",
                                                                                "username"]
    section = _section(anna.get(f"/dashboard/properties/{prop.id}?lang=en").text,
                       "obligation-ross1000")
    assert 'value="LOM0001"' in section and 'value="ross-user"' in section
    assert "segreto" not in section and "Nothing can be filed" not in section
    refused = anna.post(f"/dashboard/properties/{prop.id}/obligations/ross1000?lang=el",
                        {"csrf": anna.csrf(page), "structure_code": "LOM0001",
                         "deadline_day": "31"}, status=400)
    assert "πρέπει να είναι ημέρα από 1 έως 28" in _section(refused.text, "obligation-ross1000")


def test_needs_a_person_lists_an_italian_property_whose_guests_are_not_filed(anna, account_a):
    unfiled = _milan(account_a)  # police_connector none
    _milan(account_a, police_connector="file").name  # noqa: B018 - files: not listed
    properties.create_property(account_a, name="Studio Athinas", address="Athinas 5")
    needs = _needs(anna.get("/dashboard/today?lang=en").text)
    listed = needs[needs.index('id="no-registration"'):]
    listed = listed[:listed.index("</ul>")]
    assert f'href="/dashboard/properties/{unfiled.id}">Casa Navigli</a>' in listed
    assert "Its guests are not being filed with the police" in listed
    assert listed.count("<li>") == 1
    assert [p.id for p in service.today(account_a).no_registration] == [unfiled.id]
    assert "Καταλύματα των οποίων οι επισκέπτες δεν δηλώνονται" in \
        anna.get("/dashboard/today?lang=el").text


def test_a_held_month_is_on_today_and_in_the_morning_email(anna, settings, account_a):
    prop = _milan(account_a, police_connector="file")
    now = clock.utcnow()
    row = Filing.create(id=new_id("pf"), account=account_a, property=prop.id, booking=None,
                        authority="ross1000", kind="month", period="2026-10", status="held",
                        held_reason="set-up needed: structure_code",
                        deadline=now + dt.timedelta(days=3), guests=[])
    needs = _needs(anna.get("/dashboard/today?lang=en").text)
    listed = needs[needs.index('id="period-filings"'):]
    listed = listed[:listed.index("</ul>")]
    assert "Casa Navigli" in listed and "2026-10" in listed
    assert "Held, nothing sent: set-up needed: structure_code" in listed
    sections = dict(morning.lines(service.today(account_a), "el", i18n.Formatter("el"),
                                  "https://rentals.example.org/dashboard"))
    [line] = sections["Στατιστικά και δηλώσεις φόρου που θέλουν προσοχή"]
    assert line.label == "Casa Navigli · 2026-10"
    assert line.details.startswith("Σε αναμονή, τίποτα δεν στάλθηκε: set-up needed")
    assert line.url == (f"https://rentals.example.org/dashboard/properties/{prop.id}"
                        "#obligation-ross1000")
    Filing.update(status="submitted").where(Filing.id == row.id).execute()
    assert service.today(account_a).period_filings == []
