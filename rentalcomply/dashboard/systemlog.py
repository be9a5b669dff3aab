"""What the system did, for the activity page: the guest's check-in, the check-in link e-mailed,
police filings sent, refused or held, a channel's new bookings, a tax report ready or failed.

These are not written twice: they are the outbox's events (core/events.py), the record every
such change already leaves in its own transaction for the webhooks; this module reads them back
as rows of the activity page, beside what people did (core/activity.py). They last as long as
the events do (`retention.events_days`).
"""

from __future__ import annotations

import dataclasses
import datetime as dt

from rentalcomply.core.models import Booking, Event
from rentalcomply.dashboard import problems

SYSTEM = "system"  # the "Who" of what the system did (the filter's value)

# event type: (kind, English, Greek). The kind is the activity page's filter (activitylog.KINDS).
EVENTS = {
    "checkin.invited": ("checkin", "the guest received the check-in link",
                        "ο επισκέπτης έλαβε τον σύνδεσμο check-in"),
    "checkin.completed": ("checkin", "completed check-in", "ολοκλήρωσε το check-in"),
    # Not an event: a booking's last e-mail with the link that did not go (its checkin_error).
    "checkin.not_delivered": ("checkin", "could not e-mail the check-in link: see the booking",
                              "δεν μπόρεσε να στείλει με e-mail τον σύνδεσμο check-in: δείτε την "
                              "κράτηση"),
    "police.submitted": ("checkin", "filed the stay with the police",
                         "υπέβαλε τη διαμονή στην αστυνομία"),
    "police.rejected": ("checkin", "the police refused a filing: see the booking",
                        "η αστυνομία απέρριψε μια δήλωση: δείτε την κράτηση"),
    "police.failed": ("checkin", "could not file the stay with the police: see the booking",
                      "δεν μπόρεσε να υποβάλει τη διαμονή στην αστυνομία: δείτε την κράτηση"),
    "police.at_risk": ("checkin", "warned that a police filing is near its deadline",
                       "προειδοποίησε ότι μια δήλωση στην αστυνομία πλησιάζει την προθεσμία της"),
    "police.held": ("checkin", "held a police filing until it can be sent: see the booking",
                    "κράτησε μια δήλωση στην αστυνομία μέχρι να μπορεί να σταλεί: δείτε την "
                    "κράτηση"),
    # A period filing's (a property's month of ISTAT statistics: filings/periods.py).
    "filing.submitted": ("property", "filed a month's tourism statistics",
                         "υπέβαλε τα στατιστικά τουρισμού ενός μήνα"),
    "filing.rejected": ("property", "the authority refused a month's statistics: see the "
                                    "property", "η αρχή απέρριψε τα στατιστικά ενός μήνα: δείτε "
                                                "το κατάλυμα"),
    "filing.failed": ("property", "could not send a month's statistics: see the property",
                      "δεν μπόρεσε να στείλει τα στατιστικά ενός μήνα: δείτε το κατάλυμα"),
    "filing.held": ("property", "held a month's statistics until they can be sent: see the "
                                "property", "κράτησε τα στατιστικά ενός μήνα μέχρι να μπορούν "
                                            "να σταλούν: δείτε το κατάλυμα"),
    "filing.ready": ("property", "made a month's statistics file to upload",
                     "ετοίμασε το αρχείο στατιστικών ενός μήνα για ανέβασμα"),
    "filing.at_risk": ("property", "warned that a month's statistics are near their deadline",
                       "προειδοποίησε ότι τα στατιστικά ενός μήνα πλησιάζουν την προθεσμία "
                       "τους"),
    "sync.completed": ("property", "imported new bookings from a channel calendar",
                       "εισήγαγε νέες κρατήσεις από ημερολόγιο πλατφόρμας"),
    "sync.error": ("property", "could not read a channel calendar: see the property",
                   "δεν μπόρεσε να διαβάσει ημερολόγιο πλατφόρμας: δείτε το κατάλυμα"),
    "report.ready": ("report", "made a tax report", "δημιούργησε φορολογική αναφορά"),
    "report.failed": ("report", "could not make a tax report: see the report",
                      "δεν μπόρεσε να δημιουργήσει φορολογική αναφορά: δείτε την αναφορά"),
}
# The outbox's types read here (police.held is a police.* event whose filing is held).
_TYPES = tuple(t for t in EVENTS if t not in ("police.held", "checkin.not_delivered"))


