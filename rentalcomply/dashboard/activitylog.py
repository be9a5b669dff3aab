"""The activity log in plain words, for the people of the account: what each recorded action
means in English and Greek, what kind of thing it touched (the filter), and the page of the thing
it names. The log itself (core/activity.py) keeps codes: a dashboard verb (`api_key.revoke`) or
an API route (`POST /bookings/<booking_id>/cancel`); the words are chosen when it is shown.
"""

from __future__ import annotations

import datetime as dt
import re

from rentalcomply.core.activity import Activity
from rentalcomply.dashboard import systemlog
from rentalcomply.dashboard.systemlog import Entry

# kind: words in English and Greek
KINDS = {
    "booking": ("Bookings", "Κρατήσεις"),
    "property": ("Properties and channels", "Καταλύματα και κανάλια"),
    "checkin": ("Check-in and police", "Check-in και αστυνομία"),
    "report": ("Tax reports", "Φορολογικές αναφορές"),
    "api_key": ("API keys", "Κλειδιά API"),
    "webhook": ("Webhooks", "Webhooks"),
    "people": ("People and account", "Άτομα και λογαριασμός"),
    "session": ("Sign-ins", "Συνδέσεις"),
}

# code: (kind, English, Greek). A dashboard verb and the API route that does the same share words.
ACTIONS = {
    "booking.create": ("booking", "made a booking", "καταχώρισε κράτηση"),
    "POST /bookings": ("booking", "made a booking", "καταχώρισε κράτηση"),
    "booking.update": ("booking", "changed a booking", "άλλαξε κράτηση"),
    "PATCH /bookings/{}": ("booking", "changed a booking", "άλλαξε κράτηση"),
    "booking.cancel": ("booking", "cancelled a booking", "ακύρωσε κράτηση"),
    "POST /bookings/{}/cancel": ("booking", "cancelled a booking", "ακύρωσε κράτηση"),
    "booking.import": ("booking", "imported a channel's reservations file",
                       "εισήγαγε αρχείο κρατήσεων πλατφόρμας"),
    "POST /imports": ("booking", "imported a channel's reservations file",
                      "εισήγαγε αρχείο κρατήσεων πλατφόρμας"),
    "booking.amount_kept": ("booking", "corrected the amount kept after a cancellation",
                            "διόρθωσε το ποσό που κρατήθηκε μετά από ακύρωση"),
    "checkin.resend": ("checkin", "e-mailed the check-in link to a guest",
                       "έστειλε τον σύνδεσμο check-in στον επισκέπτη"),
    "POST /checkins/resend": ("checkin", "e-mailed the check-in link to a guest",
                              "έστειλε τον σύνδεσμο check-in στον επισκέπτη"),
    "checkin.shared": ("checkin", "marked a check-in link as sent to the guest",
                       "σημείωσε ότι ο σύνδεσμος check-in δόθηκε στον επισκέπτη"),
    "POST /bookings/{}/checkin/shared": ("checkin", "marked a check-in link as sent to the guest",
                                         "σημείωσε ότι ο σύνδεσμος check-in δόθηκε στον επισκέπτη"),
    "access_instructions.shown": ("checkin", "was shown the access instructions",
                                  "είδε τις οδηγίες πρόσβασης"),
    "access_instructions.emailed": ("checkin", "was e-mailed the access instructions",
                                    "έλαβε με e-mail τις οδηγίες πρόσβασης"),
    "checkin.reminded": ("checkin", "was reminded by e-mail to complete check-in",
                         "έλαβε υπενθύμιση με e-mail να ολοκληρώσει το check-in"),
    "police.refile": ("checkin", "filed a stay with the police again",
                      "υπέβαλε ξανά διαμονή στην αστυνομία"),
    "POST /bookings/{}/police/refile": ("checkin", "filed a stay with the police again",
                                        "υπέβαλε ξανά διαμονή στην αστυνομία"),
    "police.filed": ("checkin", "marked a police filing as done",
                     "σημείωσε δήλωση στην αστυνομία ως υποβληθείσα"),
    "POST /bookings/{}/police/filed": ("checkin", "marked a police filing as done",
                                       "σημείωσε δήλωση στην αστυνομία ως υποβληθείσα"),
    # A filing by its id (the Filings page, POST /filings/{id}/...): a booking's or a period's.
    "filing.refile": ("checkin", "filed a filing with its authority again",
                      "υπέβαλε ξανά μια δήλωση στην αρχή της"),
    "POST /filings/{}/refile": ("checkin", "filed a filing with its authority again",
                                "υπέβαλε ξανά μια δήλωση στην αρχή της"),
    "filing.filed": ("checkin", "marked a filing uploaded by hand as done",
                     "σημείωσε δήλωση που ανέβηκε με το χέρι ως υποβληθείσα"),
    "POST /filings/{}/filed": ("checkin", "marked a filing uploaded by hand as done",
                               "σημείωσε δήλωση που ανέβηκε με το χέρι ως υποβληθείσα"),
    "property.create": ("property", "added a property", "πρόσθεσε κατάλυμα"),
    "POST /properties": ("property", "added a property", "πρόσθεσε κατάλυμα"),
    "property.update": ("property", "changed a property", "άλλαξε κατάλυμα"),
    "PATCH /properties/{}": ("property", "changed a property", "άλλαξε κατάλυμα"),
    "property.access_instructions_read": ("property", "read a property's access instructions",
                                          "διάβασε τις οδηγίες πρόσβασης ενός καταλύματος"),
    "property.closed_days": ("property", "closed or reopened days of a property",
                             "έκλεισε ή άνοιξε ξανά ημέρες καταλύματος"),
    "PUT /properties/{}/closed-days": ("property", "closed or reopened days of a property",
                                       "έκλεισε ή άνοιξε ξανά ημέρες καταλύματος"),
    "property.listing_alias_add": ("property", "gave a property a listing name of a channel's files",
                                   "έδωσε σε κατάλυμα όνομα καταχώρισης των αρχείων πλατφόρμας"),
    "POST /properties/{}/listing-aliases": (
        "property", "gave a property a listing name of a channel's files",
        "έδωσε σε κατάλυμα όνομα καταχώρισης των αρχείων πλατφόρμας"),
    "property.listing_alias_remove": ("property", "removed a listing name of a property",
                                      "αφαίρεσε όνομα καταχώρισης καταλύματος"),
    "DELETE /properties/{}/listing-aliases/{}": ("property", "removed a listing name of a property",
                                                 "αφαίρεσε όνομα καταχώρισης καταλύματος"),
    "property.access_instructions": ("property", "changed a property's access instructions",
                                     "άλλαξε τις οδηγίες πρόσβασης καταλύματος"),
    "property.rotate_export_url": ("property", "gave a property's calendar a new address",
                                   "έδωσε νέα διεύθυνση στο ημερολόγιο καταλύματος"),
    "POST /properties/{}/ical-token": ("property", "gave a property's calendar a new address",
                                       "έδωσε νέα διεύθυνση στο ημερολόγιο καταλύματος"),
    "property.rotate_checkin_link": ("property", "gave a property's check-in link a new address",
                                     "έδωσε νέο σύνδεσμο check-in σε κατάλυμα"),
    "POST /properties/{}/checkin-link/rotate": ("property",
                                                "gave a property's check-in link a new address",
                                                "έδωσε νέο σύνδεσμο check-in σε κατάλυμα"),
    "channel.add": ("property", "connected a channel calendar", "σύνδεσε ημερολόγιο καναλιού"),
    "POST /properties/{}/channels": ("property", "connected a channel calendar",
                                     "σύνδεσε ημερολόγιο καναλιού"),
    "channel.delete": ("property", "removed a channel calendar", "αφαίρεσε ημερολόγιο καναλιού"),
    "DELETE /properties/{}/channels/{}": ("property", "removed a channel calendar",
                                          "αφαίρεσε ημερολόγιο καναλιού"),
    "channel.accept_removals": ("property", "accepted the removals a sync held back",
                                "αποδέχτηκε τις αφαιρέσεις που κράτησε ο συγχρονισμός"),
    "POST /properties/{}/channels/{}/accept-removals": (
        "property", "accepted the removals a sync held back",
        "αποδέχτηκε τις αφαιρέσεις που κράτησε ο συγχρονισμός"),
    "sync.trigger": ("property", "synced every channel calendar now",
                     "συγχρόνισε τώρα όλα τα ημερολόγια"),
    "POST /sync/trigger": ("property", "synced every channel calendar now",
                           "συγχρόνισε τώρα όλα τα ημερολόγια"),
    "report.generate": ("report", "generated a tax report", "δημιούργησε φορολογική αναφορά"),
    "POST /reports": ("report", "generated a tax report", "δημιούργησε φορολογική αναφορά"),
    "report.submitted": ("report", "marked a tax report as filed with AADE",
                         "σημείωσε φορολογική αναφορά ως υποβληθείσα στην ΑΑΔΕ"),
    "POST /reports/{}/submission": ("report", "marked a tax report as filed with AADE",
                                    "σημείωσε φορολογική αναφορά ως υποβληθείσα στην ΑΑΔΕ"),
    "api_key.create": ("api_key", "made an API key", "δημιούργησε κλειδί API"),
    "api_key.rotate": ("api_key", "replaced an API key", "αντικατέστησε κλειδί API"),
    "api_key.revoke": ("api_key", "revoked an API key", "ανακάλεσε κλειδί API"),
    "webhook.create": ("webhook", "registered a webhook endpoint", "καταχώρισε webhook"),
    "POST /webhooks": ("webhook", "registered a webhook endpoint", "καταχώρισε webhook"),
    "webhook.update": ("webhook", "changed a webhook endpoint", "άλλαξε webhook"),
    "PATCH /webhooks/{}": ("webhook", "changed a webhook endpoint", "άλλαξε webhook"),
    "webhook.delete": ("webhook", "deleted a webhook endpoint", "διέγραψε webhook"),
    "DELETE /webhooks/{}": ("webhook", "deleted a webhook endpoint", "διέγραψε webhook"),
    "webhook.test": ("webhook", "sent a test to a webhook endpoint", "έστειλε δοκιμή σε webhook"),
    "POST /webhooks/{}/test": ("webhook", "sent a test to a webhook endpoint",
                               "έστειλε δοκιμή σε webhook"),
    "webhook.rotate_secret": ("webhook", "gave a webhook endpoint a new secret",
                              "έδωσε νέο μυστικό σε webhook"),
    "POST /webhooks/{}/rotate-secret": ("webhook", "gave a webhook endpoint a new secret",
                                        "έδωσε νέο μυστικό σε webhook"),
    "webhook.enable": ("webhook", "enabled a webhook endpoint", "ενεργοποίησε webhook"),
    "webhook.disable": ("webhook", "disabled a webhook endpoint", "απενεργοποίησε webhook"),
    "webhook.resend": ("webhook", "sent a webhook delivery again", "ξαναέστειλε παράδοση webhook"),
    "account.smtp": ("people", "set up the account's mail server",
                     "ρύθμισε τον διακομιστή e-mail του λογαριασμού"),
    "account.smtp_forgotten": ("people", "went back to the server's mail settings",
                               "επέστρεψε στις ρυθμίσεις e-mail του διακομιστή"),
    "account.contact": ("people", "changed the host contact in guests' e-mails",
                        "άλλαξε τα στοιχεία επικοινωνίας στα e-mail των επισκεπτών"),
    "account.controller": ("people", "changed the data controller named to guests",
                           "άλλαξε τον υπεύθυνο επεξεργασίας που βλέπουν οι επισκέπτες"),
    "account.reminders": ("people", "changed the check-in reminders",
                          "άλλαξε τις υπενθυμίσεις check-in"),
    "account.message_template": ("people", "changed the text of a guest e-mail",
                                 "άλλαξε το κείμενο ενός e-mail προς επισκέπτες"),
    "account.message_template_reset": ("people", "reset the text of a guest e-mail to the default",
                                       "επανέφερε το προεπιλεγμένο κείμενο ενός e-mail προς επισκέπτες"),
    "account.name": ("people", "renamed the account", "μετονόμασε τον λογαριασμό"),
    "account.timezone": ("people", "changed the account's time zone",
                         "άλλαξε τη ζώνη ώρας του λογαριασμού"),
    "account.morning_email_on": ("people", "turned the owners' morning e-mail on",
                                 "ενεργοποίησε το πρωινό e-mail των ιδιοκτητών"),
    "account.morning_email_off": ("people", "turned the owners' morning e-mail off",
                                  "απενεργοποίησε το πρωινό e-mail των ιδιοκτητών"),
    "account.document_images_on": ("people", "turned keeping guests' document images on",
                                   "ενεργοποίησε τη φύλαξη εικόνων εγγράφων επισκεπτών"),
    "account.document_images_off": ("people", "turned keeping guests' document images off",
                                    "απενεργοποίησε τη φύλαξη εικόνων εγγράφων επισκεπτών"),
    "account.code_tables_refreshed": ("people", "refreshed the police code tables",
                                      "ανανέωσε τους πίνακες κωδικών της αστυνομίας"),
    "user.invite": ("people", "invited a colleague", "προσκάλεσε συνεργάτη"),
    "user.role": ("people", "changed a colleague's role", "άλλαξε τον ρόλο συνεργάτη"),
    "user.disable": ("people", "disabled a colleague", "απενεργοποίησε συνεργάτη"),
    "user.enable": ("people", "enabled a colleague again", "ενεργοποίησε ξανά συνεργάτη"),
    "user.password_link": ("people", "e-mailed a colleague a new password link",
                           "έστειλε σε συνεργάτη σύνδεσμο για νέο κωδικό"),
    "user.password_reset_requested": ("session", "asked for a new password by e-mail",
                                      "ζήτησε νέο κωδικό με e-mail"),
    "session.sign_in": ("session", "signed in", "συνδέθηκε"),
    "session.sign_in_failed": ("session", "failed to sign in (wrong password)",
                               "απέτυχε να συνδεθεί (λάθος κωδικός)"),
    "session.sign_out": ("session", "signed out", "αποσυνδέθηκε"),
}


