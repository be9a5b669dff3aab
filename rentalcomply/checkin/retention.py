"""How long a stay's guest data is kept after departure: per country of the property, as its law
says (settings `retention.guest_documents_years_<country>`), else `retention.guest_documents_days`.

The sealed party (check-in) and the built police files (police) are erased together once the
period has passed; the lead guest's name, receipts and outcomes stay. The sources of the defaults
are in the settings' help (config.py, config.example.toml).
"""

from __future__ import annotations

import dataclasses
import datetime as dt

from rentalcomply.core.models import Booking, Property

# The countries whose law sets the period, and the setting that holds it (years).
YEARS_SETTINGS = {"IT": "guest_documents_years_it", "ES": "guest_documents_years_es",
                  "PT": "guest_documents_years_pt"}


@dataclasses.dataclass(frozen=True)
class Retention:
    default_days: int                 # countries without a period of their own (Greece...)
    years: dict[str, int] = dataclasses.field(default_factory=dict)

    @classmethod
    def from_settings(cls, settings) -> "Retention":
        section = settings.retention
        return cls(section.guest_documents_days,
                   {country: getattr(section, name) for country, name in YEARS_SETTINGS.items()})

    @classmethod
    def of(cls, value: "Retention | int") -> "Retention":
        """A Retention, or a number of days for every country (tests, one-off calls)."""
        return value if isinstance(value, Retention) else cls(int(value))

    def period(self, country: str) -> tuple[str, int]:
        """("years", n) or ("days", n): what the privacy notice tells the guest."""
        if country in self.years:
            return "years", self.years[country]
        return "days", self.default_days

    def cutoff(self, country: str, today: dt.date) -> dt.date:
        """Stays of `country` that departed before this day are past their retention."""
        if country in self.years:
            return years_before(today, self.years[country])
        return today - dt.timedelta(days=self.default_days)

    def past(self, today: dt.date):
        """A condition on Booking (joined with its Property): the stay's data is past retention."""
        condition = Booking.departure_date < self.cutoff("", today)
        if self.years:
            condition &= Property.country.not_in(list(self.years))
        for country in self.years:
            condition |= (Property.country == country) & (
                Booking.departure_date < self.cutoff(country, today))
        return condition


def years_before(day: dt.date, years: int) -> dt.date:
    """The same calendar day `years` earlier (29 February becomes the 28th): whole years, so a
    leap day never cuts a legal period short."""
    try:
        return day.replace(year=day.year - years)
    except ValueError:
        return day.replace(year=day.year - years, day=28)
