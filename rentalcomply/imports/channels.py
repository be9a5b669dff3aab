"""Which channel's export a sheet is, and its rows as reservations.

Columns are found by their header, in each language the channels were seen to use (see
shared notes on the channels' exports), never by position; a file that lacks a required column is
refused naming it. Airbnb's reservations CSV: English and Spanish. Booking.com's reservations
download: English, Italian, French and Croatian.
"""

from __future__ import annotations

import datetime as dt
import re
import unicodedata
from dataclasses import dataclass, field

from rentalcomply.bookings.service import EARLIEST_DATE, LATEST_DATE, MAX_NIGHTS
from rentalcomply.imports.files import Sheet, UnreadableFile
from rentalcomply.imports.values import (BadDates, BadValue, date_format, parse_amount, parse_count,
                                         parse_date)

# field -> the headers that carry it, any language.
AIRBNB_COLUMNS = {
    "code": ("Confirmation code", "Código de confirmación", "Code de confirmation"),
    "status": ("Status", "Estado", "Statut"),
    "guest_name": ("Guest name", "Nombre del huésped", "Nom du voyageur"),
    "adults": ("# of adults", "Número de adultos", "Nombre d'adultes"),
    "children": ("# of children", "Número de niños", "Nombre d'enfants"),
    "infants": ("# of infants", "Número de bebés", "Nombre de bébés"),
    "arrival": ("Start date", "Fecha de inicio", "Date de début"),
    "departure": ("End date", "Fecha de finalización", "Date de fin"),
    "listing": ("Listing", "Anuncio", "Annonce"),
    "price": ("Earnings", "Ganancias", "Revenus"),
    # Airbnb's "Contact" is the guest's phone number.
    "phone": ("Contact", "Contacto"),
    "booked_on": ("Booked", "Reservada", "Réservée", "Date de réservation"),
}
AIRBNB_REQUIRED = ("code", "guest_name", "arrival", "departure")
BOOKING_COLUMNS = {
    "code": ("Book number", "N° di prenotazione", "N. di prenotazione", "Broj rezervacije",
             "Numéro de réservation", "Reservation number"),
    "booked_by": ("Booked by", "Prenotato da", "Réservé par", "Nositelj rezervacije",
                  "Booker name"),
    "guest_name": ("Guest name(s)", "Nome ospite(i)", "Nom du client", "Ime(na) gosta",
                   "Guest name"),
    "arrival": ("Check-in", "Arrivo", "Arrivée", "Prijava", "Arrival"),
    "departure": ("Check-out", "Partenza", "Départ", "Odjava", "Departure"),
    "status": ("Status", "Stato", "Statut", "Status rezervacije"),
    "persons": ("Persons", "Persone", "Personnes", "Osobe"),
    "adults": ("Adults", "Adulti", "Adultes", "Odrasli"),
    "children": ("Children", "Bambini", "Enfants", "Djeca"),
    "price": ("Price", "Prezzo", "Prix", "Cijena", "Final amount"),
    "currency": ("Currency", "Valuta", "Devise"),
    "payment": ("Payment method (Payment Provider)", "Metodo di pagamento", "Mode de paiement",
                "Način plaćanja", "Payment method"),
    "unit": ("Unit type", "Tipo di unità", "Type d'hébergement", "Vrsta jedinice"),
    # A group account's download (several properties) names each row's property as well: that
    # is the listing, the unit type being the same "Apartment" in every property.
    "property_name": ("Property name", "Nome della struttura", "Nom de l'établissement",
                      "Naziv objekta"),
    "phone": ("Phone number", "Numero di telefono", "Numéro de téléphone", "Broj telefona",
              "Phone"),
    "booked_on": ("Booked on", "Prenotato il", "Réservé le", "Rezervirano"),
    "country": ("Booker country", "Paese del cliente", "Pays du client", "Država gosta"),
    "cancellation_date": ("Cancellation date", "Data di cancellazione", "Date d'annulation",
                          "Datum otkazivanja"),
}
BOOKING_REQUIRED = ("code", "arrival", "departure")
# Headers of languages whose dates put the day first when a file's order is ambiguous.
ENGLISH_HEADERS = {"Confirmation code", "Book number", "Reservation number"}
CANCELLED = re.compile(r"cancel|annul|storn|otkaz", re.IGNORECASE)
CHANNEL_NAMES = {"airbnb": "Airbnb", "booking": "Booking.com"}
CODE_MAX = 100  # Booking.external_ref
# What bookings.service takes.
EARLIEST, LATEST = EARLIEST_DATE, LATEST_DATE
GUEST_NAME_MAX = 200  # Booking.guest_name
# Control characters never reach a booking (bookings.service refuses them): a name loses them.
_CONTROL = re.compile(r"[\x00-\x1f\x7f-\x9f\u2028\u2029]")


