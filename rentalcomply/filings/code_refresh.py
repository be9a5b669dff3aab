"""Loading the code tables from the authorities' services (Alloggiati Web's `Tabella` for Italy,
SES.Hospedajes' `catalogo` for Spain), with the credentials of any property configured for that
connector (the tables are public and the same for every account). Each authority with tables
names them (`Authority.code_tables`) and loads them (`Authority.refresh_code_tables`).

`refresh_due()` runs every ten minutes (filings/tasks.py): it loads a country's tables when they
are still the copies shipped with the package or older than a week, and a property is configured
for its connector; after a failure it waits an hour before trying again (logged; `rentalcomply
doctor` shows the tables' source and date). `refresh_now()` loads them all at once, for the
dashboard's "Refresh code tables".
"""

from __future__ import annotations

import datetime as dt
import logging
import urllib.error
import urllib.request

from rentalcomply import codes
from rentalcomply.codes import CodeFileError
from rentalcomply.codes import es
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
_last_try: dict[str, dt.datetime] = {}


def _with_tables() -> dict[str, registry.Authority]:
    return {a.country: a for a in registry.authorities() if a.code_tables}


def due(country: str, now: dt.datetime | None = None) -> bool:
    """The country's tables are the copies shipped with the package (the authority may have
    changed them since), or were loaded more than a week ago."""
    now = now or clock.utcnow()
    infos = [codes.table_info(country, name) for name in _with_tables()[country].code_tables]
    return any(i.shipped or i.loaded_at < now - REFRESH_EVERY for i in infos)


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
    authority = _with_tables()[country]
    found = configured_property(authority.name)
    if found is None:
        raise LookupError(f"no property is configured for {authority.name} with its "
                          "credentials")
    _, credentials, settings = found
    timeout = timeout or float(police_setting("timeout_seconds", 30))
    return authority.refresh_code_tables(authority.connector(), credentials, settings, timeout)


def refresh_due(now: dt.datetime | None = None) -> dict[str, str]:
    """What the periodic task does: each country's tables loaded when due and possible."""
    now = now or clock.utcnow()
    done = {}
    for country, authority in _with_tables().items():
        if not due(country, now):
            continue
        last = _last_try.get(country)
        if last is not None and now - last < RETRY_AFTER:
            continue
        if configured_property(authority.name) is None:
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


# What refresh_now says of each country, for the page that asked (dashboard: "Refresh code tables").
REFRESHED, NO_CREDENTIALS, REFUSED, UNREACHABLE, UNREADABLE, NOT_SET = (
    "refreshed", "no_credentials", "refused", "unreachable", "unreadable", "not_set")
# INE publishes Spain's municipalities as a file (SES.Hospedajes serves none): its own line.
INE = "INE"
# INE's spreadsheet is about 300 kB: anything far larger is not it.
INE_MAX_BYTES = 10_000_000


def refresh_now(timeout: float | None = None,
                countries: tuple[str, ...] | None = None) -> dict[str, tuple[str, str]]:
    """Every country's tables (or `countries`') loaded from its authority now, whatever their
    age (a person asked): {country: (authority's title, outcome)}, Spain's municipalities under
    INE. A failure keeps the tables in use; it is logged and said, never raised: the other
    countries are still tried."""
    done = {}
    for country, authority in sorted(_with_tables().items()):
        if countries is not None and country not in countries:
            continue
        try:
            refresh(country, timeout)
            outcome = REFRESHED
        except LookupError:
            outcome = NO_CREDENTIALS
        except AuthError:
            outcome = REFUSED
        except TransientError:
            outcome = UNREACHABLE
        except (PermanentError, CodeFileError, CatalogueError) as exc:
            log.warning("police code tables of %s not loaded: %s", country, exc)
            outcome = UNREADABLE
        else:
            _last_try.pop(country, None)
        done[country] = (authority.title, outcome)
    if countries is None or "ES" in countries:
        done[INE] = ("INE", _refresh_ine(timeout))
    return done


def refresh_ine(timeout: float | None = None) -> dict[str, int]:
    """Load INE's list of municipalities from the file INE publishes (`police.
    ine_municipalities_url`); {"municipios": rows}. Raises LookupError when no address is set,
    TransientError when INE does not answer, PermanentError or CatalogueError for an answer that
    is not INE's list."""
    url = str(police_setting("ine_municipalities_url", "") or "").strip()
    if not url:
        raise LookupError("no address of INE's municipality list is set")
    timeout = timeout or float(police_setting("timeout_seconds", 30))
    request = urllib.request.Request(url, headers={"User-Agent": "rentalcomply"})
    try:
        with urllib.request.urlopen(request, timeout=timeout) as answer:  # noqa: S310 - a setting
            raw = answer.read(INE_MAX_BYTES + 1)
    except urllib.error.HTTPError as exc:
        if exc.code >= 500:
            raise TransientError(f"INE answered HTTP {exc.code}") from None
        raise PermanentError(f"INE answered HTTP {exc.code} for {url}") from None
    except (urllib.error.URLError, OSError) as exc:
        raise TransientError(f"INE cannot be reached ({exc})") from None
    if len(raw) > INE_MAX_BYTES:
        raise PermanentError(f"{url} is larger than INE's list can be")
    name = url.rsplit("/", 1)[-1] or "INE"
    table = es.read_ine_file(raw, name)
    return es.save_es_catalogue(es.with_section("municipios", table), f"INE, {name}",
                                ("municipios",))


def _refresh_ine(timeout: float | None) -> str:
    try:
        refresh_ine(timeout)
    except LookupError:
        return NOT_SET
    except TransientError as exc:
        log.warning("INE's municipality list not loaded: %s", exc)
        return UNREACHABLE
    except (PermanentError, CatalogueError) as exc:
        log.warning("INE's municipality list not loaded: %s", exc)
        return UNREADABLE
    return REFRESHED
