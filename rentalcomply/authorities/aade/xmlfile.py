"""The machine-readable report: XML built with lxml and validated against the shipped XSD.

lxml (libxml2) rather than a pure-Python validator: a month of 5,000 stays is built and validated
in a fraction of a second, and it reports the failing line and element when a file is invalid.
Every text goes through `safetext.for_xml`: a control character already stored is written as
U+FFFD instead of making lxml refuse the whole report. The root's `status` says `provisional`
(the period was still running; `asOf` is the last day it holds) or `final`.
"""

from __future__ import annotations

import datetime as dt
import re

from lxml import etree

from rentalcomply.authorities.aade.building import PropertySection, ReportData
from rentalcomply.authorities.aade.safetext import for_xml as _t
from rentalcomply.core import xmlschemas

NAMESPACE = "urn:rentalcomply:aade-report:1"
SCHEMA_VERSION = "1"
_N = "{%s}" % NAMESPACE


class InvalidReportXml(Exception):
    """The built XML does not match the schema: a bug, never a file to store."""


def schema() -> etree.XMLSchema:
    """The shipped AADE XSD, parsed once per thread (core/xmlschemas.py says why)."""
    return xmlschemas.schema("rentalcomply.authorities.aade", "aade-report.xsd")


def money(cents: int) -> str:
    sign = "-" if cents < 0 else ""
    cents = abs(cents)
    return f"{sign}{cents // 100}.{cents % 100:02d}"


def render_xml(data: ReportData, generated_at: dt.datetime) -> bytes:
    root = etree.Element(_N + "report", nsmap={None: NAMESPACE},
                         id=data.code, schemaVersion=SCHEMA_VERSION,
                         status="provisional" if data.provisional else "final")
    if data.provisional and data.as_of is not None:
        root.set("asOf", data.as_of.isoformat())
    sub = etree.SubElement
    period = {"year": str(data.year), "start": data.start.isoformat(),
              "end": (data.end - dt.timedelta(days=1)).isoformat()}
    if data.month is not None:
        period["month"] = str(data.month)
    sub(root, _N + "period", period)
    sub(root, _N + "account", id=_t(data.account_id), name=_t(data.account_name))
    sub(root, _N + "generatedAt").text = generated_at.isoformat(timespec="seconds") + "Z"
    if data.due_date:
        sub(root, _N + "dueDate").text = data.due_date.isoformat()
        sub(root, _N + "feeDueDate").text = data.fee_due_date.isoformat()
    _totals(sub(root, _N + "totals"), totals_of(data))
    for section in data.sections:
        node = sub(root, _N + "property", ama=_t(section.ama), id=_t(section.property_id),
                   category=section.category)
        sub(node, _N + "name").text = _t(section.name)
        _totals(sub(node, _N + "totals"), totals_of(section))
        # The stays and cancellations, thousands of elements, are written as text and parsed
        # in one piece: lxml builds the same elements from it in a fraction of the time that
        # one SubElement call per element takes (the file is the same, byte for byte).
        parts = [_stay_text(stay) for stay in section.stays]
        parts += [_cancellation_text(item) for item in section.cancellations]
        if parts:
            node.extend(etree.fromstring(
                f'<property xmlns="{NAMESPACE}">{"".join(parts)}</property>'))
    fees = sub(root, _N + "climateFee", total=money(data.climate_fee_total_cents))
    for line in data.fee_lines:
        sub(fees, _N + "month", year=str(line.year), month=str(line.month),
            season="summer" if line.summer else "winter", category=line.category,
            nights=str(line.nights), ratePerNight=money(line.rate_cents),
            fee=money(line.fee_cents))
    attention = sub(root, _N + "needsAttention")
    for item in data.attention:
        element = sub(attention, _N + "booking", bookingId=_t(item.booking_id),
                      propertyId=_t(item.property_id), arrival=item.arrival.isoformat(),
                      departure=item.departure.isoformat())
        for (code, _), text in zip(item.reasons, item.texts("en")):
            sub(element, _N + "reason", code=code).text = _t(text)
    document = etree.ElementTree(root)
    if not schema().validate(document):
        error = schema().error_log.last_error
        raise InvalidReportXml(f"line {error.line}: {error.message}")
    return etree.tostring(document, xml_declaration=True, encoding="UTF-8", pretty_print=True)


