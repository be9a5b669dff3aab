"""The spreadsheet report: CSV, UTF-8 with a byte-order mark so that Excel reads Greek correctly.

One row per declared item in the order of the declaration form: every stay that departed in the
period, then every cancellation that still pays (`record` says which). Amounts are euros with a
decimal point; dates are YYYY-MM-DD.
"""

from __future__ import annotations

import csv
import io

from rentalcomply.reports.building import ReportData
from rentalcomply.reports.xmlfile import money

COLUMNS = ("ama", "arrival_date", "departure_date", "nights", "gross_rent", "climate_fee",
           "net_rent", "payment_method", "platform", "renter_name", "platform_reference",
           "record", "cancelled_on", "amount_kept", "booking_id", "property_id", "property_name")


def render_csv(data: ReportData) -> bytes:
    buffer = io.StringIO()
    writer = csv.writer(buffer, lineterminator="\r\n")
    writer.writerow(COLUMNS)
    for section in data.sections:
        for stay in section.stays:
            writer.writerow((stay.ama, stay.arrival.isoformat(), stay.departure.isoformat(),
                             stay.nights, money(stay.gross_cents), money(stay.fee_cents),
                             money(stay.net_cents), stay.payment_method, stay.platform,
                             _safe(stay.guest_name), _safe(stay.renter_reference or ""), "stay",
                             "", "", stay.booking_id, section.property_id, _safe(section.name)))
        for item in section.cancellations:
            writer.writerow((item.ama, item.arrival.isoformat(), item.departure.isoformat(),
                             (item.departure - item.arrival).days, "", "", "",
                             item.payment_method or "", item.platform, _safe(item.guest_name),
                             _safe(item.renter_reference or ""), "cancellation",
                             item.cancelled_on.isoformat(), money(item.amount_kept_cents),
                             item.booking_id, section.property_id, _safe(section.name)))
    return buffer.getvalue().encode("utf-8-sig")


def _safe(value: str) -> str:
    # A cell starting with = + - @ is a formula to a spreadsheet: a guest name from a channel
    # must never run as one on the accountant's machine.
    return "'" + value if value[:1] in ("=", "+", "-", "@", "\t", "\r") else value
