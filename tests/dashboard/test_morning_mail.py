"""The morning e-mail: from `dashboard.morning_email_hour` in the account's own time zone, each
owner of the account gets one e-mail listing what the Today page says needs a person, in the
owner's language, through a real SMTP server on loopback; once per account and local date however
often (and by however many workers) the task runs; never when nothing needs a person, never to a
member, never with another account's items.

The clock stands still at chosen instants of 12 March 2030: Athens is UTC+2 then and New York
UTC-4 (its summer time began on the 10th), so 05:15 UTC is 07:15 in Athens and 01:15 in New York.
"""

from __future__ import annotations

import datetime as dt
import re
from pathlib import Path

import pytest

from rentalcomply.bookings import service as bookings
from rentalcomply.bookings.fees import FeeRates
from rentalcomply.core import clock
from rentalcomply.core.activity import Activity
from rentalcomply.core.models import Booking
from rentalcomply.dashboard import i18n, morning, service, tasks, users
from rentalcomply.dashboard.models import DashboardMorningMail, DashboardUser
from rentalcomply.properties import service as properties
from tests.checkin.conftest import smtp_server  # noqa: F401 - the fixture
from tests.conftest import bootstrapped_settings
from tests.dashboard.conftest import (DASHBOARD_ENV, PASSWORD, make_user, new_browser,
                                      sign_in)

PUBLIC = "https://rentals.example.org"
DAY = dt.date(2030, 3, 12)


@pytest.fixture
def settings(tmp_path, smtp_server):  # noqa: F811
    with bootstrapped_settings(tmp_path, RENTALCOMPLY_SMTP_HOST="127.0.0.1",
                               RENTALCOMPLY_SMTP_PORT=smtp_server.port,
                               RENTALCOMPLY_SERVER_PUBLIC_URL=PUBLIC,
                               **DASHBOARD_ENV) as settings:
        users.configure(settings)
        users.forget_failures()
        yield settings
        users.forget_failures()


def at(hour: int, minute: int = 0, day: dt.date = DAY) -> None:
    """Stand the (frozen) clock at that UTC instant."""
    clock.travel(dt.datetime.combine(day, dt.time(hour, minute)) - clock.utcnow())


@pytest.fixture
def stepped(frozen_clock):
    at(3)  # before anything is made: bookings arrive relative to this day
    return frozen_clock


def _booking(settings, account_id, prop, guest, arrival_in=1):
    arrival = clock.today() + dt.timedelta(days=arrival_in)
    return bookings.create_booking(account_id, rates=FeeRates.from_settings(settings),
                                   property_id=prop.id, guest_name=guest, arrival_date=arrival,
                                   departure_date=arrival + dt.timedelta(days=1), guest_count=2)


@pytest.fixture
def athens(settings, stepped, account_a):
    """Account A: a property in Greece (so Athens time), two check-ins not done for stays arriving
    tomorrow, and a police filing rejected."""
    prop = properties.create_property(account_a, name="Villa Anemoi", address="Oia 1",
                                      country="GR")
    _booking(settings, account_a, prop, "Maria Papadopoulou")
    _booking(settings, account_a, prop, "Nikos Georgiou", arrival_in=2)
    rejected = _booking(settings, account_a, prop, "Eleni Dimou", arrival_in=20)
    Booking.update(report_status="REJECTED", report_error="document number refused").where(
        Booking.id == rejected.id).execute()
    return account_a


@pytest.fixture
def new_york(settings, stepped, account_b):
    """Account B, whose owners chose New York time: one check-in not done, arriving tomorrow."""
    service.set_account_timezone(account_b, "America/New_York")
    prop = properties.create_property(account_b, name="Casa Limone", address="Via Roma 1",
                                      country="IT")
    _booking(settings, account_b, prop, "Brooke Walker")
    return account_b


def run() -> int:
    return tasks.look_at_mornings.call_local()


def text_of(message) -> str:
    return message.get_body(("plain",)).get_content()


