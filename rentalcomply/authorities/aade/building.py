"""What a tax report holds, built from the bookings: pure reading, no files, no report rows.

A report covers one account and one period (a month, or a year) and only its Greek properties.
A report holds what happened: while the period is still running it is provisional and holds only
what had happened by today (each property's own date, in its time zone).
- Stays: confirmed bookings that departed in the period (the AADE declaration rule), one line
  each with every field the declaration needs, once they have ended (departure on or before the
  property's today). Only stays that pass validation count. The renter's Greek tax number (ΑΦΜ)
  or passport number comes from the lead guest of the sealed check-in party.
- Cancellations that still pay: declared in the month of the cancellation (Athens time), with the
  amount kept.
- Climate fee: every night that falls in the period and has passed, at that night's rate (season and property
  category, from the `[climate_fee]` settings), whatever month its stay departs in. So a month's
  fee total is not the sum of its stays' fees: a stay from 30 March to 2 April pays two March
  nights in March's report and one April night in April's, and is declared (with its whole fee)
  in April.
- Needs attention: every booking of the period (departed in it, or with nights passed in it, or
  a cancellation that pays in it) that fails validation, with the reasons in a host's words. Such
  bookings are in no total.

Money is integer cents throughout; the files and the API turn it into euros.
"""

from __future__ import annotations

import dataclasses
import datetime as dt
import json
import logging
from typing import Callable
from zoneinfo import ZoneInfo, ZoneInfoNotFoundError

import peewee

from rentalcomply.bookings.fees import FeeRates, climate_fee_by_month
from rentalcomply.checkin.models import Checkin
from rentalcomply.core import clock, sealing
from rentalcomply.core.models import Account, Booking, Property

log = logging.getLogger(__name__)

ATHENS = ZoneInfo("Europe/Athens")
# AADE: stays of 60 days or more are not short-term rentals.
MAX_SHORT_TERM_NIGHTS = 60
# Names a channel's calendar feed gives when it carries no guest name.
PLACEHOLDER_NAMES = frozenset(name.casefold() for name in (
    "Booking.com guest", "Airbnb guest", "Vrbo guest", "Reserved", "Not available", "Guest",
    "CLOSED - Not available", "Blocked"))
PLATFORMS = {"manual": "direct", "airbnb": "airbnb", "booking": "booking", "vrbo": "vrbo",
             "other": "other"}

# Why a booking needs attention: a code (in the XML) and the words a host reads, in each language.
REASONS = {
    "no_ama": {
        "en": "The property has no AADE registry number (AMA): add it to the property.",
        "el": "Το ακίνητο δεν έχει Αριθμό Μητρώου Ακινήτου (ΑΜΑ): προσθέστε τον στο ακίνητο."},
    "dates": {
        "en": "The departure date is not after the arrival date.",
        "el": "Η ημερομηνία αναχώρησης δεν είναι μετά την άφιξη."},
    "too_long": {
        "en": "The stay is {nights} nights: stays of 60 nights or more are not short-term "
              "rentals and are declared differently.",
        "el": "Η διαμονή είναι {nights} νύχτες: διαμονές 60 νυχτών και άνω δεν είναι "
              "βραχυχρόνια μίσθωση και δηλώνονται αλλιώς."},
    "no_price": {
        "en": "The total price is not known: enter what the guest paid (0 for a free stay).",
        "el": "Η συνολική τιμή δεν είναι γνωστή: καταχωρίστε τι πλήρωσε ο επισκέπτης "
              "(0 για δωρεάν διαμονή)."},
    "no_payment_method": {
        "en": "The payment method is not known: choose platform, bank transfer, cash or card.",
        "el": "Ο τρόπος πληρωμής δεν είναι γνωστός: επιλέξτε πλατφόρμα, τραπεζική μεταφορά, "
              "μετρητά ή κάρτα."},
    "no_guest_name": {
        "en": "The lead guest's name is missing: enter it.",
        "el": "Λείπει το όνομα του κύριου επισκέπτη: καταχωρίστε το."},
    "placeholder_name": {
        "en": "The lead guest's name is the channel's placeholder (\"{name}\"): enter the real "
              "name.",
        "el": "Το όνομα του κύριου επισκέπτη είναι το προσωρινό του καναλιού (\"{name}\"): "
              "καταχωρίστε το πραγματικό."},
    "fee_over_price": {
        "en": "The price ({price}) is lower than the climate fee ({fee}): check the price.",
        "el": "Η τιμή ({price}) είναι μικρότερη από το τέλος ανθεκτικότητας ({fee}): ελέγξτε "
              "την τιμή."},
}


