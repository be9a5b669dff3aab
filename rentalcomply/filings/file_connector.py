"""The `file` connector: builds the authority's file for agencies that upload it by hand; the
filing waits (status `ready`) until the host marks it filed.

The file is the one of the property's authority (registry.for_region: its region's, else its
country's): Italy's Alloggiati Web records, Spain's SES XML (the traveller report, the reservation
and their cancellations), Catalonia's Mossos TXT, Portugal's SIBA bulletin XML.
"""

from __future__ import annotations

from rentalcomply.filings import registry
from rentalcomply.filings.connector import Connector, PermanentError


def _setting_fields() -> tuple[str, ...]:
    """The settings of every country's builder: the file connector takes any of them."""
    names: list[str] = []
    for authority in registry.authorities():
        builder = authority.file_builder()
        fields = getattr(builder, "SETTING_FIELDS", None)
        if fields is None:
            fields = authority.connector().setting_fields
        names.extend(name for name in fields if name not in names)
    return tuple(names)


class FileConnector(Connector):
    name = "file"
    credential_fields = ()

    @property
    def setting_fields(self) -> tuple[str, ...]:
        return _setting_fields()

    def build_file(self, settings_for_property, stay, guests, filing):
        authority = registry.for_region(stay.property_country, stay.property_region)
        if authority is None:
            raise PermanentError(f"no police file format for country {stay.property_country}")
        try:
            builder = authority.file_builder()
        except ImportError:
            raise PermanentError(f"the police file format of {stay.property_country} is not "
                                 "available in this version") from None
        return builder.build_file(settings_for_property, stay, guests, filing)

    def submit(self, credentials, settings_for_property, stay, guests, filing, timeout):
        raise PermanentError("the file connector does not submit: the host uploads the file")


CONNECTOR = FileConnector()
