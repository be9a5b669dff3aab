"""What `rentalcomply doctor` asks of the police side: are the credentials in use accepted?

Each distinct set of credentials (a connector, its endpoint and the sealed values) is asked of its
authority once, however many properties share it, through the connector's own harmless call
(Alloggiati Web's GenerateToken, SES.Hospedajes' catalogo). Nothing is filed. A connector whose
service offers no such call (SIBA) is named as unchecked, which is no failure: its first filing is
the check. The credentials' values are never part of what is returned or logged.
"""
from __future__ import annotations

import dataclasses
import hashlib
import json

from rentalcomply.core.models import Property
from rentalcomply.filings import registry
from rentalcomply.filings.connector import (
    AuthError,
    PermanentError,
    TransientError,
)
from rentalcomply.filings.settings import credentials_for, settings_for_property


def label_of(connector: str) -> str:
    """What a person calls the authority a connector files with."""
    try:
        return registry.get(connector).title
    except KeyError:
        return connector


@dataclasses.dataclass
class CredentialCheck:
    connector: str
    properties: list[str]      # the names of the properties that file with these credentials
    ok: bool
    detail: str


def check_credentials(timeout: float) -> list[CredentialCheck]:
    groups: dict[tuple, tuple[object, dict, dict, list[str]]] = {}
    rows = (Property.select()
            .where(Property.police_connector.not_in(("none", "file")))
            .order_by(Property.name))
    for prop in rows:
        # A property with no credentials at all is asked too: its connector says what is missing.
        credentials = credentials_for(prop)
        settings = settings_for_property(prop)
        # Grouped by a digest, so that the values themselves are never a key of anything kept.
        digest = hashlib.sha256(json.dumps(credentials, sort_keys=True).encode()).hexdigest()
        key = (prop.police_connector, settings.get("endpoint_url"), digest)
        if key not in groups:
            groups[key] = (prop.police_connector, credentials, settings, [])
        groups[key][3].append(prop.name)
    return [_ask(name, credentials, settings, names, timeout)
            for name, credentials, settings, names in groups.values()]


def _ask(name: str, credentials: dict, settings: dict, names: list[str],
         timeout: float) -> CredentialCheck:
    label = label_of(name)
    connector = registry.connector(name)
    missing = [field for field in connector.credential_fields if not credentials.get(field)]
    if missing:
        return CredentialCheck(name, names, False, f"not set: {', '.join(missing)} (set them with "
                               "`rentalcomply police configure --secret NAME=VALUE`)")
    try:
        said = connector.check_credentials(credentials, settings, timeout)
    except AuthError as exc:
        return CredentialCheck(name, names, False, f"{exc}: set them again with `rentalcomply "
                               "police configure` or PATCH /api/v1/properties/{id}")
    except (TransientError, PermanentError) as exc:
        return CredentialCheck(name, names, False, f"{label} could not be asked: {exc} (check "
                               "the network and the police.*_url settings)")
    if said is None:
        return CredentialCheck(name, names, True, f"{label} offers no check that files nothing; "
                               "the first filing checks them")
    return CredentialCheck(name, names, True, said)