def html_of(message) -> str:
    return message.get_body(("html",)).get_content()


def test_before_the_hour_nothing_is_sent(athens, smtp_server):  # noqa: F811
    make_user(athens, "owner@agency-a.example")
    at(4, 45)  # 06:45 in Athens
    assert run() == 0
    assert smtp_server.messages == []
    assert DashboardMorningMail.select().count() == 0


def test_after_the_hour_each_owner_gets_the_list_with_links(athens, smtp_server):  # noqa: F811
    make_user(athens, "first@agency-a.example")
    make_user(athens, "second@agency-a.example")
    at(5, 15)  # 07:15 in Athens
    assert run() == 2
    messages = smtp_server.wait(2)
    assert sorted(m["To"] for m in messages) == ["first@agency-a.example",
                                                 "second@agency-a.example"]
    message = messages[0]
    assert message["Subject"] == "Agency A: 3 things need a person today"
    assert message["Content-Language"] == "en"
    assert message["Auto-Submitted"] == "auto-generated"
    text = text_of(message)
    assert "Tue 12 Mar 2030" in text
    assert "Check-ins not done, arrival within 48 hours (2)" in text
    assert "Police filings rejected, failed or at risk (1)" in text
    assert "Maria Papadopoulou · Villa Anemoi · arrives Wed 13 Mar 2030 · Not started" in text
    # The reason as a sentence saying what to do; the authority's words stay on the booking.
    assert ("Eleni Dimou · Villa Anemoi · Rejected · The authority refused this filing. Correct "
            "the guests’ details it names, then file again.") in text
    for booking in Booking.select().where(Booking.account == athens):
        assert f"{PUBLIC}/dashboard/bookings/{booking.id}" in text
        assert f'href="{PUBLIC}/dashboard/bookings/{booking.id}"' in html_of(message)
    assert f"{PUBLIC}/dashboard/today" in text
    assert f"{PUBLIC}/dashboard/settings/account" in text


def test_the_email_and_the_today_page_list_the_same_things(athens, browser_for, smtp_server):  # noqa: F811
    at(5, 15)
    owner = browser_for(athens)  # signed in now: a session idle since 03:00 would have ended
    run()
    [message] = smtp_server.wait(1)
    page = owner.get("/dashboard/today")
    on_page = set(re.findall(r'href="/dashboard/bookings/(\w+)"',
                             page.text.split('id="arrivals"')[0]))
    in_mail = set(re.findall(r"/dashboard/bookings/(\w+)", text_of(message)))
    assert on_page == in_mail and len(in_mail) == 3
    count = re.search(r'<span class="count[^"]*">(\d+)</span>', page.text).group(1)
    assert message["Subject"].startswith(f"Agency A: {count} things")


def test_a_greek_owner_gets_it_in_greek_with_greek_plurals(athens, wsgi_app, smtp_server):  # noqa: F811
    make_user(athens, "eleni@agency-a.example")
    browser = new_browser(wsgi_app, HTTP_ACCEPT_LANGUAGE="el-GR,el;q=0.9")
    sign_in(browser, "eleni@agency-a.example")  # the pages are in Greek: so are her e-mails
    assert DashboardUser.get(DashboardUser.email == "eleni@agency-a.example").lang == "el"
    at(5, 15)
    run()
    [message] = smtp_server.wait(1)
    assert message["Subject"] == "Agency A: 3 θέματα χρειάζονται προσοχή σήμερα"
    assert message["Content-Language"] == "el"
    text = text_of(message)
    assert "Καλημέρα" in text
    assert "Check-in εκκρεμεί, άφιξη εντός 48 ωρών (2)" in text
    assert "φτάνει" in text and "Απορρίφθηκε" in text
    assert "Τρί 12 Μαρ 2030" in text


