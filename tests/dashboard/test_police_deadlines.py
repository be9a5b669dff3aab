"""No police deadline passes in silence: a stay whose guests never checked in, and a Spanish
reservation waiting for its holder, are on Today's "Needs a person", in the morning e-mail and on
the booking's page, in words, with what to do, before and after the deadline; the status a
person reads is the same on Today, the booking and the Bookings list; a held filing is not
offered "File again" and names the guest and the value; cancelling says what happens with the
police per country.

The clock stands still in November 2030: Florence and Madrid are UTC+1 then, so a Florence
arrival on Wed 20 Nov is due at 14:00 local on the 21st, 13:00 UTC.
"""

from __future__ import annotations

import datetime as dt
import re

import pytest

from rentalcomply.bookings import service as bookings
from rentalcomply.bookings.fees import FeeRates
from rentalcomply.checkin import booking_links
from rentalcomply.checkin import service as checkin_service
from rentalcomply.checkin.models import Checkin
from rentalcomply.core import clock
from rentalcomply.core.db import atomic
from rentalcomply.core.models import Booking
from rentalcomply.dashboard import service, tasks, users
from rentalcomply.filings import engine, settings as police_settings
from rentalcomply.filings.models import Filing
from rentalcomply.properties import service as properties
from tests.checkin.conftest import smtp_server  # noqa: F401 - the fixture
from tests.conftest import bootstrapped_settings
from tests.dashboard.conftest import DASHBOARD_ENV, make_user

PUBLIC = "https://rentals.example.org"
ARRIVAL = dt.date(2030, 11, 20)


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


def at(day: int, hour: int, minute: int = 0) -> None:
    """Stand the (frozen) clock at that UTC instant of November 2030."""
    clock.travel(dt.datetime(2030, 11, day, hour, minute) - clock.utcnow())


@pytest.fixture
def stepped(frozen_clock):
    at(18, 12)  # two days before the arrival: nothing is near yet
    return frozen_clock


def _property(account_id, name, country, timezone, connector, police, credentials):
    # An Italian property has its CIN, its region (read from the address) and its rooms and
    # beds; a Spanish one its region: without them it would be in "Needs a person" too.
    address = {"IT": "Via dei Serragli 1, 50124 Firenze FI",
               "ES": "Calle de Atocha 1, 28012 Madrid"}.get(country, "Via dei Serragli 1")
    prop = properties.create_property(account_id, name=name, address=address,
                                      country=country, timezone=timezone,
                                      cin="IT048017C2OLTRARNO1" if country == "IT" else None,
                                      **({"rooms": 1, "beds": 2} if country == "IT" else {}))
    police_settings.configure_property(account_id, prop.id, connector=connector,
                                       settings=police, credentials=credentials)
    return prop


@pytest.fixture
def florence(settings, stepped, account_a):
    return _property(account_a, "Oltrarno Loft", "IT", "Europe/Rome", "alloggiati", {},
                     {"user": "FI012345", "password": "segreta", "wskey": "WSKEY1"})


@pytest.fixture
def madrid(settings, stepped, account_a):
    return _property(account_a, "Lavapiés Studio", "ES", "Europe/Madrid", "ses_hospedajes",
                     {"codigo_arrendador": "0000000001", "codigo_establecimiento": "EST01"},
                     {"user": "ses-user", "password": "ses-pass"})


def _booking(settings, account_id, prop, guest, arrival=ARRIVAL, nights=3, **more):
    with atomic():
        return bookings.create_booking(
            account_id, rates=FeeRates.from_settings(settings), property_id=prop.id,
            guest_name=guest, arrival_date=arrival, departure_date=arrival + dt.timedelta(days=nights),
            guest_count=2, **more)


def _needs(page) -> str:
    text = page.text
    return " ".join(re.sub(r"<[^>]+>", " ", text[text.index('id="needs"'):
                                                 text.index('id="arrivals"')]).split())


