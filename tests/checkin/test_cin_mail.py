"""An Italian property's CIN in the check-in e-mails, as they arrive at a real SMTP server on
loopback (aiosmtpd): the invitation in the product's words and in the host's own, and the access
instructions; under the property's name in the HTML part and beside it in the plain text."""

from __future__ import annotations

from rentalcomply.checkin import mail, service, templates
from rentalcomply.core.models import Property

CIN = "IT058091C2ABCDEFGH"


def _parts(message) -> tuple[str, str]:
    return (message.get_body(("plain",)).get_content().replace("\r\n", "\n"),
            message.get_body(("html",)).get_content())


def test_the_invitation_of_an_italian_property_carries_its_cin(settings, account_a, make_property,
                                                               make_booking, smtp_server):
    booking = make_booking(prop=make_property("IT", cin=CIN), arrival_in=5, guest_language="it")
    service.resend(account_a, booking.id, "https://stay.example.org")
    [message] = smtp_server.wait(1)
    plain, html = _parts(message)
    assert plain.rstrip().endswith(f"Casa Limone\nCIN {CIN}")
    assert html.index("Casa Limone") < html.index(f"CIN {CIN}")


def test_the_hosts_own_invitation_text_gets_the_cin_after_it(settings, account_a, make_property,
                                                             make_booking, smtp_server):
    templates.save(account_a, "invitation", "en", "Check in for {property}",
                   "Dear {guest_name},\n\nplease check in here:\n\n{link}")
    booking = make_booking(prop=make_property("IT", cin=CIN), arrival_in=5)
    service.resend(account_a, booking.id, "https://stay.example.org")
    [message] = smtp_server.wait(1)
    plain, html = _parts(message)
    assert plain.rstrip().endswith(f"\n\nCIN {CIN}")
    assert f"CIN {CIN}" in html


def test_the_access_instructions_e_mail_carries_the_cin(settings, make_property, make_booking,
                                                        smtp_server):
    prop = make_property("IT", cin=CIN)
    booking = make_booking(prop=prop, arrival_in=1)
    message = mail.compose_access(settings, booking, Property.get_by_id(prop.id),
                                  "Key box left of the door, code 481273.",
                                  "https://stay.example.org/checkin/x")
    mail.deliver(settings, message, booking.account_id)
    [arrived] = smtp_server.wait(1)
    plain, html = _parts(arrived)
    assert f"CIN {CIN}" in plain and f"CIN {CIN}" in html


def test_a_property_without_a_cin_or_outside_italy_sends_none(settings, account_a, make_property,
                                                              make_booking, smtp_server):
    service.resend(account_a, make_booking(prop=make_property("IT"), arrival_in=5).id,
                   "https://stay.example.org")
    greek = make_property("GR")
    Property.update(cin=CIN).where(Property.id == greek.id).execute()  # around the service's rule
    service.resend(account_a, make_booking(prop=greek, arrival_in=5).id,
                   "https://stay.example.org")
    for message in smtp_server.wait(2):
        plain, html = _parts(message)
        assert "CIN" not in plain and "CIN" not in html