@dataclass
class Reservation:
    row: int
    channel: str  # "airbnb" or "booking"
    code: str
    cancelled: bool
    guest_name: str | None
    arrival: object
    departure: object
    listing: str | None
    adults: int | None = None
    children: int | None = None
    infants: int | None = None
    price_cents: int | None = None
    currency: str | None = None
    # "platform" when the guest paid the channel (always on Airbnb; Booking.com says so).
    payment_method: str | None = None
    phone: str | None = None
    # When the guest booked, in the file's (the property's) local time; a day alone at midnight.
    booked_on: dt.datetime | None = None
    country: str | None = None  # ISO 3166 alpha-2, lower case as Booking.com writes it
    # The listing is Booking.com's unit type ("Apartment"), which names no single property.
    listing_is_unit: bool = False

    @property
    def guest_count(self) -> int | None:
        counts = [self.adults, self.children, self.infants]
        if all(count is None for count in counts):
            return None
        return sum(count or 0 for count in counts)


@dataclass
class Export:
    channel: str
    kind: str
    reservations: list[Reservation]
    notes: list[tuple[str, dict]] = field(default_factory=list)  # (English template, values)


def read_export(sheet: Sheet) -> Export:
    channel, columns = _recognise(sheet.header)
    cells = {name: index for name, index in columns.items()}

    def cell(row: list[str], name: str) -> str:
        index = cells.get(name)
        return row[index].strip() if index is not None and index < len(row) else ""

    def refuse(number: int, name: str, expected, value: str) -> UnreadableFile:
        """`expected`: an English phrase, or a (template, values) pair."""
        if isinstance(expected, str):
            expected = (expected, {})
        shown = value if len(value) <= 40 else value[:40] + "…"
        return UnreadableFile("Row {row}, column '{column}': expected {expected}, found "
                              "'{found}'. Nothing was imported.", row=number,
                              column=sheet.header[cells[name]], expected=expected, found=shown)

    day_first = not any(header in ENGLISH_HEADERS for header in sheet.header)
    arrivals = [cell(row, "arrival") for _, row in sheet.rows]
    departures = [cell(row, "departure") for _, row in sheet.rows]
    try:
        fmt, note = date_format([arrivals, departures], list(zip(arrivals, departures)), day_first)
    except BadDates as problem:
        number, name, value = _first_odd_date(sheet, cell, problem.likeliest)
        raise refuse(number, name, (problem.template, problem.values), value) from None
    notes = [note] if note else []
    reservations = []
    for number, row in sheet.rows:
        values: dict = {}
        for name in ("arrival", "departure"):
            if not cell(row, name):
                raise refuse(number, name, "a date", "")
            try:
                values[name] = parse_date(cell(row, name), fmt)
            except BadValue as problem:
                raise refuse(number, name, (problem.template, problem.values),
                             cell(row, name)) from None
        for name in ("arrival", "departure"):
            if not EARLIEST <= values[name] <= LATEST:
                raise refuse(number, name, ("a date from {earliest} to {latest}",
                                            {"earliest": EARLIEST, "latest": LATEST}),
                             cell(row, name))
        if not 0 < (values["departure"] - values["arrival"]).days <= MAX_NIGHTS:
            raise refuse(number, "departure", ("a date after the start of the stay, at most "
                                               "{nights} nights later", {"nights": MAX_NIGHTS}),
                         cell(row, "departure"))
        for name in ("adults", "children", "infants", "persons"):
            if name in cells:
                try:
                    values[name] = parse_count(cell(row, name)) if cell(row, name) else None
                except BadValue as problem:
                    raise refuse(number, name, (problem.template, problem.values),
                                 cell(row, name)) from None
        if cell(row, "price"):
            try:
                values["price_cents"], values["currency"] = parse_amount(cell(row, "price"))
            except BadValue as problem:
                raise refuse(number, "price", (problem.template, problem.values),
                             cell(row, "price")) from None
            if cell(row, "currency") and re.fullmatch(r"[A-Za-z]{3}", cell(row, "currency")):
                values["currency"] = cell(row, "currency").upper()
        code = _code(cell(row, "code"))
        if not code or len(code) > CODE_MAX or _CONTROL.search(code):
            raise refuse(number, "code", ("the reservation's code (at most {count} characters)",
                                          {"count": CODE_MAX}),
                         code)
        values["booked_on"] = _booked_on(cell(row, "booked_on"), fmt)
        reservations.append(_reservation(channel, number, code, values, lambda n: cell(row, n)))
    return Export(channel, sheet.kind, reservations, notes)


