"""Tourist tax rule sets as data: what a town, a region or a state charges for a night.

A rule set is one authority's tax (Lisbon's taxa turística, Catalonia's IEET in Barcelona,
Barcelona's surcharge on it, Greece's climate resilience fee...). Its body is plain JSON, the same
in the package's shipped files (taxes/shipped/*.json, each rate with its source) and in the
account's own sets (`/api/v1/tax-rules`):

- `basis`: `person_night` (each guest, each night) or `unit_night` (the flat, each night);
- `rates`: each an `amount` in the set's currency from a date (`from`, and `to` when the rate is
  known to end), optionally only for some `months` (a season) and one property `category`; the
  night is charged at the rate in force on that night, so a stay across a change is charged
  night by night. A night with no rate in force is not guessed: the stay's tax is held
  (`unknown`) and says which night lacks a rate;
- `max_nights` (null: no cap) counted `per` `stay` or per calendar `month`;
- `age_rates`: the share of the rate paid by a guest younger than `below` on the arrival date
  (`{"below": 13, "percent": 0}` is "from 13"; Venice's "10 to 16 pay half" is two entries);
- `exemption_reasons`: the reasons a guest may declare (a patient's companion, a driver...);
- `rounding_cents` and `rounding_mode`: each set's total for a stay is rounded to a step of 1,
  5, 10, 50 or 100 cents, half up, up or down;
- `platform_channels`: channels that collect the tax themselves (the host owes nothing for them);
- `stacks_on`: the set this one is a surcharge of (a property naming it must name that too);
- `free_stays_exempt`: a stay with a price of zero pays nothing (Greece's fee);
- `returns`: the authority's periodic return, when the set says one (null: none is filed here):
  `every` month, quarter, half_year or year, due on `due_day` of the `due_months_after`-th month
  after the period ends (Rome: a quarter, the 16th of the next month). The returns are period
  filings (authorities/tourist_tax/).

Pure data and arithmetic helpers; no database.
"""

from __future__ import annotations

import dataclasses
import datetime as dt
import json
import re
from decimal import ROUND_DOWN, ROUND_HALF_UP, ROUND_UP, Decimal, InvalidOperation
from importlib import resources
from typing import Any

from rentalcomply.core.errors import ValidationError

BASES = ("person_night", "unit_night")
MAX_NIGHTS_PER = ("stay", "month")
ROUNDING_STEPS = (1, 5, 10, 50, 100)
ROUNDING_MODES = {"half_up": ROUND_HALF_UP, "up": ROUND_UP, "down": ROUND_DOWN}
CURRENCIES = ("EUR",)
CHANNELS = ("airbnb", "booking", "vrbo", "other")
RETURN_PERIODS = ("month", "quarter", "half_year", "year")
CODE_PATTERN = re.compile(r"^[a-z][a-z0-9_]{0,39}$")
MAX_RATE = Decimal("1000")
MAX_RATES = 200
MAX_REASONS = 30
TEXT_MAX = 500
SOURCE_MAX = 2000
SHIPPED_PREFIX_PATTERN = re.compile(r"^[a-z]{2}-[a-z0-9-]{1,60}$")


@dataclasses.dataclass(frozen=True)
class Rate:
    starts: dt.date
    ends: dt.date | None  # the last night it applies to, when known
    cents: int
    months: frozenset[int] | None
    category: str | None
    source: str

    def applies(self, night: dt.date, category: str) -> bool:
        return (self.starts <= night and (self.ends is None or night <= self.ends)
                and (self.months is None or night.month in self.months)
                and (self.category is None or self.category == category))


@dataclasses.dataclass(frozen=True)
class AgeRate:
    below: int
    percent: int


