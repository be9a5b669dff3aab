"""ROSS 1000 as a period authority of the filing engine (filings/periods.py): what an Italian
property owes each month for ISTAT's tourism statistics, and how the month goes.

- Owed by an Italian property of a known region (`regions`); monthly, from the month's first day.
- Set-up (`ObligationSettings`, filings/obligations.py): the structure code (required), the
  deadline day (the region's; default the 5th of the next month, local time), and the tourism
  office's transmission user and password (sealed). Without credentials, or in a region on
  another system, the month's file is `ready` for the host to upload or type in.
- The month: `movement.MonthInput` from the property's stays and completed check-ins, the XML of
  `xmlfile.py`; a stay whose check-in is not complete holds the month (never a guess).
- Sent through `inviaMovimentazione` (SOAP 1.1, HTTP Basic); each guest's answer (idswh,
  accepted, error) comes back as a GuestOutcome whose `code` is the idswh.

The web-service client, the gathering from the database, the regions' table and the figures'
PDF are the `gather`, `service`, `regions` modules of this folder when present; until then the
small ones below (`_gather`, `_send`, `SYSTEMS`, `_figures_pdf`) do the same job.
"""

from __future__ import annotations

import base64
import datetime as dt
import urllib.error
import urllib.request
from collections import Counter

from lxml import etree

from rentalcomply import codes
from rentalcomply.authorities.ross1000 import movement, xmlfile
from rentalcomply.core.models import Booking, Property, PropertyClosedDay
from rentalcomply.filings import registry
from rentalcomply.filings.connector import (AuthError, GuestOutcome, Outcome, PermanentError,
                                            TransientError)
from rentalcomply.filings.deadlines import local_to_utc
from rentalcomply.filings.party import guests_of
from rentalcomply.filings.period_dates import bounds, following, local_today, period_of
from rentalcomply.filings.periods import PeriodFile
from rentalcomply.filings.settings import police_setting
from rentalcomply.filings.setup import SetupField

NAME = "ross1000"
DEFAULT_DEADLINE_DAY = 5
# How far back a month that gains a stay is still owed a filing (a stay imported late).
LOOKBACK_MONTHS = 12
NAMESPACE = "http://checkin.ws.service.turismo5.gies.it/"
SOAP = "http://schemas.xmlsoap.org/soap/envelope/"

# Which statistics system each Italian region uses, and the published address of ROSS 1000's
# web service (shared/domain/italy-statistics-and-tax.md and updates-2026-11.md §1.5); None: the
# region's system has no web service we speak, its figures are typed in by the host.
ROSS = "ROSS 1000"
SYSTEMS: dict[str, tuple[str, str | None]] = {
    "IT-21": (ROSS, "https://piemontedatiturismo.regione.piemonte.it/ws/checkinV2"),
    "IT-25": (ROSS, "https://www.flussituristici.servizirl.it/Turismo5/app/ws/checkinV2"),
    "IT-34": (ROSS, "https://flussituristici.regione.veneto.it/ws/checkinV2"),
    "IT-42": (ROSS, "https://turismows.regione.liguria.it/ws/checkinV2"),
    "IT-45": (ROSS, "https://datiturismo.regione.emilia-romagna.it/ws/checkinV2"),
    "IT-52": (ROSS, "https://toscanaturismo.ross1000.it/turismo5-web/ws/checkinV2"),
    "IT-57": (ROSS, "https://istrice-ross1000.turismo.marche.it/ws/checkinV2"),
    "IT-62": (ROSS, "https://lazioturismo.ross1000.it/ws/checkinV2"),
    "IT-65": (ROSS, "https://app.regione.abruzzo.it/Turismo5/ws/checkinV2"),
    "IT-67": (ROSS, "https://moliseturismo.ross1000.it/ws/checkinV2"),
    "IT-78": (ROSS, "https://sirdat.regione.calabria.it/ws/checkinV2"),
    "IT-88": (ROSS, "https://sardegnaturismo.ross1000.it/ws/checkinV2"),
    "IT-75": ("SPOT (Puglia)", None),
    "IT-TN": ("ISPAT (Trento)", None),
    "IT-23": ("VIT Albergatori (Valle d'Aosta)", None),
    "IT-82": ("OTRS (Sicilia)", None),
    "IT-77": ("Basilicata", None),
}

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
)


