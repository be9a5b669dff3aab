"""Spain: SES.Hospedajes (Ministerio del Interior, Real Decreto 933/2021). Every guest is
registered within 24 hours of the arrival; the reservation is communicated within 24 hours of
the booking, cancelled and sent again when its dates change, and every accepted communication of
a cancelled booking is cancelled (reservations.py; docs/police-es-pt.md)."""

from __future__ import annotations

from rentalcomply import codes
from rentalcomply.codes import es
from rentalcomply.authorities.ses import reservations
from rentalcomply.authorities.ses.format import SesDataError
from rentalcomply.filings.registry import Authority, register
from rentalcomply.filings.setup import SetupField
from rentalcomply.filings.sweep import side_filings_at_risk


class Ses(Authority):
    name = reservations.CONNECTOR_NAME
    country = "ES"
    title = "SES.Hospedajes"
    connector_module = "rentalcomply.authorities.ses.connector"
    file_module = "rentalcomply.authorities.ses.format"
    side_kinds = reservations.RESERVATION_KINDS
    cancellation_kinds = ("cancellation", "rh_cancellation")
    endpoint_setting = "ses_url"
    receipt_years_setting = "police_receipts_years_es"
    # The sections SES.Hospedajes' `catalogo` serves, by its catalogue names (municipalities
    # come from INE's file: `rentalcomply police refresh-codes --country ES`).
    catalogo = {"tipo_documento": "TIPO_DOCUMENTO", "sexo": "SEXO", "parentesco": "PARENTESCO",
                "tipo_pago": "TIPO_PAGO"}
    code_tables = tuple(catalogo)
    # SES.Hospedajes' registration gives the landlord's code (the header's codigoArrendador, 10
    # digits), each establishment's code (at most 10 characters) and the web-service user.
    setup_fields = (
        SetupField("codigo_arrendador", "Landlord code (código de arrendador)",
                   pattern=r"\d{10}", rule="The landlord code is 10 digits, as SES.Hospedajes "
                                           "shows it after registration.",
                   hint="SES.Hospedajes, Establecimientos: the code of the landlord."),
        SetupField("codigo_establecimiento", "Establishment code (código de establecimiento)",
                   pattern=r"[A-Za-z0-9]{1,10}", rule="The establishment code is at most 10 "
                                                      "letters or digits.",
                   hint="SES.Hospedajes, Establecimientos: the code of this property."),
        SetupField("user", "SES.Hospedajes web-service user", secret=True, shown=True,
                   pattern=r"\S{1,100}",
                   rule="The user cannot contain spaces."),
        SetupField("password", "SES.Hospedajes web-service password", secret=True,
                   pattern=r"\S{1,100}", rule="The password cannot contain spaces."),
    )

    def hold_reason(self, error):
        """A Spanish town the municipality list in use cannot code holds the filing while that
        list is not INE's whole list (the shipped one lacks a few): the reason names the town
        and what its postcode says. With INE's whole list loaded, it is a value to correct."""
        if not isinstance(error, SesDataError):
            return None
        uncodable = [(p.index, p.field, p.message) for p in error.problems
                     if p.field == "address_city" and p.index is not None]
        if not uncodable or codes.table_info("ES", "municipios").complete:
            return None
        return codes.held_reason(uncodable)

    def booking_created(self, booking, prop):
        reservations.schedule_reservation(booking, prop)

    def dates_changed(self, booking, prop):
        if reservations.files_reservations(prop):
            reservations.reservation_dates_changed(booking)

    def party_for(self, row, booking):
        if row.kind not in self.side_kinds:
            return None
        if row.kind == "reservation" and row.status != "polling":
            holder, reason = reservations.reservation_holder(booking)
            return ([holder], None) if holder is not None else (None, reason)
        return [], None  # a cancellation names no one; a poll sends nothing

    def cancelled_reference(self, row, booking):
        return reservations.cancelled_reference(booking, row.kind)

    def accepted(self, booking, prop, row):
        if row.kind in self.side_kinds:
            reservations.reservation_accepted(booking, row)

    def queue_work(self):
        return reservations.queue_reservations()

    def follow_ups(self):
        return reservations.queue_cancellations()

    def work_waiting(self):
        return reservations.cancellations_waiting() or reservations.reservations_waiting()

    def at_risk(self, now):
        return side_filings_at_risk(self.side_kinds, now)

    def refresh_code_tables(self, connector, credentials, settings, timeout):
        data = es.catalogue()
        for section, name in self.catalogo.items():
            data = es.with_section(section, connector.fetch_catalogue(credentials, settings, name,
                                                                      timeout), base=data)
        return es.save_es_catalogue(data, "SES.Hospedajes, operation catalogo",
                                    tuple(self.catalogo))


register(Ses())