def test_one_thing_is_said_in_the_singular(settings, stepped, account_a, smtp_server):  # noqa: F811
    prop = properties.create_property(account_a, name="Villa Anemoi", address="Oia 1",
                                      country="GR")
    _booking(settings, account_a, prop, "Maria Papadopoulou")
    greek = make_user(account_a, "eleni@agency-a.example")
    users.remember_language(greek.id, "el")
    make_user(account_a, "owner@agency-a.example")
    at(5, 15)
    run()
    subjects = sorted(m["Subject"] for m in smtp_server.wait(2))
    assert subjects == ["Agency A: 1 thing needs a person today",
                        "Agency A: 1 θέμα χρειάζεται προσοχή σήμερα"]


def test_the_language_chosen_in_the_pages_is_the_language_of_the_email(anna):
    assert DashboardUser.get_by_id(anna.user.id).lang == "en"
    anna.get("/dashboard/today?lang=el")
    assert DashboardUser.get_by_id(anna.user.id).lang == "el"


def test_running_the_task_again_sends_nothing_more(athens, smtp_server):  # noqa: F811
    make_user(athens, "owner@agency-a.example")
    at(5, 15)
    assert run() == 1
    smtp_server.wait(1)
    assert run() == 0
    at(9, 45)  # later that morning, still the same local date
    assert run() == 0
    assert len(smtp_server.messages) == 1
    [looked] = DashboardMorningMail.select()
    assert (looked.local_date, looked.items, looked.recipients) == (DAY, 3, 1)


def test_two_workers_looking_at_the_same_morning_send_it_once(athens, smtp_server):  # noqa: F811
    make_user(athens, "owner@agency-a.example")
    at(5, 15)
    [(account_id, local_date)] = morning.due(7)
    # Both found it due; only the first to record it gets anyone to e-mail.
    assert morning.look(account_id, local_date) != []
    assert morning.look(account_id, local_date) == []
    assert morning.due(7) == []


def test_the_next_morning_is_a_new_one(athens, smtp_server):  # noqa: F811
    make_user(athens, "owner@agency-a.example")
    at(5, 15)
    run()
    at(5, 15, DAY + dt.timedelta(days=1))
    assert run() == 1
    assert len(smtp_server.wait(2)) == 2


def test_nothing_to_list_sends_nothing(settings, stepped, account_a, smtp_server):  # noqa: F811
    prop = properties.create_property(account_a, name="Villa Anemoi", address="Oia 1",
                                      country="GR")
    done = _booking(settings, account_a, prop, "Maria Papadopoulou")
    Booking.update(checkin_status="COMPLETED").where(Booking.id == done.id).execute()
    make_user(account_a, "owner@agency-a.example")
    at(5, 15)
    assert run() == 0
    assert smtp_server.messages == []
    # Looked at once: that morning is over, even if something comes up later (Today shows it).
    [looked] = DashboardMorningMail.select()
    assert (looked.items, looked.recipients) == (0, 0)


def test_a_member_or_a_disabled_owner_gets_none(athens, smtp_server):  # noqa: F811
    make_user(athens, "owner@agency-a.example")
    member, token = users.create_user(athens, "member@agency-a.example", role="member")
    users.set_password(token, PASSWORD, PASSWORD)
    users.disable_user(make_user(athens, "gone@agency-a.example").id)
    at(5, 15)
    assert run() == 1
    [message] = smtp_server.wait(1)
    assert message["To"] == "owner@agency-a.example"


def test_another_accounts_items_never_appear(athens, new_york, smtp_server):  # noqa: F811
    make_user(athens, "owner@agency-a.example")
    make_user(new_york, "owner@agency-b.example")
    at(5, 15)
    run()
    at(11, 15)  # 07:15 in New York
    run()
    by_owner = {m["To"]: text_of(m) for m in smtp_server.wait(2)}
    assert "Maria Papadopoulou" in by_owner["owner@agency-a.example"]
    assert "Brooke Walker" not in by_owner["owner@agency-a.example"]
    assert "Brooke Walker" in by_owner["owner@agency-b.example"]
    for guest in ("Maria Papadopoulou", "Nikos Georgiou", "Eleni Dimou", "Villa Anemoi"):
        assert guest not in by_owner["owner@agency-b.example"]