@dataclasses.dataclass(frozen=True)
class RuleSet:
    id: str
    version: int
    name: str
    currency: str
    basis: str
    rates: tuple[Rate, ...]
    max_nights: int | None = None
    max_nights_per: str = "stay"
    age_rates: tuple[AgeRate, ...] = ()
    exemption_reasons: tuple[str, ...] = ()
    rounding_cents: int = 1
    rounding_mode: str = "half_up"
    platform_channels: frozenset[str] = frozenset()
    stacks_on: str | None = None
    free_stays_exempt: bool = False
    shipped: bool = False

    def rate_on(self, night: dt.date, category: str) -> Rate | None:
        """The rate in force on `night` for `category`: the latest start among the rates that
        apply; a rate for the category itself, or for the season, wins over a general one of
        the same start."""
        candidates = [rate for rate in self.rates if rate.applies(night, category)]
        if not candidates:
            return None
        return max(candidates, key=lambda rate: (rate.starts, rate.category is not None,
                                                 rate.months is not None))

    def percent_for(self, age: int | None) -> int:
        """The share of the rate a guest of `age` pays; an unknown age pays in full."""
        if age is None:
            return 100
        for band in sorted(self.age_rates, key=lambda band: band.below):
            if age < band.below:
                return band.percent
        return 100

    def rounded(self, cents: Decimal) -> int:
        step = Decimal(self.rounding_cents)
        return int((cents / step).quantize(Decimal(1), rounding=ROUNDING_MODES[self.rounding_mode])
                   * step)


def euros_to_cents(amount: Any) -> int:
    return int((Decimal(str(amount)) * 100).quantize(Decimal(1), rounding=ROUND_HALF_UP))


# --- reading and checking a body ------------------------------------------------------------------

def checked_body(body: Any) -> dict:
    """The rule set body as stored, or ValidationError naming every bad field at once."""
    problems: list[dict] = []

    def bad(field: str, message: str) -> None:
        problems.append({"field": field, "message": message})

    if not isinstance(body, dict):
        raise ValidationError("body", "must be a JSON object")
    known = {"name", "authority", "country", "currency", "basis", "rates", "max_nights",
             "max_nights_per", "age_rates", "exemption_reasons", "rounding_cents", "rounding_mode",
             "platform_channels",
             "stacks_on", "free_stays_exempt", "source", "returns"}
    for name in sorted(set(body) - known - {"id", "version", "shipped", "created_at",
                                            "updated_at"}):
        bad(name, "is not a known field")
    out: dict[str, Any] = {}
    for name, required, limit in (("name", True, 200), ("authority", True, 200),
                                  ("source", True, SOURCE_MAX)):
        value = body.get(name)
        if not isinstance(value, str) or not value.strip():
            bad(name, "is required: a non-empty string" if required else "must be a string")
        elif len(value) > limit:
            bad(name, f"must be at most {limit} characters")
        else:
            out[name] = value.strip()
    country = body.get("country")
    if not isinstance(country, str) or not re.fullmatch(r"[A-Z]{2}", country):
        bad("country", "must be a two-letter country code such as PT")
    else:
        out["country"] = country
    out["currency"] = _choice(body, "currency", CURRENCIES, "EUR", bad)
    out["basis"] = _choice(body, "basis", BASES, None, bad)
    out["max_nights_per"] = _choice(body, "max_nights_per", MAX_NIGHTS_PER, "stay", bad)
    max_nights = body.get("max_nights")
    if max_nights is not None and (not _is_int(max_nights) or not 1 <= max_nights <= 366):
        bad("max_nights", "must be null or a whole number from 1 to 366")
    out["max_nights"] = max_nights
    out["rates"] = _checked_rates(body.get("rates"), bad)
    out["age_rates"] = _checked_age_rates(body.get("age_rates", []), bad)
    out["exemption_reasons"] = _checked_reasons(body.get("exemption_reasons", []), bad)
    out["rounding_cents"] = body.get("rounding_cents", 1)
    if out["rounding_cents"] not in ROUNDING_STEPS or isinstance(out["rounding_cents"], bool):
        bad("rounding_cents", "must be one of 1, 5, 10, 50, 100: the step each rule set's total "
                              "of a stay is rounded to, in cents")
    out["rounding_mode"] = _choice(body, "rounding_mode", tuple(ROUNDING_MODES), "half_up", bad)
    channels = body.get("platform_channels", [])
    if (not isinstance(channels, list) or any(c not in CHANNELS for c in channels)
            or len(set(channels)) != len(channels)):
        bad("platform_channels", "must be a list of distinct channels among: " + ", ".join(CHANNELS))
    else:
        out["platform_channels"] = channels
    stacks_on = body.get("stacks_on")
    if stacks_on is not None and (not isinstance(stacks_on, str) or not 1 <= len(stacks_on) <= 64):
        bad("stacks_on", "must be null or a rule set id")
    out["stacks_on"] = stacks_on
    free = body.get("free_stays_exempt", False)
    if not isinstance(free, bool):
        bad("free_stays_exempt", "must be true or false")
    out["free_stays_exempt"] = free
    out["returns"] = _checked_returns(body.get("returns"), bad)
    if problems:
        raise ValidationError(problems)
    return out