def _reservation(channel, number, code, values, cell) -> Reservation:
    adults, children = values.get("adults"), values.get("children")
    if channel == "booking":
        cancelled = bool(CANCELLED.search(cell("status")) or cell("cancellation_date"))
        # The booker, as Booking.com writes them ("Schmidt, Anna"): the authorities' order (last
        # name, first name), which Spain's reservation communication reads (its holder).
        name = _booker(cell("booked_by")) or _first_guest(cell("guest_name"))
        if adults is None and values.get("persons") is not None:
            adults = values["persons"] - (children or 0)
        listing = cell("property_name") or cell("unit")
        is_unit = not cell("property_name") and bool(cell("unit"))
        payment = "platform" if re.search(r"booking\.com", cell("payment"), re.I) else None
    else:
        cancelled = bool(CANCELLED.search(cell("status")))
        name = cell("guest_name")
        listing = cell("listing")
        is_unit = False
        payment = "platform"
    name = " ".join(_CONTROL.sub(" ", name).split())[:GUEST_NAME_MAX]
    phone = " ".join(_CONTROL.sub(" ", cell("phone")).split())
    country = cell("country").lower()
    return Reservation(number, channel, code, cancelled, name or None, values["arrival"],
                       values["departure"], listing or None, adults, children,
                       values.get("infants"), values.get("price_cents"), values.get("currency"),
                       payment, _phone(phone), values.get("booked_on"),
                       country if re.fullmatch(r"[a-z]{2}", country) else None, is_unit)


def _code(value: str) -> str:
    value = value.strip()
    return value[:-2] if re.fullmatch(r"[0-9]+\.0", value) else value


def _first_guest(value: str) -> str:
    return value.split(",")[0].strip()


def _booker(value: str) -> str:
    """`Surname, Firstname` as it is (the authorities' order), spaced once."""
    surname, comma, first = value.partition(",")
    if not comma:
        return " ".join(value.split())
    if not first.strip():
        return " ".join(surname.split())
    return f"{' '.join(surname.split())}, {' '.join(first.split())}"


PHONE_MAX = 40  # Booking.guest_phone


def _phone(value: str) -> str | None:
    """A phone number with at least 4 digits (the check-in link's last four); else nothing."""
    if len(re.sub(r"\D", "", value)) < 4 or len(value) > PHONE_MAX:
        return None
    return value


def _booked_on(value: str, fmt: str) -> dt.datetime | None:
    """The booking's date and time; an unreadable one is left out (the file's dates are not)."""
    value = value.strip()
    if not value:
        return None
    try:
        return dt.datetime.fromisoformat(value.replace("T", " ")[:19])
    except ValueError:
        pass
    try:
        return dt.datetime.combine(parse_date(value, fmt), dt.time())
    except BadValue:
        return None


def _first_odd_date(sheet: Sheet, cell, fmt: str) -> tuple[int, str, str]:
    """The first date cell that the file's likeliest order does not read."""
    for number, row in sheet.rows:
        for name in ("arrival", "departure"):
            try:
                parse_date(cell(row, name), fmt)
            except BadValue:
                return number, name, cell(row, name)
    number, row = sheet.rows[0]  # every cell reads, but some stay ends before it starts
    return number, "departure", cell(row, "departure")


def _recognise(header: list[str]) -> tuple[str, dict[str, int]]:
    """The channel whose export this header is, and the column of each field it has."""
    found = {channel: _columns(header, columns)
             for channel, columns in (("airbnb", AIRBNB_COLUMNS), ("booking", BOOKING_COLUMNS))}
    required = {"airbnb": AIRBNB_REQUIRED, "booking": BOOKING_REQUIRED}
    for channel in ("airbnb", "booking"):
        if all(name in found[channel] for name in required[channel]):
            if channel == "booking" and "guest_name" not in found[channel] \
                    and "booked_by" not in found[channel]:
                continue
            return channel, found[channel]
    channel = max(found, key=lambda name: len(found[name]))
    if not found[channel]:
        raise UnreadableFile("This is not a reservations export of Airbnb or Booking.com: none of "
                             "their column headers is in the first row.")
    table = AIRBNB_COLUMNS if channel == "airbnb" else BOOKING_COLUMNS
    missing = [table[name][0] for name in required[channel] if name not in found[channel]]
    if channel == "booking" and "guest_name" not in found[channel] \
            and "booked_by" not in found[channel]:
        missing.append(table["guest_name"][0])
    raise UnreadableFile("This looks like a {channel} export, but the column(s) {columns} are "
                         "missing (in any language). Nothing was imported.",
                         channel=CHANNEL_NAMES[channel],
                         columns=", ".join(repr(name) for name in missing))


def _columns(header: list[str], table: dict[str, tuple[str, ...]]) -> dict[str, int]:
    where = {_folded(name): index for index, name in reversed(list(enumerate(header)))}
    return {name: where[_folded(title)] for name, titles in table.items() for title in titles
            if _folded(title) in where}


def _folded(text: str) -> str:
    """Case, accents and spacing do not tell headers apart."""
    decomposed = unicodedata.normalize("NFKD", text.casefold())
    return " ".join("".join(c for c in decomposed if not unicodedata.combining(c)).split())
