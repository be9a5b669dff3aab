"""What a property owes, each to its own authority: its registration with the police (the
property's `police_connector` and its `AuthoritySettings`, unchanged) and, from its country and
region, its period obligations (statistics, later a tax return: a registered `Authority` with a
`period_kind`), each with its own settings and credentials (`ObligationSettings`, sealed for this
property and authority alone, only their names shown).

`obligations_of` is what `GET /properties/{id}` lists as `obligations`; `configure` is what
`PUT /properties/{id}/obligations/{authority}` does. Nothing here knows of Bottle or pages.
"""

from __future__ import annotations

import json

from rentalcomply.core import clock, events, sealing
from rentalcomply.core.db import atomic
from rentalcomply.core.errors import ValidationError
from rentalcomply.core.models import Property
from rentalcomply.filings import registry, setup
from rentalcomply.filings.models import Filing, ObligationSettings
from rentalcomply.filings.period_dates import local_today, period_ended
from rentalcomply.filings.settings import _checked_map, apply_changes, police_views
from rentalcomply.properties import service as properties

CREDENTIALS_PURPOSE = "obligation-credentials:"
PURPOSES = ("registration", "statistics", "tax")
# Why a property of a country with regional authorities lists none yet.
REGION_UNKNOWN = ("the property's region is not known, so the regional statistics it owes "
                  "cannot be told: set the region")
# A property of a filing country whose guests are filed with no authority.
NO_REGISTRATION = "no police registration chosen: its guests are not being filed"


def owed(prop: Property) -> list[registry.Authority]:
    """The period authorities the property owes, by its country and region."""
    return [a for a in registry.period_authorities() if a.owed_by(prop)]


def region_note(prop: Property) -> str | None:
    """Why no regional obligation is listed: the country has regional authorities and the
    property's region is not known."""
    if prop.region:
        return None
    if any(a.country == prop.country and a.regions for a in registry.period_authorities()):
        return REGION_UNKNOWN
    return None


def owes_registration(prop: Property) -> bool:
    return prop.country in registry.filing_countries()


def without_registration(account_id: str) -> list[Property]:
    """Active properties of a filing country (IT, ES, PT) whose police connector is `none`:
    their guests are not being filed (Today's "Needs a person", the morning e-mail)."""
    countries = registry.filing_countries()
    if not countries:
        return []
    return list(Property.select().where(
        (Property.account == account_id) & (Property.status == "active")
        & (Property.police_connector == "none") & Property.country.in_(countries))
        .order_by(Property.name))


def _row(property_id: str, name: str) -> ObligationSettings | None:
    return ObligationSettings.get_or_none((ObligationSettings.property == property_id)
                                          & (ObligationSettings.authority == name))


def row_settings(property_id: str, name: str) -> dict:
    row = _row(property_id, name)
    return dict(row.settings or {}) if row else {}


def settings_of(prop: Property, name: str) -> dict:
    return row_settings(prop.id, name)


def _purpose(prop_id: str, name: str) -> str:
    return f"{CREDENTIALS_PURPOSE}{prop_id}:{name}"


def credentials_of(prop: Property, name: str) -> dict:
    row = _row(prop.id, name)
    if row is None or not row.credentials_sealed:
        return {}
    return json.loads(sealing.unseal(_purpose(prop.id, name), row.credentials_sealed))


def missing(prop: Property, authority: registry.Authority,
            row: ObligationSettings | None = None, *, fetched: bool = False) -> list[setup.SetupField]:
    """The required set-up the property lacks for the authority."""
    if not fetched:
        row = _row(prop.id, authority.name)
    settings = dict(row.settings or {}) if row else {}
    secrets = set(row.credential_names or []) if row else set()
    return [f for f in authority.setup_fields if f.required
            and not (f.name in secrets if f.secret else str(settings.get(f.name) or "").strip())]


def _registration(prop: Property) -> dict | None:
    name = prop.police_connector
    # The authority the property's country and region owe (Catalonia: the Mossos d'Esquadra,
    # not SES.Hospedajes), named where the property files with none or with another.
    owed_here = registry.for_region(prop.country, prop.region)
    if name == "none":
        if not owes_registration(prop):
            return None  # Greece: no police registration to file
        title = "Police registration: none chosen"
        if owed_here is not None:
            title += f" ({owed_here.title or owed_here.name} is owed)"
        return {"authority": "none", "purpose": "registration",
                "title": title, "setup_complete": False,
                "missing": ["police_connector"], "settings": {}, "credentials_set": [],
                "problem": NO_REGISTRATION}
    wrong = registry.on_wrong_authority(prop)
    try:
        title = registry.get(name).title
    except KeyError:
        title = "Police file uploaded by hand" if name == "file" else name
    shown = police_views([prop.id])[prop.id]
    lacking = [f.name for f in setup.missing(prop)]
    return {"authority": name, "purpose": "registration", "title": title,
            "setup_complete": not lacking, "missing": lacking,
            "settings": shown["police_settings"], "credentials_set": shown["police_credentials_set"],
            "problem": (f"its region ({prop.region}) files with {wrong.title or wrong.name}: "
                        "confirm the move on the property's page" if wrong is not None else None)}


