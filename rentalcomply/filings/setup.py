"""What a property must have set before its authority can be asked: each authority declares its
set-up (`Authority.setup_fields`: the codes and credentials its service needs, with the rule of
each value); the engine asks `missing` before it sends anything, and a filing that cannot be sent
for lack of set-up is held (never refused, never failed: nothing was sent) until the set-up is
completed (`release_setup_holds`, called by the settings' change).

This module knows no authority and no engine: it reads the registry and the settings' rows.
"""

from __future__ import annotations

import dataclasses
import re
from collections.abc import Callable

from rentalcomply.core import clock, events
from rentalcomply.core.models import Booking, Property
from rentalcomply.filings import registry
from rentalcomply.filings.models import AuthoritySettings, Filing

# The start of a held filing's reason when its set-up is missing; the names of the missing
# fields follow, comma-separated (the pages turn them into a sentence in their language).
SETUP_HOLD = "set-up needed: "


@dataclasses.dataclass(frozen=True)
class SetupField:
    """One value an authority's service needs from a property."""
    name: str                 # the setting's or credential's name ("codigo_arrendador")
    label: str                # what a person calls it, in English (the pages translate it)
    secret: bool = False      # a credential: sealed, write-only, never shown back
    # A credential that is no secret (a user name, which the authority prints on its own pages):
    # kept sealed with the others, where the connector and the API's police_credentials have it,
    # but shown as text on the property page and kept in a refused form like a setting.
    shown: bool = False
    required: bool = True     # without it nothing can be sent
    pattern: str | None = None  # what the authority accepts, as a full-match expression
    rule: str = ""            # the sentence said when a value does not match
    hint: str = ""            # where the host finds it
    check: Callable[[str], bool] | None = None  # a further rule (a check digit)

    def problem(self, value: str) -> str | None:
        """Why `value` is not one the authority accepts, or None."""
        if self.pattern and not re.fullmatch(self.pattern, value):
            return self.rule or "is not in the form the authority accepts"
        if self.check is not None and not self.check(value):
            return self.rule or "is not one the authority accepts"
        return None


def fields_of(connector_name: str) -> tuple[SetupField, ...]:
    """The set-up of a connector: () for none, file, or a connector not in this build."""
    try:
        return tuple(registry.get(connector_name).setup_fields)
    except KeyError:
        return ()


def field_problems(connector_name: str, settings: dict | None,
                   credentials: dict | None) -> list[dict]:
    """The error details (shared shape) of the values typed that the authority would refuse."""
    details = []
    for field in fields_of(connector_name):
        given = (credentials if field.secret else settings) or {}
        value = given.get(field.name)
        if isinstance(value, str) and value.strip():
            problem = field.problem(value.strip())
            if problem:
                group = "police_credentials" if field.secret else "police_settings"
                details.append({"field": f"{group}.{field.name}", "message": problem})
    return details


def missing(prop: Property, connector_name: str | None = None) -> list[SetupField]:
    """The required set-up the property lacks for `connector_name` (its own connector by default)."""
    fields = [f for f in fields_of(connector_name or prop.police_connector) if f.required]
    if not fields:
        return []
    row = AuthoritySettings.get_or_none(AuthoritySettings.property == prop.id)
    settings = dict(row.settings or {}) if row else {}
    secrets = set(row.credential_names or []) if row else set()
    return [f for f in fields
            if not (f.name in secrets if f.secret else str(settings.get(f.name) or "").strip())]


def incomplete_properties(account_id: str) -> list[tuple[Property, list[SetupField]]]:
    """The account's active properties that file online but lack part of their set-up, with
    what they lack (Today's "Needs a person", the morning e-mail)."""
    online = [a.name for a in registry.authorities() if a.setup_fields]
    if not online:
        return []
    found = []
    for prop in (Property.select().where((Property.account == account_id)
                                         & (Property.status == "active")
                                         & Property.police_connector.in_(online))
                 .order_by(Property.name)):
        lacking = missing(prop)
        if lacking:
            found.append((prop, lacking))
    return found


def hold_reason(lacking: list[SetupField]) -> str:
    return SETUP_HOLD + ", ".join(f.name for f in lacking)


def is_setup_hold(reason: str | None) -> bool:
    return bool(reason) and reason.startswith(SETUP_HOLD)


def missing_names(reason: str | None) -> list[str]:
    """The fields a set-up hold names."""
    if not is_setup_hold(reason):
        return []
    return [name.strip() for name in reason[len(SETUP_HOLD):].split(",") if name.strip()]


# How the engine starts the reason of a filing whose credentials the authority refused (nothing
# was taken: the refusal comes before anything is filed).
REFUSED_CREDENTIALS = "credentials refused"


def release_setup_holds(prop: Property, credentials_changed: bool = False) -> list[str]:
    """The set-up is complete: every filing of the property held for it is queued again and
    filed after the commit; with new credentials, so is every filing the authority refused for
    its credentials. Call inside the transaction that completed it."""
    if prop.police_connector == "none" or missing(prop):
        return []
    waiting = (Filing.status == "held") & Filing.held_reason.startswith(SETUP_HOLD)
    if credentials_changed:
        waiting |= (Filing.status == "failed") & Filing.error.startswith(REFUSED_CREDENTIALS)
    # The police's filings alone (a booking's): a period obligation has its own set-up
    # (obligations.release_holds).
    rows = list(Filing.select().where((Filing.property == prop.id) & waiting
                                      & Filing.booking.is_null(False)))
    now = clock.utcnow()
    for row in rows:
        row.status, row.held_reason, row.error, row.attempts = "queued", None, None, 0
        row.next_attempt_at, row.authority, row.updated_at = now, prop.police_connector, now
        row.save()
        if row.booking_id:
            booking = Booking.get_by_id(row.booking_id)
            if booking.status != "cancelled" and (
                    is_setup_hold(booking.report_error)
                    or (booking.report_error or "").startswith(REFUSED_CREDENTIALS)):
                booking.report_status, booking.report_error = "QUEUED", None
                booking.updated_at = now
                booking.save()
    if rows:
        events.wake_after_commit()
    return [row.id for row in rows]
