"""Tourist tax returns as period authorities of the filing engine (filings/periods.py).

- `tourist_tax_it`, `tourist_tax_es`, `tourist_tax_pt`: the periodic returns of a property's rule
  sets of that country that say one (`returns` of the set: every month, quarter, half-year or
  year, due on a day of a month after the period; taxes/rules.py). A property owes a filing per
  period of each frequency its sets name: two sets of one frequency (Catalonia's tax and
  Barcelona's surcharge) share the period's filing, each with its own figures, and the earliest
  of their deadlines. Greece's climate fee is declared with AADE through the reports capability:
  no return here.
- `it_tax_declaration`: Italy's annual declaration (DM 29 April 2022, by 30 June of the next
  year), one per host for all their structures: filed on the oldest of the account's Italian
  properties that names an Italian rule set, with the year's figures per comune and structure.

No authority here publishes an upload format or an API for these returns (Rome's GECOS, Lisbon's
and Porto's platforms, Catalonia's model 950 are typed in on their portals; the MEF's
declaration goes through the Agenzia delle Entrate's services with a record layout whose figures
are not confirmed): each filing is `ready` once its period ends, with the figures as a CSV, an
XLSX and a PDF; the host types them in and marks it filed (`POST /filings/{id}/filed`).
"""

from __future__ import annotations

import calendar
import datetime as dt

from rentalcomply.accounts import language
from rentalcomply.authorities.tourist_tax import files, pdf
from rentalcomply.core.models import Booking, Property
from rentalcomply.filings import registry
from rentalcomply.filings.deadlines import local_to_utc
from rentalcomply.filings.period_dates import bounds, period_of
from rentalcomply.filings.periods import PeriodFile
from rentalcomply.taxes import returns

# How far back a period that gains a stay is still owed a return (a stay imported late).
LOOKBACK_DAYS = 400
# What the host does with the files: English, a text of the `messages` catalogue that the PDF
# writes in the account's language.
HAND_FILED = ("No authority publishes an upload format or an API for this return: type the "
              "figures into the authority's portal or form, then mark the filing filed.")
# The authorities' names as the dashboard shows them, through the `messages` catalogue.
TITLES = {"IT": "Tourist tax returns (Italy)", "ES": "Tourist tax returns (Spain)",
          "PT": "Tourist tax returns (Portugal)"}


def _kind_of(period: str) -> str:
    if len(period) == 4:
        return "year"
    return {"Q": "quarter", "H": "half_year"}.get(period[5], "month")


def _past_periods(prop: Property, today: dt.date, kind: str) -> set[str]:
    """The periods of `kind` with a stay arrived (from the lookback) and the current one."""
    owed = {period_of(today, kind)}
    start = today - dt.timedelta(days=LOOKBACK_DAYS)
    for (arrival,) in (Booking.select(Booking.arrival_date)
                       .where((Booking.property == prop.id)
                              & (Booking.is_block == False)  # noqa: E712 - SQL
                              & (Booking.status == "confirmed")
                              & (Booking.arrival_date >= start)
                              & (Booking.arrival_date < today)).distinct().tuples()):
        owed.add(period_of(arrival, kind))
    return owed


def _due_on(period: str, due_day: int, months_after: int) -> dt.date:
    """`due_day` of the `months_after`-th month after the period's last month."""
    last = bounds(period)[1]
    index = last.year * 12 + last.month - 1 + months_after
    year, month = index // 12, index % 12 + 1
    return dt.date(year, month, min(due_day, calendar.monthrange(year, month)[1]))