def _morning(smtp_server) -> str:  # noqa: F811
    sent = tasks.look_at_mornings.call_local()
    assert sent >= 1
    messages = smtp_server.wait(sent)
    [message] = [m for m in messages if m["To"] == "owner@agency-a.example"]
    smtp_server.messages.clear()
    global last_html
    last_html = message.get_body(("html",)).get_content()
    return message.get_body(("plain",)).get_content()


last_html = ""  # the HTML part of the last morning e-mail _morning read


def test_a_stay_whose_guests_never_checked_in_is_on_today_and_in_the_morning_email_before_and_after_its_deadline(  # noqa: E501
        settings, florence, account_a, browser_for, smtp_server):  # noqa: F811
    make_user(account_a, "owner@agency-a.example")
    booking = _booking(settings, account_a, florence, "Hannah Müller",
                       guest_email="hannah@example.com")
    checkin_service.mark_link_shared(account_a, booking.id)  # invited; she never checked in
    assert service.today(account_a).unfiled == []  # two days ahead: not near

    at(21, 6, 15)  # 07:15 in Florence, the morning e-mail's hour: the deadline is at 14:00
    owner = browser_for(account_a)
    needs = _needs(owner.get("/dashboard/today"))
    assert "Police deadlines: guests not registered" in needs
    assert ("Hannah Müller arrived on Wed 20 Nov 2030 and is not registered yet: the deadline "
            "is Thu 21 Nov 2030, 14:00 CET.") in needs
    assert "send them the link again, or enter the party by hand" in needs
    assert "At risk" in needs
    page = owner.get("/dashboard/today").text
    assert f'href="/dashboard/bookings/{booking.id}#send-link">Send the link again' in page
    assert f'href="/dashboard/bookings/{booking.id}#enter-party">Enter the party by hand' in page
    # Listed once: not again among the check-ins due.
    assert "Needs a person 1 Police deadlines" in needs
    mail = _morning(smtp_server)
    assert "Police deadlines: guests not registered (1)" in mail
    assert ("Hannah Müller · Oltrarno Loft · At risk · Hannah Müller arrived on Wed 20 Nov 2030 "
            "and is not registered yet: the deadline is Thu 21 Nov 2030, 14:00 CET.") in mail
    assert f"Send the link again: {PUBLIC}/dashboard/bookings/{booking.id}#send-link" in mail
    assert f"Enter the party by hand: {PUBLIC}/dashboard/bookings/{booking.id}#enter-party" in mail
    assert (f'<a href="{PUBLIC}/dashboard/bookings/{booking.id}#send-link" '
            f'style="color:#0b5f5a">Send the link again</a>') in last_html

    at(22, 8)  # the next morning: the deadline has passed
    owner = browser_for(account_a)
    needs = _needs(owner.get("/dashboard/today"))
    assert ("Hannah Müller arrived on Wed 20 Nov 2030 and is not registered: the deadline was "
            "Thu 21 Nov 2030, 14:00 CET.") in needs
    assert "Deadline passed" in needs
    mail = _morning(smtp_server)
    assert ("Hannah Müller · Oltrarno Loft · Deadline passed · Hannah Müller arrived on Wed 20 "
            "Nov 2030 and is not registered: the deadline was Thu 21 Nov 2030, 14:00 CET.") in mail

    # The booking's page says it too, with the actions themselves.
    shown = owner.get(f"/dashboard/bookings/{booking.id}").text
    assert "and is not registered: the deadline was Thu 21 Nov 2030, 14:00 CET." in shown
    assert 'id="send-link"' in shown and 'id="enter-party"' in shown
    assert re.search(r'<span class="badge s-overdue">Deadline passed</span>', shown)
    assert Booking.get_by_id(booking.id).report_status == "PENDING"  # shown, never stored


def test_a_stay_whose_guests_never_checked_in_is_said_in_greek(
        settings, florence, account_a, browser_for):
    _booking(settings, account_a, florence, "Hannah Müller")
    at(22, 8)
    owner = browser_for(account_a)
    needs = _needs(owner.get("/dashboard/today?lang=el"))
    assert "Προθεσμίες αστυνομίας: επισκέπτες χωρίς δήλωση" in needs
    assert "Ο/Η Hannah Müller έφτασε στις" in needs and "Έληξε η προθεσμία" in needs


