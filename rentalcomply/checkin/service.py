"""Check-in: the domain functions, which know nothing of Bottle.

- The link's token is derived from the booking id under the server secret, so every invitation of
  a booking carries the same link; only its HMAC is stored, to find the booking again. The link
  works until the end of the day after departure (it moves when the departure moves).
- The party is one JSON document sealed with AES-GCM (core/sealing.py) for its booking alone; in
  clear stay only the lead guest's name (the tax report needs it, also after the purge).
- `checkin_status`: NOT_STARTED -> INVITED (a mail server accepted an e-mail with the link) ->
  IN_PROGRESS (the guest saved something) -> COMPLETED (a valid, whole party); EXPIRED when the
  departure passes uncompleted.
- One truth for every invitation, whichever path sent it: `_record_outcome` writes what happened
  once the mail server answered. Accepted: INVITED and `checkin.invited`; refused or failed:
  only `checkin_error`, and the booking stays as it was. A host's invitation (`resend`) is
  e-mailed within the request, so the host learns at once whether it left; the automatic
  invitations before arrival are e-mailed by a task after the transaction that queues them
  commits (see tasks.py), retried there; the reminders (reminders.py) likewise.
- `checkin_error` says why the last e-mail to the guest was not delivered; a delivery, or the
  check-in completing (the guest plainly had the link), clears it.
"""

from __future__ import annotations

import datetime as dt
import hmac
import json
import logging
import re
import threading

from rentalcomply.bookings import service as bookings
from rentalcomply.checkin import i18n, mail
from rentalcomply.checkin.guests import Problem, mask, validate_party
from rentalcomply.checkin.models import Checkin
from rentalcomply.core import clock, events, sealing, secrets
from rentalcomply.core import pending as owed
from rentalcomply.core.db import atomic
from rentalcomply.core.errors import (BookingCancelled, CheckinAlreadyCompleted, GuestContactMissing,
                                      GuestEmailRejected, LinkExpired, MailNotSent, NotFound,
                                      RateLimited, ValidationError)
from rentalcomply.core.models import Booking, Property
from rentalcomply.scan import keeping as scan_keeping
from rentalcomply.taxes import service as taxes

log = logging.getLogger(__name__)

TOKEN_RE = re.compile(r"^[0-9a-f]{32}$")
RESENDS_PER_HOUR = 5
DEFAULT_INVITE_DAYS_BEFORE = 7
SEAL_PURPOSE = "checkin-guests:"
# The kind of the invitation e-mail in core/pending: owed from the invitation until it is sent.
INVITATION_MAIL = "checkin.invitation"

_settings = None
# Bookings whose invitation e-mail waits for the current transaction to commit (per thread).
_to_send = threading.local()
# Check-ins completed in this thread, whose access e-mail (access.py) may be due at once.
_completed = threading.local()


def configure(settings) -> None:
    global _settings
    _settings = settings


# --- the link ------------------------------------------------------------------------------------

def token_for(booking_id: str) -> str:
    return secrets.sign("checkin-link", booking_id)[:32]


def token_hash(token: str) -> str:
    return secrets.sign("checkin-link-hash", token)


def expires_at(booking: Booking) -> dt.datetime:
    """The end of the day after departure (UTC)."""
    return dt.datetime.combine(booking.departure_date + dt.timedelta(days=2), dt.time())


def link(public_url: str, booking_id: str) -> str:
    return f"{public_url.rstrip('/')}/checkin/{token_for(booking_id)}"


def _checkin_row(booking: Booking) -> Checkin:
    row = Checkin.get_or_none(Checkin.booking == booking.id)
    if row is None:
        now = clock.utcnow()
        # Two first invitations at once (PostgreSQL does not serialise them): one row wins.
        (Checkin.insert(booking=booking.id, account=booking.account_id,
                        token_hash=token_hash(token_for(booking.id)), sends=[],
                        created_at=now, updated_at=now)
         .on_conflict_ignore().execute())
        row = Checkin.get(Checkin.booking == booking.id)
    return row


