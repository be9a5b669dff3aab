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
import logging

from rentalcomply.core.models import Property
from rentalcomply.filings import registry, setup
from rentalcomply.filings.connector import (
    AuthError,
    PermanentError,
    TransientError,
)
from rentalcomply.filings.settings import credentials_for, settings_for_property

log = logging.getLogger(__name__)


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
    try:
        connector = registry.connector(name)
    except KeyError:  # a connector of another build (a database restored from a newer one)
        return CredentialCheck(name, names, False, f"the connector {name} is not in this "
                               "version of rentalcomply: choose another for these properties")
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


# What asking one property's authority can answer, in the words the pages turn into sentences.
CONNECTED, REFUSED, UNREACHABLE, INCOMPLETE, NO_TEST, NOT_ONLINE = (
    "connected", "refused", "unreachable", "incomplete", "no_test", "not_online")


@dataclasses.dataclass
class ConnectionAnswer:
    verdict: str               # one of the six above
    missing: list[str] = dataclasses.field(default_factory=list)  # set-up names, when incomplete


def test_property_connection(prop: Property, timeout: float) -> ConnectionAnswer:
    """Ask the property's authority whether it accepts the property's set-up, filing nothing
    (Alloggiati Web's GenerateToken, SES.Hospedajes' catalogo). The service's address is the
    connector's own, through core/netguard.py as every call. What the service said goes to the
    log only, never the credentials."""
    try:
        registry.get(prop.police_connector)
    except KeyError:
        return ConnectionAnswer(NOT_ONLINE)
    lacking = setup.missing(prop)
    if lacking:
        return ConnectionAnswer(INCOMPLETE, [f.name for f in lacking])
    connector = registry.connector(prop.police_connector)
    try:
        said = connector.check_credentials(credentials_for(prop), settings_for_property(prop),
                                           timeout)
    except AuthError as exc:
        log.info("police connection test of %s: refused (%s)", prop.id, exc)
        return ConnectionAnswer(REFUSED)
    except (TransientError, PermanentError) as exc:
        log.info("police connection test of %s: not reached (%s)", prop.id, exc)
        return ConnectionAnswer(UNREACHABLE)
    except Exception:  # a connector bug: said as not reached, its trace in the log
        log.exception("police connection test of %s failed", prop.id)
        return ConnectionAnswer(UNREACHABLE)
    return ConnectionAnswer(CONNECTED if said is not None else NO_TEST)
