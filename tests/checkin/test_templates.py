"""The messages a host owns: an edited text is what the guest receives (its placeholders filled,
the HTML escaped), a preview shows it with sample values, a reset brings back the default, and
an unknown placeholder is refused with a clear message."""

from __future__ import annotations

import pytest

from rentalcomply.accounts import mail_settings
from rentalcomply.checkin import service, templates
from rentalcomply.core.errors import NotFound, ValidationError

OWN_BODY = ("Dear {guest_name},\n\nplease check in for {property} ({arrival} – {departure}) here:"
            "\n\n{link}\n\nQuestions? Call {host_name} on {host_phone}.")


def test_an_edited_invitation_is_what_the_guest_receives(settings, account_a, make_booking,
                                                         smtp_server):
    mail_settings.save_contact(account_a, name="Eleni <Markou>", phone="+30 694 123 4567",
                               email="eleni@example.com")
    templates.save(account_a, "invitation", "en", "Check in for {property}, {guest_name}",
                   OWN_BODY)
    booking = make_booking(arrival_in=5, guest_name="Maria & Co")
    service.resend(account_a, booking.id, "https://stay.example.org")
    [message] = smtp_server.wait(1)
    assert message["Subject"] == "Check in for Villa Anemoi, Maria & Co"
    plain = message.get_body(("plain",)).get_content().replace("\r\n", "\n")
    assert plain.startswith("Dear Maria & Co,\n\nplease check in for Villa Anemoi (")
    assert "Questions? Call Eleni <Markou> on +30 694 123 4567." in plain
    assert service.link("https://stay.example.org", booking.id) in plain
    html = message.get_body(("html",)).get_content()
    assert "Dear Maria &amp; Co," in html and "Eleni &lt;Markou&gt;" in html
    assert "Start check-in" in html  # the link's paragraph is a button
    assert message["Reply-To"] == '"Eleni <Markou>" <eleni@example.com>'


def test_another_language_keeps_the_default_and_a_reset_brings_it_back(
        settings, account_a, make_booking, smtp_server):
    templates.save(account_a, "invitation", "en", "Ours", OWN_BODY)
    greek = make_booking(arrival_in=5, guest_language="el")
    service.resend(account_a, greek.id, "https://stay.example.org")
    assert smtp_server.wait(1)[0]["Subject"].startswith("Ηλεκτρονικό check-in για Villa Anemoi")
    templates.reset(account_a, "invitation", "en")
    assert templates.current(account_a, "invitation", "en") == (
        *templates.default("invitation", "en"), False)
    english = make_booking(arrival_in=6)
    service.resend(account_a, english.id, "https://stay.example.org")
    assert smtp_server.wait(2)[1]["Subject"].startswith("Online check-in for Villa Anemoi")


def test_the_default_text_names_its_placeholders_and_previews_with_sample_values():
    subject, body = templates.default("reminder", "en")
    assert subject == "Reminder: online check-in for {property}, {arrival}"
    assert body.startswith("Hello {guest_name},") and "{link}" in body
    shown_subject, shown_body = templates.preview("reminder", "en", subject, body)
    assert shown_subject == "Reminder: online check-in for Villa Anemoi, 10 Jun 2030"
    assert shown_body.startswith("Hello Maria Papadopoulou,")
    assert "{" not in shown_body


@pytest.mark.parametrize("text, says", [
    ("Hello {name}", "{name} is not a placeholder of this message; the placeholders are "
                     "{guest_name}, {property}"),
    ("Hello {guest_name", "has a brace that opens no placeholder"),
    ("Hello {}", "{} is not a placeholder of this message"),
    ("Code: {instructions}", "{instructions} is not a placeholder of this message"),
])
def test_an_unknown_placeholder_is_refused_with_a_clear_message(settings, account_a, text, says):
    with pytest.raises(ValidationError) as refused:
        templates.save(account_a, "invitation", "en", "Subject", text)
    assert says in str(refused.value)
    assert templates.current(account_a, "invitation", "en")[2] is False


def test_doubled_braces_are_text_and_unknown_kinds_or_languages_do_not_exist(settings, account_a):
    templates.save(account_a, "access", "de", "Zugang", "{{Hinweis}} {instructions}")
    assert templates.render("de", "x", "{{Hinweis}} {instructions}",
                            {"instructions": "4812"})[1] == "{Hinweis} 4812"
    with pytest.raises(NotFound):
        templates.save(account_a, "welcome", "en", "x", "y")
    with pytest.raises(NotFound):
        templates.current(account_a, "invitation", "xx")