def find_by_token(token: str) -> tuple[Booking, Checkin]:
    """The booking a guest's link opens. NotFound for an unknown token, LinkExpired when the stay
    is over (past the link's lifetime, expired or cancelled)."""
    if not isinstance(token, str) or not TOKEN_RE.match(token):
        raise NotFound("No such check-in link.")
    row = Checkin.get_or_none(Checkin.token_hash == token_hash(token))
    if row is None:
        raise NotFound("No such check-in link.")
    booking = Booking.get_by_id(row.booking_id)
    if not hmac.compare_digest(token_for(booking.id), token):  # belt and braces
        raise NotFound("No such check-in link.")
    if (booking.status == "cancelled" or booking.checkin_status == "EXPIRED"
            or clock.utcnow() >= expires_at(booking)):
        raise LinkExpired("This check-in link has expired.")
    return booking, row


# --- invitations ---------------------------------------------------------------------------------

def resend(account_id: str, booking_id: str, public_url: str, to: str | None = None) -> dict:
    """E-mail the guest the link now and record the invitation (POST /checkins/resend), to the
    address `to` names (see `recipient`).

    Three short transactions around the SMTP conversation, never one holding the database while
    a mail server takes its time: the checks and a place in the hourly limit; the e-mail; then
    the invitation (INVITED, `checkin.invited`) or, when the server did not take the e-mail, the
    reason in `checkin_error` with the place in the limit given back. MailNotSent (502) or
    GuestEmailRejected (422) then; `checkin_status` stays as it was."""
    with atomic():
        booking = bookings.get_booking(account_id, booking_id)
        address = recipient(booking, to)
        _check_invitable(booking, address)
        row = _checkin_row(booking)
        now = clock.utcnow()
        recent = [t for t in (row.sends or []) if _parse_time(t) > now - dt.timedelta(hours=1)]
        if len(recent) >= RESENDS_PER_HOUR:
            retry_after = int((_parse_time(min(recent)) + dt.timedelta(hours=1) - now).total_seconds())
            raise RateLimited(retry_after, f"At most {RESENDS_PER_HOUR} invitations an hour per "
                                           f"booking; retry in {max(retry_after, 1)} s.")
        # Taken before the e-mail: two requests at once cannot both pass the limit.
        attempt = now.isoformat()
        row.sends = recent + [attempt]
        row.save()
    try:
        deliver_invitation(booking, public_url, to=address)
    except mail.DeliveryFailed as failure:
        with atomic():
            row = Checkin.get(Checkin.booking == booking.id)
            sends = list(row.sends or [])
            if attempt in sends:  # an e-mail not sent does not count against the limit
                sends.remove(attempt)
                row.sends = sends
                row.save()
            record_outcome(booking.id, failure)
        if failure.recipient_refused and failure.permanent:
            raise GuestEmailRejected(f"The check-in e-mail was not sent: {failure.reason}. "
                                     "Correct guest_email with PATCH /bookings/{id}; "
                                     "checkin_status is unchanged.",
                                     details=[{"field": "guest_email", "message": failure.reason}])
        raise MailNotSent(f"The check-in e-mail was not sent: {failure.reason}. "
                          "checkin_status is unchanged; try again later.",
                          details=[{"field": "smtp", "message": failure.reason}])
    with atomic():
        booking = record_outcome(booking.id, None)
    return invitation_view(booking, public_url, sent_to=address)


# Whom a host's invitation goes to: the booking's address (the channel's or the host's), or the
# one the lead guest typed on the check-in page; a channel's relay address is often all the
# booking has, and a guest who stopped half-way is best reached where they said.
BOOKING_ADDRESS, TYPED_ADDRESS = "booking", "typed"


def typed_contact(booking_id: str) -> dict:
    """The e-mail and phone the lead guest typed (sealed in the party; never logged), None each
    when not typed or once the party is erased."""
    guests = load_party(Checkin.get_or_none(Checkin.booking == booking_id)).get("guests") or [{}]
    return {"email": guests[0].get("email") or None, "phone": guests[0].get("phone") or None}


def recipient(booking: Booking, to: str | None = None) -> str | None:
    """The address for `to`: TYPED_ADDRESS the lead guest's; otherwise the booking's, or the
    typed one when the booking has none."""
    if to != TYPED_ADDRESS and booking.guest_email:
        return booking.guest_email
    return typed_contact(booking.id)["email"]