def normal_code(action: str) -> str:
    """`POST /api/v1/bookings/<booking_id>/cancel` → `POST /bookings/{}/cancel`."""
    code = re.sub(r"<[^>]+>", "{}", action)
    return re.sub(r"^(\w+) /api/v1/", r"\1 /", code)


def describe(action: str, lang: str) -> str:
    if action in systemlog.EVENTS:
        return systemlog.describe(action, lang)
    found = ACTIONS.get(normal_code(action))
    if found is None:  # a code this build has no words for: shown as it is, never hidden
        return action
    return found[2] if lang == "el" else found[1]


def kind_of(action: str) -> str | None:
    if action in systemlog.EVENTS:
        return systemlog.EVENTS[action][0]
    found = ACTIONS.get(normal_code(action))
    return found[0] if found else None


def kind_name(kind: str, lang: str) -> str:
    return KINDS[kind][1 if lang == "el" else 0]


def link_for(action: str, resource_id: str | None) -> str | None:
    """The dashboard page of what the row names, when there is one."""
    if not resource_id:
        return None
    prefix = resource_id.split("_", 1)[0]
    if resource_id.startswith("rep_"):
        return f"/dashboard/reports/{resource_id}"
    pages = {"book": "/dashboard/bookings/{}", "prop": "/dashboard/properties/{}",
             "wh": "/dashboard/settings/webhooks/{}", "key": "/dashboard/settings/keys#{}",
             "usr": "/dashboard/settings/account#{}", "pf": "/dashboard/filings#{}"}
    if prefix in pages:
        return pages[prefix].format(resource_id)
    return None


