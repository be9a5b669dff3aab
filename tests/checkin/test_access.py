"""Access instructions: set through the API (sealed, never shown back), shown on the guest page
once check-in is complete and the time has come, e-mailed once per booking."""

import datetime as dt
import logging
import threading
import zoneinfo

import pytest

from rentalcomply.checkin import access, i18n, tasks
from rentalcomply.core import clock
from rentalcomply.core.models import Event, Property
from tests.checkin.conftest import greek_party, token_of
from tests.conftest import documented_app

INSTRUCTIONS = "Key box left of the door, code 481273.\nWi-Fi: Anemoi / sunset2027"


@pytest.fixture
def guest(wsgi_app):
    return documented_app(wsgi_app)


def set_access(actor, property_id, status=200, **fields):
    return actor.patch_json(f"/api/v1/properties/{property_id}", fields, status=status)


@pytest.fixture
def stay(owner, make_property, make_booking, frozen_clock):
    """A Greek property with instructions (24 hours before arrival) and a booking in 10 days."""
    prop = make_property("GR")
    set_access(owner, prop.id, access_instructions=INSTRUCTIONS)
    return invited(owner, make_booking(prop=prop, arrival_in=10))


def invited(owner, booking):
    owner.post_json("/api/v1/checkins/resend", {"booking_id": booking.id}, status=202)
    return booking


def complete(owner, booking):
    owner.put_json(f"/api/v1/bookings/{booking.id}/guests", {"guests": greek_party()})


def opens_at(booking) -> dt.datetime:
    """14:00 (police.arrival_hour) at Athens on the arrival date, 24 hours earlier, in UTC."""
    arrival = dt.datetime.combine(booking.arrival_date, dt.time(14),
                                  tzinfo=zoneinfo.ZoneInfo("Europe/Athens"))
    return (arrival - dt.timedelta(hours=24)).astimezone(dt.timezone.utc).replace(tzinfo=None)


def travel_to(moment: dt.datetime) -> None:
    clock.travel(moment - clock.utcnow())


# --- the API -------------------------------------------------------------------------------------

def test_they_are_set_through_patch_and_only_their_presence_is_shown(owner, make_property):
    prop = make_property("GR")
    assert owner.get(f"/api/v1/properties/{prop.id}").json["data"]["access_instructions_set"] is False
    shown = set_access(owner, prop.id, access_instructions=INSTRUCTIONS,
                       access_instructions_hours_before=48).json["data"]
    assert shown["access_instructions_set"] is True
    assert shown["access_instructions_hours_before"] == 48
    for answer in (owner.get(f"/api/v1/properties/{prop.id}"), owner.get("/api/v1/properties")):
        assert "481273" not in answer.text and "sunset2027" not in answer.text
        assert "access_instructions\"" not in answer.text


def test_they_are_sealed_at_rest(owner, make_property):
    prop = make_property("GR")
    set_access(owner, prop.id, access_instructions=INSTRUCTIONS)
    stored = Property.get_by_id(prop.id).access_instructions_sealed
    assert stored.startswith("v1:") and "481273" not in stored


def test_the_hours_default_to_24(owner, make_property):
    prop = make_property("GR")
    assert owner.get(f"/api/v1/properties/{prop.id}").json["data"][
        "access_instructions_hours_before"] == 24


def test_null_removes_them(owner, make_property):
    prop = make_property("GR")
    set_access(owner, prop.id, access_instructions=INSTRUCTIONS)
    assert set_access(owner, prop.id, access_instructions=None).json["data"][
        "access_instructions_set"] is False


def test_another_accounts_property_is_404(outsider, make_property):
    prop = make_property("GR")
    refused = set_access(outsider, prop.id, status=404, access_instructions=INSTRUCTIONS)
    assert refused.json["error"]["code"] == "NOT_FOUND"
    assert Property.get_by_id(prop.id).access_instructions_sealed is None


def test_more_than_2000_characters_is_400(owner, make_property):
    prop = make_property("GR")
    refused = set_access(owner, prop.id, status=400, access_instructions="x" * 2001).json["error"]
    assert refused["code"] == "VALIDATION_ERROR"
    assert refused["details"][0]["field"] == "access_instructions"
    set_access(owner, prop.id, access_instructions="x" * 2000)


@pytest.mark.parametrize("hours", [-1, 169, "24"])
def test_hours_outside_0_to_168_are_400(owner, make_property, hours):
    prop = make_property("GR")
    refused = set_access(owner, prop.id, status=400, access_instructions_hours_before=hours)
    assert refused.json["error"]["details"][0]["field"] == "access_instructions_hours_before"


# --- the guest page ------------------------------------------------------------------------------

def test_before_check_in_the_page_says_they_come_once_it_is_complete(guest, stay):
    page = guest.get(f"/checkin/{token_of(stay)}").text
    assert i18n.text("en", "access.after_checkin") in page
    assert "481273" not in page


def test_a_property_without_instructions_says_nothing_of_them(guest, owner, make_booking):
    booking = invited(owner, make_booking())
    assert "access instructions" not in guest.get(f"/checkin/{token_of(booking)}").text