def _check_invitable(booking: Booking, address: str | None) -> None:
    if booking.status == "cancelled":
        raise BookingCancelled("The booking is cancelled: no check-in is needed.")
    if booking.checkin_status == "COMPLETED":
        raise CheckinAlreadyCompleted()
    if booking.checkin_status == "EXPIRED" or clock.utcnow() >= expires_at(booking):
        raise LinkExpired("The stay is over: its check-in link has expired.")
    if not address:
        raise GuestContactMissing("The booking has no guest_email (nor did the guest type one); "
                                  "add one with PATCH /bookings/{id} first.")


def _record_invitation(booking: Booking, row: Checkin, now: dt.datetime) -> None:
    row.invited_at = now
    row.updated_at = now
    row.save()
    if booking.checkin_status == "NOT_STARTED":
        booking.checkin_status = "INVITED"
    booking.checkin_error = None  # it was delivered
    _touch(booking, now)
    events.emit(booking.account_id, "checkin.invited", bookings.booking_view(booking))


def _queue_invitation(booking: Booking, row: Checkin, now: dt.datetime) -> None:
    """Queue an automatic invitation; its e-mail goes after the commit (tasks.py), and the booking
    is INVITED only when a mail server accepts it (`record_outcome`)."""
    row.sends = [t for t in (row.sends or [])
                 if _parse_time(t) > now - dt.timedelta(hours=1)] + [now.isoformat()]
    row.updated_at = now
    row.save()
    # Owed in the database as well as queued after the commit: a worker killed before the mail
    # went out leaves the row, and the sweep (tasks.py) queues the mail again.
    owed.record(INVITATION_MAIL, booking.id, now)
    pending = getattr(_to_send, "ids", None)
    if pending is None:
        pending = _to_send.ids = []
    pending.append(booking.id)
    events.wake_after_commit()  # no event yet: the after-commit hook queues the e-mail


def deliver_invitation(booking: Booking, public_url: str, to: str | None = None) -> None:
    """Compose and send the invitation e-mail (to `to`, else the booking's address); raises
    mail.DeliveryFailed."""
    prop = Property.get_by_id(booking.property_id)
    message = mail.compose(_settings, booking, prop, link(public_url, booking.id),
                           expires_at(booking).date(), to=to)
    mail.deliver(_settings, message, booking.account_id)


def send_invitation(booking_id: str) -> bool:
    """The automatic invitation's e-mail (the task): send it and record the outcome on the
    booking. False when there is nothing to send (cancelled, completed, no address). Raises
    mail.DeliveryFailed."""
    booking = Booking.get_or_none(Booking.id == booking_id)
    if (booking is None or booking.status == "cancelled" or not booking.guest_email
            or booking.checkin_status in ("COMPLETED", "EXPIRED")):
        return False
    try:
        deliver_invitation(booking, _settings.server.public_url)
    except mail.DeliveryFailed as failure:
        with atomic():
            record_outcome(booking_id, failure)
        raise
    with atomic():
        record_outcome(booking_id, None)
    log.info("check-in e-mail for booking %s delivered", booking_id)
    return True


def record_outcome(booking_id: str, failure: mail.DeliveryFailed | None, *,
                   reminder: bool = False) -> Booking | None:
    """What the mail server answered to an e-mail with the guest's link (an invitation, a
    host's resend, a reminder): the one place that turns a booking INVITED. Accepted: INVITED
    (from NOT_STARTED), `checkin.invited`, `checkin_error` cleared. Refused or failed: the reason
    in `checkin_error`, nothing else. A `reminder` to a guest already invited announces nothing
    new: it only clears `checkin_error`. Call inside a transaction."""
    booking = Booking.get_or_none(Booking.id == booking_id)
    if booking is None:
        return None
    if failure is not None or (reminder and booking.checkin_status != "NOT_STARTED"):
        _record_delivery(booking_id, failure.reason if failure is not None else None)
        return Booking.get_by_id(booking_id)
    row = _checkin_row(booking)
    _record_invitation(booking, row, clock.utcnow())
    return booking


