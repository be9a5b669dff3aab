"""What the dashboard says about e-mail: a booking's e-mails to its guest (the invitation that did
not go and what to do; the reminders), and Today's warning while mail cannot be sent."""

from __future__ import annotations

from rentalcomply.checkin import reminders
from rentalcomply.checkin import service as checkin
from rentalcomply.checkin.models import Checkin
from rentalcomply.core import mailer
from rentalcomply.core.activity import Activity
from rentalcomply.core.models import Booking

# What to do about an e-mail that did not go, by checkin.service's `fix`: the dashboard's words.
ADVICE = {
    checkin.FIX_ADDRESS: "The mail server refused the guest's address. Correct the e-mail "
                         "address on the booking and send the link again, or copy the check-in "
                         "link and share it with the guest another way (WhatsApp, SMS, the "
                         "channel's messages).",
    checkin.FIX_MAIL: "Check the e-mail set-up (Account, E-mail) and send the link again, or "
                      "copy the check-in link and share it with the guest another way "
                      "(WhatsApp, SMS, the channel's messages).",
}


def guest_mail(settings, booking: Booking) -> dict:
    """The booking page's section on its e-mails to the guest."""
    row = Checkin.get_or_none(Checkin.booking == booking.id)
    sent = list(Activity.select(Activity.created_at)
                .where((Activity.account == booking.account_id)
                       & (Activity.resource_id == booking.id)
                       & (Activity.action == reminders.REMINDED))
                .order_by(Activity.created_at))
    return {"problem": checkin.invitation_problem(booking),
            "schedule": reminders.schedule(settings, booking.account_id),
            "reminders": [a.created_at for a in sent],
            "invited_at": row.invited_at if row else None,
            "stops": _why_no_reminders(booking)}


def _why_no_reminders(booking: Booking) -> str | None:
    """Why no reminder goes to this guest, in the words the page says it: None when they do."""
    if booking.status == "cancelled":
        return "cancelled"
    if booking.checkin_status in ("COMPLETED", "EXPIRED"):
        return "done"
    if not booking.guest_email:
        return "no_email"
    return None


def mail_warning(settings, account_id: str) -> dict | None:
    """Today's warning while mail cannot be sent: {"kind": "not_set_up"} while the defaults are
    in use, {"kind": "failing", "at", "reason"} after a failed attempt; None otherwise."""
    failure = mailer.last_failure(account_id)
    if failure is not None:
        return {"kind": "failing", "at": failure[0], "reason": failure[1]}
    if not mailer.is_set_up(settings, account_id):
        return {"kind": "not_set_up"}
    return None