def test_a_completed_check_in_too_early_says_when_they_appear(guest, owner, stay):
    complete(owner, stay)
    page = guest.get(f"/checkin/{token_of(stay)}").text
    day = stay.arrival_date - dt.timedelta(days=1)
    expected = (f"Your access instructions will appear here on {i18n.format_date('en', day)} "
                f"from 14:00.")
    assert expected in page
    assert "481273" not in page
    greek = guest.get(f"/checkin/{token_of(stay)}?lang=el").text
    assert f"στις {day.day}/{day.month}/{day.year} από τις 14:00" in greek


def test_a_completed_check_in_sees_them_from_the_hours_before_arrival(guest, owner, stay):
    complete(owner, stay)
    travel_to(opens_at(stay) - dt.timedelta(seconds=1))
    assert "481273" not in guest.get(f"/checkin/{token_of(stay)}").text
    clock.travel(dt.timedelta(seconds=1))
    page = guest.get(f"/checkin/{token_of(stay)}").text
    assert "How to get in" in page
    assert "Key box left of the door, code 481273.\nWi-Fi: Anemoi / sunset2027" in page


def test_a_guest_who_has_not_completed_check_in_never_sees_them(guest, stay):
    travel_to(opens_at(stay) + dt.timedelta(hours=1))
    page = guest.get(f"/checkin/{token_of(stay)}").text
    assert "481273" not in page and i18n.text("en", "access.after_checkin") in page


def test_the_instructions_are_escaped_on_the_page(guest, owner, make_property, make_booking,
                                                  frozen_clock):
    prop = make_property("GR")
    set_access(owner, prop.id, access_instructions="<b>code</b> & <script>x</script>",
               access_instructions_hours_before=168)
    booking = invited(owner, make_booking(prop=prop, arrival_in=2))
    complete(owner, booking)
    page = guest.get(f"/checkin/{token_of(booking)}").text
    assert "&lt;b&gt;code&lt;/b&gt; &amp; &lt;script&gt;" in page and "<b>code" not in page


# --- the e-mail ----------------------------------------------------------------------------------

def access_mails(smtp_server) -> list:
    return [m for m in smtp_server.messages if m["Subject"].startswith("How to get into")]


def run_periodic() -> int:
    return tasks.send_due_access_instructions.call_local()


def test_the_e_mail_goes_once_when_its_time_comes(owner, stay, smtp_server):
    complete(owner, stay)
    assert run_periodic() == 0
    travel_to(opens_at(stay) - dt.timedelta(minutes=1))
    assert run_periodic() == 0
    travel_to(opens_at(stay))
    assert run_periodic() == 1
    assert run_periodic() == 0
    clock.travel(dt.timedelta(hours=3))
    assert run_periodic() == 0
    message = smtp_server.wait(2)[-1]  # after the invitation
    assert message["To"] == "maria@example.com"
    assert message["Subject"] == "How to get into Villa Anemoi"
    plain = message.get_body(("plain",)).get_content().replace("\r\n", "\n")
    assert INSTRUCTIONS in plain and f"/checkin/{token_of(stay)}" in plain
    assert "code 481273.<br>Wi-Fi" in message.get_body(("html",)).get_content()
    assert len(access_mails(smtp_server)) == 1


def test_a_check_in_completed_inside_the_window_is_e_mailed_at_once(owner, stay, smtp_server):
    travel_to(opens_at(stay) + dt.timedelta(hours=2))
    complete(owner, stay)
    assert "481273" in smtp_server.wait(2)[-1].get_body(("plain",)).get_content()
    assert run_periodic() == 0
    assert len(access_mails(smtp_server)) == 1


def test_two_workers_at_once_send_it_once(owner, stay, smtp_server, settings):
    complete(owner, stay)
    travel_to(opens_at(stay))
    results, start = [], threading.Barrier(2)

    def worker():
        start.wait()
        results.append(access.send_if_due(settings, stay.id))
    threads = [threading.Thread(target=worker) for _ in range(2)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert sorted(results) == [False, True]
    smtp_server.wait(2)
    assert len(access_mails(smtp_server)) == 1


def test_a_transient_failure_is_tried_again_on_the_next_run(owner, stay, smtp_server):
    complete(owner, stay)
    travel_to(opens_at(stay))
    smtp_server.refuse_with = "451 4.3.0 try again later"
    assert run_periodic() == 0
    smtp_server.refuse_with = None
    assert run_periodic() == 1
    smtp_server.wait(2)
    assert len(access_mails(smtp_server)) == 1


def test_the_instructions_are_never_logged_nor_in_events(owner, stay, smtp_server, caplog):
    caplog.set_level(logging.DEBUG, logger="rentalcomply")
    complete(owner, stay)
    travel_to(opens_at(stay))
    run_periodic()
    smtp_server.wait(2)
    ours = [r.getMessage() for r in caplog.records if r.name.startswith("rentalcomply")]
    assert ours and not [line for line in ours if "481273" in line]
    assert not [e for e in Event.select() if "481273" in str(e.data)]
