"""The host's side of scanning: keeping document images turned on and off by the owner, and a
booking's page and Today naming the documents read as expired or expiring before departure."""

import datetime as dt

from rentalcomply.checkin import service as checkin
from rentalcomply.core import clock
from rentalcomply.core.activity import Activity
from rentalcomply.dashboard import i18n, morning, service
from rentalcomply.scan import keeping
from tests.dashboard.conftest import anna, browser_for  # noqa: F401
from tests.scan.conftest import document_photo, needs_scanner, passport_values


def test_the_owner_turns_keeping_document_images_on_and_off(anna, account_a):  # noqa: F811
    page = anna.get("/dashboard/settings/account")
    assert "Keep document images" in page.text and "Spanish properties" in page.text
    assert 'name="keep_document_images" value="on" checked' not in page.text
    done = anna.post("/dashboard/settings/account/document-images",
                     {"csrf": anna.csrf(page), "keep_document_images": "on"}, status=303)
    assert "done=document_images_on" in done.location
    assert keeping.keeps_images(account_a)
    assert Activity.get(Activity.action == "account.document_images_on")
    page = anna.get(done.location)
    assert 'name="keep_document_images" value="on" checked' in page.text
    anna.post("/dashboard/settings/account/document-images", {"csrf": anna.csrf(page)},
              status=303)
    assert not keeping.keeps_images(account_a)


def test_the_account_page_is_in_greek_too(anna):  # noqa: F811
    page = anna.get("/dashboard/settings/account?lang=el")
    assert "Φύλαξη εικόνων εγγράφων" in page.text


@needs_scanner
def test_an_expired_passport_is_flagged_on_the_booking_page(anna, make_booking, guest_page):  # noqa: F811
    booking = make_booking("GR", guest_count=2)
    path = "/checkin/" + checkin.token_for(booking.id)
    expired_on = clock.today() - dt.timedelta(days=10)
    expired = passport_values(expiry=expired_on)
    guest_page.post(f"{path}/scan/1?lang=en", {},
                    upload_files=[("scan-1", "d.png", document_photo(expired))],
                    headers={"Accept": "application/json"})
    page = anna.get(f"/dashboard/bookings/{booking.id}")
    assert "Guest 2: the scanned document expired on" in page.text
    today = anna.get("/dashboard/today")  # and in what needs a person, in Greek too
    assert "Documents expired or expiring before departure" in today.text
    assert "Guest 2: the scanned document expired on" in today.text
    assert "Έγγραφα που έληξαν ή λήγουν πριν από την αναχώρηση" in anna.get(
        "/dashboard/today?lang=el").text
    sections = dict(morning.lines(service.today(booking.account_id), "en", i18n.Formatter("en"),
                                  "http://rc.example/dashboard"))  # the morning e-mail's list
    [line] = sections["Documents expired or expiring before departure"]
    assert line.details.endswith("the scanned document expired on "
                                 + i18n.Formatter("en").date(expired_on) + ".")
