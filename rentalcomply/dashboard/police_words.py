"""What the dashboard and its e-mails say of police filings: a filing's kind and status in words,
and its reason as the key of a sentence saying what to do (the catalogue rentalcomply/locale/
holds the sentences in each language). The raw reason stays in the API and the log."""

from __future__ import annotations

from rentalcomply.checkin import service as checkin
from rentalcomply.core import clock
from rentalcomply.filings import registry, setup, standing

# How a filing's kind is named on a page.
KIND_WORDS = {"arrival": "Guests’ registration", "departure": "Departure (Portugal)",
              "reservation": "Reservation (Spain)", "cancellation": "Cancellation",
              "rh_cancellation": "Cancellation of the reservation"}
# A filing's status in words; "held" says why in its reason.
STATUS_WORDS = {"waiting": "Waiting for check-in", "queued": "Being filed",
                "sending": "Being filed", "polling": "Sent, awaiting the answer",
                "ready": "File ready to upload", "submitted": "Filed",
                "rejected": "Refused by the authority", "failed": "Not filed",
                "held": "Held", "waiting_holder": "Waiting for its holder"}
UNREACHABLE_WORDS = ("unreachable", "cannot be reached", "did not answer", "cannot connect",
                     "timed out", "answered http", "soap fault", "not soap")


def reason_words(status: str, error: str | None) -> str | None:
    """A filing's reason as the English key of a sentence saying what to do (translated by the
    page); the raw text is for the log and the API only."""
    if not error:
        return None
    text = error.lower()
    if error in {a.hand_entry_reason for a in registry.authorities() if a.hand_entry_reason}:
        return "hold:hand_entry"  # filed by hand in the authority's portal (the Ertzaintza)
    if status == "held":
        return ("hold:setup" if setup.is_setup_hold(error) else "hold:codes")
    if text.startswith(setup.REFUSED_CREDENTIALS):
        return "why:credentials_refused"
    if "interrupted" in text:
        return "why:interrupted"
    if "cancelled before filing" in text:
        return "why:cancelled"
    if status == "rejected":
        return "why:rejected"
    if any(word in text for word in UNREACHABLE_WORDS):
        return "why:unreachable" if status != "failed" else "why:unreachable_failed"
    if status in ("failed", "queued"):
        return "why:failed" if status == "failed" else "why:retrying"
    return None


# A booking's report status, as the status of the filing its reason belongs to.
REPORT_TO_FILING = {"QUEUED": "queued", "HELD": "held", "REJECTED": "rejected",
                    "FAILED": "failed", "AT_RISK": "queued"}


def booking_reason(translate, booking) -> str:
    """Why a booking's filing needs a person, as a sentence in the reader's language (Today, the
    morning e-mail); `translate` is the page's or the e-mail's `_`."""
    error = booking.report_error
    if not error:
        return ""
    status = REPORT_TO_FILING.get(booking.report_status, "failed")
    if setup.is_setup_hold(error) or error.startswith("held:"):
        status = "held"
    key = reason_words(status, error)
    return translate(key) if key else ""


# --- deadlines a person must see to (filings/standing.py) ----------------------------------------

UNFILED_HEADING = "Police deadlines: guests not registered"
NOT_CHECKED_IN_ADVICE = ("Nothing can be filed until the guests check in: send them the link again, "
                       "or enter the party by hand from their documents.")
HOLDER_ADVICE = {
    "holder_unknown": "Its holder is not known: write the booker’s name as “Surname(s), First "
                      "name(s)” with “Edit the booking”, or have the guests check in.",
    "holder_unreachable": "Its holder has no phone or e-mail: add one with “Edit the booking”, "
                          "or have the guests check in.",
}


def unfiled_sentence(t, fmt, item) -> str:
    """What is late or near, in words: who, when they arrive(d), the deadline in the property's
    time ("Hannah Müller arrived on … and is not registered: the deadline was …")."""
    when = fmt.datetime(item.deadline, item.timezone)
    booking = item.booking
    if item.why == "not_checked_in":
        if item.passed:
            text = "{guest} arrived on {date} and is not registered: the deadline was {deadline}."
        elif standing.arrival_day(booking) <= fmt.today():
            text = "{guest} arrived on {date} and is not registered yet: the deadline is {deadline}."
        else:
            text = "{guest} arrives on {date} and is not registered yet: the deadline is {deadline}."
        return t(text, guest=booking.guest_name, date=fmt.date(booking.arrival_date),
                 deadline=when)
    text = ("The reservation booked by {guest} is not communicated to {authority}: the deadline "
            "was {deadline}." if item.passed else
            "The reservation booked by {guest} is not communicated to {authority} yet: the "
            "deadline is {deadline}.")
    return t(text, guest=booking.guest_name, deadline=when,
             authority=standing.authority_title(booking.property.country) or "SES.Hospedajes")


LINK_EXPIRED_ADVICE = ("The stay is over and its check-in link has expired: register the guests "
                     "by hand on the authority’s site.")


