"""The Ertzaintza's connector until its web service is confirmed: it builds nothing and sends
nothing (the engine holds its filings with Authority.hand_entry_reason before asking it). The
web service's connector replaces this module."""

from __future__ import annotations

from rentalcomply.filings.connector import Connector, PermanentError

REASON = "the Ertzaintza's web service is not confirmed: the host files in its portal"


class HandEntryConnector(Connector):
    name = "ertzaintza"
    credential_fields = ()
    setting_fields = ()

    def build_file(self, settings_for_property, stay, guests, filing):
        raise PermanentError(REASON)

    def submit(self, credentials, settings_for_property, stay, guests, filing, timeout):
        raise PermanentError(REASON)


CONNECTOR = HandEntryConnector()
