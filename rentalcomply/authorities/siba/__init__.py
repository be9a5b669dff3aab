"""Portugal: SIBA (Serviço de Estrangeiros e Fronteiras' boletins de alojamento). Foreign guests
only (EU citizens included) are registered within three working days of the arrival, and again
within three working days of the departure (docs/police-es-pt.md)."""

from __future__ import annotations

from rentalcomply.authorities.siba.format import filed_guests
from rentalcomply.filings.deadlines import as_date, local_to_utc, working_days_after
from rentalcomply.filings.engine import filing_row, save_filing
from rentalcomply.filings.registry import Authority, register
from rentalcomply.filings.setup import SetupField


class Siba(Authority):
    name = "siba"
    country = "PT"
    title = "SIBA"
    connector_module = "rentalcomply.authorities.siba.connector"
    file_module = "rentalcomply.authorities.siba.format"
    endpoint_setting = "siba_url"
    receipt_years_setting = "police_receipts_years_pt"
    # SIBA's registration: the unit's tax number (NIF, 9 digits), the establishment's number
    # (0 for the first) and the access key SEF/AIMA gives.
    setup_fields = (
        SetupField("unidade_hoteleira", "Tax number of the unit (NIF)", pattern=r"\d{9}",
                   rule="The tax number is 9 digits."),
        SetupField("estabelecimento", "Establishment number", pattern=r"\d{1,4}",
                   rule="The establishment number is up to 4 digits (0 for the first).",
                   hint="0 unless SIBA gave this property another number."),
        SetupField("chave_acesso", "SIBA access key", secret=True, pattern=r"\S{1,100}",
                   rule="The access key cannot contain spaces."),
    )

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
