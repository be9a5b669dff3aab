"""The figures of a tourist tax return: what an authority's form asks of a period, summed from the
stays' stored taxes (`booking_tax`), so a return never disagrees with the bookings it counts.

A stay counts in the month it arrives (the host charges the tax on arrival, and a stay's
amount is one figure, never split across months), under each rule set its tax names. Per rule
set and month: the stays, the guests, the nights, the person-nights charged, the exempt guests
by reason (`age`, or the code of the reason declared), the tax due from the guests, what of it
is marked collected, and what the platforms collected themselves. A cancelled stay owes nothing
and is not counted. A stay whose tax is `unknown` (a night without a rate) makes the figures
incomplete: it is named, never guessed.

Italy's annual declaration (DM 29 April 2022) sums the year per comune (the rule set's
authority) and structure (the property). Pure reads; no files, no filing engine.
"""

from __future__ import annotations

import dataclasses
import datetime as dt
from typing import Iterable

from rentalcomply.core.models import Booking, Property
from rentalcomply.taxes import rules
from rentalcomply.taxes.models import BookingTax, PropertyTaxRules, TaxRuleSet

NO_RULES = "none"


@dataclasses.dataclass
class Figures:
    """One rule set's figures for one month (or, summed, for a period or a structure)."""
    stays: int = 0
    guests: int = 0
    nights: int = 0
    person_nights: int = 0
    exempt: dict[str, int] = dataclasses.field(default_factory=dict)
    due_cents: int = 0
    collected_cents: int = 0
    platform_cents: int = 0

    def add(self, other: "Figures") -> None:
        self.stays += other.stays
        self.guests += other.guests
        self.nights += other.nights
        self.person_nights += other.person_nights
        for reason, count in other.exempt.items():
            self.exempt[reason] = self.exempt.get(reason, 0) + count
        self.due_cents += other.due_cents
        self.collected_cents += other.collected_cents
        self.platform_cents += other.platform_cents

    @property
    def exempt_guests(self) -> int:
        return sum(self.exempt.values())

    @property
    def to_collect_cents(self) -> int:
        return self.due_cents - self.collected_cents


@dataclasses.dataclass
class SetReturn:
    """A rule set's return for a period: its months (each with figures, in order) and total."""
    rule_set_id: str
    name: str
    authority: str
    currency: str
    months: dict[str, Figures]
    total: Figures


@dataclasses.dataclass
class PeriodReturn:
    property_name: str
    period: str
    first: dt.date
    last: dt.date
    sets: list[SetReturn]
    incomplete: list[str]

    @property
    def reasons(self) -> list[str]:
        """Every exemption reason the figures name, `age` first: the columns of the files."""
        found = {reason for one in self.sets for reason in one.total.exempt}
        return sorted(found, key=lambda reason: (reason != "age", reason))


def _months(first: dt.date, last: dt.date) -> list[str]:
    months, day = [], first.replace(day=1)
    while day <= last:
        months.append(f"{day.year:04d}-{day.month:02d}")
        day = (day.replace(day=28) + dt.timedelta(days=4)).replace(day=1)
    return months


def set_names(account_id: str, set_ids: Iterable[str]) -> dict[str, dict]:
    """{id: the set's body} of the shipped and own sets named, for their names and authorities."""
    ids = list(set_ids)
    found = {set_id: body for set_id, body in rules.shipped_bodies().items() if set_id in ids}
    for row in TaxRuleSet.select().where((TaxRuleSet.account == account_id)
                                         & TaxRuleSet.id.in_(ids)):
        found[row.id] = row.body
    return found


def returns_of(account_id: str, property_id: str) -> dict[str, dict]:
    """{rule set id: its `returns` (every, due_day, due_months_after)} of the property's sets
    that say a periodic return, in the property's order."""
    row = PropertyTaxRules.get_or_none(PropertyTaxRules.property == property_id)
    ids = list(row.rule_set_ids) if row else []
    bodies = set_names(account_id, ids)
    return {set_id: bodies[set_id]["returns"] for set_id in ids
            if set_id in bodies and bodies[set_id].get("returns")}


def stay_figures(booking: Booking, tax: BookingTax) -> tuple[dict[str, Figures], str | None]:
    """{rule set id: the stay's figures} from its stored tax, and why it cannot be counted yet
    (its tax is unknown), or None."""
    view = tax.view or {}
    if view.get("status") == "unknown":
        return {}, (f"The stay of {booking.guest_name} arriving "
                    f"{booking.arrival_date.isoformat()}: its tourist tax cannot be computed "
                    "(a night without a rate in force); correct the rule set first")
    party = len(tax.party or [])
    guests = max(party, booking.guest_count or 0)
    nights = (booking.departure_date - booking.arrival_date).days
    collected = tax.collected_at is not None
    out = {}
    for charged in view.get("rule_sets", []):
        figures = Figures(stays=1, guests=guests, nights=nights)
        figures.person_nights = sum(line["persons"] * line["nights"]
                                    for line in view.get("lines", [])
                                    if line["rule_set"] == charged["id"])
        for exemption in view.get("exemptions", []):
            if exemption["rule_set"] == charged["id"]:
                reason = exemption["reason"]
                figures.exempt[reason] = figures.exempt.get(reason, 0) + 1
        cents = round((charged.get("amount") or 0) * 100)
        if charged["status"] == "platform":
            figures.platform_cents = cents
        elif charged["status"] == "due":
            figures.due_cents = cents
            figures.collected_cents = cents if collected else 0
        out[charged["id"]] = figures
    return out, None