def _waiting_reservation(settings, account_id, madrid, guest, **more):
    booking = _booking(settings, account_id, madrid, guest, arrival=dt.date(2030, 12, 10), **more)
    row = Filing.get((Filing.booking == booking.id) & (Filing.kind == "reservation"))
    assert engine.attempt(row.id) == "waiting"  # the engine finds no holder to file
    return booking, Filing.get_by_id(row.id)


def test_a_reservation_waiting_for_its_holder_is_on_today_and_in_the_morning_email_before_and_after_its_deadline(  # noqa: E501
        settings, madrid, account_a, browser_for, smtp_server):  # noqa: F811
    make_user(account_a, "owner@agency-a.example")
    at(19, 9)  # booked at 10:00 in Madrid: the reservation is due in 24 hours
    booking, row = _waiting_reservation(settings, account_a, madrid, "Anna Schmidt",
                                        guest_email="anna@example.com")
    assert row.deadline == dt.datetime(2030, 11, 20, 9, 0)

    owner = browser_for(account_a)
    needs = _needs(owner.get("/dashboard/today"))
    assert ("The reservation booked by Anna Schmidt is not communicated to SES.Hospedajes yet: "
            "the deadline is Wed 20 Nov 2030, 10:00 CET.") in needs
    assert "write the booker’s name as “Surname(s), First name(s)”" in needs
    page = owner.get("/dashboard/today").text
    assert f'href="/dashboard/bookings/{booking.id}/edit">Edit the booking' in page
    mail = _morning(smtp_server)
    assert ("Anna Schmidt · Lavapiés Studio · At risk · The reservation booked by Anna Schmidt is "
            "not communicated to SES.Hospedajes yet") in mail
    assert f"Edit the booking: {PUBLIC}/dashboard/bookings/{booking.id}/edit" in mail

    at(20, 9, 30)  # past its deadline
    owner = browser_for(account_a)
    needs = _needs(owner.get("/dashboard/today"))
    assert ("The reservation booked by Anna Schmidt is not communicated to SES.Hospedajes: the "
            "deadline was Wed 20 Nov 2030, 10:00 CET.") in needs
    mail = _morning(smtp_server)
    assert "Deadline passed · The reservation booked by Anna Schmidt" in mail

    # The booking's page names what the reservation waits for, not "Waiting for check-in".
    shown = owner.get(f"/dashboard/bookings/{booking.id}").text
    assert "Waiting for its holder" in shown
    assert "The reservation booked by Anna Schmidt is not communicated" in shown


def test_the_police_status_is_the_same_on_today_the_booking_and_the_bookings_list(
        settings, florence, madrid, account_a, browser_for):
    at(21, 8)
    late = _booking(settings, account_a, florence, "Hannah Müller")
    held = _booking(settings, account_a, florence, "Javier Ruiz", arrival=dt.date(2030, 11, 24))
    reason = ("held: guest 1 birth_municipality has no code in the starter code tables; load "
              "the authority's tables: `rentalcomply police refresh-codes`")
    Filing.create(id="pf_held1", account=account_a, booking=held.id, kind="arrival",
                  authority="alloggiati", status="held", held_reason=reason,
                  deadline=dt.datetime(2030, 11, 25, 13, 0))
    Booking.update(report_status="QUEUED", report_error=reason).where(
        Booking.id == held.id).execute()
    # Booked now, due in 24 hours, but nothing can be sent without a person: at risk already.
    waiting, _ = _waiting_reservation(settings, account_a, madrid, "Anna Schmidt",
                                      guest_email="anna@example.com")
    owner = browser_for(account_a)
    today = owner.get("/dashboard/today").text
    listed = owner.get("/dashboard/bookings").text

    def badge_near(text, booking_id):
        start = text.index(f'href="/dashboard/bookings/{booking_id}"')
        return re.search(r'class="badge s-(overdue|at_risk|held|queued|pending)">([^<]+)<',
                         text[start:]).group(2)

    for booking, words in ((late, "At risk"), (held, "Held"), (waiting, "At risk")):
        page = owner.get(f"/dashboard/bookings/{booking.id}").text
        police = page[page.index('id="police-filing"'):]
        on_booking = re.search(r'class="badge s-\w+">([^<]+)<', police).group(1)
        assert on_booking == words
        assert badge_near(today, booking.id) == words, booking.guest_name
        row = listed[listed.index(f'href="/dashboard/bookings/{booking.id}"'):]
        row = row[:row.index("</tr>")]
        assert f">{words}</span></td>" in row, booking.guest_name