def totals_of(part: ReportData | PropertySection) -> dict[str, str]:
    """The totals of the whole report or of one property, as the XML's attributes."""
    return {"stays": str(part.booking_count), "nights": str(part.nights),
            "grossRent": money(part.total_revenue_cents),
            "stayClimateFee": money(part.stay_fee_cents),
            "netRent": money(part.net_revenue_cents),
            "climateFeeInPeriod": money(part.climate_fee_total_cents),
            "feeNightsInPeriod": str(part.fee_nights_in_period),
            "cancellations": str(part.cancellation_count),
            "amountKept": money(part.amount_kept_cents)}


def _totals(element, totals) -> None:
    for name, value in totals.items():
        element.set(name, value)


def _text(value: str) -> str:
    """Element text as XML: the characters a parser would change escaped (a carriage return
    among them, which a parser turns into a line feed)."""
    return _escape(value, _TEXT_ESCAPES)


def _attribute(value: str) -> str:
    """An attribute's value between double quotes; tab and line breaks escaped so that the
    parser's normalisation of attribute values keeps them."""
    return _escape(value, _ATTRIBUTE_ESCAPES)


_TEXT_ESCAPES = {"&": "&amp;", "<": "&lt;", ">": "&gt;", "\r": "&#13;"}
_ATTRIBUTE_ESCAPES = {**_TEXT_ESCAPES, '"': "&quot;", "\t": "&#9;", "\n": "&#10;"}
_NEEDS_ESCAPE = re.compile('[&<>"\t\n\r]')


def _escape(value: str, escapes: dict[str, str]) -> str:
    if not _NEEDS_ESCAPE.search(value):
        return value
    return "".join(escapes.get(char, char) for char in value)


def _elements(pairs) -> str:
    return "".join(f"<{name}>{_text(value)}</{name}>" for name, value in pairs
                   if value is not None)


def _renter_text(name: str, reference: str | None, renter_id: tuple[str, str] | None) -> str:
    parts = [f"<renter><name>{_text(_t(name))}</name>"]
    if renter_id:
        parts.append(f'<id type="{_attribute(renter_id[0])}">{_text(_t(renter_id[1]))}</id>')
    if reference:
        parts.append(f"<platformReference>{_text(_t(reference))}</platformReference>")
    parts.append("</renter>")
    return "".join(parts)


def _stay_text(stay) -> str:
    # Written out rather than through `_elements`: 5,000 stays a month. Dates, counts and amounts
    # are digits and dashes, with nothing to escape.
    payment = stay.payment_method
    return (f'<stay bookingId="{_attribute(_t(stay.booking_id))}">'
            f"{_element('ama', _t(stay.ama))}"
            f"<arrival>{stay.arrival.isoformat()}</arrival>"
            f"<departure>{stay.departure.isoformat()}</departure>"
            f"<nights>{stay.nights}</nights><grossRent>{money(stay.gross_cents)}</grossRent>"
            f"<climateFee>{money(stay.fee_cents)}</climateFee>"
            f"<netRent>{money(stay.net_cents)}</netRent>"
            f"{_element('paymentMethod', payment)}{_element('platform', stay.platform)}"
            f"{_renter_text(stay.guest_name, stay.renter_reference, stay.renter_id)}</stay>")


def _element(name: str, value: str | None) -> str:
    """An element of text, or nothing for None (as `_elements` writes it)."""
    return "" if value is None else f"<{name}>{_text(value)}</{name}>"


def _cancellation_text(item) -> str:
    return (f'<cancellation bookingId="{_attribute(_t(item.booking_id))}">'
            + _elements((("ama", _t(item.ama)), ("arrival", item.arrival.isoformat()),
                         ("departure", item.departure.isoformat()),
                         ("cancelledOn", item.cancelled_on.isoformat()),
                         ("amountKept", money(item.amount_kept_cents)),
                         ("paymentMethod", item.payment_method),
                         ("platform", item.platform)))
            + _renter_text(item.guest_name, item.renter_reference, item.renter_id)
            + "</cancellation>")


def validate_bytes(content: bytes) -> None:
    """Raise InvalidReportXml unless `content` is a valid report (tests and `doctor`)."""
    document = etree.fromstring(content)
    if not schema().validate(document):
        raise InvalidReportXml(str(schema().error_log.last_error))