def _is_int(value: Any) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def _choice(body: dict, name: str, choices: tuple, default: Any, bad) -> Any:
    value = body.get(name, default)
    if value not in choices:
        bad(name, "is required: one of " + ", ".join(choices) if value is None
            else "must be one of: " + ", ".join(choices))
    return value


def _date(value: Any) -> dt.date | None:
    try:
        return dt.date.fromisoformat(value) if isinstance(value, str) and len(value) == 10 else None
    except ValueError:
        return None


def _checked_rates(rates: Any, bad) -> list[dict]:
    if not isinstance(rates, list) or not rates:
        bad("rates", "is required: a list of at least one rate")
        return []
    if len(rates) > MAX_RATES:
        bad("rates", f"must hold at most {MAX_RATES} rates")
        return []
    out = []
    for index, rate in enumerate(rates):
        field = f"rates[{index}]"
        if not isinstance(rate, dict):
            bad(field, "must be an object")
            continue
        for name in sorted(set(rate) - {"from", "to", "amount", "months", "category", "source"}):
            bad(f"{field}.{name}", "is not a known field")
        starts, ends = _date(rate.get("from")), _date(rate.get("to"))
        if starts is None:
            bad(f"{field}.from", "is required: the date (YYYY-MM-DD) the rate applies from")
        if rate.get("to") is not None and ends is None:
            bad(f"{field}.to", "must be null or the last date (YYYY-MM-DD) the rate applies to")
        elif starts and ends and ends < starts:
            bad(f"{field}.to", "must not be before `from`")
        amount = rate.get("amount")
        try:
            value = Decimal(str(amount)) if isinstance(amount, (int, float)) and not isinstance(
                amount, bool) else None
        except InvalidOperation:
            value = None
        if value is None or value < 0 or value > MAX_RATE or value != value.quantize(Decimal("0.01")):
            bad(f"{field}.amount", "must be a number from 0 to 1000 with at most two decimals")
        months = rate.get("months")
        if months is not None and (not isinstance(months, list) or not months or any(
                not _is_int(m) or not 1 <= m <= 12 for m in months)):
            bad(f"{field}.months", "must be null or a list of months 1 to 12")
            months = None  # said; the rest of the rate is still checked
        category = rate.get("category")
        if category is not None and (not isinstance(category, str)
                                     or not CODE_PATTERN.match(category)):
            bad(f"{field}.category", "must be null or a category code such as standard")
        source = rate.get("source", "")
        if not isinstance(source, str) or len(source) > SOURCE_MAX:
            bad(f"{field}.source", f"must be a string of at most {SOURCE_MAX} characters")
        out.append({"from": rate.get("from"), "to": rate.get("to"), "amount": amount,
                    "months": sorted(set(months)) if isinstance(months, list) else None,
                    "category": category, "source": source})
    return out


def _checked_returns(value: Any, bad) -> dict | None:
    if value is None:
        return None
    if (not isinstance(value, dict) or set(value) - {"every", "due_day", "due_months_after"}
            or value.get("every") not in RETURN_PERIODS
            or not _is_int(value.get("due_day")) or not 1 <= value["due_day"] <= 28
            or not _is_int(value.get("due_months_after", 1))
            or not 0 <= value.get("due_months_after", 1) <= 12):
        bad("returns", "must be null or {\"every\": one of " + ", ".join(RETURN_PERIODS)
            + ", \"due_day\": 1 to 28, \"due_months_after\": 0 to 12 (1 if absent)}")
        return None
    return {"every": value["every"], "due_day": value["due_day"],
            "due_months_after": value.get("due_months_after", 1)}


