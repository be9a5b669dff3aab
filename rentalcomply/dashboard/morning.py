"""The morning e-mail: what needs a person today, to each owner of an account, in its morning.

Every 15 minutes the worker (tasks.py) asks `due()` for the accounts whose local time (the
account's time zone, as the pages resolve it) has passed `dashboard.morning_email_hour` and whose
morning of that local date was not looked at yet. `look()` reads the list the Today page shows
(service.today: the same function, so the e-mail and the page never disagree) and records the
(account, local date) in `dashboard_morning_mail`, whose key only one worker can insert: two
workers looking at the same morning send it once. When the list is not empty, one e-mail per owner
(active, with an address) is queued; `send()` writes it in the owner's language from the list as
it is then, and hands it to the same SMTP code as every other e-mail (checkin.mail.deliver).

A morning is looked at once: an account with nothing to list at that moment gets no e-mail that
day, even if something needs a person later (the Today page shows it). At most once, too: the
morning is recorded before its e-mails are queued, so a process that stops in between loses that
morning's e-mails rather than sending them twice; a transient SMTP failure is retried by the task.
"""

from __future__ import annotations

import dataclasses
import datetime as dt
import html
import zoneinfo
from email.message import EmailMessage

import peewee as pw

from rentalcomply.core import clock, mailer
from rentalcomply.core.db import atomic
from rentalcomply.core.models import Account, Booking
from rentalcomply.dashboard import i18n, mail, mailviews, problems, service
from rentalcomply.dashboard import police_words
from rentalcomply.dashboard.police_words import booking_reason
from rentalcomply.dashboard.models import (DashboardAccountSetting, DashboardMorningMail,
                                           DashboardUser)

# The headings of the Today page (today.tpl), by kind of Today.needing_a_person.
HEADINGS = {
    "unfiled": police_words.UNFILED_HEADING,
    "invitations_failed": "Check-in e-mails that did not reach the guest",
    "access_failed": "Access instructions that did not reach the guest",
    "checkins_due": "Check-ins not done, arrival within 48 hours",
    "documents_flagged": "Documents expired or expiring before departure",
    "police_setups": "Police filing on, set-up not complete",
    "no_registration": "Properties whose guests are not being filed",
    "cin_missing": "Italian properties without their CIN",
    "region_missing": "Properties whose region is unknown",
    "capacity_missing": "Italian properties without rooms and beds",
    "period_filings": "Statistics and tax returns to see to",
    "wrong_authority": "Properties filing with the wrong police authority",
    "licence_missing": "Spanish properties without their licence number",
    "filings": "Police filings rejected, failed or at risk",
    "reports_due": "Tax reports due within 5 days or overdue",
    "connections_in_error": "Channel connections in error",
    "failing_webhooks": "Failing webhook endpoints",
    "tax_to_collect": "Tourist tax to collect from today’s arrivals",
}


@dataclasses.dataclass
class Line:
    """One thing that needs a person: its name (the link's text), what to know, where to act."""
    label: str
    details: str
    url: str
    # What to do, each (words, address): a deadline's "Send the link again", "Enter the party by
    # hand" (police_words.unfiled_actions).
    actions: list = dataclasses.field(default_factory=list)


# --- which mornings are due, and who gets them --------------------------------------------------

def local_now(account_id: str, now: dt.datetime | None = None) -> dt.datetime:
    """The account's wall-clock time (naive) in its zone: its setting, else its first property's,
    else UTC (service.account_timezone, as the pages show times)."""
    now = now or clock.utcnow()
    try:
        zone = zoneinfo.ZoneInfo(service.account_timezone(account_id))
    except (zoneinfo.ZoneInfoNotFoundError, ValueError):  # a zone this system lacks: its pages
        zone = dt.timezone.utc                             # show UTC too (i18n._zone)
    return now.replace(tzinfo=dt.timezone.utc).astimezone(zone).replace(tzinfo=None)