@dataclasses.dataclass
class Entry:
    """One row of the activity page, whoever made it."""
    at: dt.datetime
    actor_type: str          # user | key | guest | system
    actor_id: str
    actor_label: str
    action: str              # a log's code (activitylog.ACTIONS) or an event's type (EVENTS)
    resource_id: str | None
    link: str | None = None
    count: int | None = None  # how many (a sync's new bookings)


def describe(action: str, lang: str) -> str:
    kind, english, greek = EVENTS[action]
    return greek if lang == "el" else english


def entries(account_id: str, *, kind: str | None = None, since: dt.datetime | None = None,
            until: dt.datetime | None = None, limit: int = 50) -> list[Entry]:
    """The newest events of the account that the page shows, as its rows (at most `limit`)."""
    types = [t for t in _TYPES if kind is None or EVENTS[t][0] == kind]
    if not types:
        return []
    failures = _not_delivered(account_id, since, until) if kind in (None, "checkin") else []
    query = Event.select().where((Event.account == account_id) & Event.type.in_(types))
    # A sync that brought no new booking is not news: most polls find nothing (the JSON is
    # written compact and sorted, core/models.JSONField, so the text test is exact).
    query = query.where(~((Event.type == "sync.completed") & Event.data.contains('"created":0,')))
    if since:
        query = query.where(Event.created_at >= since)
    if until:
        query = query.where(Event.created_at < until)
    found = []
    for event in query.order_by(Event.created_at.desc(), Event.id.desc()).limit(limit * 2):
        entry = _entry_of(event)
        if entry is not None:
            found.append(entry)
        if len(found) >= limit:
            break
    return sorted(found + failures, key=lambda e: e.at, reverse=True)[:limit]


def _not_delivered(account_id: str, since: dt.datetime | None,
                   until: dt.datetime | None) -> list[Entry]:
    """The check-in e-mails that did not go, as their bookings keep them (`checkin_error`, the
    last failure until an e-mail goes): the one thing of this page no event announces."""
    rows = (Booking.select(Booking.id, Booking.checkin_error)
            .where((Booking.account == account_id) & Booking.checkin_error.is_null(False)))
    found = []
    for booking in rows:
        problem = problems.booking_mail_problem(booking.checkin_error)
        at = problem[0] if problem else None
        if at is None:
            continue
        at = at.astimezone(dt.timezone.utc).replace(tzinfo=None) if at.tzinfo else at
        if (since and at < since) or (until and at >= until):
            continue
        found.append(Entry(at=at, actor_type=SYSTEM, actor_id=SYSTEM, actor_label="RentalComply",
                           action="checkin.not_delivered", resource_id=booking.id,
                           link=f"/dashboard/bookings/{booking.id}"))
    return found


def _entry_of(event: Event) -> Entry | None:
    data = event.data or {}
    action = event.type
    resource_id = data.get("id")
    link = None
    actor_type, actor_id, actor_label = SYSTEM, SYSTEM, "RentalComply"
    count = None
    if action.startswith(("checkin.", "police.")):
        link = f"/dashboard/bookings/{resource_id}"
        police = data.get("police") or {}
        if action == "police.failed" and police.get("status") == "held":
            action = "police.held"
        if action == "checkin.completed":  # the guest did it
            actor_type, actor_id = "guest", resource_id
            actor_label = data.get("guest_name") or ""
    elif action.startswith("sync."):
        changes = data.get("changes") or {}
        count = (changes.get("created") or 0) - (changes.get("blocks") or 0)
        if action == "sync.completed" and count <= 0:
            return None
        resource_id = data.get("property_id")
        link = f"/dashboard/properties/{resource_id}"
    elif action.startswith("filing."):  # a period filing: its property's page
        resource_id = data.get("property_id")
        link = f"/dashboard/properties/{resource_id}#obligation-{data.get('authority')}"
    elif action.startswith("report."):
        link = f"/dashboard/reports/{resource_id}"
    return Entry(at=event.created_at, actor_type=actor_type, actor_id=actor_id,
                 actor_label=actor_label, action=action, resource_id=resource_id, link=link,
                 count=count)