# What a host can do about an e-mail to a guest that did not go: `fix` names it.
FIX_ADDRESS, FIX_MAIL = "address", "mail"


def invitation_problem(booking: Booking) -> dict | None:
    """The last e-mail with the guest's link that did not go, for the host's pages: `at` (when),
    `reason` (the mail server's answer) and `fix` — FIX_ADDRESS when the server refused the
    guest's address (correct it, or share the link another way), FIX_MAIL otherwise (set up or
    repair e-mail, or share the link another way). None when there is none to act on: once the
    guest has the link (INVITED by an e-mail accepted or a link the host shared, or further on),
    a later e-mail that failed is no longer the host's to chase."""
    if (not booking.checkin_error or booking.status == "cancelled"
            or booking.checkin_status != "NOT_STARTED"):
        return None
    at, _, reason = booking.checkin_error.partition(": ")
    if not reason:
        at, reason = "", booking.checkin_error
    fix = FIX_ADDRESS if "guest's address" in reason else FIX_MAIL
    return {"at": at, "reason": reason, "fix": fix}


def _record_delivery(booking_id: str, reason: str | None) -> None:
    """`checkin_error` after an e-mail to the guest: the reason with its time, or cleared."""
    booking = Booking.get_or_none(Booking.id == booking_id)
    error = None if reason is None else f"{clock.iso(clock.utcnow())}: {reason}"
    if reason is not None:
        log.warning("check-in e-mail for booking %s not delivered: %s", booking_id, reason)
    if booking is None or booking.checkin_error == error:
        return
    booking.checkin_error = error
    _touch(booking, clock.utcnow())


def take_invitations_to_send() -> list[str]:
    """The bookings invited in this thread since the last call (after their commit)."""
    pending = getattr(_to_send, "ids", None) or []
    _to_send.ids = []
    return pending


def forget_invitations_to_send() -> None:
    _to_send.ids = []


def take_completed() -> list[str]:
    """The bookings whose check-in completed in this thread since the last call."""
    pending = getattr(_completed, "ids", None) or []
    _completed.ids = []
    return pending


def invitation_view(booking: Booking, public_url: str, sent_to: str | None = None) -> dict:
    return {
        "booking_id": booking.id,
        "checkin_status": booking.checkin_status,
        "channel": "email",
        "sent_to": mask_email(sent_to or booking.guest_email),
        "checkin_url": link(public_url, booking.id),
        "expires_at": clock.iso(expires_at(booking)),
    }


def mark_link_shared(account_id: str, booking_id: str) -> Booking:
    """The host sent the link themselves (WhatsApp, SMS, the channel's messages): the booking
    is INVITED and `checkin.invited` fires, once; marking it again, or a booking the guest has
    already started, changes nothing."""
    with atomic():
        booking = bookings.get_booking(account_id, booking_id)
        if booking.status == "cancelled":
            raise BookingCancelled("The booking is cancelled: no check-in is needed.")
        if booking.checkin_status == "EXPIRED" or clock.utcnow() >= expires_at(booking):
            raise LinkExpired("The stay is over: its check-in link has expired.")
        row = _checkin_row(booking)
        if booking.checkin_status != "NOT_STARTED":
            return booking
        now = clock.utcnow()
        row.invited_at = now
        row.updated_at = now
        row.save()
        booking.checkin_status = "INVITED"
        _touch(booking, now)
        events.emit(booking.account_id, "checkin.invited", bookings.booking_view(booking))
    return booking


def mask_email(address: str | None) -> str | None:
    if not address:
        return address
    local, _, domain = address.rpartition("@")
    return f"{local[:1]}***@{domain}"


def invite_upcoming(days_before: int) -> list[str]:
    """Invite, once, every confirmed booking with a guest e-mail whose arrival is at most
    `days_before` days away and which nobody invited yet. Returns the bookings invited."""
    today = clock.today()
    candidates = (Booking.select(Booking.id)
                  .where((Booking.status == "confirmed") & (Booking.is_block == False)  # noqa: E712
                         & (Booking.checkin_status == "NOT_STARTED")
                         & Booking.guest_email.is_null(False)
                         & (Booking.arrival_date <= today + dt.timedelta(days=days_before))
                         & (Booking.departure_date > today)))
    invited = []
    for (booking_id,) in candidates.tuples():
        with atomic():
            booking = Booking.get_or_none(Booking.id == booking_id)
            if booking is None or booking.checkin_status != "NOT_STARTED" or not booking.guest_email:
                continue
            row = _checkin_row(booking)
            if row.auto_invited:
                continue
            row.auto_invited = True
            _queue_invitation(booking, row, clock.utcnow())
        invited.append(booking_id)
    return invited