@dataclasses.dataclass
class Stay:
    booking_id: str
    property_id: str
    ama: str
    arrival: dt.date
    departure: dt.date
    nights: int
    gross_cents: int
    fee_cents: int  # the whole stay's fee, all its nights
    payment_method: str | None  # None only for a free stay
    platform: str
    guest_name: str
    renter_reference: str | None  # the platform's booking reference, when there is one
    # The lead guest's ("afm" | "passport", number) from the sealed check-in party, or None.
    renter_id: tuple[str, str] | None = None

    @property
    def net_cents(self) -> int:
        return self.gross_cents - self.fee_cents


@dataclasses.dataclass
class Cancellation:
    booking_id: str
    property_id: str
    ama: str
    arrival: dt.date
    departure: dt.date
    cancelled_on: dt.date
    amount_kept_cents: int
    payment_method: str | None
    platform: str
    guest_name: str
    renter_reference: str | None
    renter_id: tuple[str, str] | None = None


@dataclasses.dataclass
class Attention:
    booking_id: str
    property_id: str
    property_name: str
    guest_name: str
    arrival: dt.date
    departure: dt.date
    reasons: list[tuple[str, dict]]  # (code, values for the text)

    def texts(self, language: str) -> list[str]:
        return [REASONS[code][language].format(**values) for code, values in self.reasons]


@dataclasses.dataclass
class FeeLine:
    """Nights and fee of one month and property category (the season follows from the month)."""
    year: int
    month: int
    summer: bool
    category: str
    nights: int
    rate_cents: int
    fee_cents: int


@dataclasses.dataclass
class PropertySection:
    property_id: str
    name: str
    address: str
    ama: str
    category: str
    stays: list[Stay] = dataclasses.field(default_factory=list)
    cancellations: list[Cancellation] = dataclasses.field(default_factory=list)
    fee_nights: int = 0  # nights in the period that pay the fee
    fee_in_period_cents: int = 0

    @property
    def nights(self) -> int:
        return sum(stay.nights for stay in self.stays)

    @property
    def gross_cents(self) -> int:
        return sum(stay.gross_cents for stay in self.stays)

    @property
    def stay_fee_cents(self) -> int:
        return sum(stay.fee_cents for stay in self.stays)

    @property
    def net_cents(self) -> int:
        return self.gross_cents - self.stay_fee_cents

    @property
    def amount_kept_cents(self) -> int:
        return sum(c.amount_kept_cents for c in self.cancellations)

    # The same names as the whole report's totals, so that files show both alike.
    booking_count = property(lambda self: len(self.stays))
    total_revenue_cents = gross_cents
    net_revenue_cents = net_cents
    climate_fee_total_cents = property(lambda self: self.fee_in_period_cents)
    fee_nights_in_period = property(lambda self: self.fee_nights)
    cancellation_count = property(lambda self: len(self.cancellations))


@dataclasses.dataclass
class ReportData:
    account_id: str
    account_name: str
    year: int
    month: int | None
    start: dt.date
    end: dt.date  # exclusive
    sections: list[PropertySection]
    fee_lines: list[FeeLine]
    attention: list[Attention]
    # Made while the period was running: only what had happened by `as_of` (the latest date any
    # property had reached); regenerated once the period has closed.
    provisional: bool = False
    as_of: dt.date | None = None

    @property
    def code(self) -> str:
        return report_code(self.year, self.month)

    @property
    def stays(self) -> list[Stay]:
        return [stay for section in self.sections for stay in section.stays]

    @property
    def cancellations(self) -> list[Cancellation]:
        return [c for section in self.sections for c in section.cancellations]

    @property
    def booking_count(self) -> int:
        return sum(len(section.stays) for section in self.sections)

    @property
    def nights(self) -> int:
        return sum(section.nights for section in self.sections)

    @property
    def total_revenue_cents(self) -> int:
        return sum(section.gross_cents for section in self.sections)

    @property
    def stay_fee_cents(self) -> int:
        return sum(section.stay_fee_cents for section in self.sections)

    @property
    def net_revenue_cents(self) -> int:
        return self.total_revenue_cents - self.stay_fee_cents

    @property
    def climate_fee_total_cents(self) -> int:
        return sum(line.fee_cents for line in self.fee_lines)

    @property
    def fee_nights_in_period(self) -> int:
        return sum(line.nights for line in self.fee_lines)

    @property
    def cancellation_count(self) -> int:
        return sum(len(section.cancellations) for section in self.sections)

    @property
    def amount_kept_cents(self) -> int:
        return sum(section.amount_kept_cents for section in self.sections)

    @property
    def due_date(self) -> dt.date | None:
        return stays_due_date(self.year, self.month)

    @property
    def fee_due_date(self) -> dt.date | None:
        return fee_due_date(self.year, self.month)


