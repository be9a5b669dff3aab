"""Catalonia: the Mossos d'Esquadra's traveller register (Real Decreto 933/2021; Ordre IRP/418/2010).
Properties in Catalonia (`ES-CT`) register their guests here instead of SES.Hospedajes, within 24
hours of the arrival, by uploading a TXT file to the portal (txtfile.py; the portal has no web
service): the engine builds it and the host uploads it and marks it filed (docs/police-es-pt.md)."""

from __future__ import annotations

from rentalcomply import codes as code_tables  # not .codes, this folder's code lists
from rentalcomply.authorities.mossos import txtfile
from rentalcomply.filings.registry import Authority, register
from rentalcomply.filings.setup import SetupField


class Mossos(Authority):
    name = "mossos"
    country = "ES"
    regions = ("ES-CT",)
    title = "Mossos d'Esquadra (registre de viatgers)"
    connector_module = "rentalcomply.authorities.mossos.connector"
    file_module = "rentalcomply.authorities.mossos.connector"
    receipt_years_setting = "police_receipts_years_es"
    setup_fields = (
        SetupField("codi_establiment", "Establishment code (codi d'establiment)",
                   pattern=txtfile.ESTABLISHMENT_CODE,
                   rule="The establishment code is the 9 or 10 letters or digits the Mossos "
                        "d'Esquadra gave the establishment, like 08043AAR02 (not the numeric "
                        "user code of the log-in).",
                   hint="Registre de viatgers, Manteniment d'establiments: the establishment's "
                        "code."),
    )

    def hold_reason(self, error):
        """A Spanish town the municipality list in use cannot code holds the file while that list
        is not INE's whole one (as for SES.Hospedajes); with INE's whole list, a value to fix."""
        if not isinstance(error, txtfile.MossosDataError):
            return None
        uncodable = [(p.index, p.field, p.message) for p in error.problems
                     if p.field == "address_city" and p.index is not None]
        if not uncodable or code_tables.table_info("ES", "municipios").complete:
            return None
        return code_tables.held_reason(uncodable)


register(Mossos())