# --- the party -----------------------------------------------------------------------------------

def _seal(booking_id: str, party: dict) -> str:
    return sealing.seal(SEAL_PURPOSE + booking_id, json.dumps(party, ensure_ascii=False).encode("utf-8"))


def load_party(row: Checkin) -> dict:
    """{"guests": [...], "lang": ...} as last saved, or an empty party."""
    if not row or not row.guests_sealed:
        return {"guests": []}
    return json.loads(sealing.unseal(SEAL_PURPOSE + row.booking_id, row.guests_sealed))


def _country(booking: Booking) -> str:
    return Property.get_by_id(booking.property_id).country


def save_progress(booking: Booking, row: Checkin, guests, *, consent: bool, lang: str
                  ) -> list[Problem]:
    """Keep what the guest typed so far (what passes the field checks); IN_PROGRESS."""
    with atomic():
        booking = Booking.get_by_id(booking.id)
        if booking.checkin_status == "COMPLETED":
            raise CheckinAlreadyCompleted()
        cleaned, problems = validate_party(_country(booking), guests,
                                           guest_count=booking.guest_count,
                                           arrival=booking.arrival_date, complete=False)
        now = clock.utcnow()
        _store(row, booking, cleaned, consent, lang, now)
        if booking.checkin_status in ("NOT_STARTED", "INVITED"):
            booking.checkin_status = "IN_PROGRESS"
            _touch(booking, now)
    return problems


def submit(booking: Booking, row: Checkin, guests, *, consent: bool | None, lang: str,
           api: bool = False) -> list[Problem]:
    """The final answer, from the page or the guests API: a valid whole party completes the
    check-in; otherwise nothing is stored from the page's submit but its draft, and the problems
    come back."""
    with atomic():
        booking = Booking.get_by_id(booking.id)
        if booking.checkin_status == "COMPLETED" and not api:
            raise CheckinAlreadyCompleted()
        cleaned, problems = validate_party(_country(booking), guests,
                                           guest_count=booking.guest_count,
                                           arrival=booking.arrival_date, complete=True)
        if consent is False:
            problems.append(Problem("consent", "msg.consent"))
        now = clock.utcnow()
        if problems:
            if not api:  # the page keeps what was valid, as when saving progress
                _store(row, booking, cleaned, bool(consent), lang, now)
                if booking.checkin_status in ("NOT_STARTED", "INVITED"):
                    booking.checkin_status = "IN_PROGRESS"
                    _touch(booking, now)
            return problems
        _store(row, booking, cleaned, bool(consent) if not api else None, lang, now)
        if booking.checkin_status != "COMPLETED":
            booking.checkin_status = "COMPLETED"
            booking.checkin_error = None  # the guest had the link: an old failed e-mail is moot
            row.completed_at = now
            row.save()
            if booking.property.police_connector != "none" and booking.report_status == "NOT_REQUIRED":
                booking.report_status = "PENDING"  # the police capability takes it from here
            _touch(booking, now)
            events.emit(booking.account_id, "checkin.completed", bookings.booking_view(booking))
            if getattr(_completed, "ids", None) is None:
                _completed.ids = []
            _completed.ids.append(booking.id)
    return []


def _store(row: Checkin, booking: Booking, guests: list[dict], consent: bool | None, lang: str,
           now: dt.datetime) -> None:
    row.guests_sealed = _seal(booking.id, {"guests": guests, "lang": lang})
    lead = guests[0] if guests else {}
    name = " ".join(part for part in (lead.get("first_name"), lead.get("last_name")) if part)
    row.lead_guest_name = name[:200] or row.lead_guest_name
    if consent is not None:
        row.consent_at = now if consent else None
    row.updated_at = now
    row.save()
    taxes.record_party(booking, guests)  # the tourist tax takes the guests' ages on arrival