def due(hour: int, now: dt.datetime | None = None) -> list[tuple[str, dt.date]]:
    """(account, local date) of each morning to look at now: the account's local time is at or
    past `hour` and that local date's morning was not looked at; accounts whose owners turned the
    e-mail off are left out."""
    now = now or clock.utcnow()
    off = {row.account_id for row in DashboardAccountSetting.select(
        DashboardAccountSetting.account).where(DashboardAccountSetting.morning_email == False)}  # noqa: E712 - SQL
    # Local dates are at most a day either side of UTC's.
    looked_at = {(row.account_id, row.local_date) for row in DashboardMorningMail.select(
        DashboardMorningMail.account, DashboardMorningMail.local_date).where(
        DashboardMorningMail.local_date >= now.date() - dt.timedelta(days=1))}
    found = []
    for account in Account.select(Account.id).order_by(Account.id):
        if account.id in off:
            continue
        local = local_now(account.id, now)
        if local.hour >= hour and (account.id, local.date()) not in looked_at:
            found.append((account.id, local.date()))
    return found


def owners(account_id: str) -> list[DashboardUser]:
    """Who gets the e-mail: the account's owners who can sign in and have an address."""
    return list(DashboardUser.select().where(
        (DashboardUser.account == account_id) & (DashboardUser.role == "owner")
        & (DashboardUser.status == "active") & DashboardUser.email.is_null(False))
        .order_by(DashboardUser.created_at, DashboardUser.id))


def look(account_id: str, local_date: dt.date, now: dt.datetime | None = None) -> list[str]:
    """Record that the account's morning of `local_date` was looked at; the ids of the owners to
    e-mail (none when another worker recorded it first, or when nothing needs a person)."""
    now = now or clock.utcnow()
    count = service.today(account_id, now).needs_a_person
    recipients = [user.id for user in owners(account_id)] if count else []
    try:
        with atomic():
            DashboardMorningMail.insert(account=account_id, local_date=local_date, checked_at=now,
                                        items=count, recipients=len(recipients)).execute()
    except pw.IntegrityError:
        return []  # another worker has this morning
    return recipients


# --- the e-mail ------------------------------------------------------------------------------------