def link_expired(booking) -> bool:
    """Whether the booking's check-in link no longer opens (the stay is over): then neither
    sending it again nor entering the party through it is an action to offer."""
    return booking.checkin_status == "EXPIRED" or clock.utcnow() >= checkin.expires_at(booking)


def unfiled_todo(t, item) -> str:
    """What to do about it, in a sentence (the page and the e-mail link the actions)."""
    if item.why == "not_checked_in":
        return t(LINK_EXPIRED_ADVICE if link_expired(item.booking) else NOT_CHECKED_IN_ADVICE)
    return t(HOLDER_ADVICE.get(item.why, HOLDER_ADVICE["holder_unknown"]))


def send_words(booking) -> str:
    """The e-mail button's words, as the booking's Guests section says them."""
    return ("E-mail the link to the guest" if booking.checkin_status == "NOT_STARTED"
            else "Send the link again")


def unfiled_actions(item, booking_url: str) -> list[tuple[str, str]]:
    """(words, address) of each action, on the booking's page: send the link again (#send-link;
    without an address, the link to share, #checkin-link-card), enter the party by hand
    (#enter-party); a reservation's holder is also named by editing the booking."""
    booking = item.booking
    actions = []
    if item.why != "not_checked_in":
        actions.append(("Edit the booking", f"{booking_url}/edit"))
    if link_expired(booking):
        return actions
    if booking.guest_email:
        actions.append((send_words(booking), f"{booking_url}#send-link"))
    else:
        actions.append(("Share the check-in link", f"{booking_url}#checkin-link-card"))
    actions.append(("Enter the party by hand", f"{booking_url}#enter-party"))
    return actions


# --- what holds a filing, named ------------------------------------------------------------------

HELD_CODES_ADVICE = ("Nothing was sent. Load the authority’s current code tables (Account › Refresh "
                   "code tables), or correct the value; the filing then goes out by itself.")


def held_sentences(t, booking, reason: str | None) -> list[str]:
    """Each value that holds a filing with its guest ("Javier Ruiz's town of birth 'Dos
    Hermanas' has no code."), then what to do; [] when the reason names none (a set-up hold
    says its own sentence)."""
    values = standing.held_values(booking, reason)
    if not values:
        return []
    said = []
    for held in values:
        what = t("field:" + held.field)
        if what == "field:" + held.field:
            what = held.field.replace("_", " ")
        if held.guest:
            said.append(t("{guest}’s {what} “{value}” has no code.", guest=held.guest,
                          what=what, value=held.value or "—"))
        else:
            said.append(t("Guest {number}’s {what} “{value}” has no code.", number=held.number,
                          what=what, value=held.value or "—"))
    return said + [t(HELD_CODES_ADVICE)]


# --- what a cancellation does with the authorities, per country --------------------------------

CANCELLATION_WORDS = {
    "IT": "Alloggiati Web is not told of cancellations: guests already registered stay "
          "registered, and a registration not sent yet is not sent.",
    "ES": "What SES.Hospedajes accepted for this booking (the reservation, the guests’ "
          "registration) is cancelled there within 24 hours; nothing not sent yet is sent.",
    "PT": "SIBA is not told of cancellations: guests already registered stay registered, and a "
          "registration not sent yet is not sent.",
}
FILE_CANCELLATION = ("A police file not uploaded yet is no longer needed; one already uploaded "
                     "stays with the authority.")
AADE_AMOUNT_HINT = "Declared to AADE in the month of the cancellation. Empty: nothing."
RECORDS_AMOUNT_HINT = "Kept on the booking for your records. Empty: nothing."


def cancellation_words(prop) -> list[str]:
    """What cancelling does with the police, in English keys, for the property's country and
    connector: AADE is Greece's alone (amount_hint); the others say what happens to filings."""
    if prop.police_connector == "none":
        return []
    if prop.police_connector == "file":
        return [FILE_CANCELLATION]
    said = CANCELLATION_WORDS.get(prop.country)
    return [said] if said else []


def amount_hint(prop) -> str:
    """The amount kept's hint: declared to AADE for a Greek property, else kept for records."""
    return AADE_AMOUNT_HINT if prop.country == "GR" else RECORDS_AMOUNT_HINT


# A period filing (a month's statistics) that needs a person: Today and the morning e-mail.
PERIOD_WORDS = {
    "held": "Held, nothing sent: {reason}",
    "ready": "Its file is ready: upload it, or type the figures in, then mark it filed.",
    "rejected": "Refused: {reason}",
    "failed": "Not sent: {reason}",
}
PERIOD_OPEN_WORDS = "Not filed yet."


def period_filing_sentence(t, fmt, filing) -> str:
    """What stops a period filing and by when, in the page's language (the authority's or the
    data's reason itself as the engine words it)."""
    reason = filing.held_reason or filing.error or ""
    words = PERIOD_WORDS.get(filing.status)
    sentence = t(words, reason=reason) if words else t(PERIOD_OPEN_WORDS)
    return f"{sentence} {t('due {date}', date=fmt.date(filing.deadline))}"
