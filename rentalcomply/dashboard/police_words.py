"""What the dashboard and its e-mails say of police filings: a filing's kind and status in words,
and its reason as the key of a sentence saying what to do (dashboard/words/property_setup.py
holds the sentences in English and Greek). The raw reason stays in the API and the log."""

from __future__ import annotations

from rentalcomply.filings import setup

# How a filing's kind is named on a page.
KIND_WORDS = {"arrival": "Guests’ registration", "departure": "Departure (Portugal)",
              "reservation": "Reservation (Spain)", "cancellation": "Cancellation",
              "rh_cancellation": "Cancellation of the reservation"}
# A filing's status in words; "held" says why in its reason.
STATUS_WORDS = {"waiting": "Waiting for check-in", "queued": "Being filed",
                "sending": "Being filed", "polling": "Sent, awaiting the answer",
                "ready": "File ready to upload", "submitted": "Filed",
                "rejected": "Refused by the authority", "failed": "Not filed",
                "held": "Held"}
UNREACHABLE_WORDS = ("unreachable", "cannot be reached", "did not answer", "cannot connect",
                     "timed out", "answered http", "soap fault", "not soap")


def reason_words(status: str, error: str | None) -> str | None:
    """A filing's reason as the English key of a sentence saying what to do (translated by the
    page); the raw text is for the log and the API only."""
    if not error:
        return None
    text = error.lower()
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