def system_of(prop: Property) -> tuple[str, str | None]:
    return SYSTEMS.get(prop.region or "", (ROSS, None))


def endpoint_of(prop: Property) -> str | None:
    """The region's web-service address: `police.ross1000_endpoints` ("IT-25=https://...", comma
    separated) where it names the region, else the published one."""
    configured = str(police_setting("ross1000_endpoints", "") or "")
    for entry in configured.split(","):
        region, _, url = entry.strip().partition("=")
        if region.strip() == prop.region and url.strip():
            return url.strip()
    return system_of(prop)[1]


class Ross1000(registry.Authority):
    name = NAME
    country = "IT"
    purpose = "statistics"
    title = "ISTAT tourism statistics (ROSS 1000)"
    period_kind = "month"
    regions = tuple(SYSTEMS)
    setup_fields = SETUP

    def obligation_title(self, prop):
        system, endpoint = system_of(prop)
        if system == ROSS:
            return f"ISTAT tourism statistics ({ROSS})"
        return f"ISTAT tourism statistics ({system}: figures typed in by hand)"

    def periods_owed(self, prop, today):
        current = period_of(today, "month")
        owed = {current}
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
        day = int(settings.get("deadline_day") or DEFAULT_DEADLINE_DAY)
        first_of_next = bounds(period)[1] + dt.timedelta(days=1)
        return local_to_utc(first_of_next.replace(day=day), 23, 59, prop.timezone)

    def build_period(self, prop, period, settings):
        return build_month(prop, period, settings)

    def sends_online(self, prop, settings, credential_names):
        return bool(endpoint_of(prop)) and {"username", "password"} <= set(credential_names)

    def send_period(self, prop, period, settings, credentials, data, timeout):
        return send(endpoint_of(prop), credentials["username"], credentials["password"], data,
                    timeout)


def _day(value) -> dt.date:
    return value if isinstance(value, dt.date) and not isinstance(value, dt.datetime) \
        else dt.date.fromisoformat(str(value)[:10])


