"""rentalcomply checkin invite."""

from tests.cli.conftest import cli  # noqa: F401 - fixture


def test_checkin_invite_prints_the_link_and_refuses_without_an_e_mail(cli):  # noqa: F811
    account = cli.json("accounts", "create", "Agency")
    prop = cli.json("properties", "create", "--account", account["id"], "--name", "Villa",
                    "--address", "Oia")
    from rentalcomply.bookings import service as bookings
    from rentalcomply.bookings.fees import FeeRates
    from rentalcomply.config import load_settings
    from rentalcomply.core import clock
    from rentalcomply.core.db import close_database
    from rentalcomply.runtime import bootstrap
    import datetime as dt
    settings = bootstrap(load_settings(data_dir=cli.data_dir, env=cli.env))
    day = clock.today() + dt.timedelta(days=20)
    with_mail = bookings.create_booking(account["id"], rates=FeeRates.from_settings(settings),
                                        property_id=prop["id"], guest_name="Ann", guest_count=1,
                                        arrival_date=day, departure_date=day + dt.timedelta(days=2),
                                        guest_email="ann@example.org")
    without = bookings.create_booking(account["id"], rates=FeeRates.from_settings(settings),
                                      property_id=prop["id"], guest_name="Bob", guest_count=1,
                                      arrival_date=day + dt.timedelta(days=5),
                                      departure_date=day + dt.timedelta(days=7))
    close_database()
    unreachable = cli("checkin", "invite", "--account", account["id"], with_mail.id,
                      env={"RENTALCOMPLY_SMTP_PORT": "1"}, expect=1)
    assert "cannot reach the mail server" in unreachable.stderr
    invitation = cli.json("checkin", "invite", "--account", account["id"], with_mail.id)
    assert invitation["sent_to"] == "a***@example.org"
    assert invitation["checkin_status"] == "INVITED"
    assert "/checkin/" in invitation["checkin_url"]
    refused = cli("checkin", "invite", "--account", account["id"], without.id, expect=1)
    assert "GUEST_CONTACT_MISSING" in refused.stderr or "guest_email" in refused.stderr
    assert "Traceback" not in refused.output