def _stays(property_ids: list[str], first: dt.date, last: dt.date):
    """(booking, its tax) of the properties arriving from `first` to `last`, not cancelled."""
    return (Booking.select(Booking, BookingTax).join(BookingTax, on=(BookingTax.booking == Booking.id))
            .where(Booking.property.in_(property_ids) & (Booking.is_block == False)  # noqa: E712
                   & (Booking.status != "cancelled") & (BookingTax.status != NO_RULES)
                   & (Booking.arrival_date >= first) & (Booking.arrival_date <= last))
            .order_by(Booking.arrival_date, Booking.id))


def period_return(prop: Property, first: dt.date, last: dt.date, period: str,
                  rule_set_ids: list[str]) -> PeriodReturn:
    """The property's return of `rule_set_ids` for the days `first` to `last`, month by month."""
    bodies = set_names(prop.account_id, rule_set_ids)
    months = _months(first, last)
    sets = {set_id: SetReturn(set_id, bodies.get(set_id, {}).get("name", set_id),
                              bodies.get(set_id, {}).get("authority", ""),
                              bodies.get(set_id, {}).get("currency", "EUR"),
                              {month: Figures() for month in months}, Figures())
            for set_id in rule_set_ids}
    incomplete = []
    for booking in _stays([prop.id], first, last):
        figures, problem = stay_figures(booking, booking.bookingtax)
        if problem:
            incomplete.append(problem)
            continue
        month = booking.arrival_date.strftime("%Y-%m")
        for set_id, one in figures.items():
            if set_id in sets:
                sets[set_id].months[month].add(one)
                sets[set_id].total.add(one)
    return PeriodReturn(prop.name, period, first, last, list(sets.values()), incomplete)


@dataclasses.dataclass
class Structure:
    property_id: str
    name: str
    address: str
    cin: str
    figures: Figures


@dataclasses.dataclass
class Comune:
    """One comune's part of the annual declaration: each of the host's structures there."""
    rule_set_id: str
    authority: str
    name: str
    structures: list[Structure]
    total: Figures


@dataclasses.dataclass
class AnnualDeclaration:
    year: int
    comuni: list[Comune]
    incomplete: list[str]

    @property
    def total(self) -> Figures:
        total = Figures()
        for comune in self.comuni:
            total.add(comune.total)
        return total

    @property
    def reasons(self) -> list[str]:
        found = {reason for comune in self.comuni for reason in comune.total.exempt}
        return sorted(found, key=lambda reason: (reason != "age", reason))


def italian_properties(account_id: str) -> list[Property]:
    """The account's Italian properties naming an Italian rule set, oldest first."""
    named = {row.property_id: row.rule_set_ids for row in PropertyTaxRules.select().where(
        PropertyTaxRules.account == account_id)}
    if not named:
        return []
    bodies = set_names(account_id, {set_id for ids in named.values() for set_id in ids})
    return [prop for prop in Property.select().where(
                (Property.account == account_id) & (Property.country == "IT")
                & Property.id.in_(list(named))).order_by(Property.created_at, Property.id)
            if any(bodies.get(set_id, {}).get("country") == "IT" for set_id in named[prop.id])]


def annual_declaration(account_id: str, year: int) -> AnnualDeclaration:
    """The year's figures per comune (an Italian rule set's authority) and structure (each of
    the account's Italian properties the set charges), for the DM 29 April 2022 declaration."""
    props = {prop.id: prop for prop in italian_properties(account_id)}
    comuni: dict[str, Comune] = {}
    incomplete = []
    structures: dict[tuple[str, str], Structure] = {}
    first, last = dt.date(year, 1, 1), dt.date(year, 12, 31)
    bodies: dict[str, dict] = {}
    for booking in _stays(list(props), first, last):
        figures, problem = stay_figures(booking, booking.bookingtax)
        if problem:
            incomplete.append(problem)
            continue
        missing = [set_id for set_id in figures if set_id not in bodies]
        if missing:
            bodies.update(set_names(account_id, missing))
        for set_id, one in figures.items():
            body = bodies.get(set_id, {})
            if body.get("country") != "IT":
                continue
            comune = comuni.setdefault(set_id, Comune(set_id, body.get("authority", ""),
                                                      body.get("name", set_id), [], Figures()))
            prop = props[booking.property_id]
            key = (set_id, prop.id)
            if key not in structures:
                structures[key] = Structure(prop.id, prop.name, prop.address, prop.cin or "",
                                            Figures())
                comune.structures.append(structures[key])
            structures[key].figures.add(one)
            comune.total.add(one)
    ordered = sorted(comuni.values(), key=lambda comune: (comune.authority, comune.rule_set_id))
    for comune in ordered:
        comune.structures.sort(key=lambda structure: (structure.name, structure.property_id))
    return AnnualDeclaration(year, ordered, incomplete)
