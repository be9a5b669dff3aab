"""What a stored problem means, in a sentence a host can act on.

The mail server's answer, a channel feed's failure, a webhook delivery's error and a report's
failure are kept as the technical text the code that met them wrote (addresses, ports, exception
names, HTTP codes): right for the server's log and for API clients, wrong for a page. Each
function here sorts such a text into the kind of problem it is and gives the English sentence
that says what happened and what to do; the page translates it (the catalogue
rentalcomply/locale/, domain messages). A text of no known kind gets a general sentence, never
itself.

Nothing here knows of Bottle or of templates; nothing here changes what is stored.
"""

from __future__ import annotations

import datetime as dt
import re

# --- e-mail (core/mailer.py's DeliveryFailed reasons, kept on the account and on a booking) ----

MAIL_UNREACHABLE = ("The mail server did not answer. Check its address and port on "
                    "Account → E-mail.")
MAIL_SLOW = ("The mail server took too long to answer. Check its address and port on "
             "Account → E-mail, or try again later.")
MAIL_LOGIN = ("The mail server refused the user name or password. Check them on "
              "Account → E-mail.")
MAIL_GUEST_ADDRESS = ("The mail server refused the guest's e-mail address. Correct it on the "
                      "booking and send the link again.")
MAIL_REFUSED = ("The mail server refused the message. Check the sender address on "
                "Account → E-mail, or ask your mail provider why.")
MAIL_NOT_ALLOWED = ("The mail server is on an address this server does not connect to (its own "
                    "machine or a local network). Choose your provider's mail server on "
                    "Account → E-mail, or ask the server's administrator.")
MAIL_OTHER = ("The e-mail could not be sent. Check the set-up on Account → E-mail and send a "
              "test e-mail.")

_MAIL_KINDS = (
    (re.compile(r"^cannot reach the mail server"), MAIL_UNREACHABLE),
    (re.compile(r"^the mail server \S+ did not finish within"), MAIL_SLOW),
    (re.compile(r"^the mail server \S+ is not allowed"), MAIL_NOT_ALLOWED),
    (re.compile(r"^the mail server refused the SMTP login"), MAIL_LOGIN),
    (re.compile(r"^the mail server refused the guest's address"), MAIL_GUEST_ADDRESS),
    (re.compile(r"^the mail server answered \d+"), MAIL_REFUSED),
)

# --- a channel's calendar feed (sync/fetch.py's FeedError reasons, on the connection) -----------

FEED_NOT_FOUND = ("The channel no longer has a calendar at this address. Copy the calendar's "
                  "address from the channel again and replace this connection.")
FEED_REFUSED = ("The channel refused to give the calendar. Copy the calendar's address from the "
                "channel again; it may have been renewed there.")
FEED_CHANNEL_DOWN = ("The channel's server had a problem. Nothing to do: the next sync tries "
                     "again.")
FEED_UNREACHABLE = ("The channel's calendar could not be reached. The next sync tries again; if "
                    "this stays, check the calendar's address.")
FEED_TOO_LARGE = ("The channel's calendar is larger than this server accepts. Ask the "
                  "server's administrator (setting sync.max_bytes).")
FEED_UNREADABLE = ("The address gives something that is not a calendar. Copy the calendar's "
                   "(iCal) address from the channel again.")
FEED_OTHER = ("The channel's calendar could not be read. The next sync tries again; if this "
              "stays, copy the calendar's address from the channel again.")

_FEED_KINDS = (
    (re.compile(r"HTTP (404|410)\b"), FEED_NOT_FOUND),
    (re.compile(r"HTTP (401|403)\b"), FEED_REFUSED),
    (re.compile(r"HTTP 5\d\d\b"), FEED_CHANNEL_DOWN),
    (re.compile(r"larger than|more than \d+ in all"), FEED_TOO_LARGE),
    (re.compile(r"iCalendar|VCALENDAR|truncated|is empty", re.I), FEED_UNREADABLE),
    (re.compile(r"timed out|did not|within|connect|resolve|refused|redirect|TLS", re.I),
     FEED_UNREACHABLE),
)

# --- a webhook delivery (webhooks/delivery.py's last_error) --------------------------------------

WEBHOOK_DISABLED = "Not sent: the endpoint was disabled. Enable it to receive deliveries again."
WEBHOOK_SECRET = ("Not sent: the endpoint's secret cannot be read on this server. Give the "
                  "endpoint a new secret.")
