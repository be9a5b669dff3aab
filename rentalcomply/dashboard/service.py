"""What the dashboard reads and changes beyond the other capabilities' own functions.

Every function takes the account id first and treats another account's ids as absent (NotFound),
like the API. Key changes go through accounts.service after the key is found in the account;
everything else the pages do calls the capability's service directly.
"""

from __future__ import annotations

import calendar as _calendar
import dataclasses
import datetime as dt

from rentalcomply.accounts import service as accounts
from rentalcomply.bookings import service as bookings
from rentalcomply.checkin import access
from rentalcomply.checkin import service as checkin
from rentalcomply.checkin.models import Checkin
from rentalcomply.core import clock
from rentalcomply.core.checks import control_character_problem
from rentalcomply.core.db import models_from_query
from rentalcomply.core.errors import NotFound, ValidationError
from rentalcomply.core.models import ApiKey, Booking, ChannelConnection, Property
from rentalcomply.dashboard import search
from rentalcomply.filings import obligations, periods
from rentalcomply.filings import registry as filing_registry
from rentalcomply.filings import setup as filing_setup
from rentalcomply.filings import standing
from rentalcomply.filings import views as filing_views
from rentalcomply.properties import service as properties
from rentalcomply.scan.models import DocumentFlag
from rentalcomply.taxes import service as taxes
from rentalcomply.webhooks.models import WebhookEndpoint

LOOKAHEAD_DAYS = 7
CHECKIN_DUE_HOURS = 48
PROBLEM_REPORT_STATUSES = ("REJECTED", "FAILED", "AT_RISK")


# --- API keys of the account ---------------------------------------------------------------------

def get_key(account_id: str, key_id: str) -> ApiKey:
    record = ApiKey.get_or_none((ApiKey.id == key_id) & (ApiKey.account == account_id))
    if record is None:
        raise NotFound("No such API key.")
    return record


def list_keys(account_id: str) -> list[ApiKey]:
    return list(ApiKey.select().where(ApiKey.account == account_id)
                .order_by(ApiKey.created_at.desc(), ApiKey.id))


def create_key(account_id: str, name: str, scopes: list[str],
               expires_in_days: str | int | None) -> tuple[ApiKey, str]:
    details = []
    problem = control_character_problem(name) if isinstance(name, str) else None
    name = (name or "").strip()
    if problem:
        details.append({"field": "name", "message": problem})
    elif not name:
        details.append({"field": "name", "message": "give the key a name, to tell keys apart"})
    elif len(name) > 200:
        details.append({"field": "name", "message": "must be at most 200 characters"})
    if not scopes or any(scope not in accounts.SCOPES for scope in scopes):
        details.append({"field": "scopes", "message": "choose at least one scope"})
    days = None
    if expires_in_days not in (None, ""):
        try:
            days = int(expires_in_days)
        except (TypeError, ValueError):
            days = 0
        if not 1 <= days <= 3650:
            details.append({"field": "expires_in_days",
                            "message": "must be a number of days from 1 to 3650, or empty"})
    if details:
        raise ValidationError(details)
    try:
        return accounts.create_key(account_id, scopes, name=name, expires_in_days=days)
    except accounts.KeyError_ as exc:
        raise ValidationError("scopes", str(exc)) from None


def revoke_key(account_id: str, key_id: str) -> ApiKey:
    get_key(account_id, key_id)
    return accounts.revoke_key(key_id)


def rotate_key(account_id: str, key_id: str, grace_hours: int) -> tuple[ApiKey, str]:
    get_key(account_id, key_id)
    if grace_hours not in (0, 1, 24, 72, 168):
        raise ValidationError("grace_hours", "must be 0, 1, 24, 72 or 168")
    try:
        return accounts.rotate_key(key_id, grace_hours=grace_hours)
    except accounts.KeyError_ as exc:
        raise ValidationError("key", str(exc)) from None


# --- the account's preferences --------------------------------------------------------------------

