"""Loading the code tables from the authorities' services: Alloggiati Web's `Tabella` (Italy) and
SES.Hospedajes' `catalogo` (Spain), with the credentials of any property configured for that
connector (the tables are public and the same for every account).

`refresh_due()` runs every ten minutes (filings/tasks.py): it loads a country's tables when they
are still the starter set or older than a week, and a property is configured for its connector;
after a failure it waits an hour before trying again (logged; `rentalcomply doctor` shows the
tables' age).
"""

from __future__ import annotations

import datetime as dt
import logging

from rentalcomply import codes
from rentalcomply.codes import CodeFileError, es
from rentalcomply.codes.es import CatalogueError
from rentalcomply.core import clock
from rentalcomply.core.models import Property
from rentalcomply.filings import registry
from rentalcomply.filings.connector import AuthError, PermanentError, TransientError
from rentalcomply.filings.models import AuthoritySettings
from rentalcomply.filings.settings import credentials_of, police_setting, settings_for_property

log = logging.getLogger(__name__)

REFRESH_EVERY = dt.timedelta(days=7)
RETRY_AFTER = dt.timedelta(hours=1)
# The catalogue names of SES.Hospedajes' `catalogo` for the sections it serves (municipalities
# come from INE's file: `rentalcomply police refresh-codes --country ES`).
ES_CATALOGO = {"tipo_documento": "TIPO_DOCUMENTO", "sexo": "SEXO", "parentesco": "PARENTESCO",
               "tipo_pago": "TIPO_PAGO"}
CONNECTORS = {"IT": "alloggiati", "ES": "ses_hospedajes"}
_last_try: dict[str, dt.datetime] = {}


def _tables(country: str) -> tuple[str, ...]:
    return codes.IT_TABLES if country == "IT" else tuple(ES_CATALOGO)


def due(country: str, now: dt.datetime | None = None) -> bool:
    """The country's tables are the starter set, or older than a week."""
    now = now or clock.utcnow()
    infos = [codes.table_info(country, name) for name in _tables(country)]
    return any(i.starter or i.loaded_at < now - REFRESH_EVERY for i in infos)


def configured_property(connector: str):
    """(property, credentials, settings) of the first property configured for `connector` with
    every credential it needs, or None."""
    needed = set(registry.connector(connector).credential_fields)
    for row in (AuthoritySettings.select()
                .join(Property, on=(AuthoritySettings.property == Property.id))
                .where(Property.police_connector == connector).order_by(Property.created_at)):
        if needed <= set(row.credential_names or []):
            prop = Property.get_by_id(row.property_id)
            return prop, credentials_of(row), settings_for_property(prop)
    return None


def refresh(country: str, timeout: float | None = None) -> dict[str, int]:
    """Load the country's tables from its authority now; {table: rows}. Raises the connector's
    errors (TransientError, AuthError, PermanentError) or LookupError when no property is
    configured for the connector."""
    found = configured_property(CONNECTORS[country])
    if found is None:
        raise LookupError(f"no property is configured for {CONNECTORS[country]} with its "
                          "credentials")
    _, credentials, settings = found
    timeout = timeout or float(police_setting("timeout_seconds", 30))
    connector = registry.connector(CONNECTORS[country])
    if country == "IT":
        tables = connector.fetch_tables(credentials, settings, timeout)
        return codes.load("IT", tables, "Alloggiati Web, operation Tabella")
    data = es.catalogue()
    for section, name in ES_CATALOGO.items():
        data = es.with_section(section, connector.fetch_catalogue(credentials, settings, name,
                                                                  timeout), base=data)
    return es.save_es_catalogue(data, "SES.Hospedajes, operation catalogo", tuple(ES_CATALOGO))


def refresh_due(now: dt.datetime | None = None) -> dict[str, str]:
    """What the periodic task does: each country's tables loaded when due and possible."""
    now = now or clock.utcnow()
    done = {}
    for country in CONNECTORS:
        if not due(country, now):
            continue
        last = _last_try.get(country)
        if last is not None and now - last < RETRY_AFTER:
            continue
        if configured_property(CONNECTORS[country]) is None:
            continue
        _last_try[country] = now
        try:
            counts = refresh(country)
        except (TransientError, AuthError, PermanentError, CodeFileError, CatalogueError,
                LookupError) as exc:
            log.warning("police code tables of %s not loaded: %s", country, exc)
            done[country] = f"not loaded: {exc}"
            continue
        _last_try.pop(country, None)
        done[country] = ", ".join(f"{name} {count}" for name, count in counts.items())
        log.info("police code tables of %s loaded: %s", country, done[country])
    return done