WEBHOOK_TIMEOUT = ("Your endpoint took too long to answer. Make it answer within the time limit "
                   "and do the work afterwards.")
WEBHOOK_UNREACHABLE = ("Your endpoint could not be reached. Check its address and that it is "
                       "online.")
WEBHOOK_ANSWERED = "Your endpoint answered with an error code. Check its log."
WEBHOOK_GAVE_UP = "Every attempt failed, so sending stopped. Send it again when the endpoint works."
WEBHOOK_OTHER = "The delivery failed. Check the endpoint, then send it again."

_WEBHOOK_KINDS = (
    (re.compile(r"^The endpoint was disabled"), WEBHOOK_DISABLED),
    (re.compile(r"^Cannot sign"), WEBHOOK_SECRET),
    (re.compile(r"gave up after"), WEBHOOK_GAVE_UP),
    (re.compile(r"timed out|did not (answer|finish)|timeout", re.I), WEBHOOK_TIMEOUT),
    (re.compile(r"HTTP \d{3}|answered \d{3}|status \d{3}", re.I), WEBHOOK_ANSWERED),
    (re.compile(r"connect|resolve|refused|unreachable|reach", re.I), WEBHOOK_UNREACHABLE),
)

ENDPOINT_GONE = ("Your endpoint answered that it is gone (410), so sending stopped. Enable it "
                 "again once it is back.")
ENDPOINT_FAILED_FOR_DAYS = ("Every delivery failed for days, so sending stopped. Enable it again "
                            "once the endpoint works.")
ENDPOINT_DISABLED = "Someone in the account disabled it. Enable it to receive deliveries again."


def webhook_disabled(reason: str | None) -> str | None:
    """Why an endpoint was disabled (its `disabled_reason`), in a sentence."""
    if not reason:
        return None
    if "410" in reason:
        return ENDPOINT_GONE
    if reason.startswith("Every delivery attempt failed"):
        return ENDPOINT_FAILED_FOR_DAYS
    return ENDPOINT_DISABLED


# --- a tax report that could not be made (reports/generation.py) --------------------------------

REPORT_FAILED = ("The report could not be made. Try again with “Generate again”; the previous "
                 "files, if any, are kept. If it fails again, the server's administrator finds "
                 "the cause in the log.")


# --- a booking whose dates overlap another stay (bookings/service.py's BookingConflict) -----------

OVERLAP_STAY = ("The dates overlap the stay of {guest}, {stay}. Choose other dates, or change "
                "that booking first.")
OVERLAP_BLOCK = ("The dates overlap a period blocked in a channel calendar, {stay}. Choose other "
                 "dates.")


def booking_conflict(error, translate, fmt) -> str:
    """The overlap error in the page's language, naming the other stay by its guest and dates
    (`translate(text, **values)`, `fmt` the page's Formatter)."""
    detail = (getattr(error, "details", None) or [{}])[0]
    if not detail.get("arrival_date"):
        return translate(error.message)
    arrival = dt.date.fromisoformat(detail["arrival_date"])
    departure = dt.date.fromisoformat(detail["departure_date"])
    stay = fmt.stay(arrival, departure)
    if detail.get("booking_id"):
        return translate(OVERLAP_STAY, guest=detail.get("guest_name") or translate("another guest"),
                         stay=stay)
    return translate(OVERLAP_BLOCK, stay=stay)


# --- e-mailing a guest the check-in link from the booking's page (checkin.service.resend) -------

RESEND_NOT_SENT = "The check-in e-mail was not sent."
RESEND_WORDS = {
    "BOOKING_CANCELLED": "The booking is cancelled: no check-in is needed.",
    "CHECKIN_ALREADY_COMPLETED": "The guest has already completed check-in.",
    "LINK_EXPIRED": "The stay is over: its check-in link has expired.",
    "GUEST_CONTACT_MISSING": "The booking has no guest e-mail address: add one with “Edit the "
                             "booking” first, or share the check-in link another way.",
    "RATE_LIMITED": "The link was e-mailed several times in the last hour already. Try again "
                    "later, or share the check-in link another way.",
}


def resend_problem(error, translate) -> str:
    """Why the check-in link was not e-mailed, in the page's language."""
    if error.code in RESEND_WORDS:
        return translate(RESEND_WORDS[error.code])
    detail = (getattr(error, "details", None) or [{}])[0]
    why = mail(detail.get("message")) or MAIL_OTHER
    return translate(RESEND_NOT_SENT) + " " + translate(why)


