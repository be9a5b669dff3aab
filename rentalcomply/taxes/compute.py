"""What a stay owes under its property's rule sets: pure arithmetic, no database.

Each night is charged at the rate in force on that night (a stay across a rate change is charged
night by night); the nights beyond the set's cap (per stay, or per calendar month) are not
charged; each guest pays the share of the rate their age on the arrival date gives, or nothing
when they declared a reason the set exempts. Each set's total is rounded as the set says. Sets
stack: a property's several sets add up. A set the booking's channel collects itself owes the
host nothing (`platform`). A night with no rate in force is never guessed: the stay is `unknown`
and says which nights lack a rate.
"""

from __future__ import annotations

import dataclasses
import datetime as dt
from decimal import Decimal

from rentalcomply.taxes.rules import RuleSet

STATUSES = ("due", "collected", "exempt", "platform", "unknown")


@dataclasses.dataclass(frozen=True)
class Guest:
    age: int | None = None         # on the arrival date; None: not known (counted as an adult)
    exemption: str | None = None   # the reason the guest declared, a set's reason code


@dataclasses.dataclass(frozen=True)
class Stay:
    arrival: dt.date
    departure: dt.date
    category: str = "standard"
    channel: str = "manual"
    total_price_cents: int | None = None
    cancelled: bool = False
    guests: tuple[Guest, ...] = (Guest(),)
    party_known: bool = False      # every age comes from the check-in


@dataclasses.dataclass
class SetResult:
    rule_set: RuleSet
    status: str                    # due, exempt, platform, unknown
    cents: int | None              # rounded; None when unknown
    lines: list[dict]
    exemptions: list[dict]
    notes: list[str]
    by_month: dict[tuple[int, int], Decimal]


@dataclasses.dataclass
class Result:
    status: str
    cents: int | None              # what the host collects; None when unknown
    platform_cents: int
    sets: list[SetResult]
    notes: list[str]


def nights_of(arrival: dt.date, departure: dt.date) -> list[dt.date]:
    """The nights of a stay: the night of a date belongs to that date."""
    return [arrival + dt.timedelta(days=offset) for offset in range((departure - arrival).days)]


def charged_nights(rule_set: RuleSet, nights: list[dt.date]) -> list[dt.date]:
    """The nights the set's cap leaves charged: the first `max_nights` of the stay, or of each
    calendar month of it."""
    cap = rule_set.max_nights
    if cap is None:
        return list(nights)
    if rule_set.max_nights_per == "stay":
        return nights[:cap]
    kept, per_month = [], {}
    for night in nights:
        key = (night.year, night.month)
        if per_month.get(key, 0) < cap:
            per_month[key] = per_month.get(key, 0) + 1
            kept.append(night)
    return kept


def charge_set(rule_set: RuleSet, stay: Stay) -> SetResult:
    nights = nights_of(stay.arrival, stay.departure)
    lines: list[dict] = []
    exemptions: list[dict] = []
    notes: list[str] = []
    if stay.cancelled:
        return SetResult(rule_set, "exempt", 0, [], [], ["Cancelled: the stay owes nothing."], {})
    if rule_set.free_stays_exempt and stay.total_price_cents == 0:
        return SetResult(rule_set, "exempt", 0, [], [], ["A free stay pays nothing."], {})
    charged = charged_nights(rule_set, nights)
    if len(charged) < len(nights):
        notes.append(f"{len(charged)} of {len(nights)} nights charged: at most "
                     f"{rule_set.max_nights} per {rule_set.max_nights_per}.")
    rates = {night: rule_set.rate_on(night, stay.category) for night in charged}
    missing = [night for night, rate in rates.items() if rate is None]
    if missing:
        notes.append(f"No rate in force on {missing[0].isoformat()}"
                     + (f" and {len(missing) - 1} more nights" if len(missing) > 1 else "")
                     + ": the rule set needs a rate for these dates before anything is charged.")
        return SetResult(rule_set, "unknown", None, [], [], notes, {})
    if rule_set.basis == "unit_night":
        payers = [(None, 100)]
    else:
        payers = []
        for index, guest in enumerate(stay.guests, start=1):
            if guest.exemption and guest.exemption in rule_set.exemption_reasons:
                exemptions.append({"guest": index, "reason": guest.exemption})
                continue
            percent = rule_set.percent_for(guest.age)
            if percent == 0:
                exemptions.append({"guest": index, "reason": "age",
                                   "age": guest.age})
                continue
            payers.append((index, percent))
    grouped: dict[tuple[int, dt.date, int], dict] = {}
    total = Decimal(0)
    by_month: dict[tuple[int, int], Decimal] = {}
    for night in charged:
        rate = rates[night]
        for payer, percent in payers:
            cents = Decimal(rate.cents) * percent / 100
            total += cents
            key = (night.year, night.month)
            by_month[key] = by_month.get(key, Decimal(0)) + cents
            line = grouped.setdefault((rate.cents, rate.starts, percent),
                                      {"payers": set(), "person_nights": 0, "cents": Decimal(0)})
            line["payers"].add(payer)
            line["person_nights"] += 1
            line["cents"] += cents
        if not payers:  # Greece keeps a month of exempt nights in its figures as zero
            by_month.setdefault((night.year, night.month), Decimal(0))
    for (rate_cents, starts, percent), line in sorted(grouped.items(), key=lambda item: item[0][1]):
        persons = len(line["payers"])
        lines.append({"rule_set": rule_set.id, "persons": persons,
                      "nights": line["person_nights"] // persons,
                      "rate": rate_cents / 100, "percent": percent,
                      "rate_from": starts.isoformat(), "amount": float(line["cents"] / 100)})
    cents = rule_set.rounded(total)
    if stay.channel in rule_set.platform_channels:
        notes.append(f"The channel ({stay.channel}) collects this tax itself: the host charges "
                     "nothing for it.")
        return SetResult(rule_set, "platform", cents, lines, exemptions, notes, by_month)
    return SetResult(rule_set, "due" if cents > 0 else "exempt", cents, lines, exemptions, notes,
                     by_month)


def charge(rule_sets: list[RuleSet], stay: Stay) -> Result:
    """The stay's tax under each of `rule_sets`, stacked."""
    sets = [charge_set(rule_set, stay) for rule_set in rule_sets]
    notes = []
    if stay.cancelled:
        notes.append("Cancelled: the stay owes nothing.")
    elif not stay.party_known and any(s.rule_set.basis == "person_night" for s in sets):
        unknown = sum(1 for guest in stay.guests if guest.age is None)
        if unknown == len(stay.guests):
            notes.append(f"Before check-in: the booking's {unknown} guests are all counted as "
                         "adults; the ages from the check-in replace them.")
        else:
            notes.append(f"{unknown} of the {len(stay.guests)} guests have no birth date from "
                         "the check-in: they are counted as adults.")
    if any(s.status == "unknown" for s in sets):
        return Result("unknown", None, 0, sets, notes)
    host = sum(s.cents for s in sets if s.status == "due")
    platform = sum(s.cents for s in sets if s.status == "platform")
    if stay.cancelled:
        status = "exempt"
    elif host > 0:
        status = "due"
    elif platform > 0:
        status = "platform"
    else:
        status = "exempt"
    return Result(status, host, platform, sets, notes)