class PeriodicReturn(registry.Authority):
    """A country's tourist tax returns, each rule set's at its own frequency."""
    purpose = "tax"
    period_kind = "tax_return"

    def __init__(self, country: str):
        self.country = country
        self.name = f"tourist_tax_{country.lower()}"
        self.title = TITLES[country]

    def _sets(self, prop: Property) -> dict[str, dict]:
        """{rule set id: its `returns`} of the property's sets of this country with a return."""
        named = returns.returns_of(prop.account_id, prop.id)
        bodies = returns.set_names(prop.account_id, named)
        return {set_id: plan for set_id, plan in named.items()
                if bodies.get(set_id, {}).get("country") == self.country}

    def owed_by(self, prop):
        return prop.country == self.country and bool(self._sets(prop))

    def periods_owed(self, prop, today):
        kinds = {plan["every"] for plan in self._sets(prop).values()}
        owed = set()
        for kind in kinds:
            owed |= _past_periods(prop, today, kind)
        return sorted(owed)

    def sets_of_period(self, prop: Property, period: str) -> dict[str, dict]:
        kind = _kind_of(period)
        return {set_id: plan for set_id, plan in self._sets(prop).items()
                if plan["every"] == kind}

    def period_deadline(self, prop, period, settings):
        plans = list(self.sets_of_period(prop, period).values()) or [
            {"due_day": 16, "due_months_after": 1}]
        day = min(_due_on(period, plan["due_day"], plan.get("due_months_after", 1))
                  for plan in plans)
        return local_to_utc(day, 23, 59, prop.timezone)

    def build_period(self, prop, period, settings):
        first, last = bounds(period)
        figures = returns.period_return(prop, first, last, period,
                                        list(self.sets_of_period(prop, period)))
        return _three_files(prop.account_id, f"tourist-tax-{_slug(prop.name)}-{period}",
                            figures, files.return_csv, files.return_xlsx, pdf.return_pdf,
                            incomplete=figures.incomplete)


class ItalianDeclaration(registry.Authority):
    """Italy's annual declaration of the imposta di soggiorno (DM 29 April 2022)."""
    name = "it_tax_declaration"
    country = "IT"
    purpose = "tax"
    period_kind = "year"
    title = "Imposta di soggiorno: annual declaration (DM 29 April 2022)"

    def owed_by(self, prop):
        if prop.country != "IT":
            return False
        declaring = returns.italian_properties(prop.account_id)
        # One declaration covers all the host's structures: it is filed on the oldest.
        return bool(declaring) and declaring[0].id == prop.id

    def periods_owed(self, prop, today):
        owed = {period_of(today, "year")}
        if today.month <= 6:  # last year's declaration is due by 30 June
            owed.add(f"{today.year - 1:04d}")
        return sorted(owed)

    def period_deadline(self, prop, period, settings):
        return local_to_utc(dt.date(int(period) + 1, 6, 30), 23, 59, prop.timezone or "Europe/Rome")

    def build_period(self, prop, period, settings):
        declaration = returns.annual_declaration(prop.account_id, int(period))
        return _three_files(prop.account_id, f"imposta-di-soggiorno-dichiarazione-{period}",
                            declaration, files.declaration_csv, files.declaration_xlsx,
                            pdf.declaration_pdf, incomplete=declaration.incomplete)


def _three_files(account_id: str, stem: str, figures, csv_of, xlsx_of, pdf_of, *,
                 incomplete) -> PeriodFile:
    """A return's CSV, XLSX and PDF, in the account's language (accounts/language.py)."""
    lang = language.of_account(account_id)
    words = files.Words(lang)
    return PeriodFile(files=[
        (f"{stem}.csv", "text/csv", csv_of(figures, words)),
        (f"{stem}.xlsx", files.XLSX_TYPE, xlsx_of(figures, words)),
        (f"{stem}.pdf", "application/pdf", pdf_of(figures, HAND_FILED, lang)),
    ], incomplete=incomplete)


def _slug(text: str) -> str:
    kept = "".join(ch.lower() if ch.isalnum() else "-" for ch in text if ch.isascii())
    return "-".join(part for part in kept.split("-") if part)[:40] or "property"


AUTHORITIES = [PeriodicReturn(country) for country in TITLES] + [ItalianDeclaration()]