def test_each_account_gets_it_in_its_own_morning(athens, new_york, smtp_server):  # noqa: F811
    make_user(athens, "owner@agency-a.example")
    make_user(new_york, "owner@agency-b.example")
    at(5, 15)  # 07:15 in Athens, 01:15 in New York
    assert run() == 1
    assert [m["To"] for m in smtp_server.wait(1)] == ["owner@agency-a.example"]
    at(10, 45)  # 06:45 in New York
    assert run() == 0
    at(11, 0)  # 07:00 in New York
    assert run() == 1
    assert [m["To"] for m in smtp_server.wait(2)][1] == "owner@agency-b.example"
    assert {(m.account_id, m.local_date) for m in DashboardMorningMail.select()} == {
        (athens, DAY), (new_york, DAY)}


def test_a_morning_on_the_far_side_of_midnight_utc_has_the_local_date(
        settings, stepped, account_a, smtp_server):  # noqa: F811
    service.set_account_timezone(account_a, "Pacific/Auckland")  # UTC+13 in March
    make_user(account_a, "owner@agency-a.example")
    at(18, 30)  # 07:30 on the 13th in Auckland
    [(account_id, local_date)] = morning.due(7)
    assert local_date == DAY + dt.timedelta(days=1)


def test_an_owner_turns_it_off_for_the_account(athens, browser_for, smtp_server):  # noqa: F811
    at(5, 15)
    owner = browser_for(athens)
    page = owner.get("/dashboard/settings/account")
    assert "Morning e-mail" in page.text and "07:00" in page.text
    assert 'name="morning_email" value="on" checked' in page.text
    done = owner.post("/dashboard/settings/account/morning-email", {"csrf": owner.csrf(page)},
                      status=303)
    assert "done=morning_email_off" in done.location
    assert Activity.get(Activity.action == "account.morning_email_off").actor_id == owner.user.id
    page = owner.get(done.location)
    assert 'name="morning_email" value="on" checked' not in page.text
    assert run() == 0 and smtp_server.messages == []
    # Turning it off keeps the account's time zone as it was (its first property's).
    assert service.account_timezone(athens) == "Europe/Athens"
    owner.post("/dashboard/settings/account/morning-email",
               {"csrf": owner.csrf(page), "morning_email": "on"}, status=303)
    assert run() == 1


def test_a_member_cannot_turn_it_off(athens, browser_for, wsgi_app):
    member, token = users.create_user(athens, "member@agency-a.example", role="member")
    users.set_password(token, PASSWORD, PASSWORD)
    browser = new_browser(wsgi_app)
    sign_in(browser, "member@agency-a.example")
    page = browser.get("/dashboard/today")
    browser.post("/dashboard/settings/account/morning-email", {"csrf": browser.csrf(page)},
                 status=403)
    assert service.morning_email_on(athens)


def test_the_server_setting_turns_it_off_everywhere(athens, smtp_server, settings):  # noqa: F811
    make_user(athens, "owner@agency-a.example")
    settings.dashboard.morning_email = False
    at(5, 15)
    assert run() == 0
    assert smtp_server.messages == []


def test_the_hour_is_a_setting(athens, smtp_server, settings):  # noqa: F811
    make_user(athens, "owner@agency-a.example")
    settings.dashboard.morning_email_hour = 9
    at(5, 15)  # 07:15 in Athens
    assert run() == 0
    at(7, 0)  # 09:00
    assert run() == 1


def test_every_text_of_the_email_has_its_greek():
    source = Path(morning.__file__).read_text()
    texts = set(morning.HEADINGS.values())
    for literals in re.findall(r'\bt\(\s*((?:"(?:[^"\\]|\\.)*"\s*)+)', source):
        texts.add("".join(re.findall(r'"((?:[^"\\]|\\.)*)"', literals)))
    assert len(texts) > 8
    assert sorted(t for t in texts if not i18n.has_translation("el", t)) == []
