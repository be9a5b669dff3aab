"""Greece's climate crisis resilience fee: pure arithmetic, no database.

Only stays in Greece pay it: a property in another country (`country` other than `GR`) carries no
fee (`property_fee_cents`).

The fee is charged per night; each night is priced by the month it falls in (summer or winter
rate) and counts in that month's declaration, so a stay from 30 March to 2 April is two winter
nights in March and one summer night in April. Free stays pay nothing. The rates live in the
configuration (`[climate_fee]`), since the law changes.

The arithmetic is the tourist tax engine's (rentalcomply/taxes): `climate_rule_set` writes the
configured rates as a rule set (per unit-night, by season and category), and the engine charges
it night by night like any town's tax.
"""

from __future__ import annotations

import dataclasses
import datetime as dt
import functools
from decimal import ROUND_HALF_UP, Decimal

from rentalcomply.taxes import compute
from rentalcomply.taxes.rules import Rate, RuleSet

DETACHED = "detached_over_80m2"
FEE_COUNTRY = "GR"


def euros_to_cents(euros: float | int | Decimal) -> int:
    return int((Decimal(str(euros)) * 100).quantize(Decimal(1), rounding=ROUND_HALF_UP))


@dataclasses.dataclass(frozen=True)
class FeeRates:
    """Per-night rates in cents, and the months charged at the summer rate."""

    standard_summer: int
    standard_winter: int
    detached_summer: int
    detached_winter: int
    summer_months: frozenset[int]

    @classmethod
    def from_settings(cls, settings) -> "FeeRates":
        """From the whole settings or just their `climate_fee` section."""
        section = getattr(settings, "climate_fee", settings)
        return _rates_of(section.standard_summer, section.standard_winter,
                         section.detached_summer, section.detached_winter,
                         tuple(section.summer_months))

    def per_night(self, category: str, month: int) -> int:
        summer = month in self.summer_months
        if category == DETACHED:
            return self.detached_summer if summer else self.detached_winter
        return self.standard_summer if summer else self.standard_winter


@functools.lru_cache(maxsize=8)
def _rates_of(standard_summer, standard_winter, detached_summer, detached_winter,
              summer_months: tuple[int, ...]) -> FeeRates:
    """The rates of those settings' values, made once: every booking written asks for them, and
    their four decimal conversions are the same each time."""
    return FeeRates(standard_summer=euros_to_cents(standard_summer),
                    standard_winter=euros_to_cents(standard_winter),
                    detached_summer=euros_to_cents(detached_summer),
                    detached_winter=euros_to_cents(detached_winter),
                    summer_months=frozenset(summer_months))


# The configured rates have no start date of their own: they apply to every night.
_ALWAYS = dt.date(1970, 1, 1)


@functools.lru_cache(maxsize=8)  # a few settings' rates; a month's report prices 300 stays
def climate_rule_set(rates: FeeRates) -> RuleSet:
    """The configured rates as the engine's rule set: each night of the flat is charged its
    month's season rate, a detached house over 80 m² its own."""
    summer = frozenset(rates.summer_months)
    winter = frozenset(range(1, 13)) - summer
    grid = ((None, summer, rates.standard_summer), (None, winter, rates.standard_winter),
            (DETACHED, summer, rates.detached_summer), (DETACHED, winter, rates.detached_winter))
    return RuleSet(id="gr-climate-fee", version=1, name="Greece's climate resilience fee",
                   currency="EUR", basis="unit_night", free_stays_exempt=True,
                   rates=tuple(Rate(starts=_ALWAYS, ends=None, cents=cents, months=months,
                                    category=category, source="[climate_fee] settings")
                               for category, months, cents in grid if months))


def climate_fee_by_month(arrival: dt.date, departure: dt.date, category: str,
                         rates: FeeRates) -> dict[tuple[int, int], int]:
    """Fee in cents per (year, month) of the nights; the night of a date belongs to that date."""
    stay = compute.Stay(arrival=arrival, departure=departure, category=category)
    charged = compute.charge_set(climate_rule_set(rates), stay)
    return {month: int(cents) for month, cents in charged.by_month.items()}


def climate_fee_cents(arrival: dt.date, departure: dt.date, category: str, rates: FeeRates,
                      total_price_cents: int | None = None) -> int:
    """The whole stay's fee in cents. A stay with a total price of zero is free and pays none; an
    unknown price (None) is assumed paid."""
    if total_price_cents == 0:
        return 0
    return sum(climate_fee_by_month(arrival, departure, category, rates).values())


def property_fee_cents(country: str, arrival: dt.date, departure: dt.date, category: str,
                       rates: FeeRates, total_price_cents: int | None = None) -> int:
    """The fee of a stay in a property of `country`: Greece's fee there, 0 anywhere else."""
    if country != FEE_COUNTRY:
        return 0
    return climate_fee_cents(arrival, departure, category, rates, total_price_cents)
