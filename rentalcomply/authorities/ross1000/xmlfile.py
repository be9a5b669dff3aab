"""The month's ROSS 1000 file: `xmlImportDati` XML, one `<movimento>` per day, checked against
the shipped `xsd/checkin.xsd` before anyone sees it.

The same document is the file a host uploads on the region's portal and, renamed
`movimentazione`, the body of the web service's `inviaMovimentazione` (service.py). Element
order is the WSDL's (shared/domain/updates-2026-11.md §1.2); the XSD enforces it, since the
service silently drops an `arrivo` it cannot read (note §1.2).
"""

from __future__ import annotations

import datetime as dt
import re

from lxml import etree

from rentalcomply.authorities.ross1000.movement import HEAD_OF, Day, Guest, MonthInput, month_days
from rentalcomply.core import xmlschemas

# The root element: see the XSD's header, the one unconfirmed point of the layout.
ROOT = "movimenti"
# `prodotto` names the software that made the file (note §1.2: codice, prodotto, movimento+).
PRODUCT = "RentalComply"
# tipoturismo and mezzotrasporto are optional in the XSD but mandatory in the tracciato (note
# §1.2); the code lists' "Non Specificato" is what a guest who did not say gets.
NOT_SPECIFIED = "Non Specificato"

_CONTROL = re.compile("[\x00-\x08\x0b\x0c\x0e-\x1f]")


class InvalidMovementXml(Exception):
    """The built XML does not match the schema: a bug, never a file to store or send."""


def schema() -> etree.XMLSchema:
    """The shipped checkin.xsd, parsed once per thread (core/xmlschemas.py says why)."""
    return xmlschemas.schema("rentalcomply.authorities.ross1000", "xsd", "checkin.xsd")


def day_code(day: dt.date) -> str:
    """Dates are `aaaammgg` everywhere in the file (note §1.3)."""
    return day.strftime("%Y%m%d")


def build(month: MonthInput, product: str = PRODUCT) -> bytes:
    """The month's file, validated. Raises movement.MovementError for data that cannot make a
    truthful file, InvalidMovementXml if the builder itself is wrong."""
    return render(month.structure_code, month_days(month), product)


def render(structure_code: str, days: list[Day], product: str = PRODUCT) -> bytes:
    root = etree.Element(ROOT)
    sub = etree.SubElement
    sub(root, "codice").text = _t(structure_code)
    sub(root, "prodotto").text = _t(product)
    for day in days:
        _movimento(sub(root, "movimento"), day)
    errors = schema()
    if not errors.validate(root):
        raise InvalidMovementXml(str(errors.error_log))
    return etree.tostring(root, xml_declaration=True, encoding="UTF-8", pretty_print=True)


def _movimento(node: etree._Element, day: Day) -> None:
    sub = etree.SubElement
    sub(node, "data").text = day_code(day.date)
    struttura = sub(node, "struttura")
    # A closed day: apertura NO and the three counts 0 (note §1.3). An open day without guests:
    # SI, 0 occupied, the rooms and beds available, no arrivi or partenze (note §1.6) - the
    # "no movement" month is thirty of these.
    sub(struttura, "apertura").text = "SI" if day.open else "NO"
    sub(struttura, "camereoccupate").text = str(day.rooms_occupied)
    sub(struttura, "cameredisponibili").text = str(day.rooms_available)
    sub(struttura, "lettidisponibili").text = str(day.beds_available)
    # Empty arrivi/partenze are left out rather than written empty: both are optional, and an
    # open day without guests is described by their absence (note §1.6).
    if day.arrivals:
        arrivi = sub(node, "arrivi")
        for arrival in day.arrivals:
            _arrivo(sub(arrivi, "arrivo"), arrival.guest)
    if day.departures:
        partenze = sub(node, "partenze")
        for departure in day.departures:
            partenza = sub(partenze, "partenza")
            sub(partenza, "idswh").text = _t(departure.guest.idswh)
            sub(partenza, "tipoalloggiato").text = departure.guest.guest_type
            sub(partenza, "arrivo").text = day_code(departure.stay.arrival)
    # prenotazioni (bookings made that day) and rettifiche are optional and not produced: the
    # statistics are the arrivals and departures; a correction re-sends the day (note §1.3).


def _arrivo(node: etree._Element, guest: Guest) -> None:
    """arrivoBean in the WSDL's order: idswh, tipoalloggiato, idcapo?, cognome?, nome?, sesso,
    cittadinanza, statoresidenza, luogoresidenza, datanascita, statonascita?, comunenascita?,
    tipoturismo?, mezzotrasporto? (the four optional code fields after it are not asked of
    guests, so they are left out)."""
    sub = etree.SubElement

    def put(name: str, value: str) -> None:
        sub(node, name).text = _t(value)

    put("idswh", guest.idswh)
    put("tipoalloggiato", guest.guest_type)
    if guest.guest_type in HEAD_OF:
        put("idcapo", guest.head_idswh)  # required for 19 and 20 (note §1.3)
    if guest.surname:
        put("cognome", guest.surname)
    if guest.name:
        put("nome", guest.name)
    put("sesso", guest.sex)
    put("cittadinanza", guest.citizenship)
    put("statoresidenza", guest.residence_country)
    # The comune code for a resident of Italy; a NUTS code or the town (<= 30 characters) for a
    # foreign resident (note §1.3, which settles the notes' disagreement).
    put("luogoresidenza", guest.residence_place)
    put("datanascita", day_code(guest.birth_date))
    if guest.birth_country:
        put("statonascita", guest.birth_country)
    # The comune of birth only for a birth in Italy (note §1.3): movement.check refuses one given
    # with another country of birth.
    if guest.birth_comune:
        put("comunenascita", guest.birth_comune)
    put("tipoturismo", guest.tourism_type or NOT_SPECIFIED)
    put("mezzotrasporto", guest.transport or NOT_SPECIFIED)


def _t(text: str) -> str:
    """lxml refuses C0 control characters and would fail the whole month for one stored in a
    name; U+FFFD shows where it was instead."""
    return _CONTROL.sub("\ufffd", text)
