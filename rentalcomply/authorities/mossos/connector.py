"""The Mossos d'Esquadra's connector: the portal takes no web service (its manual documents only the
web form and the upload of a file), so this connector builds the file and the host uploads it at
https://registreviatgers.mossos.gencat.cat/mossos_hotels/AppJava/ ("Fitxers massius de viatgers"),
then marks it filed; the engine keeps it `ready` until then (`uploaded_by_host`)."""

from __future__ import annotations

import zoneinfo

from rentalcomply.authorities.mossos import sequence, txtfile
from rentalcomply.core import clock
from rentalcomply.filings.connector import Connector, PermanentError
from rentalcomply.filings.settings import police_setting

SETTING_FIELDS = ("codi_establiment", "nom_establiment", "num_habitacions", "internet",
                  "tipus_pagament", "hora_entrada", "hora_sortida")
# The portal's clock: the file's date and time of creation are Catalonia's.
ZONE = "Europe/Madrid"


def options() -> txtfile.FileOptions:
    """The unconfirmed details of the file, from the `[police]` settings."""
    return txtfile.FileOptions(
        encoding=police_setting("mossos_encoding", "iso-8859-1"),
        trailing_separator=police_setting("mossos_trailing_separator", True),
        final_line_break=police_setting("mossos_final_line_break", False))


class MossosConnector(Connector):
    name = "mossos"
    credential_fields = ()
    setting_fields = SETTING_FIELDS
    uploaded_by_host = True  # the engine builds the file and waits for the host (filings/engine.py)

    def build_file(self, settings_for_property, stay, guests, filing):
        created = clock.utcnow().replace(tzinfo=zoneinfo.ZoneInfo("UTC")).astimezone(
            zoneinfo.ZoneInfo(ZONE))
        code = str(settings_for_property.get("codi_establiment") or "").strip()
        # Checked first, so that a file refused for its data takes no number.
        txtfile.build_txt(settings_for_property, stay, guests, created=created, sequence=1,
                          options=options())
        name, data = txtfile.build_txt(settings_for_property, stay, guests, created=created,
                                       sequence=sequence.next_number(code), options=options())
        return name, f"text/plain; charset={options().encoding}", data

    def submit(self, credentials, settings_for_property, stay, guests, filing, timeout):
        raise PermanentError("the Mossos d'Esquadra's portal takes no web service: the host "
                             "uploads the file")


CONNECTOR = MossosConnector()


build_file = CONNECTOR.build_file  # the `file` connector builds the same file (Authority.file_module)
