"""An access-instructions e-mail that did not go is said where the host looks: on the booking's
page and in Today's "Needs a person" (and so in the morning e-mail), not only in the log; it goes
away once one is delivered."""

from __future__ import annotations

from rentalcomply.checkin import access
from rentalcomply.dashboard import service
from tests.checkin.test_access import complete, opens_at, run_periodic, stay, travel_to  # noqa: F401
from tests.dashboard.conftest import browser_for  # noqa: F401 - the fixture


def test_a_mail_server_failing_is_shown_on_the_booking_and_today_until_one_goes(
        owner, stay, smtp_server, browser_for, account_a):  # noqa: F811
    complete(owner, stay)
    travel_to(opens_at(stay))
    anna = browser_for(account_a)  # signed in on the day
    smtp_server.refuse_with = "451 4.3.0 try again later"
    assert run_periodic() == 0
    problem = access.delivery_problem(stay)
    assert problem["problem"] == access.MAIL_FAILING
    page = anna.get(f"/dashboard/bookings/{stay.id}", status=200)
    notice = page.html.find(id="access-mail-problem").get_text(" ", strip=True)
    assert "did not reach the guest" in notice and "tried again on its own" in notice
    assert "451" not in notice  # the server's code stays in the log
    today = anna.get("/dashboard/today")
    assert "Access instructions that did not reach the guest" in today.text
    assert [b.id for b, _ in service.today(account_a).access_failed] == [stay.id]
    greek = anna.get(f"/dashboard/bookings/{stay.id}?lang=el")
    assert "Το e-mail με τις οδηγίες πρόσβασης δεν έφτασε" in greek.text
    smtp_server.refuse_with = None
    assert run_periodic() == 1  # tried again, delivered: nothing left to say
    assert access.delivery_problem(stay) is None
    assert 'id="access-mail-problem"' not in anna.get(f"/dashboard/bookings/{stay.id}").text
    assert service.today(account_a).access_failed == []


def test_a_refused_address_is_not_tried_again_and_says_so(
        owner, stay, smtp_server, browser_for, account_a):  # noqa: F811
    complete(owner, stay)
    travel_to(opens_at(stay))
    anna = browser_for(account_a)
    smtp_server.refuse_recipient_with = "550 5.1.1 no such user"
    assert run_periodic() == 0
    assert access.delivery_problem(stay)["problem"] == access.ADDRESS_REFUSED
    smtp_server.refuse_recipient_with = None
    assert run_periodic() == 0  # a refused address is not tried again
    notice = anna.get(f"/dashboard/bookings/{stay.id}").html.find(id="access-mail-problem")
    assert "refused the guest’s address" in notice.get_text()