def test_a_held_filing_is_not_offered_file_again_and_names_the_guest_and_the_value(
        settings, florence, account_a, browser_for):
    booking = _booking(settings, account_a, florence, "Javier Ruiz")
    # The party as check-in keeps it, sealed (what the page reads back to name the guest).
    booking_links.ensure_links([booking.id])
    party = {"guests": [{"first_name": "Javier", "last_name": "Ruiz",
                         "birth_municipality": "Dos Hermanas"}]}
    Checkin.update(guests_sealed=checkin_service._seal(booking.id, party)).where(
        Checkin.booking == booking.id).execute()
    reason = ("held: guest 1 birth_municipality has no code in the starter code tables; load "
              "the authority's tables: `rentalcomply police refresh-codes`")
    Filing.create(id="pf_held2", account=account_a, booking=booking.id, kind="arrival",
                  authority="alloggiati", status="held", held_reason=reason,
                  deadline=dt.datetime(2030, 11, 21, 13, 0))
    Booking.update(report_status="QUEUED", report_error=reason, checkin_status="COMPLETED").where(
        Booking.id == booking.id).execute()
    assert Checkin.select().count() == 1
    owner = browser_for(account_a)
    page = owner.get(f"/dashboard/bookings/{booking.id}").text
    assert "File with the police again" not in page
    assert "Javier Ruiz’s town of birth “Dos Hermanas” has no code." in page
    assert f'href="/dashboard/properties/{florence.id}#police-setup">Open the police set-up' in page
    assert "Javier Ruiz’s town of birth “Dos Hermanas” has no code." in _needs(
        owner.get("/dashboard/today"))


def test_cancelling_a_madrid_booking_says_what_happens_with_ses_not_aade(
        settings, madrid, florence, account_a, browser_for):
    booking = _booking(settings, account_a, madrid, "Lucía García")
    owner = browser_for(account_a)
    page = owner.get(f"/dashboard/bookings/{booking.id}")
    assert "AADE" not in page.text
    assert ("What SES.Hospedajes accepted for this booking (the reservation, the guests’ "
            "registration) is cancelled there within 24 hours; nothing not sent yet is sent.") \
        in page.text
    assert "Kept on the booking for your records." in page.text
    asked = owner.post(f"/dashboard/bookings/{booking.id}/cancel",
                       {"csrf": owner.csrf(page), "amount_kept": ""})
    assert "AADE" not in asked.text
    assert "is cancelled there within 24 hours" in asked.text
    italian = _booking(settings, account_a, florence, "Marco Rossi")
    page = owner.get(f"/dashboard/bookings/{italian.id}").text
    assert "AADE" not in page and "Alloggiati Web is not told of cancellations" in page


def test_a_stay_over_and_never_registered_says_to_register_by_hand_without_the_expired_link(
        settings, florence, account_a, browser_for):
    booking = _booking(settings, account_a, florence, "Hannah Müller", nights=1,
                       guest_email="hannah@example.com")
    at(24, 8)  # departed on the 21st: the link ended with the 22nd
    owner = browser_for(account_a)
    page = owner.get("/dashboard/today").text
    needs = _needs(owner.get("/dashboard/today"))
    assert "The stay is over and its check-in link has expired: register the guests by hand" \
        in needs
    assert f"/dashboard/bookings/{booking.id}#send-link" not in page
    assert f"/dashboard/bookings/{booking.id}#enter-party" not in page
    shown = owner.get(f"/dashboard/bookings/{booking.id}").text
    assert "register the guests by hand on the authority’s site" in shown
    assert 'id="send-link"' not in shown and 'id="enter-party"' not in shown