def _checked_age_rates(bands: Any, bad) -> list[dict]:
    if not isinstance(bands, list):
        bad("age_rates", "must be a list")
        return []
    out = []
    for index, band in enumerate(bands):
        if (not isinstance(band, dict) or set(band) != {"below", "percent"}
                or not _is_int(band["below"]) or not 1 <= band["below"] <= 120
                or not _is_int(band["percent"]) or not 0 <= band["percent"] <= 100):
            bad(f"age_rates[{index}]", "must be {\"below\": an age 1 to 120, \"percent\": 0 to "
                                       "100 of the rate paid}")
            continue
        out.append({"below": band["below"], "percent": band["percent"]})
    if len({band["below"] for band in out}) != len(out):
        bad("age_rates", "two entries name the same age")
    return out


def _checked_reasons(reasons: Any, bad) -> list[dict]:
    if not isinstance(reasons, list) or len(reasons) > MAX_REASONS:
        bad("exemption_reasons", f"must be a list of at most {MAX_REASONS} reasons")
        return []
    out = []
    for index, reason in enumerate(reasons):
        if (not isinstance(reason, dict) or set(reason) != {"code", "label"}
                or not isinstance(reason["code"], str) or not CODE_PATTERN.match(reason["code"])
                or not isinstance(reason["label"], str) or not reason["label"].strip()
                or len(reason["label"]) > TEXT_MAX):
            bad(f"exemption_reasons[{index}]", "must be {\"code\": a code such as "
                                               "patient_companion, \"label\": the words shown}")
            continue
        out.append({"code": reason["code"], "label": reason["label"].strip()})
    if len({reason["code"] for reason in out}) != len(out):
        bad("exemption_reasons", "two reasons have the same code")
    return out


def rule_set(set_id: str, version: int, body: dict, *, shipped: bool = False) -> RuleSet:
    """The engine's rule set from a checked body."""
    rates = tuple(Rate(starts=dt.date.fromisoformat(r["from"]),
                       ends=dt.date.fromisoformat(r["to"]) if r.get("to") else None,
                       cents=euros_to_cents(r["amount"]),
                       months=frozenset(r["months"]) if r.get("months") else None,
                       category=r.get("category"), source=r.get("source") or "")
                  for r in body["rates"])
    return RuleSet(id=set_id, version=version, name=body["name"], currency=body["currency"],
                   basis=body["basis"], rates=rates, max_nights=body.get("max_nights"),
                   max_nights_per=body.get("max_nights_per", "stay"),
                   age_rates=tuple(AgeRate(b["below"], b["percent"])
                                   for b in body.get("age_rates", [])),
                   exemption_reasons=tuple(r["code"] for r in body.get("exemption_reasons", [])),
                   rounding_cents=body.get("rounding_cents", 1),
                   rounding_mode=body.get("rounding_mode", "half_up"),
                   platform_channels=frozenset(body.get("platform_channels", [])),
                   stacks_on=body.get("stacks_on"),
                   free_stays_exempt=bool(body.get("free_stays_exempt")), shipped=shipped)


# --- the shipped sets -----------------------------------------------------------------------------

_shipped: dict[str, dict] | None = None


def shipped_bodies() -> dict[str, dict]:
    """{id: the file's whole content} of the package's rule sets, read once."""
    global _shipped
    if _shipped is None:
        found = {}
        for entry in sorted(resources.files("rentalcomply.taxes").joinpath("shipped").iterdir(),
                            key=lambda entry: entry.name):
            if entry.name.endswith(".json"):
                content = json.loads(entry.read_text(encoding="utf-8"))
                checked_body(content)  # a broken shipped file fails loudly, at first use
                found[content["id"]] = content
        _shipped = found
    return _shipped


def shipped_rule_set(set_id: str) -> RuleSet | None:
    content = shipped_bodies().get(set_id)
    if content is None:
        return None
    return rule_set(set_id, content["version"], checked_body(content), shipped=True)