# --- periods and deadlines ----------------------------------------------------------------------

def report_code(year: int, month: int | None) -> str:
    return f"rep_{year:04d}" if month is None else f"rep_{year:04d}_{month:02d}"


def period_bounds(year: int, month: int | None) -> tuple[dt.date, dt.date]:
    """First day and the day after the last."""
    if month is None:
        return dt.date(year, 1, 1), dt.date(year + 1, 1, 1)
    start = dt.date(year, month, 1)
    return start, _next_month(start)


def _next_month(day: dt.date) -> dt.date:
    return dt.date(day.year + day.month // 12, day.month % 12 + 1, 1)


def stays_due_date(year: int, month: int | None) -> dt.date | None:
    """The 20th of the month after: when the month's stays must be declared."""
    if month is None:
        return None
    return _next_month(dt.date(year, month, 1)).replace(day=20)


def fee_due_date(year: int, month: int | None) -> dt.date | None:
    """The last day of the month after: when the month's climate fee must be declared."""
    if month is None:
        return None
    return _next_month(_next_month(dt.date(year, month, 1))) - dt.timedelta(days=1)


def athens_date(moment: dt.datetime) -> dt.date:
    """The Athens calendar date of a naive UTC time."""
    return moment.replace(tzinfo=dt.timezone.utc).astimezone(ATHENS).date()


def local_today(zone_name: str | None) -> dt.date:
    """Today in a property's time zone (Athens when the zone is unknown)."""
    try:
        zone = ZoneInfo(zone_name) if zone_name else ATHENS
    except (ZoneInfoNotFoundError, ValueError):
        zone = ATHENS
    return clock.utcnow().replace(tzinfo=dt.timezone.utc).astimezone(zone).date()


def is_running(year: int, month: int | None, today: dt.date) -> bool:
    """Whether the period has not closed yet on `today`."""
    return today < period_bounds(year, month)[1]


# --- building -----------------------------------------------------------------------------------

_BOOKING_FIELDS = (Booking.id, Booking.property, Booking.guest_name, Booking.arrival_date,
                   Booking.departure_date, Booking.channel, Booking.status,
                   Booking.total_price_cents, Booking.payment_method, Booking.external_ref,
                   Booking.cancelled_at, Booking.amount_kept_cents,
                   Checkin.guests_sealed.alias("guests_sealed"))
# The check-in's seal (checkin/service.py SEAL_PURPOSE): the party is sealed for its booking.
CHECKIN_SEAL_PURPOSE = "checkin-guests:"


def build_report(account_id: str, year: int, month: int | None, rates: FeeRates,
                 today: Callable[[Property], dt.date] | None = None) -> ReportData:
    """Everything the files show for the account's Greek properties in the period, as it stood
    on each property's `today` (by default today's date in the property's time zone)."""
    today = today or (lambda prop: local_today(prop.timezone))
    account = Account.get_by_id(account_id)
    start, end = period_bounds(year, month)
    properties = {p.id: p for p in Property.select().where(
        (Property.account == account_id) & (Property.country == "GR"))}
    days = {pid: today(p) for pid, p in properties.items()}
    sections = {pid: PropertySection(pid, p.name, p.address, p.aade_property_id,
                                     p.climate_fee_category)
                for pid, p in properties.items() if _has_ama(p)}
    fee_lines: dict[tuple[int, int, str], FeeLine] = {}
    attention: list[Attention] = []
    fees = _StayFees(rates)

    for row in _period_bookings(account_id, list(properties), start, end):
        prop = properties[row["property"]]
        if row["status"] == "confirmed":
            _take_stay(row, prop, sections, fee_lines, attention, start, end, fees,
                       days[prop.id])
        else:
            _take_cancellation(row, prop, sections, attention, start, end)

    attention.sort(key=lambda a: (a.departure, a.arrival, a.booking_id))
    ordered = sorted(sections.values(), key=lambda s: (s.ama, s.name, s.property_id))
    for section in ordered:
        section.stays.sort(key=lambda s: (s.departure, s.arrival, s.booking_id))
        section.cancellations.sort(key=lambda c: (c.cancelled_on, c.booking_id))
    lines = sorted(fee_lines.values(), key=lambda line: (line.year, line.month, line.category))
    # Running while any property (or Athens, where AADE is) has not reached the period's end.
    reference = local_today(None) if not days else min(days.values())
    reference = min(reference, local_today(None))
    running = is_running(year, month, reference)
    return ReportData(account_id, account.name, year, month, start, end, ordered, lines,
                      attention, provisional=running,
                      as_of=max([*days.values(), local_today(None)]) if running else None)


def _period_bookings(account_id: str, property_ids: list[str], start: dt.date, end: dt.date):
    """Confirmed bookings departing in or with nights in the period; cancellations with an amount
    kept cancelled around it (the exact Athens date is checked by the caller)."""
    if not property_ids:
        return []
    # A cancellation at 23:30 UTC on the last day of a month is on the 1st in Athens: look a day
    # either side, then judge by the Athens date.
    cancelled_from = dt.datetime.combine(start - dt.timedelta(days=1), dt.time())
    cancelled_to = dt.datetime.combine(end + dt.timedelta(days=1), dt.time())
    confirmed = ((Booking.status == "confirmed") & (Booking.arrival_date < end)
                 & (Booking.departure_date >= start))
    paying_cancellation = ((Booking.status == "cancelled") & (Booking.amount_kept_cents > 0)
                           & (Booking.cancelled_at >= cancelled_from)
                           & (Booking.cancelled_at < cancelled_to))
    query = (Booking.select(*_BOOKING_FIELDS)
             .join(Checkin, peewee.JOIN.LEFT_OUTER, on=(Checkin.booking == Booking.id))
             .where((Booking.account == account_id) & (Booking.is_block == False)  # noqa: E712
                    & Booking.property.in_(property_ids) & (confirmed | paying_cancellation))
             .dicts())
    return query.iterator()


def _has_ama(prop: Property) -> bool:
    return bool((prop.aade_property_id or "").strip())


def _name_problem(name: str | None) -> tuple[str, dict] | None:
    name = (name or "").strip()
    if not name:
        return "no_guest_name", {}
    if name.casefold() in PLACEHOLDER_NAMES:
        return "placeholder_name", {"name": name}
    return None


def renter_id(booking_id: str, sealed: str | None) -> tuple[str, str] | None:
    """The lead guest's Greek tax number (ΑΦΜ, for a Greek national: checked by the check-in with
    its check digit) or else passport number, from the sealed party; None when there is neither,
    the party was erased, or it cannot be opened (the server secret changed)."""
    if not sealed:
        return None
    try:
        party = json.loads(sealing.unseal(CHECKIN_SEAL_PURPOSE + booking_id, sealed))
    except (sealing.Unsealable, ValueError):
        log.warning("the check-in party of booking %s cannot be opened", booking_id)
        return None
    guests = party.get("guests") or []
    lead = guests[0] if guests and isinstance(guests[0], dict) else {}
    if lead.get("tax_id") and lead.get("nationality") == "GR":
        return "afm", str(lead["tax_id"])
    if lead.get("document_type") == "passport" and lead.get("document_number"):
        return "passport", str(lead["document_number"])
    return None


class _StayFees:
    """The climate fee of a stay by month, worked out once per (arrival, departure, category)
    within a report: a month of 5,000 stays holds a few hundred such combinations, and the
    tax engine prices every night of each one."""

    def __init__(self, rates: FeeRates):
        self.rates = rates
        self._by_month: dict[tuple[dt.date, dt.date, str], dict[tuple[int, int], int]] = {}

    def by_month(self, arrival: dt.date, departure: dt.date,
                 category: str) -> dict[tuple[int, int], int]:
        key = (arrival, departure, category)
        found = self._by_month.get(key)
        if found is None:
            found = self._by_month[key] = climate_fee_by_month(arrival, departure, category,
                                                               self.rates)
        return found


def _take_stay(row, prop, sections, fee_lines, attention, start, end, fees: _StayFees,
               today: dt.date) -> None:
    arrival, departure = row["arrival_date"], row["departure_date"]
    if arrival >= today and departure > today:
        return  # nothing of it has happened yet
    nights = (departure - arrival).days
    # A stay is declared once it has ended: on its departure day or after.
    departs_in_period = start <= departure < end and departure <= today
    price = row["total_price_cents"]
    reasons: list[tuple[str, dict]] = []
    if not _has_ama(prop):
        reasons.append(("no_ama", {}))
    if nights <= 0:
        reasons.append(("dates", {}))
    elif nights >= MAX_SHORT_TERM_NIGHTS:
        reasons.append(("too_long", {"nights": nights}))
    if price is None:
        reasons.append(("no_price", {}))
    if row["payment_method"] is None and price != 0:  # a free stay has nothing to pay
        reasons.append(("no_payment_method", {}))
    name_problem = _name_problem(row["guest_name"])
    if name_problem:
        reasons.append(name_problem)
    by_month = fees.by_month(arrival, departure, prop.climate_fee_category) \
        if nights > 0 and price != 0 else {}
    stay_fee = sum(by_month.values())
    if price is not None and 0 < price < stay_fee:
        reasons.append(("fee_over_price", {"price": _euros(price), "fee": _euros(stay_fee)}))
    if reasons:
        attention.append(Attention(row["id"], prop.id, prop.name, row["guest_name"] or "",
                                   arrival, departure, reasons))
        return
    section = sections[prop.id]
    if by_month:
        # Only the nights that have passed: tonight and later have not happened yet.
        _add_fee_nights(section, fee_lines, arrival, departure, prop.climate_fee_category,
                        start, min(end, today), fees.rates)
    if departs_in_period:
        section.stays.append(Stay(
            row["id"], prop.id, section.ama, arrival, departure, nights, price, stay_fee,
            row["payment_method"], PLATFORMS.get(row["channel"], "other"),
            row["guest_name"].strip(), row["external_ref"],
            renter_id(row["id"], row["guests_sealed"])))


def _add_fee_nights(section, fee_lines, arrival, departure, category, start, end, rates) -> None:
    """The stay's nights within [start, end) added to the fee lines, a month's run at a time
    (every night of a month has the same rate)."""
    night = max(arrival, start)
    last = min(departure, end)
    while night < last:
        run_end = min(_next_month(night), last)
        count = (run_end - night).days
        rate = rates.per_night(category, night.month)
        key = (night.year, night.month, category)
        line = fee_lines.get(key)
        if line is None:
            line = fee_lines[key] = FeeLine(night.year, night.month,
                                            night.month in rates.summer_months, category, 0,
                                            rate, 0)
        line.nights += count
        line.fee_cents += rate * count
        section.fee_nights += count
        section.fee_in_period_cents += rate * count
        night = run_end


def _take_cancellation(row, prop, sections, attention, start, end) -> None:
    cancelled_on = athens_date(row["cancelled_at"])
    if not start <= cancelled_on < end:
        return
    reasons: list[tuple[str, dict]] = []
    if not _has_ama(prop):
        reasons.append(("no_ama", {}))
    name_problem = _name_problem(row["guest_name"])
    if name_problem:
        reasons.append(name_problem)
    if reasons:
        attention.append(Attention(row["id"], prop.id, prop.name, row["guest_name"] or "",
                                   row["arrival_date"], row["departure_date"], reasons))
        return
    section = sections[prop.id]
    section.cancellations.append(Cancellation(
        row["id"], prop.id, section.ama, row["arrival_date"], row["departure_date"],
        cancelled_on, row["amount_kept_cents"], row["payment_method"],
        PLATFORMS.get(row["channel"], "other"), row["guest_name"].strip(), row["external_ref"],
        renter_id(row["id"], row["guests_sealed"])))


def _euros(cents: int) -> str:
    return f"{cents / 100:.2f} €"
