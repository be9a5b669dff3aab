"""The command line: `bookings tax-collected` and `taxes rules`."""

from __future__ import annotations

from rentalcomply.bookings import service as bookings
from rentalcomply.bookings.fees import FeeRates
from rentalcomply.core.db import atomic, close_database
from rentalcomply.core.models import Account
from rentalcomply.properties import service as properties
from rentalcomply.taxes import service as taxes
from tests.cli.conftest import cli  # noqa: F401 (the fixture)
from tests.cli.test_commands import open_data_dir

ACC = "Demo Agency"


def test_a_stays_tax_is_marked_collected_once(cli):  # noqa: F811 (the fixture)
    cli("demo")
    settings = open_data_dir(cli)
    account = Account.get(Account.name == ACC)
    with atomic():
        prop = properties.create_property(account.id, name="Casa Alfama", address="Lisboa",
                                          country="PT", timezone="Europe/Lisbon")
        taxes.set_property_rules(account.id, prop, ["pt-lisboa"])
        booking = bookings.create_booking(account.id, rates=FeeRates.from_settings(settings),
                                          property_id=prop.id, guest_name="Ana",
                                          arrival_date="2026-07-01", departure_date="2026-07-03",
                                          guest_count=2)
    close_database()
    done = cli.json("bookings", "tax-collected", booking.id, "--account", ACC, "--method", "card")
    assert (done["status"], done["amount"], done["collected"]["method"]) == ("collected", 16.0,
                                                                            "card")
    again = cli("bookings", "tax-collected", booking.id, "--account", ACC, "--method", "cash",
                expect=1)
    assert "already collected" in again.output
    assert cli("bookings", "tax-collected", booking.id, "--account", ACC, "--method", "gold",
               expect=2)
    listed = cli.json("taxes", "rules", "--account", ACC)["data"]
    assert "pt-lisboa" in [s["id"] for s in listed]
    assert "pt-lisboa" in cli("taxes", "rules", "--account", ACC).output
