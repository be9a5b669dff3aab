"""How long the authorities' receipts of police filings are kept: per country of the property, as
its rules say (settings `retention.police_receipts_years_<country>`), else
`retention.police_receipts_days`; then the receipt is erased, a few hundred filings at a time.

The filing itself stays (its outcome, the authority's reference, when it was filed): a few
hundred bytes a stay, where the receipt (Alloggiati Web's is a PDF) is most of the row. The
guest data and the built files go earlier or at the same time (checkin/retention.py).

A period filing (a month's statistics, a tax return: no booking of its own) is dated by its
period's last day, as a stay by its departure: its file and receipt describe every guest of the
period, so they go when the last of those stays' data may go.
"""

from __future__ import annotations

from rentalcomply.checkin.retention import Retention
from rentalcomply.core import clock
from rentalcomply.core.db import update_in_batches
from rentalcomply.core.models import Booking, Property
from rentalcomply.filings import registry
from rentalcomply.filings.models import Filing
from rentalcomply.filings.period_dates import bounds



def receipt_retention(settings) -> Retention:
    """Each authority whose rules set how long a receipt is kept names the setting (years)."""
    section = settings.retention
    return Retention(section.police_receipts_days,
                     {authority.country: getattr(section, authority.receipt_years_setting)
                      for authority in registry.authorities() if authority.receipt_years_setting})


def erase_receipts(retention: Retention | int) -> int:
    """Erase the receipts of filings whose stay departed (a period filing: whose period ended)
    longer ago than the retention of its property's country (a number: days for every
    country). How many."""
    past = Retention.of(retention).past(clock.today())
    stale = (Filing.select(Filing.id)
             .join(Booking, on=(Filing.booking == Booking.id))
             .join(Property, on=(Booking.property == Property.id))
             .where(Filing.receipt_sealed.is_null(False) & past))
    erased = {Filing.receipt_sealed: None, Filing.receipt_type: None,
              Filing.updated_at: clock.utcnow()}
    count = update_in_batches(Filing, Filing.id.in_(stale), erased)
    periods = past_period_filings(retention, Filing.receipt_sealed)
    if periods:  # the condition stops matching once erased, as update_in_batches needs
        count += update_in_batches(
            Filing, Filing.id.in_(periods) & Filing.receipt_sealed.is_null(False), erased)
    return count


def past_period_filings(retention: Retention | int, column) -> list[str]:
    """The ids of period filings with something in `column` whose period ended before the
    retention of its property's country (a number: days for every country) began."""
    retention, today = Retention.of(retention), clock.today()
    return [filing_id for filing_id, period, country in (
        Filing.select(Filing.id, Filing.period, Property.country)
        .join(Property, on=(Filing.property == Property.id))
        .where(Filing.booking.is_null() & Filing.period.is_null(False) & column.is_null(False))
        .tuples())
        if bounds(period)[1] < retention.cutoff(country, today)]
