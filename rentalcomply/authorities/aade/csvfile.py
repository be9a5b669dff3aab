"""The spreadsheet report: CSV, UTF-8 with a byte-order mark so that Excel reads Greek correctly.

One row per declared item in the order of the declaration form: every stay that departed in the
period, then every cancellation that still pays (`record` says which). Amounts are euros with a
decimal point; dates are YYYY-MM-DD. The renter is named, with the lead guest's ΑΦΜ or passport
number from the check-in (`renter_id_type` `afm` | `passport`) where there is one. Every row says
whether the report is `provisional` (the period was running; `as_of` is the last day it holds) or
`final`. Text is written as `safetext.for_xml` leaves it, as in the XML, and then as
`core/spreadsheet.py` makes it safe to open (every cell quoted; no text can run as a formula,
whatever separator the spreadsheet assumes).
"""

from __future__ import annotations

import functools
import io

from rentalcomply.authorities.aade.building import ReportData
from rentalcomply.authorities.aade.safetext import for_xml
from rentalcomply.authorities.aade.xmlfile import money
from rentalcomply.core import spreadsheet

COLUMNS = ("ama", "arrival_date", "departure_date", "nights", "gross_rent", "climate_fee",
           "net_rent", "payment_method", "platform", "renter_name", "renter_id_type", "renter_id",
           "platform_reference", "record", "cancelled_on", "amount_kept", "booking_id",
           "property_id", "property_name", "report_status", "as_of")


def render_csv(data: ReportData) -> bytes:
    buffer = io.StringIO()
    writer = spreadsheet.writer(buffer)
    writer.writerow(COLUMNS)
    state = ("provisional", data.as_of.isoformat() if data.as_of else "") \
        if data.provisional else ("final", "")
    for section in data.sections:
        # The same for every row of the property: made safe once.
        ama, property_id, name = (_safe(section.ama), _safe(section.property_id),
                                  _safe(section.name))
        for stay in section.stays:
            id_type, id_number = stay.renter_id or ("", "")
            writer.writerow((ama if stay.ama == section.ama else _safe(stay.ama),
                             stay.arrival.isoformat(),
                             stay.departure.isoformat(), stay.nights, money(stay.gross_cents),
                             money(stay.fee_cents), money(stay.net_cents), stay.payment_method,
                             stay.platform, _safe(stay.guest_name), id_type, _safe(id_number),
                             _safe(stay.renter_reference or ""), "stay", "", "",
                             _safe(stay.booking_id), property_id, name, *state))
        for item in section.cancellations:
            id_type, id_number = item.renter_id or ("", "")
            writer.writerow((ama if item.ama == section.ama else _safe(item.ama),
                             item.arrival.isoformat(),
                             item.departure.isoformat(), (item.departure - item.arrival).days,
                             "", "", "", item.payment_method or "", item.platform,
                             _safe(item.guest_name), id_type, _safe(id_number),
                             _safe(item.renter_reference or ""), "cancellation",
                             item.cancelled_on.isoformat(), money(item.amount_kept_cents),
                             _safe(item.booking_id), property_id, name, *state))
    return buffer.getvalue().encode("utf-8-sig")


@functools.lru_cache(maxsize=4096)  # guests' names recur from row to row
def _safe(value: str) -> str:
    # A guest's name from a channel must never run as a formula on the accountant's machine.
    return spreadsheet.text_cell(for_xml(value))