def find(account_id: str, *, actor: str | None = None, kind: str | None = None,
         date_from: dt.date | None = None, date_to: dt.date | None = None,
         timezone: str = "UTC", page: int = 1, limit: int = 50) -> tuple[list[Entry], bool]:
    """One page of the account's activity, newest first, filtered; and whether there is more:
    what people did (the log) and what the system did (the outbox's events, systemlog.py).
    Days are the account's (`timezone`), as the page shows the times."""
    import zoneinfo
    zone = zoneinfo.ZoneInfo(timezone)

    def utc_midnight(day: dt.date) -> dt.datetime:
        local = dt.datetime.combine(day, dt.time(), tzinfo=zone)
        return local.astimezone(dt.timezone.utc).replace(tzinfo=None)

    since = utc_midnight(date_from) if date_from else None
    until = utc_midnight(date_to + dt.timedelta(days=1)) if date_to else None
    wanted = page * limit + 1  # enough of each source to fill this page after the merge
    entries: list[Entry] = []
    if actor != systemlog.SYSTEM:
        query = Activity.select().where(Activity.account == account_id)
        if actor:
            query = query.where(Activity.actor_id == actor)
        if since:
            query = query.where(Activity.created_at >= since)
        if until:
            query = query.where(Activity.created_at < until)
        query = query.order_by(Activity.created_at.desc(), Activity.id.desc())
        if kind:
            # The kind is a property of the words, not a column: filtered over a bounded scan.
            rows = [row for row in query.limit(5000) if kind_of(row.action) == kind][:wanted]
        else:
            rows = list(query.limit(wanted))
        entries += [_entry_of(row) for row in rows]
    if not actor or actor == systemlog.SYSTEM:
        entries += systemlog.entries(account_id, kind=kind, since=since, until=until,
                                     limit=wanted)
    entries.sort(key=lambda e: e.at, reverse=True)
    start = (page - 1) * limit
    return entries[start:start + limit], len(entries) > start + limit


def _entry_of(row: Activity) -> Entry:
    return Entry(at=row.created_at, actor_type=row.actor_type, actor_id=row.actor_id,
                 actor_label=row.actor_label, action=row.action, resource_id=row.resource_id,
                 link=link_for(row.action, row.resource_id))


def actors(account_id: str) -> list[tuple[str, str, str]]:
    """(type, id, label) of the users and keys who appear in the account's log (a guest shown
    the access instructions is one booking's, found through the booking)."""
    seen = (Activity.select(Activity.actor_type, Activity.actor_id, Activity.actor_label)
            .where((Activity.account == account_id) & (Activity.actor_type != "guest")).distinct())
    found = {}
    for row in seen:
        found.setdefault(row.actor_id, (row.actor_type, row.actor_id, row.actor_label))
    return sorted(found.values(), key=lambda a: (a[0] != "user", a[2].lower()))