def obligations_of(prop: Property) -> list[dict]:
    """What the property owes, each as {authority, purpose, title, setup_complete, missing,
    settings, credentials_set, problem}: its registration first, then its period obligations."""
    found = []
    registration = _registration(prop)
    if registration:
        found.append(registration)
    rows = {row.authority: row for row in
            ObligationSettings.select().where(ObligationSettings.property == prop.id)}
    for authority in owed(prop):
        row = rows.get(authority.name)
        lacking = [f.name for f in missing(prop, authority, row, fetched=True)]
        found.append({"authority": authority.name, "purpose": authority.purpose,
                      "title": authority.obligation_title(prop),
                      "setup_complete": not lacking, "missing": lacking,
                      "settings": dict(row.settings or {}) if row else {},
                      "credentials_set": list(row.credential_names or []) if row else [],
                      "problem": None})
    note = region_note(prop)
    if note:
        found.append({"authority": None, "purpose": "statistics", "title": "Tourism statistics",
                      "setup_complete": False, "missing": ["region"], "settings": {},
                      "credentials_set": [], "problem": note})
    return found


def owed_authority(prop: Property, name: str) -> registry.Authority:
    for authority in owed(prop):
        if authority.name == name:
            return authority
    known = ", ".join(a.name for a in owed(prop)) or "none"
    raise ValidationError("authority", f"{name!r} is not owed by this property (it owes: {known}; "
                                       "the police registration is set with police_connector)")


def configure(account_id: str, property_id: str, name: str, *, settings: dict | None = None,
              credentials: dict | None = None) -> Property:
    """Set a period obligation's settings and credentials (merged: null removes a name); the
    filings held for its set-up, or refused for the credentials replaced, are queued again."""
    with atomic():
        prop = properties.get_property(account_id, property_id)
        authority = owed_authority(prop, name)
        setting_names = tuple(f.name for f in authority.setup_fields if not f.secret)
        secret_names = tuple(f.name for f in authority.setup_fields if f.secret)
        checked_settings = (_checked_map("settings", settings, setting_names)
                            if settings is not None else None)
        checked_credentials = (_checked_map("credentials", credentials, secret_names)
                               if credentials is not None else None)
        problems = []
        for field in authority.setup_fields:
            given = (checked_credentials if field.secret else checked_settings) or {}
            value = given.get(field.name)
            if value:
                problem = field.problem(value)
                if problem:
                    group = "credentials" if field.secret else "settings"
                    problems.append({"field": f"{group}.{field.name}", "message": problem})
        if problems:
            raise ValidationError(problems)
        now = clock.utcnow()
        row = _row(prop.id, name)
        if row is None:
            ObligationSettings.insert(property=prop.id, authority=name, account=account_id,
                                      settings={}, credential_names=[], created_at=now,
                                      updated_at=now).execute()
            row = _row(prop.id, name)
        apply_changes(row, checked_settings, checked_credentials,
                      credentials_of(prop, name) if checked_credentials is not None else {},
                      _purpose(prop.id, name))
        row.updated_at = now
        ObligationSettings.update(settings=row.settings, credentials_sealed=row.credentials_sealed,
                                  credential_names=row.credential_names, updated_at=now).where(
            (ObligationSettings.property == prop.id)
            & (ObligationSettings.authority == name)).execute()
        prop.updated_at = now
        prop.save()  # the property's version grows: its view changed
        # A new deadline day moves the deadline of the periods not filed yet.
        for row in Filing.select().where(
                (Filing.property == prop.id) & (Filing.authority == name)
                & Filing.booking.is_null() & Filing.status.not_in(("submitted",))):
            due = authority.period_deadline(prop, row.period, row_settings(prop.id, name))
            if due != row.deadline:
                Filing.update(deadline=due, at_risk_at=None, updated_at=now).where(
                    Filing.id == row.id).execute()
        release_holds(prop, authority, credentials_changed=bool(checked_credentials))
    return prop


def release_holds(prop: Property, authority: registry.Authority,
                  credentials_changed: bool = False) -> list[str]:
    """The set-up is complete: the property's filings of this authority held for it (or, with
    new credentials, refused for the old ones, or ready for lack of them) are queued again and
    filed after the commit."""
    if missing(prop, authority):
        return []
    waiting = (Filing.status == "held") & Filing.held_reason.startswith(setup.SETUP_HOLD)
    if credentials_changed:
        waiting |= (Filing.status == "failed") & Filing.error.startswith(setup.REFUSED_CREDENTIALS)
        waiting |= Filing.status == "ready"
    rows = list(Filing.select().where((Filing.property == prop.id) & Filing.booking.is_null()
                                      & (Filing.authority == authority.name) & waiting))
    today = local_today(prop.timezone)
    now = clock.utcnow()
    for row in rows:
        ended = period_ended(row.period, today)
        row.status = "queued" if ended else "waiting"
        row.held_reason, row.error, row.attempts = None, None, 0
        row.next_attempt_at = now if ended else None
        row.updated_at = now
        row.save()
    if rows:
        events.wake_after_commit()
    return [row.id for row in rows]