def _sorted(text: str | None, kinds, other: str) -> str | None:
    if not text:
        return None
    for pattern, sentence in kinds:
        if pattern.search(text):
            return sentence
    return other


def mail(reason: str | None) -> str | None:
    """The sentence for a mail server's failure (None when there is none)."""
    return _sorted(reason, _MAIL_KINDS, MAIL_OTHER)


def feed(reason: str | None) -> str | None:
    """The sentence for a channel feed's failure (None when there is none)."""
    return _sorted(reason, _FEED_KINDS, FEED_OTHER)


def webhook(error: str | None) -> str | None:
    """The sentence for a webhook delivery's failure (None when there is none)."""
    if error and "gave up after" in error:
        return WEBHOOK_GAVE_UP
    return _sorted(error, _WEBHOOK_KINDS, WEBHOOK_OTHER)


def report(error: str | None) -> str | None:
    """The sentence for a report that could not be made (None when there is none)."""
    return REPORT_FAILED if error else None


def booking_mail_problem(checkin_error: str | None) -> tuple[dt.datetime | None, str] | None:
    """A booking's stored `checkin_error` (`<ISO time>: <reason>`): when, and the sentence."""
    if not checkin_error:
        return None
    at_text, _, reason = checkin_error.partition(": ")
    try:
        at = dt.datetime.fromisoformat(at_text.replace("Z", "+00:00")) if reason else None
    except ValueError:
        at, reason = None, checkin_error
    return at, mail(reason or checkin_error)


# --- an Italian property without its CIN (properties.service.italian_without_cin) ----------------
# Today and the morning e-mail say it alike.

CIN_MISSING = ("Enter its CIN (Ministry of Tourism, BDSR) on the property’s page: the guest "
               "page, the exported calendar and the check-in e-mails show it, and letting "
               "without one is fined.")


# --- an Italian or Spanish property whose region is unknown, an Italian one without rooms or beds
# (properties.service.region_unknown, capacity_missing); Today and the morning e-mail say it alike.

REGION_MISSING = ("Choose its region on the property’s page: the address does not say it for "
                  "certain, so which region’s rules apply (tourism statistics, police "
                  "registration) cannot be known.")
CAPACITY_MISSING = ("Enter its rooms and beds on the property’s page: the monthly tourism "
                    "statistics report them as available.")

# --- Spain: a property without its licence number, one on another authority than its region's ------

LICENCE_MISSING = ("Enter its regional tourism licence number on the property’s page: every "
                   "listing must show it, and the guest page and the exported calendar show it.")
WRONG_AUTHORITY = "Its region has its own police authority: confirm the move on the property’s page."


SENTENCES = (MAIL_UNREACHABLE, MAIL_SLOW, MAIL_LOGIN, MAIL_GUEST_ADDRESS, MAIL_REFUSED, MAIL_OTHER,
             FEED_NOT_FOUND, FEED_REFUSED, FEED_CHANNEL_DOWN, FEED_UNREACHABLE, FEED_TOO_LARGE,
             FEED_UNREADABLE, FEED_OTHER, WEBHOOK_DISABLED, WEBHOOK_SECRET, WEBHOOK_TIMEOUT,
             WEBHOOK_UNREACHABLE, WEBHOOK_ANSWERED, WEBHOOK_GAVE_UP, WEBHOOK_OTHER, REPORT_FAILED,
             OVERLAP_STAY, OVERLAP_BLOCK, ENDPOINT_GONE, ENDPOINT_FAILED_FOR_DAYS,
             ENDPOINT_DISABLED, RESEND_NOT_SENT, *RESEND_WORDS.values(), CIN_MISSING,
             REGION_MISSING, CAPACITY_MISSING,
             LICENCE_MISSING, WRONG_AUTHORITY)


def document(t, fmt, flag) -> str:
    """A flagged document in words: the booking page (_document_flags.tpl), Today and the
    morning e-mail say it alike."""
    if flag.problem == "expired":
        return t("Guest {n}: the scanned document expired on {date}.", n=flag.guest_index + 1,
                 date=fmt.date(flag.expiry_date))
    return t("Guest {n}: the scanned document expires on {date}, before departure.",
             n=flag.guest_index + 1, date=fmt.date(flag.expiry_date))
