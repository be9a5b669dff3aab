"""A stored technical problem is said on a page as a sentence with what to do, in English and
Greek; a problem of no known kind gets a general sentence, never its own text."""

from __future__ import annotations

import pytest

from rentalcomply.dashboard import i18n, problems


@pytest.mark.parametrize("reason, sentence", [
    ("cannot reach the mail server 127.0.0.1:17025 (ConnectionRefusedError)",
     problems.MAIL_UNREACHABLE),
    ("the mail server mail.example.org:587 did not finish within 10 s (smtp.timeout_seconds)",
     problems.MAIL_SLOW),
    ("the mail server refused the SMTP login (535)", problems.MAIL_LOGIN),
    ("the mail server refused the guest's address (550)", problems.MAIL_GUEST_ADDRESS),
    ("the mail server answered 554", problems.MAIL_REFUSED),
])
def test_each_mail_failure_is_a_sentence_that_says_what_to_do(reason, sentence):
    assert problems.mail(reason) == sentence
    assert "Account → E-mail" in sentence or "booking" in sentence


@pytest.mark.parametrize("reason, sentence", [
    ("the feed answered HTTP 404", problems.FEED_NOT_FOUND),
    ("the feed answered HTTP 403", problems.FEED_REFUSED),
    ("the feed answered HTTP 503", problems.FEED_CHANNEL_DOWN),
    ("cannot connect to 203.0.113.9 port 443: Connection refused", problems.FEED_UNREACHABLE),
    ("the peer did not answer within 20 s", problems.FEED_UNREACHABLE),
    ("the feed is larger than sync.max_bytes (5000000 bytes)", problems.FEED_TOO_LARGE),
    ("the feed is not an iCalendar file (it does not start with BEGIN:VCALENDAR)",
     problems.FEED_UNREADABLE),
])
def test_each_feed_failure_is_a_sentence(reason, sentence):
    assert problems.feed(reason) == sentence


@pytest.mark.parametrize("error, sentence", [
    ("HTTP 503", problems.WEBHOOK_ANSWERED),
    ("HTTP 500 (gave up after 8 attempts)", problems.WEBHOOK_GAVE_UP),
    ("the peer did not answer within 10 s", problems.WEBHOOK_TIMEOUT),
    ("cannot connect to 127.0.0.1 port 9: Connection refused", problems.WEBHOOK_UNREACHABLE),
    ("The endpoint was disabled: too many failures", problems.WEBHOOK_DISABLED),
    ("Cannot sign: the endpoint's secret cannot be unsealed.", problems.WEBHOOK_SECRET),
])
def test_each_webhook_failure_is_a_sentence(error, sentence):
    assert problems.webhook(error) == sentence


def test_an_unknown_problem_gets_a_general_sentence_never_its_own_text():
    raw = "KeyError: 'smtp_host' in /srv/rentalcomply/core/mailer.py line 12"
    for said, general in ((problems.mail(raw), problems.MAIL_OTHER),
                          (problems.feed(raw), problems.FEED_OTHER),
                          (problems.webhook(raw), problems.WEBHOOK_OTHER),
                          (problems.report(raw), problems.REPORT_FAILED)):
        assert said == general and "KeyError" not in said and "mailer.py" not in said


def test_no_problem_is_no_sentence():
    assert problems.mail(None) is problems.feed("") is problems.webhook(None) is None
    assert problems.booking_mail_problem(None) is None


def test_a_bookings_stored_mail_problem_gives_its_time_and_its_sentence():
    at, sentence = problems.booking_mail_problem(
        "2027-03-12T08:15:00Z: cannot reach the mail server 127.0.0.1:17025 "
        "(ConnectionRefusedError)")
    assert (at.year, at.month, at.day, at.hour) == (2027, 3, 12, 8)
    assert sentence == problems.MAIL_UNREACHABLE


def test_every_sentence_has_its_greek():
    for sentence in problems.SENTENCES:
        greek = i18n.translate("el", sentence)
        assert greek != sentence and any("α" <= c <= "ω" for c in greek), sentence


def test_why_the_check_in_link_was_not_e_mailed_is_said_in_words():
    from rentalcomply.core.errors import ApiError

    class Refused(ApiError):
        status, code = 502, "MAIL_NOT_SENT"

    def english(text, **values):
        return i18n.translate("en", text, **values)

    said = problems.resend_problem(Refused("The check-in e-mail was not sent: cannot reach the "
                                           "mail server 127.0.0.1:25 (OSError).", details=[{
                                               "field": "smtp", "message": "cannot reach the "
                                               "mail server 127.0.0.1:25 (OSError)"}]), english)
    assert said == "The check-in e-mail was not sent. " + problems.MAIL_UNREACHABLE

    class Missing(ApiError):
        status, code = 422, "GUEST_CONTACT_MISSING"
    greek = problems.resend_problem(Missing("The booking has no guest_email; add one with PATCH "
                                            "/bookings/{id} first."),
                                    lambda text, **v: i18n.translate("el", text, **v))
    assert "PATCH" not in greek and "«Επεξεργασία της κράτησης»" in greek


def test_why_an_endpoint_was_disabled_is_a_sentence():
    assert problems.webhook_disabled(
        "The receiver answered 410 Gone on 2027-03-12T08:00:00Z.") == problems.ENDPOINT_GONE
    assert problems.webhook_disabled(
        "Every delivery attempt failed for 3 days; the last one on 2027-03-12T08:00:00Z: HTTP 500"
    ) == problems.ENDPOINT_FAILED_FOR_DAYS
    assert problems.webhook_disabled("Disabled through the API.") == problems.ENDPOINT_DISABLED
    assert problems.webhook_disabled(None) is None
