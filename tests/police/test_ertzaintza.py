"""The Basque Country: until the Ertzaintza's web service is confirmed, a Basque property's
registration is held with the reason in words (nothing sent, no format guessed) and the host
marks it filed after typing the party into the Ertzaintza's portal."""
import datetime as dt

import pytest

from rentalcomply.authorities.ertzaintza import HAND_ENTRY
from rentalcomply.bookings import service as bookings
from rentalcomply.bookings.fees import FeeRates
from rentalcomply.core import clock
from rentalcomply.core.models import Booking, Event, Property
from rentalcomply.filings import engine, sweep
from rentalcomply.properties import service as properties
from tests.conftest import bootstrapped_settings
from tests.police.test_ses_siba_filing import SPANISH_FAMILY


@pytest.fixture
def settings(tmp_path):
    with bootstrapped_settings(tmp_path) as settings:
        yield settings


def basque_booking(owner, account_a, settings):
    prop = properties.create_property(owner.account_id, name="Etxea", address="Kalea 1",
                                      country="ES", timezone="Europe/Madrid", max_guests=4)
    Property.update(region="ES-PV").where(Property.id == prop.id).execute()
    owner.patch_json(f"/api/v1/properties/{prop.id}", {"police_connector": "ertzaintza"})
    booking = bookings.create_booking(
        account_a, rates=FeeRates.from_settings(settings), property_id=prop.id,
        guest_name="Núñez, José", guest_email="jose@example.es", arrival_date=clock.today(),
        departure_date=clock.today() + dt.timedelta(days=2), guest_count=2)
    owner.put_json(f"/api/v1/bookings/{booking.id}/guests", {"guests": SPANISH_FAMILY})
    sweep.run_due()
    return booking


def test_a_basque_filing_is_held_in_words_and_marked_filed_through_the_api(owner, account_a,
                                                                           settings):
    booking = basque_booking(owner, account_a, settings)
    police = owner.get(f"/api/v1/bookings/{booking.id}/police").json["data"]
    (arrival,) = police["filings"]
    assert (arrival["connector"], arrival["status"]) == ("ertzaintza", "held")
    assert arrival["error"] == HAND_ENTRY and "file these guests in the Ertzaintza's portal" in HAND_ENTRY
    assert police["report_status"] == "QUEUED" and police["report_error"] == HAND_ENTRY
    assert not arrival["file_ready"]
    # Tables loaded (which releases held filings) or another run: held again, never sent.
    engine.release_held()
    sweep.run_due()
    assert owner.get(f"/api/v1/bookings/{booking.id}/police").json["data"]["filings"][0][
        "status"] == "held"
    done = owner.post_json(f"/api/v1/bookings/{booking.id}/police/filed",
                           {"reference": "ERTZ-77"}).json["data"]
    assert done["report_status"] == "SUBMITTED"
    assert done["filings"][0]["status"] == "submitted" and done["filings"][0]["reference"] == "ERTZ-77"
    assert Booking.get_by_id(booking.id).report_status == "SUBMITTED"
    assert [e.type for e in Event.select() if e.type.startswith("police.")] == ["police.submitted"]
    owner.post(f"/api/v1/bookings/{booking.id}/police/filed", status=409)


def test_a_basque_property_is_refused_ses_and_the_file_connector(owner, settings):
    prop = properties.create_property(owner.account_id, name="Etxea", address="Kalea 1",
                                      country="ES", timezone="Europe/Madrid")
    Property.update(region="ES-PV").where(Property.id == prop.id).execute()
    for connector in ("ses_hospedajes", "file", "mossos"):
        owner.patch_json(f"/api/v1/properties/{prop.id}", {"police_connector": connector},
                         status=400)
    owner.patch_json(f"/api/v1/properties/{prop.id}", {"police_connector": "ertzaintza"})
