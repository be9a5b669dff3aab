"""Portugal: SIBA (Serviço de Estrangeiros e Fronteiras' boletins de alojamento). Foreign guests
only (EU citizens included) are registered within three working days of the arrival, and again
within three working days of the departure (docs/police-es-pt.md)."""

from __future__ import annotations

from rentalcomply.authorities.siba.format import filed_guests
from rentalcomply.filings.deadlines import as_date, local_to_utc, working_days_after
from rentalcomply.filings.engine import filing_row, save_filing
from rentalcomply.filings.registry import Authority, register


class Siba(Authority):
    name = "siba"
    country = "PT"
    title = "SIBA"
    connector_module = "rentalcomply.authorities.siba.connector"
    file_module = "rentalcomply.authorities.siba.format"
    endpoint_setting = "siba_url"
    receipt_years_setting = "police_receipts_years_pt"

    def deadline(self, prop, booking, kind, arrival_hour):
        base = as_date(booking.departure_date if kind == "departure" else booking.arrival_date)
        return local_to_utc(working_days_after(base, 3), 23, 59, prop.timezone)

    def nothing_to_file(self, guests):
        return not filed_guests(guests)

    def accepted(self, booking, prop, row):
        """The arrival taken: the departure is filed from noon of the departure day."""
        if row.kind != "arrival":
            return
        departure_row = filing_row(booking, prop, "departure")
        if departure_row.status == "waiting":
            save_filing(departure_row, status="queued", authority=row.authority,
                        next_attempt_at=local_to_utc(as_date(booking.departure_date), 12, 0,
                                                     prop.timezone))


register(Siba())
