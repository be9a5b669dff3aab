"""The `file` connector: builds the authority's file for agencies that upload it by hand; the
filing waits (status `ready`) until the host marks it filed.

Italy: Alloggiati Web records; Spain: the SES traveller XML (formats/ses.py); Portugal: the SIBA
bulletin XML (formats/siba.py).
"""

from __future__ import annotations

import importlib

from rentalcomply.police.connectors.base import Connector, PermanentError

BUILDERS = {"IT": "rentalcomply.police.connectors.alloggiati",
            "ES": "rentalcomply.police.formats.ses",
            "PT": "rentalcomply.police.formats.siba"}


class FileConnector(Connector):
    name = "file"
    credential_fields = ()
    setting_fields = ("apartment_id", "codigo_establecimiento", "codigo_arrendador",
                      "unidade_hoteleira", "estabelecimento")

    def build_file(self, settings_for_property, stay, guests, filing):
        module_name = BUILDERS.get(stay.property_country)
        if module_name is None:
            raise PermanentError(f"no police file format for country {stay.property_country}")
        try:
            module = importlib.import_module(module_name)
        except ImportError:
            raise PermanentError(f"the police file format of {stay.property_country} is not "
                                 "available in this version") from None
        builder = getattr(module, "CONNECTOR", None) or module
        return builder.build_file(settings_for_property, stay, guests, filing)

    def submit(self, credentials, settings_for_property, stay, guests, filing, timeout):
        raise PermanentError("the file connector does not submit: the host uploads the file")


CONNECTOR = FileConnector()