def _touch(booking: Booking, now: dt.datetime) -> None:
    """Save a changed booking; its version grows by one in the UPDATE (core.models.Versioned)."""
    booking.updated_at = now
    booking.save()


# --- the guests API ------------------------------------------------------------------------------

def guests_view(account_id: str, booking_id: str) -> dict:
    booking = bookings.get_booking(account_id, booking_id)
    row = Checkin.get_or_none(Checkin.booking == booking.id)
    party = load_party(row)
    shown = []
    for index, guest in enumerate(party.get("guests", [])):
        guest = dict(guest)
        for name in ("document_number", "document_support_number", "tax_id"):
            if guest.get(name):
                guest[name] = mask(guest[name])
        if guest.pop("signature", None):
            guest["signed"] = True
        shown.append({"role": "lead" if index == 0 else "member", **guest})
    return {
        "booking_id": booking.id,
        "checkin_status": booking.checkin_status,
        "country": _country(booking),
        "guest_count": booking.guest_count,
        "lead_guest_name": row.lead_guest_name if row else None,
        "guests": shown,
        "consent_at": clock.iso(row.consent_at) if row else None,
        "completed_at": clock.iso(row.completed_at) if row else None,
        "purged_at": clock.iso(row.purged_at) if row else None,
        "version": row.version if row else 0,
    }


def put_guests(account_id: str, booking_id: str, guests: list) -> dict:
    with atomic():
        booking = bookings.get_booking(account_id, booking_id)
        if booking.status == "cancelled":
            raise BookingCancelled("The booking is cancelled: no check-in is needed.")
        row = _checkin_row(booking)
        if row.purged_at is not None:
            raise ValidationError("guests", "the guest data of this stay was erased after its "
                                            "retention period")
        problems = submit(booking, row, guests, consent=None, lang="en", api=True)
        if problems:
            raise ValidationError([{"field": p.path, "message": p.message("en")} for p in problems])
    return guests_view(account_id, booking_id)


# --- housekeeping --------------------------------------------------------------------------------

def expire_past_stays() -> int:
    """EXPIRED for every stay whose departure passed uncompleted."""
    today = clock.today()
    expired = 0
    rows = (Booking.select(Booking.id)
            .where((Booking.departure_date < today) & (Booking.is_block == False)  # noqa: E712
                   & Booking.checkin_status.in_(("NOT_STARTED", "INVITED", "IN_PROGRESS"))))
    for (booking_id,) in rows.tuples():
        with atomic():
            booking = Booking.get_by_id(booking_id)
            if booking.checkin_status in ("COMPLETED", "EXPIRED") or booking.departure_date >= today:
                continue
            booking.checkin_status = "EXPIRED"
            _touch(booking, clock.utcnow())
            expired += 1
    return expired


def purge_guest_data(retention) -> int:
    """Erase the sealed parties of stays past their retention (`checkin.retention.Retention`:
    per country of the property; a number is days for every country); the lead guest's name
    stays."""
    from rentalcomply.checkin.retention import Retention
    past = Retention.of(retention).past(clock.today())
    stale = (Checkin.select(Checkin.booking)
             .join(Booking, on=(Checkin.booking == Booking.id))
             .join(Property, on=(Booking.property == Property.id))
             .where(Checkin.guests_sealed.is_null(False) & past))
    purged = 0
    for (booking_id,) in stale.tuples():
        with atomic():
            now = clock.utcnow()
            # A new version: what was made from the party (the search's hashed words) is
            # made again without it.
            purged += (Checkin.update(guests_sealed=None, purged_at=now, updated_at=now,
                                      version=Checkin.version + 1)
                       .where((Checkin.booking == booking_id) & Checkin.guests_sealed.is_null(False))
                       .execute())
    scan_keeping.erase_past(past)  # the photos of their documents, if the owner kept any
    return purged


def _parse_time(value: str) -> dt.datetime:
    return dt.datetime.fromisoformat(value)


def page_language(requested: str | None, booking: Booking) -> str:
    if requested in i18n.LANGUAGES:
        return requested
    return i18n.language(booking.guest_language)
