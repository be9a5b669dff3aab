"""The machine-readable report: XML built with lxml and validated against the shipped XSD.

lxml (libxml2) rather than a pure-Python validator: a month of 5,000 stays is built and validated
in a fraction of a second, and it reports the failing line and element when a file is invalid.
Every text goes through `safetext.for_xml`: a control character already stored is written as
U+FFFD instead of making lxml refuse the whole report. The root's `status` says `provisional`
(the period was still running; `asOf` is the last day it holds) or `final`.
"""

from __future__ import annotations

import datetime as dt

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
        for stay in section.stays:
            element = sub(node, _N + "stay", bookingId=_t(stay.booking_id))
            for name, value in (("ama", _t(stay.ama)), ("arrival", stay.arrival.isoformat()),
                                ("departure", stay.departure.isoformat()),
                                ("nights", str(stay.nights)),
                                ("grossRent", money(stay.gross_cents)),
                                ("climateFee", money(stay.fee_cents)),
                                ("netRent", money(stay.net_cents)),
                                ("paymentMethod", stay.payment_method),
                                ("platform", stay.platform)):
                if value is not None:
                    sub(element, _N + name).text = value
            _renter(element, stay.guest_name, stay.renter_reference, stay.renter_id)
        for cancellation in section.cancellations:
            element = sub(node, _N + "cancellation", bookingId=_t(cancellation.booking_id))
            for name, value in (("ama", _t(cancellation.ama)),
                                ("arrival", cancellation.arrival.isoformat()),
                                ("departure", cancellation.departure.isoformat()),
                                ("cancelledOn", cancellation.cancelled_on.isoformat()),
                                ("amountKept", money(cancellation.amount_kept_cents)),
                                ("paymentMethod", cancellation.payment_method),
                                ("platform", cancellation.platform)):
                if value is not None:
                    sub(element, _N + name).text = value
            _renter(element, cancellation.guest_name, cancellation.renter_reference,
                    cancellation.renter_id)
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


def _renter(parent, name: str, reference: str | None,
            renter_id: tuple[str, str] | None) -> None:
    renter = etree.SubElement(parent, _N + "renter")
    etree.SubElement(renter, _N + "name").text = _t(name)
    if renter_id:
        etree.SubElement(renter, _N + "id", type=renter_id[0]).text = _t(renter_id[1])
    if reference:
        etree.SubElement(renter, _N + "platformReference").text = _t(reference)


def validate_bytes(content: bytes) -> None:
    """Raise InvalidReportXml unless `content` is a valid report (tests and `doctor`)."""
    document = etree.fromstring(content)
    if not schema().validate(document):
        raise InvalidReportXml(str(schema().error_log.last_error))