def lines(day: service.Today, lang: str, fmt: i18n.Formatter,
          dashboard_url: str) -> list[tuple[str, list[Line]]]:
    """The Today page's list as text, by its headings: what each item's page shows beside it."""
    t = lambda text, **values: i18n.translate(lang, text, **values)  # noqa: E731
    names = day.properties
    sections = []
    for kind, items in day.needing_a_person:
        if not items:
            continue
        shown = []
        for item in items:
            if kind == "unfiled":  # what the deadline is, what to do, where (the booking's page)
                booking_url = f"{dashboard_url}/bookings/{item.booking.id}"
                shown.append(Line(item.booking.guest_name, " · ".join(filter(None, [
                    names.get(item.booking.property_id, ""),
                    fmt.status(day.statuses.get(item.booking.id,
                                                "OVERDUE" if item.passed else "AT_RISK")),
                    police_words.unfiled_sentence(t, fmt, item) + " "
                    + police_words.unfiled_todo(t, item)])), booking_url,
                    [(t(words), url) for words, url in
                     police_words.unfiled_actions(item, booking_url)]))
            elif kind == "invitations_failed":
                booking, problem = item
                shown.append(Line(booking.guest_name, " · ".join(filter(None, [
                    names.get(booking.property_id, ""),
                    f"{t('arrives')} {fmt.date(booking.arrival_date)}", t("not delivered"),
                    t(mailviews.ADVICE[problem["fix"]])])),
                    f"{dashboard_url}/bookings/{booking.id}"))
            elif kind == "checkins_due":
                shown.append(Line(item.guest_name, " · ".join(filter(None, [
                    names.get(item.property_id, ""),
                    f"{t('arrives')} {fmt.date(item.arrival_date)}",
                    fmt.status(item.checkin_status)])), f"{dashboard_url}/bookings/{item.id}"))
            elif kind == "documents_flagged":
                booking, flag = item
                shown.append(Line(booking.guest_name, " · ".join(filter(None, [
                    names.get(booking.property_id, ""), problems.document(t, fmt, flag)])),
                    f"{dashboard_url}/bookings/{booking.id}"))
            elif kind == "police_setups":
                prop, lacking = item
                shown.append(Line(prop.name, t("missing: {fields}", fields=", ".join(
                    t(f.label) for f in lacking)),
                    f"{dashboard_url}/properties/{prop.id}#police-setup"))
            elif kind == "no_registration":
                shown.append(Line(item.name, t("Its guests are not being filed with the police: "
                                               "choose its police connector."),
                                  f"{dashboard_url}/properties/{item.id}"))
            elif kind == "period_filings":
                shown.append(Line(f"{item.property.name} · {item.period}",
                                  police_words.period_filing_sentence(t, fmt, item),
                                  f"{dashboard_url}/properties/{item.property.id}"
                                  f"#obligation-{item.authority}"))
            elif kind == "cin_missing":
                shown.append(Line(item.name, t(problems.CIN_MISSING),
                                  f"{dashboard_url}/properties/{item.id}#cin"))
            elif kind == "region_missing":
                shown.append(Line(item.name, t(problems.REGION_MISSING),
                                  f"{dashboard_url}/properties/{item.id}#region"))
            elif kind == "capacity_missing":
                shown.append(Line(item.name, t(problems.CAPACITY_MISSING),
                                  f"{dashboard_url}/properties/{item.id}#rooms"))
            elif kind == "licence_missing":
                shown.append(Line(item.name, t(problems.LICENCE_MISSING),
                                  f"{dashboard_url}/properties/{item.id}#licence_number"))
            elif kind == "wrong_authority":
                prop, owed = item
                shown.append(Line(prop.name, " · ".join([owed.title, t(problems.WRONG_AUTHORITY)]),
                                  f"{dashboard_url}/properties/{prop.id}#wrong-authority"))
            elif kind == "filings":
                status = day.statuses.get(item.id, item.report_status)
                held = police_words.held_sentences(t, item, item.report_error) \
                    if status == "HELD" else []
                shown.append(Line(item.guest_name, " · ".join(filter(None, [
                    names.get(item.property_id, ""), fmt.status(status),
                    " ".join(held) or booking_reason(t, item)])),
                    f"{dashboard_url}/bookings/{item.id}"))
            elif kind == "reports_due":
                report, due_date, late = item
                shown.append(Line(
                    fmt.period({"year": report.year, "month": report.month}),
                    " · ".join([t("due {date}", date=fmt.date(due_date)),
                                t("overdue") if late else fmt.status(report.status)]),
                    f"{dashboard_url}/reports/{report.code}"))
            elif kind == "connections_in_error":
                shown.append(Line(names.get(item.property_id, ""), " · ".join(filter(None, [
                    fmt.channel(item.provider), t(problems.feed(item.last_error) or "")])),
                    f"{dashboard_url}/properties/{item.property_id}"))
            elif kind == "failing_webhooks":
                shown.append(Line(item.url, t("disabled") if item.status == "disabled" else t(
                    "failing since {when}", when=fmt.datetime(item.failing_since)),
                    f"{dashboard_url}/settings/webhooks/{item.id}"))
            elif kind == "tax_to_collect":
                booking, tax = item
                shown.append(Line(booking.guest_name, " · ".join(filter(None, [
                    names.get(booking.property_id, ""), fmt.money(round(tax["amount"] * 100))])),
                    f"{dashboard_url}/bookings/{booking.id}#tourist-tax"))
            elif isinstance(item, Booking):  # a kind of booking Today learnt since
                shown.append(Line(item.guest_name, names.get(item.property_id, ""),
                                  f"{dashboard_url}/bookings/{item.id}"))
            else:  # anything else Today learnt since: named, and linked to the page
                shown.append(Line(str(getattr(item, "id", item)), "", f"{dashboard_url}/today"))
        sections.append((t(HEADINGS.get(kind, kind)), shown))
    return sections


