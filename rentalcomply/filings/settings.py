"""The engine's settings (`[police]`) and each property's authority settings and credentials.

A property files with one connector (`police_connector`: none, file, or a registered authority);
its non-secret settings are kept as given, its credentials sealed for this property alone
(core/sealing.py) and never shown back: views carry only their names.
"""

from __future__ import annotations

import json
from typing import Any

from rentalcomply import codes
from rentalcomply.core import clock, sealing
from rentalcomply.core.checks import control_character_problem
from rentalcomply.core.db import atomic
from rentalcomply.core.errors import ValidationError
from rentalcomply.core.models import Property
from rentalcomply.filings import registry, setup
from rentalcomply.filings.models import AuthoritySettings
from rentalcomply.properties import service as properties

SETTING_MAX = 200
SETTINGS_MAX_KEYS = 20
CREDENTIALS_PURPOSE = "police-credentials:"

_settings = None


def configure(settings) -> None:
    global _settings
    _settings = settings
    codes.configure(getattr(settings, "data_dir", None))


def server_settings():
    """The server's settings as configured (None before configure()): for an authority whose
    own section holds its addresses (`[ross1000]`)."""
    return _settings


def police_setting(name: str, default):
    """A value of the `[police]` settings, or `default` before configure()."""
    police = getattr(_settings, "police", None)
    return getattr(police, name, default) if police is not None else default


def _known_setting_fields(connector_name: str) -> tuple[str, ...] | None:
    if connector_name == "none":
        return ()
    try:
        return tuple(registry.connector(connector_name).setting_fields) or None
    except (ImportError, KeyError, AttributeError):
        return None  # a connector not in this build: any names are kept

def _credential_fields(connector_name: str) -> tuple[str, ...] | None:
    if connector_name == "none":
        return ()
    try:
        return tuple(registry.connector(connector_name).credential_fields)
    except (ImportError, KeyError, AttributeError):
        return None

def _checked_map(field: str, values: Any, allowed: tuple[str, ...] | None) -> dict[str, str | None]:
    if not isinstance(values, dict):
        raise ValidationError(field, "must be an object of names and string values")
    if len(values) > SETTINGS_MAX_KEYS:
        raise ValidationError(field, f"must have at most {SETTINGS_MAX_KEYS} names")
    details = []
    cleaned: dict[str, str | None] = {}
    for name, value in values.items():
        if not isinstance(name, str) or not name or len(name) > 64 or not name.replace("_", "").isalnum():
            details.append({"field": f"{field}.{str(name)[:64]}", "message": "is not a valid name"})
            continue
        if allowed is not None and name not in allowed:
            details.append({"field": f"{field}.{name}", "message": "is not a setting of this "
                            "connector; known: " + (", ".join(allowed) or "none")})
            continue
        if value is None or value == "":
            cleaned[name] = None
            continue
        if not isinstance(value, str) or len(value) > SETTING_MAX:
            details.append({"field": f"{field}.{name}",
                            "message": f"must be a string of at most {SETTING_MAX} characters, or null"})
            continue
        if control_character_problem(value):  # the rule of all text (core/checks.py)
            details.append({"field": f"{field}.{name}", "message": control_character_problem(value)})
            continue
        cleaned[name] = value.strip()
    if details:
        raise ValidationError(details)
    return cleaned

