"""ROSS 1000 as a period authority of the filing engine (filings/periods.py): what an Italian
property owes each month for ISTAT's tourism statistics, and how the month goes.

- Owed by an Italian property of a known region (`regions.py`: each region's system).
- Set-up (`ObligationSettings`, filings/obligations.py): the structure code (required), the
  deadline day (default the region's, else the 5th of the next month; 23:59 local time), and
  the tourism office's transmission user and password (sealed). Without credentials, or in a
  region on another system, the month's file is `ready` for the host to upload or type in.
- The month: `gather.month_input` (bookings, completed check-ins, rooms, beds, closed days) and
  the XML of `xmlfile.py` (with the legacy TXT of `txtfile.py` beside it where the property's
  `legacy_txt` setting says its region still asks for it); a stay that cannot be reported yet holds the month in words (never a
  guess). For a region on another system, the figures as a PDF and a CSV (`figures.py`).
- Sent through `service.send_month` (`inviaMovimentazione`); each guest's verdict (idswh,
  accepted, error) comes back as a GuestOutcome whose `code` is the idswh.
"""

from __future__ import annotations

import datetime as dt

from rentalcomply.authorities.ross1000 import figures, gather, regions, service, txtfile, xmlfile
from rentalcomply.core.models import Booking, Property
from rentalcomply.filings import registry
from rentalcomply.filings.connector import GuestOutcome, Outcome
from rentalcomply.filings.deadlines import local_to_utc
from rentalcomply.filings.period_dates import bounds, following, local_today, period_of
from rentalcomply.filings.periods import PeriodFile
from rentalcomply.filings.settings import server_settings
from rentalcomply.filings.setup import SetupField

NAME = "ross1000"
# How far back a month that gains a stay is still owed a filing (a stay imported late).
LOOKBACK_MONTHS = 12

SETUP = (
    SetupField("structure_code", "Structure code", pattern=r"[A-Za-z0-9._/-]{1,30}",
               rule="must be the structure's code in the region's system (letters, digits, "
                    "at most 30)",
               hint="The code the region's tourism office gave the property (codice struttura)."),
    SetupField("deadline_day", "Deadline day of the next month", required=False,
               pattern=r"[1-9]|1[0-9]|2[0-8]", rule="must be a day from 1 to 28",
               hint="The day of the next month the region wants the month by (5 if empty)."),
    SetupField("username", "Transmission user", secret=True, shown=True, required=False,
               hint="The web-service user the tourism office issues; without it the month's "
                    "file is made for you to upload."),
    SetupField("password", "Transmission password", secret=True, required=False),
    SetupField("legacy_txt", "Also the legacy TXT file", required=False, pattern=r"yes|no",
               rule="must be yes or no",
               hint="yes where the region's portal still asks for the TXT record: the month's "
                    "download then holds it beside the XML."),
)


def endpoint_of(prop: Property) -> str:
    """The region's web-service address ("" for a region on another system, or none settled)."""
    region = regions.get(prop.region)
    return regions.endpoint(region, server_settings()) if region else ""


class Ross1000(registry.Authority):
    name = NAME
    country = "IT"
    purpose = "statistics"
    title = "ISTAT tourism statistics (ROSS 1000)"
    period_kind = "month"
    regions = tuple(regions.REGIONS)
    setup_fields = SETUP

    def obligation_title(self, prop):
        region = regions.get(prop.region)
        if region is None or region.on_ross1000:
            return self.title
        return f"ISTAT tourism statistics ({region.system_title}: figures typed in by hand)"

    def periods_owed(self, prop, today):
        owed = {period_of(today, "month")}
        created = prop.created_at.date() if prop.created_at else today
        start = max(created.replace(day=1), _months_before(today, LOOKBACK_MONTHS))
        # A past month with a stay (made or moved there after it ended) is owed too.
        for arrival, departure in (Booking.select(Booking.arrival_date, Booking.departure_date)
                                   .where((Booking.property == prop.id)
                                          & (Booking.is_block == False)  # noqa: E712 - SQL
                                          & (Booking.status == "confirmed")
                                          & (Booking.departure_date >= start)
                                          & (Booking.arrival_date < today)).tuples()):
            month = period_of(max(_day(arrival), start), "month")
            last = period_of(min(_day(departure), today), "month")
            while month <= last:
                owed.add(month)
                month = following(month, "month")
        return sorted(owed)

    def period_deadline(self, prop, period, settings):
        region = regions.get(prop.region)
        day = int(settings.get("deadline_day") or (region.deadline_day if region else None)
                  or regions.DEFAULT_DEADLINE_DAY)
        first_of_next = bounds(period)[1] + dt.timedelta(days=1)
        return local_to_utc(first_of_next.replace(day=day), 23, 59, prop.timezone)

    def build_period(self, prop, period, settings):
        return build_month(prop, period, settings)

    def sends_online(self, prop, settings, credential_names):
        return bool(endpoint_of(prop)) and {"username", "password"} <= set(credential_names)

    def send_period(self, prop, period, settings, credentials, data, timeout):
        results = service.send_month(endpoint_of(prop), credentials.get("username", ""),
                                     credentials.get("password", ""), data, timeout)
        guests = [GuestOutcome(index=i, accepted=r.accepted, code=r.idswh,
                               message=r.error or None)
                  for i, r in enumerate(service.by_guest(results))]
        return Outcome(state="submitted" if all(g.accepted for g in guests) else "rejected",
                       guests=guests)


def _day(value) -> dt.date:
    return value if isinstance(value, dt.date) and not isinstance(value, dt.datetime) \
        else dt.date.fromisoformat(str(value)[:10])


def _months_before(day: dt.date, months: int) -> dt.date:
    index = day.year * 12 + day.month - 1 - months
    return dt.date(index // 12, index % 12 + 1, 1)


def build_month(prop: Property, period: str, settings: dict) -> PeriodFile:
    """The month's files with the figures so far, and why it cannot be sent yet, in words (a
    stay not arrived yet, in the running month, is no reason: it counts once it has)."""
    today = local_today(prop.timezone)
    year, month = int(period[:4]), int(period[5:7])
    structure = str(settings.get("structure_code") or "")
    gathered = gather.month_input(prop, year, month, structure)
    incomplete = list(gathered.missing) + [
        f"The stay {item.reference} arriving {item.arrival.isoformat()}: {item.why}"
        for item in gathered.incomplete if item.arrival <= today]
    data = xmlfile.build(gathered.input)  # MovementError (a ValueError): the data is wrong
    files = [(f"ross1000-{structure}-{period}.xml", "application/xml", data)]
    if settings.get("legacy_txt") == "yes":  # the record of the older layout (txtfile.py)
        files.append((f"ross1000-{structure}-{period}.txt", "text/plain",
                      txtfile.build(gathered.input)))
    region = regions.get(prop.region)
    if region is not None and not region.on_ross1000:
        shown = figures.month_figures(gathered.input, system_title=region.system_title,
                                      region_name=region.name, property_name=prop.name)
        files.append((figures.filename(shown, region.system, "pdf"), "application/pdf",
                      figures.pdf_bytes(shown)))
        files.append((figures.filename(shown, region.system, "csv"), "text/csv",
                      figures.csv_bytes(shown)))
    return PeriodFile(files=files, incomplete=incomplete)


AUTHORITY = Ross1000()