def _months_before(day: dt.date, months: int) -> dt.date:
    index = day.year * 12 + day.month - 1 - months
    return dt.date(index // 12, index % 12 + 1, 1)


# --- the month from the database ----------------------------------------------------------------

ROLE_TYPES = {"single": movement.SINGLE, "head_of_family": movement.FAMILY_HEAD,
              "group_leader": movement.GROUP_LEADER, "family_member": movement.FAMILY_MEMBER,
              "group_member": movement.GROUP_MEMBER}


def idswh_of(booking_id: str, index: int) -> str:
    """The guest's id at ROSS 1000: the booking's and the guest's place, never changed (a
    correction re-sends it), at most 20 characters."""
    return f"{booking_id.split('_', 1)[-1][:16]}-{index + 1}"


def _gather(prop: Property, year: int, month: int, structure_code: str,
            today: dt.date) -> tuple[movement.MonthInput, list[str]]:
    first, last = movement.days_of(year, month)[0], movement.days_of(year, month)[-1]
    incomplete: list[str] = []
    if not prop.rooms or not prop.beds:
        incomplete.append("the property's rooms and beds are not set (the statistics report "
                          "them as available)")
    stays = []
    for booking in (Booking.select().where((Booking.property == prop.id)
                                           & (Booking.is_block == False)  # noqa: E712 - SQL
                                           & (Booking.arrival_date <= last)
                                           & (Booking.departure_date >= first))
                    .order_by(Booking.arrival_date, Booking.id)):
        arrival, departure = _day(booking.arrival_date), _day(booking.departure_date)
        if booking.status == "cancelled":
            continue  # it never arrived: nothing to report
        if arrival > today:
            continue  # not arrived yet: counted once it has
        if booking.checkin_status != "COMPLETED":
            incomplete.append(f"the check-in of {booking.guest_name}'s stay arriving "
                              f"{arrival.isoformat()} is not complete")
            continue
        guests, problems = _guests(booking, arrival)
        if problems:
            incomplete += problems
            continue
        stays.append(movement.Stay(arrival=arrival, departure=departure, guests=tuple(guests)))
    closed = frozenset(day for (day,) in PropertyClosedDay.select(PropertyClosedDay.day).where(
        (PropertyClosedDay.property == prop.id) & (PropertyClosedDay.day >= first)
        & (PropertyClosedDay.day <= last)).tuples())
    return movement.MonthInput(structure_code=structure_code, year=year, month=month,
                               rooms_available=prop.rooms or 0, beds_available=prop.beds or 0,
                               stays=tuple(stays), closed_days=closed), incomplete


def _guests(booking: Booking, arrival: dt.date) -> tuple[list[movement.Guest], list[str]]:
    party = guests_of(booking, "IT")
    head = idswh_of(booking.id, 0)
    result, problems = [], []
    for guest in party:
        d = guest.data
        who = f"guest {guest.index + 1} of {booking.guest_name}'s stay arriving {arrival.isoformat()}"
        citizenship = codes.it_state(d.get("nationality") or "")
        residence = codes.it_state(d.get("residence_country") or "")
        if citizenship is None:
            problems.append(f"{who}: the citizenship has no code")
            continue
        if residence is None:
            problems.append(f"{who}: the country of residence is not given (the statistics "
                            "count guests by where they live)")
            continue
        place, province = str(d.get("residence_place") or "").strip(), ""
        if residence.code == movement.ITALY:
            comune = codes.it_municipality(place, d.get("residence_province") or None)
            if comune is None:
                problems.append(f"{who}: the comune of residence {place!r} has no code")
                continue
            place, province = comune.code, comune.province
        elif not place:
            problems.append(f"{who}: the town of residence is not given")
            continue
        born_in = codes.it_state(d.get("birth_country") or "")
        birth_comune = ""
        if born_in is not None and born_in.code == movement.ITALY and d.get("birth_municipality"):
            found = codes.it_municipality(d["birth_municipality"], d.get("birth_province"))
            birth_comune = found.code if found else ""
        kind = ROLE_TYPES.get(guest.role, movement.SINGLE)
        result.append(movement.Guest(
            idswh=idswh_of(booking.id, guest.index), guest_type=kind,
            sex=str(d.get("sex") or ""), birth_date=d["birth_date"],
            citizenship=citizenship.code, residence_country=residence.code,
            residence_place=place[:movement.FOREIGN_PLACE_MAX], residence_province=province,
            surname=str(d.get("last_name") or ""), name=str(d.get("first_name") or ""),
            birth_country=born_in.code if born_in else "", birth_comune=birth_comune,
            head_idswh=head if kind in movement.HEAD_OF else ""))
    return result, problems


def build_month(prop: Property, period: str, settings: dict,
                today: dt.date | None = None) -> PeriodFile:
    """The month's files with the figures so far; why it cannot be sent yet, in words."""
    today = today or local_today(prop.timezone)
    year, month = int(period[:4]), int(period[5:7])
    structure = str(settings.get("structure_code") or "")
    month_input, incomplete = _gather(prop, year, month, structure or "-", today)
    data = xmlfile.build(month_input)  # MovementError (a ValueError): the data is wrong
    files = [(f"ross1000-{structure or 'structure'}-{period}.xml", "application/xml", data)]
    system, endpoint = system_of(prop)
    if system != ROSS:
        name = system.split(" (")[0].replace(" ", "-")
        files.append((f"{name}-{period}-figures.pdf", "application/pdf",
                      _figures_pdf(prop, system, period, movement.month_days(month_input))))
    return PeriodFile(files=files, incomplete=incomplete)


def _figures_pdf(prop: Property, system: str, period: str, days: list[movement.Day]) -> bytes:
    """The month's figures to type into the region's system: arrivals and nights by origin,
    rooms occupied per day, opening days."""
    from fpdf import FPDF
    totals = movement.totals(days)
    pdf = FPDF()
    pdf.add_page()
    pdf.set_font("Helvetica", "B", 14)
    pdf.cell(0, 10, _latin(f"ISTAT C/59 - {system} - {period}"), new_x="LMARGIN", new_y="NEXT")
    pdf.set_font("Helvetica", "", 10)
    pdf.cell(0, 7, _latin(f"{prop.name}: open {totals.open_days} days, closed "
                          f"{totals.closed_days}"), new_x="LMARGIN", new_y="NEXT")
    pdf.cell(0, 7, "Origin (province or state code) / arrivals / nights", new_x="LMARGIN",
             new_y="NEXT")
    for origin in sorted(set(totals.arrivals) | set(totals.nights)):
        pdf.cell(0, 6, _latin(f"{origin}   {totals.arrivals[origin]}   {totals.nights[origin]}"),
                 new_x="LMARGIN", new_y="NEXT")
    pdf.cell(0, 7, "Day / open / rooms occupied / arrivals / departures", new_x="LMARGIN",
             new_y="NEXT")
    for day in days:
        pdf.cell(0, 5, f"{day.date.isoformat()}   {'yes' if day.open else 'no'}   "
                       f"{day.rooms_occupied}   {len(day.arrivals)}   {len(day.departures)}",
                 new_x="LMARGIN", new_y="NEXT")
    return bytes(pdf.output())


def _latin(text: str) -> str:
    return text.encode("latin-1", "replace").decode("latin-1")


# --- the web service ------------------------------------------------------------------------------

def envelope(data: bytes) -> bytes:
    """`inviaMovimentazione` with the month's document as its `movimentazione`."""
    month = etree.fromstring(data)
    month.tag = "movimentazione"
    root = etree.Element(f"{{{SOAP}}}Envelope", nsmap={"soap": SOAP, "ws": NAMESPACE})
    body = etree.SubElement(root, f"{{{SOAP}}}Body")
    call = etree.SubElement(body, f"{{{NAMESPACE}}}inviaMovimentazione")
    call.append(month)
    return etree.tostring(root, xml_declaration=True, encoding="UTF-8")


def send(endpoint: str, username: str, password: str, data: bytes, timeout: float) -> Outcome:
    request = urllib.request.Request(endpoint, data=envelope(data), method="POST", headers={
        "Content-Type": "text/xml; charset=utf-8", "SOAPAction": '""',
        "Authorization": "Basic " + base64.b64encode(
            f"{username}:{password}".encode("utf-8")).decode("ascii")})
    try:
        with urllib.request.urlopen(request, timeout=timeout) as response:
            answer = response.read()
    except urllib.error.HTTPError as exc:
        if exc.code in (401, 403):
            raise AuthError(f"ROSS 1000 refused the transmission credentials (HTTP {exc.code})")
        body = exc.read()
        fault = _fault(body)
        if fault:
            raise PermanentError(f"ROSS 1000 refused the month: {fault}")
        raise TransientError(f"ROSS 1000 answered HTTP {exc.code}")
    except (urllib.error.URLError, TimeoutError, OSError) as exc:
        raise TransientError(f"ROSS 1000 cannot be reached: {exc.__class__.__name__}")
    return outcome_of(answer)


def _fault(body: bytes) -> str | None:
    try:
        root = etree.fromstring(body)
    except etree.XMLSyntaxError:
        return None
    found = root.find(f".//{{{SOAP}}}Fault/faultstring")
    return found.text if found is not None else None


def outcome_of(answer: bytes) -> Outcome:
    """Each `risultato{idswh, successo, errore?}` of the answer, in order."""
    try:
        root = etree.fromstring(answer)
    except etree.XMLSyntaxError:
        raise TransientError("ROSS 1000's answer is not XML")
    guests = []
    for index, node in enumerate(root.iter("risultato")):
        accepted = (node.findtext("successo") or "").strip().lower() == "true"
        guests.append(GuestOutcome(index=index, accepted=accepted,
                                   code=(node.findtext("idswh") or "").strip() or None,
                                   message=(node.findtext("errore") or "").strip() or None))
    # The same guest answered twice (an arrival and its departure): one line each, refused first.
    seen: Counter = Counter()
    unique = []
    for guest in sorted(guests, key=lambda g: g.accepted):
        if seen[guest.code]:
            continue
        seen[guest.code] += 1
        unique.append(guest)
    unique.sort(key=lambda g: g.index)
    for position, guest in enumerate(unique):
        guest.index = position
    state = "submitted" if all(g.accepted for g in unique) else "rejected"
    return Outcome(state=state, guests=unique)


AUTHORITY = Ross1000()