def account_timezone(account_id: str) -> str:
    """Where the account's times are shown: its chosen zone, else its first property's, else UTC."""
    from rentalcomply.dashboard.models import DashboardAccountSetting
    chosen = DashboardAccountSetting.get_or_none(DashboardAccountSetting.account == account_id)
    if chosen is not None and chosen.timezone:
        return chosen.timezone
    first = (Property.select(Property.timezone).where(Property.account == account_id)
             .order_by(Property.created_at, Property.id).first())
    return first.timezone if first is not None and first.timezone else "UTC"


def set_account_timezone(account_id: str, timezone: str) -> str:
    import zoneinfo
    from rentalcomply.dashboard.models import DashboardAccountSetting
    timezone = (timezone or "").strip()
    if timezone not in zoneinfo.available_timezones():
        raise ValidationError("timezone", "must be a time zone like Europe/Athens")
    (DashboardAccountSetting.insert(account=account_id, timezone=timezone,
                                    updated_at=clock.utcnow())
     .on_conflict(conflict_target=[DashboardAccountSetting.account],
                  update={DashboardAccountSetting.timezone: timezone,
                          DashboardAccountSetting.updated_at: clock.utcnow()}).execute())
    return timezone


def morning_email_on(account_id: str) -> bool:
    """Whether the account's owners get the morning e-mail (on unless an owner turned it off)."""
    from rentalcomply.dashboard.models import DashboardAccountSetting
    chosen = DashboardAccountSetting.get_or_none(DashboardAccountSetting.account == account_id)
    return chosen is None or chosen.morning_email


def set_morning_email(account_id: str, on: bool) -> bool:
    from rentalcomply.dashboard.models import DashboardAccountSetting
    (DashboardAccountSetting.insert(account=account_id, timezone=None, morning_email=on,
                                    updated_at=clock.utcnow())
     .on_conflict(conflict_target=[DashboardAccountSetting.account],
                  update={DashboardAccountSetting.morning_email: on,
                          DashboardAccountSetting.updated_at: clock.utcnow()}).execute())
    return on


# --- the team's notes on bookings -----------------------------------------------------------------

NOTE_MAX = 2000


def note_problem(text: str) -> str | None:
    if len(text) > NOTE_MAX:
        return f"must be at most {NOTE_MAX} characters"
    from rentalcomply.core.checks import control_character_problem
    return control_character_problem(text.replace("\r\n", "\n"), multiline=True)


def booking_note(account_id: str, booking_id: str) -> str:
    from rentalcomply.dashboard.models import DashboardBookingNote
    found = DashboardBookingNote.get_or_none((DashboardBookingNote.booking == booking_id)
                                             & (DashboardBookingNote.account == account_id))
    return found.text if found else ""


def set_booking_note(account_id: str, booking_id: str, text: str) -> bool:
    """Keep (or clear, when empty) the note; True when it changed. Call after the booking was
    found in the account."""
    from rentalcomply.dashboard.models import DashboardBookingNote
    text = (text or "").replace("\r\n", "\n").strip()
    problem = note_problem(text)
    if problem:
        raise ValidationError("notes", problem)
    if text == booking_note(account_id, booking_id):
        return False
    DashboardBookingNote.delete().where(DashboardBookingNote.booking == booking_id).execute()
    if text:
        DashboardBookingNote.create(booking=booking_id, account=account_id, text=text,
                                    updated_at=clock.utcnow())
    return True


# --- bookings -------------------------------------------------------------------------------------

def find_bookings(account_id: str, *, property_id: str | None = None, status: str | None = None,
                  checkin_status: str | None = None, date_from: dt.date | None = None,
                  date_to: dt.date | None = None, guest: str | None = None):
    """The bookings list's filters: those of the API, and a guest: found as the header's search
    finds them (any guest of the party, without accents, any word order, e-mail, phone), as a
    part of the lead guest's name as typed, or by the channel's reservation code."""
    query = bookings.list_bookings(account_id, property_id=property_id, status=status,
                                   checkin_status=checkin_status, date_from=date_from,
                                   date_to=date_to)
    guest = (guest or "").strip()
    if guest:
        either = (Booking.guest_name.contains(guest) | (Booking.external_ref == guest)
                  | (Booking.id == guest))
        found = search.narrowed(Booking.select(Booking.id).where(Booking.account == account_id),
                                account_id, guest)
        if found is not None:
            either |= Booking.id.in_(found)
        query = query.where(either)
    return query


