"""rentalcomply checkin invite."""

from tests.cli.conftest import cli  # noqa: F401 - fixture


def test_checkin_invite_prints_the_link_whether_or_not_the_e_mail_goes(cli, mail_server):  # noqa: F811
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
    assert "E-mail NOT sent" in unreachable.stderr
    assert "/checkin/" in unreachable.stdout  # the link all the same
    invitation = cli.json("checkin", "invite", "--account", account["id"], with_mail.id)
    assert invitation["sent_to"] == "a***@example.org"
    assert invitation["email"] == "sent"
    assert invitation["checkin_status"] == "INVITED"
    assert "/checkin/" in invitation["checkin_url"]
    no_address = cli("checkin", "invite", "--account", account["id"], without.id)
    assert "/checkin/" in no_address.stdout
    assert "No guest e-mail address" in no_address.stdout
    assert "Traceback" not in no_address.output
    mail_server.refuse_recipient_with = "550 5.1.1 <ann@example.org>: no such user"
    try:
        refused = cli("checkin", "invite", "--account", account["id"], with_mail.id, expect=1)
    finally:
        mail_server.refuse_recipient_with = None
    assert "E-mail NOT sent to a***@example.org" in refused.stderr
    assert invitation["checkin_url"] in refused.stdout
    shared = cli("checkin", "shared", "--account", account["id"], without.id)
    assert "INVITED" in shared.stdout


def test_checkin_invite_e_mails_the_address_the_guest_typed_when_the_booking_has_none(
        cli, mail_server):  # noqa: F811
    account = cli.json("accounts", "create", "Agency")
    prop = cli.json("properties", "create", "--account", account["id"], "--name", "Villa",
                    "--address", "Oia")
    import datetime as dt

    from rentalcomply.bookings import service as bookings
    from rentalcomply.bookings.fees import FeeRates
    from rentalcomply.checkin import service
    from rentalcomply.config import load_settings
    from rentalcomply.core import clock
    from rentalcomply.core.db import close_database
    from rentalcomply.runtime import bootstrap
    settings = bootstrap(load_settings(data_dir=cli.data_dir, env=cli.env))
    day = clock.today() + dt.timedelta(days=20)
    booking = bookings.create_booking(account["id"], rates=FeeRates.from_settings(settings),
                                      property_id=prop["id"], guest_name="Bob", guest_count=1,
                                      arrival_date=day, departure_date=day + dt.timedelta(days=2))
    # The guest opened the link the host shared, typed an address and stopped there.
    service.save_progress(booking, service._checkin_row(booking),
                          [{"first_name": "Bob", "email": "bob.typed@example.net"}],
                          consent=False, lang="en")
    close_database()
    arrived = len(mail_server.messages)
    invitation = cli.json("checkin", "invite", "--account", account["id"], booking.id)
    assert invitation["email"] == "sent" and invitation["sent_to"] == "b***@example.net"
    [message] = mail_server.wait(arrived + 1)[arrived:]
    assert message["To"] == "bob.typed@example.net"