def compose(settings, account: Account, user: DashboardUser, day: service.Today,
            local_date: dt.date, timezone: str) -> EmailMessage:
    lang = user.lang if user.lang in i18n.LANGUAGES else "en"
    t = lambda text, **values: i18n.translate(lang, text, **values)  # noqa: E731
    fmt = i18n.Formatter(lang, timezone)
    dashboard_url = settings.server.public_url + "/dashboard"
    today_url, account_url = dashboard_url + "/today", dashboard_url + "/settings/account"
    sections = lines(day, lang, fmt, dashboard_url)
    subject = f"{account.name}: {fmt.count('needs_a_person_today', day.needs_a_person)}"
    intro = t("Good morning. This is what needs a person at {account} today, {date}:",
              account=account.name, date=fmt.date(local_date))
    why = t("You receive this e-mail as an owner of {account}, on the mornings when something "
            "needs a person. An owner can turn it off on the account page:", account=account.name)
    message = mail.new_message(settings, lang, user.email, subject, account.id)
    text = [intro, ""]
    for heading, shown in sections:
        text.append(f"{heading} ({fmt.number(len(shown))})")
        for line in shown:
            text.append(f"- {line.label}" + (f" · {line.details}" if line.details else ""))
            text.append(f"  {line.url}")
            text += [f"  {words}: {url}" for words, url in line.actions]
        text.append("")
    text += [t("Open Today in the dashboard:"), today_url, "", why, account_url]
    message.set_content("\n".join(text) + "\n")
    message.add_alternative(_html(lang, subject, intro, sections, t, today_url, why, account_url),
                            subtype="html")
    # Making the message multipart moved its Content-* headers into the text part: say the
    # language of the whole message again.
    message["Content-Language"] = lang
    return message


def _html(lang, subject, intro, sections, t, today_url, why, account_url) -> str:
    e = html.escape
    parts = [f"""<!doctype html>
<html lang="{lang}"><head><meta charset="utf-8"><title>{e(subject)}</title></head>
<body style="margin:0;padding:24px;background:#f4f6f5;font-family:-apple-system,'Segoe UI',Roboto,Helvetica,Arial,sans-serif;color:#1b2421">
<div style="max-width:600px;margin:0 auto;background:#ffffff;border-radius:12px;padding:28px">
<p style="font-size:16px;line-height:1.5">{e(intro)}</p>"""]
    for heading, shown in sections:
        parts.append(f'<h2 style="font-size:16px;margin:20px 0 6px">{e(heading)} '
                     f'({len(shown)})</h2><ul style="padding-left:20px;line-height:1.5">')
        for line in shown:
            details = f" · {e(line.details)}" if line.details else ""
            actions = "".join(f' · <a href="{e(url)}" style="color:#0b5f5a">{e(words)}</a>'
                              for words, url in line.actions)
            actions = f"<br>{actions[3:]}" if actions else ""
            parts.append(f'<li><a href="{e(line.url)}" style="color:#0b5f5a">{e(line.label)}</a>'
                         f"{details}{actions}</li>")
        parts.append("</ul>")
    parts.append(f"""<p style="margin:28px 0"><a href="{e(today_url)}" style="background:#0b5f5a;color:#ffffff;text-decoration:none;padding:14px 22px;border-radius:8px;font-weight:600;display:inline-block">{e(t("Open Today in the dashboard"))}</a></p>
<p style="font-size:13px;color:#4a5753;line-height:1.5">{e(why)} <a href="{e(account_url)}" style="color:#0b5f5a">{e(account_url)}</a></p>
</div></body></html>
""")
    return "\n".join(parts)


def send(settings, account_id: str, user_id: str, local_date: dt.date) -> bool:
    """The owner's e-mail of that morning, from the list as it is now; False when there is no
    longer anything to list or anyone to send it to. Raises checkin.mail.DeliveryFailed."""
    user = DashboardUser.get_or_none((DashboardUser.id == user_id)
                                     & (DashboardUser.account == account_id))
    if user is None or user.role != "owner" or user.status != "active" or not user.email:
        return False
    day = service.today(account_id)
    if not day.needs_a_person:
        return False
    account = Account.get_by_id(account_id)
    mailer.deliver(settings, compose(settings, account, user, day, local_date,
                                     service.account_timezone(account_id)), account_id)
    return True