def configure_property(account_id: str, property_id: str, *, connector: str | None = None,
                       settings: dict | None = None, credentials: dict | None = None) -> Property:
    """Set a property's connector, its settings and credentials (merged: null removes a name).
    Call inside a transaction (the PATCH's) or alone."""
    with atomic():
        prop = properties.get_property(account_id, property_id)
        if connector is not None:
            if connector not in registry.names():
                raise ValidationError("police_connector", "must be one of: " + ", ".join(registry.names()))
            problem = registry.connector_problem(connector, prop.country, prop.region)
            if problem:
                raise ValidationError("police_connector", problem)
            if prop.police_connector != connector:
                prop.police_connector = connector
                prop.updated_at = clock.utcnow()
                prop.save()
        name = prop.police_connector
        if not settings and not credentials:  # absent or empty: nothing to merge
            setup.release_setup_holds(prop)  # a connector whose set-up was already there
            return prop
        if name == "none":
            raise ValidationError("police_connector", "choose a connector before its settings "
                                                      "or credentials")
        checked_settings = (_checked_map("police_settings", settings, _known_setting_fields(name))
                            if settings is not None else None)
        checked_credentials = (_checked_map("police_credentials", credentials,
                                            _credential_fields(name))
                               if credentials is not None else None)
        # Each code checked as typed, with the authority's own rule (filings/setup.py).
        problems = setup.field_problems(name, checked_settings, checked_credentials)
        if problems:
            raise ValidationError(problems)
        row = AuthoritySettings.get_or_none(AuthoritySettings.property == prop.id)
        if row is None:
            row = AuthoritySettings.create(property=prop.id, account=account_id, settings={},
                                        credential_names=[], updated_at=clock.utcnow())
        apply_changes(row, checked_settings, checked_credentials,
                      credentials_of(row) if checked_credentials is not None else {},
                      CREDENTIALS_PURPOSE + prop.id)
        row.updated_at = clock.utcnow()
        row.save()
        prop.updated_at = clock.utcnow()
        prop.save()  # the property's version grows: its view changed
        # Filings held for this set-up (or refused for the credentials just replaced) go out
        # after the commit.
        setup.release_setup_holds(prop, credentials_changed=bool(credentials))
    return prop


def merge_patch(current: dict, changes: dict) -> dict:
    """`current` with `changes` applied as a merge patch: a value sets a name, None removes it."""
    merged = dict(current)
    for key, value in changes.items():
        if value is None:
            merged.pop(key, None)
        else:
            merged[key] = value
    return merged


def apply_changes(row, settings: dict | None, credentials: dict | None,
                  current_credentials: dict, purpose: str) -> None:
    """Merge checked settings and credentials into a set-up row (police or another obligation):
    the credentials sealed for `purpose` as one JSON object, their names kept in clear."""
    if settings is not None:
        row.settings = merge_patch(row.settings or {}, settings)
    if credentials is not None:
        current = merge_patch(current_credentials, credentials)
        row.credentials_sealed = sealing.seal(
            purpose, json.dumps(current, sort_keys=True).encode("utf-8")) if current else None
        row.credential_names = sorted(current)


def credentials_of(row: AuthoritySettings | None) -> dict:
    if row is None or not row.credentials_sealed:
        return {}
    return json.loads(sealing.unseal(CREDENTIALS_PURPOSE + row.property_id, row.credentials_sealed))


def credentials_for(prop: Property) -> dict:
    return credentials_of(AuthoritySettings.get_or_none(AuthoritySettings.property == prop.id))


def shown_credentials(prop: Property) -> dict[str, str]:
    """The credentials of the property's authority that are no secret (`SetupField.shown`, a
    user name), for its page; the others are never read back."""
    names = [f.name for f in setup.fields_of(prop.police_connector) if f.secret and f.shown]
    if not names:
        return {}
    stored = credentials_for(prop)
    return {name: stored[name] for name in names if stored.get(name)}


def police_views(property_ids: list[str]) -> dict[str, dict]:
    """What a property view shows of its police settings: the settings, and only the NAMES of
    the credentials set (never their values)."""
    rows = {row.property_id: row for row in
            AuthoritySettings.select().where(AuthoritySettings.property.in_(list(property_ids)))} \
        if property_ids else {}
    return {pid: {"police_settings": dict(rows[pid].settings or {}) if pid in rows else {},
                  "police_credentials_set": list(rows[pid].credential_names or []) if pid in rows else []}
            for pid in property_ids}


def settings_for_property(prop: Property) -> dict:
    row = AuthoritySettings.get_or_none(AuthoritySettings.property == prop.id)
    values = dict(row.settings or {}) if row else {}
    try:
        setting = registry.get(prop.police_connector).endpoint_setting
    except KeyError:  # none, file, or a connector not in this build
        setting = None
    if setting:
        values["endpoint_url"] = police_setting(setting, None)
    return values