# --- today ---------------------------------------------------------------------------------------

@dataclasses.dataclass
class Today:
    arrivals: list
    departures: list
    checkins_due: list
    filings: list
    connections_in_error: list
    failing_webhooks: list
    properties: dict
    reports_due: list  # of (Report, due date, overdue)
    # Bookings whose guest did not get the e-mail with their link (refused, failed), with what
    # to do: of (Booking, checkin.service.invitation_problem).
    invitations_failed: list = dataclasses.field(default_factory=list)
    # Bookings whose guest did not get the e-mail with the access instructions: of (Booking,
    # checkin.access.delivery_problem).
    access_failed: list = dataclasses.field(default_factory=list)
    # Properties that file with the police online but lack part of their set-up: nothing can be
    # sent for them; of (Property, the missing filings.setup.SetupField).
    police_setups: list = dataclasses.field(default_factory=list)
    # Stays not over whose guest scanned a document that has expired or expires before departure
    # (scan/): the host asks for another document; of (Booking, scan.models.DocumentFlag).
    documents_flagged: list = dataclasses.field(default_factory=list)
    # Police deadlines near or passed with nothing that can be filed yet: a party that has not
    # checked in, a Spanish reservation without its holder (filings.standing.Unfiled).
    unfiled: list = dataclasses.field(default_factory=list)
    # Each listed booking's police status as every page says it (standing.shown_status).
    statuses: dict = dataclasses.field(default_factory=dict)
    # Active Italian properties without their CIN (properties.service.italian_without_cin): a
    # fine for each let without one, and nothing for the guest page or the feed to show.
    cin_missing: list = dataclasses.field(default_factory=list)
    # Active Italian and Spanish properties whose region is unknown (properties.service.
    # region_unknown): which region's statistics and police rules apply cannot be known.
    region_missing: list = dataclasses.field(default_factory=list)
    # Active Italian properties without rooms or beds (properties.service.capacity_missing): the
    # month's tourism statistics report them.
    capacity_missing: list = dataclasses.field(default_factory=list)
    # Active properties of a filing country (IT, ES, PT) with no police registration chosen:
    # their guests are not being filed (filings.obligations.without_registration).
    no_registration: list = dataclasses.field(default_factory=list)
    # Period filings (a month's statistics) held, ready to upload, refused, failed, or near their
    # deadline (filings.periods.needing_a_person), each with its property.
    period_filings: list = dataclasses.field(default_factory=list)
    # Active Spanish properties without their tourism licence number
    # (properties.service.spanish_without_licence): every listing must show it.
    licence_missing: list = dataclasses.field(default_factory=list)
    # Active properties on another authority than their region's (a Catalan property still on
    # SES.Hospedajes): the host confirms the move; of (Property, the Authority owed).
    wrong_authority: list = dataclasses.field(default_factory=list)
    # Today's arrivals whose tourist tax is still to collect: (booking, its `tourist_tax`).
    tax_to_collect: list = dataclasses.field(default_factory=list)

    @property
    def needing_a_person(self) -> list[tuple[str, list]]:
        """What needs a person, by kind, in the order the Today page and the morning e-mail
        (morning.py) list it: the one place that says what counts."""
        return [("unfiled", self.unfiled),
                ("invitations_failed", self.invitations_failed),
                ("access_failed", self.access_failed),
                ("checkins_due", self.checkins_due),
                ("documents_flagged", self.documents_flagged),
                ("police_setups", self.police_setups),
                ("no_registration", self.no_registration),
                ("cin_missing", self.cin_missing),
                ("region_missing", self.region_missing),
                ("capacity_missing", self.capacity_missing),
                ("period_filings", self.period_filings),
                ("wrong_authority", self.wrong_authority),
                ("licence_missing", self.licence_missing),
                ("filings", self.filings),
                ("reports_due", self.reports_due),
                ("connections_in_error", self.connections_in_error),
                ("failing_webhooks", self.failing_webhooks),
                ("tax_to_collect", self.tax_to_collect)]

    @property
    def needs_a_person(self) -> int:
        return sum(len(items) for _, items in self.needing_a_person)


