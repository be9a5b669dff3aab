"""The messages a host owns: an edited text is what the guest receives (its placeholders filled,
the HTML escaped), a preview shows it with sample values, a reset brings back the default, and
an unknown placeholder, a format spec, a conversion, an attribute or an index is refused with a
clear message; a text saved before these rules is not used, and the guest gets the default."""

from __future__ import annotations

import pytest

from rentalcomply.accounts import mail_settings
from rentalcomply.checkin import service, templates
from rentalcomply.checkin.models import MessageTemplate
from rentalcomply.core import clock
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
                            {"instructions": "481273"})[1] == "{Hinweis} 481273"
    with pytest.raises(NotFound):
        templates.save(account_a, "welcome", "en", "x", "y")
    with pytest.raises(NotFound):
        templates.current(account_a, "invitation", "xx")


@pytest.mark.parametrize("text, says", [
    ("Hi {guest_name:>400000000} {host_name:>400000000}", "is not a plain placeholder"),
    ("Hello {guest_name:d}", "{guest_name:d} is not a plain placeholder"),
    ("Hello {guest_name!r}", "{guest_name!r} is not a plain placeholder"),
    ("Hello {guest_name!s:>9}", "is not a plain placeholder"),
    ("Hello {guest_name:{host_name}}", "is not a plain placeholder"),
    ("Hello {guest_name.__class__}", "without '.' or '[]'"),
    ("Hello {guest_name[0]}", "without '.' or '[]'"),
    ("Hello {link.__class__.__init__.__globals__}", "without '.' or '[]'"),
    ("x" * (templates.BODY_MAX + 1), f"at most {templates.BODY_MAX} characters"),
])
def test_a_format_spec_conversion_attribute_index_or_length_is_refused(settings, account_a, text,
                                                                       says):
    for action in (templates.save, templates.preview):
        args = (account_a, "invitation", "en") if action is templates.save else ("invitation", "en")
        with pytest.raises(ValidationError) as refused:
            action(*args, "Subject", text)
        assert refused.value.code == "VALIDATION_ERROR"
        [detail] = refused.value.details
        assert detail["field"] == "body" and says in detail["message"]
    assert templates.current(account_a, "invitation", "en")[2] is False


@pytest.mark.parametrize("subject, body", [
    ("Hi {guest_name}", "Hello {guest_name:d}\n\n{link}"),
    ("Hi {guest_name:>400000000}", "{link}"),
    ("Hi", "Hello {guest_name.__class__} {link}"),
    ("Hi {", "{link}"),
])
def test_a_resend_with_a_bad_stored_template_sends_the_default(owner, account_a, make_booking,
                                                                smtp_server, subject, body):
    # Written to the database directly: as a text saved before the rules would be.
    MessageTemplate.insert(account=account_a, kind="invitation", lang="en", subject=subject,
                           body=body, updated_at=clock.utcnow()).execute()
    assert templates.current(account_a, "invitation", "en") == (subject, body, True)
    assert templates.problems("invitation", subject, body)
    assert templates.own_template(account_a, "invitation", "en") is None
    booking = make_booking(arrival_in=5)
    answer = owner.post_json("/api/v1/checkins/resend", {"booking_id": booking.id}, status=202)
    assert answer.json["data"]["checkin_status"] == "INVITED"
    [message] = smtp_server.wait(1)
    assert message["Subject"].startswith("Online check-in for Villa Anemoi")


def test_filling_never_obeys_a_spec_even_if_asked_directly():
    with pytest.raises(templates.TemplateBroken):
        templates.render("en", "x", "{guest_name:>400000000}", {"guest_name": "Maria"})
    with pytest.raises(templates.TemplateBroken):
        templates.render("en", "x", "{guest_name!r}", {"guest_name": "Maria"})
    assert templates.render("en", "{guest_name}", "{{x}} {guest_name}",
                            {"guest_name": "{host_name}"}) == ("{host_name}", "{x} {host_name}")