def account_day(account_id: str, now: dt.datetime | None = None) -> dt.date:
    """The date it is where the account lives (its time zone, account_timezone): near midnight
    UTC's date is a day off in zones far from it (Auckland, Los Angeles)."""
    import zoneinfo
    now = now or clock.utcnow()
    try:
        zone = zoneinfo.ZoneInfo(account_timezone(account_id))
    except (zoneinfo.ZoneInfoNotFoundError, ValueError):  # a zone this system lacks: UTC, as
        zone = dt.timezone.utc                             # its pages show (i18n._zone)
    return now.replace(tzinfo=dt.timezone.utc).astimezone(zone).date()


def today(account_id: str, now: dt.datetime | None = None) -> Today:
    now = now or clock.utcnow()
    start = account_day(account_id, now)  # the account's today, not UTC's
    end = start + dt.timedelta(days=LOOKAHEAD_DAYS)
    live = ((Booking.account == account_id) & (Booking.is_block == False)  # noqa: E712 - SQL
            & (Booking.status == "confirmed"))
    due_by = start + dt.timedelta(days=CHECKIN_DUE_HOURS // 24)  # the account's day after tomorrow
    # One query for the week's arrivals and departures, shared out here: three queries building
    # the same hundreds of rows took most of the page's time in a busy account.
    week = _bookings(Booking.select().where(
        live & (((Booking.arrival_date >= start) & (Booking.arrival_date < end))
                | ((Booking.departure_date >= start) & (Booking.departure_date < end)))))
    arrivals = sorted((b for b in week if start <= b.arrival_date < end),
                      key=lambda b: (b.arrival_date, b.id))
    departures = sorted((b for b in week if start <= b.departure_date < end),
                        key=lambda b: (b.departure_date, b.id))
    # The guest has no link yet because its e-mail did not go: a person must fix the address, the
    # mail server, or share the link another way. Listed once, here rather than among the
    # check-ins due.
    unmailed = _bookings(Booking.select().where(
        live & Booking.checkin_error.is_null(False) & (Booking.departure_date >= start)
        & (Booking.checkin_status == "NOT_STARTED"))
        .order_by(Booking.arrival_date, Booking.id).limit(100))
    invitations_failed = [(b, checkin.invitation_problem(b)) for b in unmailed]
    unmailed_ids = {b.id for b in unmailed}
    # A deadline near or passed with nothing to file yet: listed there, with what to do, rather
    # than again among the check-ins due or the filings at risk.
    unfiled = standing.unfiled(account_id, now)
    unfiled_ids = {item.booking.id for item in unfiled}
    # Arriving within 48 hours (today, tomorrow, the day after) without a completed check-in.
    checkins_due = [b for b in arrivals
                    if b.arrival_date <= due_by and b.checkin_status != "COMPLETED"
                    and b.id not in unmailed_ids and b.id not in unfiled_ids]
    filings = _bookings(Booking.select().where(
        (Booking.account == account_id) & Booking.report_status.in_(PROBLEM_REPORT_STATUSES))
        .order_by(Booking.arrival_date.desc(), Booking.id).limit(100))
    filings += [b for b in filing_views.at_risk_bookings(account_id)
                if b.id not in {f.id for f in filings}]
    filings += [b for b in filing_views.held_bookings(account_id)
                if b.id not in {f.id for f in filings}]
    filings = [b for b in filings if b.id not in unfiled_ids]
    # The views above mark report_status for display; the status every page says is this one.
    statuses = standing.shown_statuses(
        filings + arrivals + departures + [item.booking for item in unfiled], now)
    connections = list(ChannelConnection.select().where(
        (ChannelConnection.account == account_id) & (ChannelConnection.status == "error"))
        .order_by(ChannelConnection.created_at))
    webhooks = list(WebhookEndpoint.select().where(
        (WebhookEndpoint.account == account_id)
        & (WebhookEndpoint.failing_since.is_null(False) | (WebhookEndpoint.status == "disabled")))
        .order_by(WebhookEndpoint.created_at))
    names = property_names(account_id)
    return Today(arrivals, departures, checkins_due, filings, connections, webhooks, names,
                 reports_due(account_id), invitations_failed,
                 _access_failed(account_id, live, start),
                 filing_setup.incomplete_properties(account_id),
                 _documents_flagged(account_id, live, start), unfiled, statuses,
                 cin_missing=properties.italian_without_cin(account_id),
                 region_missing=properties.region_unknown(account_id),
                 capacity_missing=properties.capacity_missing(account_id),
                 no_registration=obligations.without_registration(account_id),
                 period_filings=periods.needing_a_person(account_id, now),
                 licence_missing=properties.spanish_without_licence(account_id),
                 wrong_authority=_wrong_authority(account_id),
                 tax_to_collect=taxes.to_collect([b for b in arrivals if b.arrival_date == start]))


def _wrong_authority(account_id: str) -> list:
    """The account's active properties whose region has its own police authority while they file
    with another (filings.registry.on_wrong_authority), by name."""
    found = []
    for prop in (Property.select().where((Property.account == account_id)
                                         & (Property.status == "active")
                                         & Property.region.is_null(False)
                                         & (Property.police_connector != "none"))
                 .order_by(Property.name, Property.id)):
        owed = filing_registry.on_wrong_authority(prop)
        if owed is not None:
            found.append((prop, owed))
    return found


def _documents_flagged(account_id: str, live, start: dt.date) -> list:
    """The scanned documents that expired or expire before departure, of stays not over.

    Flags are few: the query starts from them (one look when there are none), not from the
    account's bookings, which cost a busy account's Today 2 ms a view."""
    if not DocumentFlag.select().exists():
        return []
    flags = list(DocumentFlag.select(DocumentFlag, Booking)
                 .join(Booking, on=(DocumentFlag.booking == Booking.id))
                 .where(live & (Booking.departure_date >= start)
                        & Booking.id.in_(DocumentFlag.select(DocumentFlag.booking)))
                 .order_by(Booking.arrival_date, Booking.id, DocumentFlag.guest_index).limit(100))
    return [(flag.booking, flag) for flag in flags]


def _access_failed(account_id: str, live, start: dt.date) -> list:
    """The stays not over whose access e-mail did not go (checkin/access.py), with why: the few
    failed check-ins found by their index, not by reading every booking of the account."""
    failed_ids = [booking_id for (booking_id,) in Checkin.select(Checkin.booking).where(
        Checkin.access_failed_at.is_null(False) & (Checkin.account == account_id)).tuples()]
    if not failed_ids:  # the usual morning: one look at the index
        return []
    failed = _bookings(Booking.select().where(
        live & Booking.id.in_(failed_ids) & (Booking.departure_date >= start))
        .order_by(Booking.arrival_date, Booking.id).limit(100))
    return [(b, problem) for b in failed if (problem := access.delivery_problem(b))]


def _bookings(query) -> list[Booking]:
    """The query's bookings, built from plain rows: peewee's own model building per row cost more
    than the database's work for the hundreds of stays a busy account's pages show."""
    return models_from_query(query)


REPORT_DUE_DAYS = 5


def reports_due(account_id: str) -> list:
    """Monthly reports not yet filed whose declaration is due within 5 days, or overdue."""
    from rentalcomply.authorities.aade.building import stays_due_date
    from rentalcomply.reports import periods
    from rentalcomply.reports.models import Report
    today_ = periods.local_today()
    found = []
    for report in (Report.select().where((Report.account == account_id)
                                         & Report.month.is_null(False)
                                         & (Report.status != "submitted"))
                   .order_by(Report.year, Report.month)):
        due = stays_due_date(report.year, report.month)
        if due is not None and due <= today_ + dt.timedelta(days=REPORT_DUE_DAYS):
            found.append((report, due, today_ > due))
    return found


def property_names(account_id: str) -> dict[str, str]:
    return {p.id: p.name for p in Property.select(Property.id, Property.name)
            .where(Property.account == account_id)}


# --- calendar ------------------------------------------------------------------------------------

@dataclasses.dataclass
class Stay:
    booking: Booking
    conflict: bool


@dataclasses.dataclass
class Day:
    date: dt.date
    in_month: bool
    stays: list  # of Stay
    conflict: bool


def month_of(value: str | None, today: dt.date | None = None) -> tuple[int, int]:
    """`YYYY-MM`, else the month of `today` (the account's day: account_day); a bad value is a
    ValidationError."""
    if not value:
        today_ = today or clock.today()
        return today_.year, today_.month
    try:
        year, month = (int(part) for part in value.split("-"))
        dt.date(year, month, 1)
    except ValueError:
        raise ValidationError("month", "must be a month like 2027-06") from None
    if not 2000 <= year <= 2100:
        raise ValidationError("month", "must be a month like 2027-06")
    return year, month


def month_grid(account_id: str, property_id: str, year: int, month: int) -> list[list[Day]]:
    """The weeks (Monday first) covering the month, each day with the stays occupying its night;
    stays of one night that overlap another confirmed stay or block are marked as conflicts."""
    from rentalcomply.properties import service as properties
    properties.get_property(account_id, property_id)
    weeks = _calendar.Calendar(firstweekday=0).monthdatescalendar(year, month)
    first, last = weeks[0][0], weeks[-1][-1]
    stays = list(Booking.select().where(
        (Booking.account == account_id) & (Booking.property == property_id)
        & (Booking.status == "confirmed") & (Booking.arrival_date <= last)
        & (Booking.departure_date > first)).order_by(Booking.arrival_date, Booking.id))
    conflicted = set()
    for i, one in enumerate(stays):
        for other in stays[i + 1:]:
            if other.arrival_date >= one.departure_date:
                break
            if one.arrival_date < other.departure_date and other.arrival_date < one.departure_date:
                conflicted.update((one.id, other.id))
    grid = []
    for week in weeks:
        row = []
        for day in week:
            here = [Stay(b, b.id in conflicted) for b in stays
                    if b.arrival_date <= day < b.departure_date]
            row.append(Day(day, day.month == month, here, len(here) > 1))
        grid.append(row)
    return grid


# --- the timeline of every property ----------------------------------------------------------------

TIMELINE_SPANS = {"2w": 14, "month": None}  # a month's length depends on the month


@dataclasses.dataclass
class Bar:
    booking: Booking
    column: int  # 1-based, the first night shown
    span: int  # nights shown
    conflict: bool
    starts_before: bool
    ends_after: bool


def timeline(account_id: str, start: dt.date, days: int) -> list[tuple[Property, list[Bar]]]:
    """Every property of the account (active first, by name) with the stays and channel blocks
    that have a night between `start` and `start + days`: a bar from its first night shown, as
    long as its nights shown; stays that overlap another are marked as conflicts."""
    end = start + dt.timedelta(days=days)
    props = sorted(Property.select().where(Property.account == account_id),
                   key=lambda p: (p.status != "active", p.name.lower()))
    stays = _bookings(Booking.select().where(
        (Booking.account == account_id) & (Booking.status == "confirmed")
        & (Booking.arrival_date < end) & (Booking.departure_date > start))
        .order_by(Booking.arrival_date, Booking.id))
    by_property: dict[str, list] = {}
    for stay in stays:
        by_property.setdefault(stay.property_id, []).append(stay)
    rows = []
    for prop in props:
        mine = by_property.get(prop.id, [])
        conflicted = set()
        for i, one in enumerate(mine):
            for other in mine[i + 1:]:
                if other.arrival_date < one.departure_date:
                    conflicted.update((one.id, other.id))
        bars = []
        for stay in mine:
            first, last = max(stay.arrival_date, start), min(stay.departure_date, end)
            bars.append(Bar(stay, (first - start).days + 1, (last - first).days,
                            stay.id in conflicted, stay.arrival_date < start,
                            stay.departure_date > end))
        rows.append((prop, bars))
    return rows
