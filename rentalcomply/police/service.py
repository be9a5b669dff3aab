"""Police filing: the domain functions, which know nothing of Bottle.

The booking's `report_status`:

    NOT_REQUIRED (connector `none`)
    PENDING   until check-in completes
    QUEUED    a filing is due or being retried (or, `file` connector, its file awaits the host)
    SUBMITTED the authority accepted every guest (or the host marked the file filed)
    REJECTED  the authority refused guests: their reasons are kept per guest; the host fixes the
              data (guests API or page) and re-files; guests already accepted are not sent again
    FAILED    retries exhausted, credentials refused, or an interrupted submission whose outcome
              is unknown: a person must act

One `PoliceFiling` row per booking and kind (`arrival`; `departure` for Portugal;
`cancellation` for Spain) holds the deadline, the attempts, the outcome per guest, the
authority's reference and the receipt (sealed, like the guest data).

Spain also takes the reservation (RH, within 24 hours of the booking): a `reservation` row made
with every booking created while the property files with SES.Hospedajes, and, when the dates of
an accepted reservation change, an `rh_cancellation` row that cancels it before it is sent again
with the new dates. See "SES reservations" below.

Idempotency: the row is marked `sending` and committed before the call to the authority, and
its outcome is recorded after; a retry never sends a guest the authority already accepted. A
row found `sending` after a restart (older than the call's timeout) is an interrupted call:
connectors that can ask the authority (a `recover` method) are asked; the others (Alloggiati
Web has no idempotency key) are FAILED with a reason telling the host to check the day's receipt
before re-filing, rather than risking a second filing.
"""

from __future__ import annotations

import datetime as dt
import json
import logging
import zoneinfo
from typing import Any

from peewee import fn

from rentalcomply.bookings import service as bookings
from rentalcomply.core import clock, events, sealing, signed_links
from rentalcomply.core.checks import control_character_problem
from rentalcomply.core.db import atomic, db
from rentalcomply.core.errors import NotFound, PoliceNotReady, ValidationError
from rentalcomply.core.ids import new_id
from rentalcomply.core.models import Booking, Property
from rentalcomply.police import connectors
from rentalcomply.police.connectors.base import (AuthError, Filing, Guest, Outcome, PermanentError,
                                                 Stay, TransientError, UncertainError)
from rentalcomply.police.models import PoliceFiling, PoliceSettings

log = logging.getLogger(__name__)

REPORT_STATUSES = ("NOT_REQUIRED", "PENDING", "QUEUED", "SUBMITTED", "REJECTED", "FAILED")
FILING_STATUSES = ("waiting", "queued", "sending", "polling", "ready", "submitted", "rejected",
                   "failed", "held")
KINDS = ("arrival", "departure", "cancellation", "reservation", "rh_cancellation")
RESERVATION_KINDS = ("reservation", "rh_cancellation")
AT_RISK_BEFORE = dt.timedelta(hours=6)
SETTING_MAX = 200
SETTINGS_MAX_KEYS = 20
REFERENCE_MAX = 200
CREDENTIALS_PURPOSE = "police-credentials:"
DOCUMENT_PURPOSE = "police-document:"
LINK_PURPOSE = "police-file"
ENDPOINT_SETTING = {"alloggiati": "alloggiati_url", "ses_hospedajes": "ses_url", "siba": "siba_url"}

_settings = None


def configure(settings) -> None:
    global _settings
    _settings = settings
    from rentalcomply.police import codes
    codes.configure(getattr(settings, "data_dir", None))


def _police_setting(name: str, default):
    police = getattr(_settings, "police", None)
    return getattr(police, name, default) if police is not None else default


# --- per-property settings and credentials -------------------------------------------------------

def _known_setting_fields(connector_name: str) -> tuple[str, ...] | None:
    if connector_name == "none":
        return ()
    try:
        return tuple(connectors.get(connector_name).setting_fields) or None
    except (ImportError, KeyError, AttributeError):
        return None  # a connector not in this build: any names are kept


def _credential_fields(connector_name: str) -> tuple[str, ...] | None:
    if connector_name == "none":
        return ()
    try:
        return tuple(connectors.get(connector_name).credential_fields)
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
    from rentalcomply.properties import service as properties
    with atomic():
        prop = properties.get_property(account_id, property_id)
        if connector is not None:
            if connector not in connectors.NAMES:
                raise ValidationError("police_connector", "must be one of: " + ", ".join(connectors.NAMES))
            if prop.police_connector != connector:
                prop.police_connector = connector
                prop.updated_at = clock.utcnow()
                prop.save()
        name = prop.police_connector
        if not settings and not credentials:  # absent or empty: nothing to merge
            return prop
        if name == "none":
            raise ValidationError("police_connector", "choose a connector before its settings "
                                                      "or credentials")
        row = PoliceSettings.get_or_none(PoliceSettings.property == prop.id)
        if row is None:
            row = PoliceSettings.create(property=prop.id, account=account_id, settings={},
                                        credential_names=[], updated_at=clock.utcnow())
        if settings is not None:
            merged = dict(row.settings or {})
            for key, value in _checked_map("police_settings", settings,
                                           _known_setting_fields(name)).items():
                if value is None:
                    merged.pop(key, None)
                else:
                    merged[key] = value
            row.settings = merged
        if credentials is not None:
            current = _credentials(row)
            for key, value in _checked_map("police_credentials", credentials,
                                           _credential_fields(name)).items():
                if value is None:
                    current.pop(key, None)
                else:
                    current[key] = value
            row.credentials_sealed = sealing.seal(
                CREDENTIALS_PURPOSE + prop.id,
                json.dumps(current, sort_keys=True).encode("utf-8")) if current else None
            row.credential_names = sorted(current)
        row.updated_at = clock.utcnow()
        row.save()
        prop.updated_at = clock.utcnow()
        prop.save()  # the property's version grows: its view changed
    return prop


def _credentials(row: PoliceSettings | None) -> dict:
    if row is None or not row.credentials_sealed:
        return {}
    return json.loads(sealing.unseal(CREDENTIALS_PURPOSE + row.property_id, row.credentials_sealed))


def police_views(property_ids: list[str]) -> dict[str, dict]:
    """What a property view shows of its police settings: the settings, and only the NAMES of
    the credentials set (never their values)."""
    rows = {row.property_id: row for row in
            PoliceSettings.select().where(PoliceSettings.property.in_(list(property_ids)))} \
        if property_ids else {}
    return {pid: {"police_settings": dict(rows[pid].settings or {}) if pid in rows else {},
                  "police_credentials_set": list(rows[pid].credential_names or []) if pid in rows else []}
            for pid in property_ids}


def settings_for_property(prop: Property) -> dict:
    row = PoliceSettings.get_or_none(PoliceSettings.property == prop.id)
    values = dict(row.settings or {}) if row else {}
    setting = ENDPOINT_SETTING.get(prop.police_connector)
    if setting:
        values["endpoint_url"] = _police_setting(setting, None)
    return values


# --- deadlines -----------------------------------------------------------------------------------

def _local_to_utc(day: dt.date, hour: int, minute: int, zone_name: str) -> dt.datetime:
    zone = zoneinfo.ZoneInfo(zone_name or "UTC")
    local = dt.datetime.combine(day, dt.time(hour, minute), tzinfo=zone)
    return local.astimezone(dt.timezone.utc).replace(tzinfo=None)


def _working_days_after(day: dt.date, count: int) -> dt.date:
    while count:
        day += dt.timedelta(days=1)
        if day.weekday() < 5:
            count -= 1
    return day


def deadline(prop: Property, booking: Booking, kind: str = "arrival") -> dt.datetime:
    """When the filing of `kind` is due (naive UTC).

    Italy: 24 hours from arrival, 6 for stays of one night or less; Spain: 24 hours; Portugal:
    the end of the third working day after arrival (and after departure for the departure
    filing). Arrival counts from `police.arrival_hour` local time on the arrival date."""
    hour = _police_setting("arrival_hour", 14)
    arrival = _as_date(booking.arrival_date)
    departure = _as_date(booking.departure_date)
    if prop.country == "PT":
        base = departure if kind == "departure" else arrival
        return _local_to_utc(_working_days_after(base, 3), 23, 59, prop.timezone)
    start = _local_to_utc(arrival, hour, 0, prop.timezone)
    if prop.country == "IT" and (departure - arrival).days <= 1:
        return start + dt.timedelta(hours=6)
    return start + dt.timedelta(hours=24)


def _as_date(value) -> dt.date:
    if isinstance(value, dt.datetime):  # a datetime is a date too: keep its day only
        return value.date()
    return value if isinstance(value, dt.date) else dt.date.fromisoformat(str(value)[:10])


# --- the guests as the connectors take them ------------------------------------------------------

IT_ROLES = {"single": "single", "head_of_family": "head_of_family", "head_of_group": "group_leader",
            "family_member": "family_member", "group_member": "group_member"}


def guests_of(booking: Booking, country: str) -> list[Guest]:
    """The completed party, decrypted, in the connectors' shape (base.Guest)."""
    from rentalcomply.checkin.models import Checkin
    from rentalcomply.checkin.service import load_party
    row = Checkin.get_or_none(Checkin.booking == booking.id)
    party = load_party(row).get("guests", [])
    lead_role = IT_ROLES.get((party[0] if party else {}).get("relationship") or "", "single")
    result = []
    for index, values in enumerate(party):
        data = dict(values)
        data.pop("signature", None)
        if data.get("birth_date"):
            data["birth_date"] = dt.date.fromisoformat(data["birth_date"])
        # The names of the contract (base.Guest) beside check-in's own.
        for alias, name in (("birth_place", "birth_municipality"), ("issue_place", "document_issue_place"),
                            ("address", "address_street"), ("city", "address_city"),
                            ("postcode", "address_postcode")):
            if data.get(name) and not data.get(alias):
                data[alias] = data[name]
        if country == "IT":
            if index == 0:
                role = lead_role
            else:
                role = IT_ROLES.get(data.get("relationship") or "") or (
                    "group_member" if lead_role == "group_leader" else
                    "family_member" if lead_role == "head_of_family" else "single")
        else:
            role = "holder" if index == 0 else "traveller"
            if data.get("minor_relationship"):
                data["relationship"] = data["minor_relationship"]
        result.append(Guest(index=index, role=role, data=data))
    return result


def stay_of(booking: Booking, prop: Property) -> Stay:
    return Stay(booking_id=booking.id, reference=booking.external_ref or booking.id,
                arrival=_as_date(booking.arrival_date), departure=_as_date(booking.departure_date),
                booked_on=_as_date(booking.created_at), guest_count=booking.guest_count,
                payment_method=booking.payment_method, property_country=prop.country,
                property_name=prop.name)


# --- the state machine ---------------------------------------------------------------------------

def _filing_row(booking: Booking, prop: Property, kind: str = "arrival") -> PoliceFiling:
    row = PoliceFiling.get_or_none((PoliceFiling.booking == booking.id) & (PoliceFiling.kind == kind))
    if row is None:
        now = clock.utcnow()
        (PoliceFiling.insert(id=new_id("pf"), account=booking.account_id, booking=booking.id,
                             kind=kind, connector=prop.police_connector, status="waiting",
                             deadline=deadline(prop, booking, kind), guests=[], created_at=now,
                             updated_at=now)
         .on_conflict_ignore().execute())
        row = PoliceFiling.get((PoliceFiling.booking == booking.id) & (PoliceFiling.kind == kind))
    return row


def _save_booking(booking: Booking, **changes) -> None:
    changed = {k: v for k, v in changes.items() if getattr(booking, k) != v}
    if changed:
        for key, value in changed.items():
            setattr(booking, key, value)
        booking.updated_at = clock.utcnow()
        booking.save()


def _save_filing(row: PoliceFiling, **changes) -> None:
    for key, value in changes.items():
        setattr(row, key, value)
    row.updated_at = clock.utcnow()
    row.save()


def _event(booking: Booking, event_type: str, row: PoliceFiling) -> None:
    events.emit(booking.account_id, event_type,
                {**bookings.booking_view(booking), "police": filing_view(row)})


def queue_completed() -> list[str]:
    """Queue a filing for every booking whose check-in completed while it was PENDING (the
    check-in sets PENDING when it completes); filed at once, whatever the deadline left."""
    ids = [booking_id for (booking_id,) in
           Booking.select(Booking.id).where((Booking.report_status == "PENDING")
                                            & (Booking.checkin_status == "COMPLETED")).tuples()]
    ids += _arrivals_behind_a_reservation()
    queued = []
    for booking_id in ids:
        with atomic():
            booking = Booking.get_or_none(Booking.id == booking_id)
            if booking is None or booking.checkin_status != "COMPLETED" or not (
                    booking.report_status == "PENDING" or _arrival_not_started(booking)):
                continue
            prop = Property.get_by_id(booking.property_id)
            if prop.police_connector == "none" or booking.status == "cancelled" \
                    or _nobody_to_file(booking, prop):
                _save_booking(booking, report_status="NOT_REQUIRED", report_error=None)
                continue
            row = _filing_row(booking, prop)
            if row.status in ("waiting", "rejected", "failed"):
                _save_filing(row, status="queued", connector=prop.police_connector,
                             next_attempt_at=clock.utcnow(), error=None)
            _save_booking(booking, report_status="QUEUED", report_error=None)
            queued.append(row.id)
    return queued


def _nobody_to_file(booking: Booking, prop: Property) -> bool:
    """Portugal files foreign guests only (SIBA; EU citizens included): a party of Portuguese
    citizens has nothing to file, so no filing is made (and none can fail)."""
    if prop.country != "PT":
        return False
    from rentalcomply.police.formats.siba import filed_guests
    try:
        guests = guests_of(booking, prop.country)
    except sealing.Unsealable:
        return False  # the attempt says why, where a person sees it
    if not guests or filed_guests(guests):
        return False
    PoliceFiling.delete().where((PoliceFiling.booking == booking.id)
                                & (PoliceFiling.status == "waiting")).execute()
    return True


def due_filings(now: dt.datetime | None = None) -> list[str]:
    now = now or clock.utcnow()
    return [fid for (fid,) in PoliceFiling.select(PoliceFiling.id).where(
        PoliceFiling.status.in_(("queued", "polling")) & (PoliceFiling.next_attempt_at <= now))
        .order_by(PoliceFiling.deadline).tuples()]


def _locked(filing_id: str) -> PoliceFiling | None:
    """The filing, its row locked until the transaction ends where the database has row locks
    (PostgreSQL: two workers never both mark it `sending`; SQLite's write transactions already
    run one at a time)."""
    query = PoliceFiling.select().where(PoliceFiling.id == filing_id)
    if db.obj.for_update:
        query = query.for_update()
    return query.first()


def attempt(filing_id: str) -> str | None:
    """One attempt of a due filing; returns its status after, or None when it was not due.
    Safe to call twice at once: the `sending` mark is taken in a write transaction."""
    with atomic():
        row = _locked(filing_id)
        if row is None or row.status not in ("queued", "polling") \
                or (row.next_attempt_at and row.next_attempt_at > clock.utcnow()):
            return None
        booking = Booking.get_by_id(row.booking_id)
        prop = Property.get_by_id(booking.property_id)
        # A cancelled booking files nothing more, but a batch already sent is still asked about:
        # if the authority took it, it must be cancelled there too (queue_cancellations).
        if booking.status == "cancelled" and row.kind != "cancellation" and row.status != "polling":
            _save_filing(row, status="failed", error="the booking was cancelled before filing",
                         next_attempt_at=None)
            if booking.report_status in ("PENDING", "QUEUED"):
                _save_booking(booking, report_status="NOT_REQUIRED", report_error=None)
            return row.status
        connector_name = row.connector
        try:
            connector = connectors.get(connector_name)
        except (KeyError, ImportError):
            _fail(booking, row, f"the police connector {connector_name!r} is not available")
            return row.status
        stay = stay_of(booking, prop)
        try:
            if row.kind in RESERVATION_KINDS:  # the holder alone; a cancellation names no one
                guests = []
                if row.kind == "reservation" and row.status != "polling":
                    holder, reason = reservation_holder(booking)
                    if holder is None:  # held, saying why; at risk before its deadline
                        _save_filing(row, status="waiting", error=reason, next_attempt_at=None)
                        return row.status
                    guests = [holder]
            else:
                guests = guests_of(booking, prop.country)
        except sealing.Unsealable:
            _fail(booking, row, "the guest data cannot be read (erased, or the server secret "
                                "changed)")
            return row.status
        # Guests the authority already accepted are never sent again.
        accepted = {g["index"] for g in row.guests or [] if g.get("accepted")}
        to_send = [g for g in guests if g.index not in accepted]
        polling = row.status == "polling"
        remote_id = row.remote_id
        if row.kind in ("cancellation", "rh_cancellation") and not polling:
            # What a cancellation cancels: the codes the authority gave the arrival filing and
            # the reservation (an rh_cancellation: the reservation's only). They are read here,
            # never kept in the row's remote_id, which holds only our own batch id (so an
            # interrupted submission is never mistaken for a batch to poll).
            remote_id = _cancelled_reference(booking, row.kind)
            if remote_id is None:
                _fail(booking, row, "nothing to cancel: the arrival filing has no code of the "
                                    "authority")
                return row.status
        filing = Filing(id=row.id, kind=row.kind, attempt=row.attempts + 1, remote_id=remote_id)
        settings = settings_for_property(prop)
        if connector_name == "file":
            return _build_file(booking, row, connector, settings, stay, guests, filing)
        if not polling:
            problem = _local_problems(connector, settings, stay, to_send, filing)
            if isinstance(problem, str):
                _hold(booking, row, problem)
                return row.status
            if problem is not None:
                _record(booking, prop, row, problem)
                return row.status
        credentials = _credentials(PoliceSettings.get_or_none(PoliceSettings.property == prop.id))
        _save_filing(row, status="sending", sending_since=clock.utcnow(),
                     attempts=row.attempts + 1)
    # Committed: from here a crash leaves the row `sending` (see recover_interrupted).
    timeout = float(_police_setting("timeout_seconds", 30))
    try:
        if polling:
            outcome = connector.poll(credentials, settings, filing, timeout)
        else:
            outcome = connector.submit(credentials, settings, stay, to_send, filing, timeout)
        failure = None
    except (TransientError, AuthError, PermanentError) as exc:
        outcome, failure = None, exc
    except Exception as exc:  # a connector bug must not leave the row sending
        log.exception("police filing %s: the connector failed", filing_id)
        outcome, failure = None, TransientError(f"internal error in the connector: {exc.__class__.__name__}")
    with atomic():
        row = _locked(filing_id)
        booking = Booking.get_by_id(row.booking_id)
        if row.status != "sending":  # recovered meanwhile: that decision stands
            return row.status
        row.sending_since = None
        if failure is None:
            _record(booking, prop, row, outcome)
        elif isinstance(failure, UncertainError):
            _fail(booking, row, str(failure))
        elif isinstance(failure, AuthError):
            _fail(booking, row, f"credentials refused: {failure}")
        elif isinstance(failure, PermanentError):
            _record(booking, prop, row, Outcome(state="rejected"), reason=str(failure))
        else:
            _retry_or_fail(booking, row, str(failure), polling)
    return row.status


def _hold_reason(error) -> str | None:
    """Why a filing waits for the authority's code tables: a guest's value has no code in the
    starter set, which is no verdict on it (police/codes). None when the tables are loaded."""
    from rentalcomply.police import codes
    from rentalcomply.police.formats.alloggiati import CODE_FIELDS, RecordError
    from rentalcomply.police.formats.ses import SesDataError
    if isinstance(error, RecordError):
        uncodable = [(i, f) for i, f, _ in error.problems if f in CODE_FIELDS]
        if not uncodable or codes.it_full():
            return None
    elif isinstance(error, SesDataError):  # a Spanish town the starter INE list does not know
        uncodable = [(p.index, p.field) for p in error.problems
                     if p.field == "address_city" and p.index is not None]
        if not uncodable or not codes.table_info("ES", "municipios").starter:
            return None
    else:
        return None
    return ("held: " + "; ".join(f"guest {i + 1} {f} has no code in the starter code tables"
                                 for i, f in uncodable) + f"; {codes.LOAD_REASON}")


def _hold(booking: Booking, row: PoliceFiling, reason: str) -> None:
    """Nothing is filed: the row waits (`held`) until the tables are loaded (release_held) or the
    host files again; the booking stays QUEUED with the reason, and police.at_risk comes before
    the deadline as for any filing not done."""
    _save_filing(row, status="held", error=reason[:2000], next_attempt_at=None)
    _save_booking(booking, report_status="QUEUED", report_error=reason[:2000])


def release_held() -> list[str]:
    """Queue again every held filing (the code tables were just loaded: called in that
    transaction)."""
    released = []
    for row in list(PoliceFiling.select().where(PoliceFiling.status == "held")):
        _save_filing(row, status="queued", next_attempt_at=clock.utcnow(), error=None)
        released.append(row.id)
    return released


def _local_problems(connector, settings, stay, guests, filing=None) -> Outcome | str | None:
    """Refusals we can tell before sending (a birthplace without a code...): per guest; or the
    reason to hold the filing (a str) while only the starter code tables are loaded."""
    lines = getattr(connector, "lines", None)
    document = getattr(connector, "document", None)
    if lines is None and document is not None and filing is not None:
        try:
            document(settings, stay, guests, filing)
        except ValueError as exc:  # the connector refuses the rest itself, per guest
            return _hold_reason(exc)
        except Exception:  # nor is anything else judged here
            return None
        return None
    if lines is None:
        return None
    from rentalcomply.police.connectors.base import GuestOutcome
    from rentalcomply.police.formats.alloggiati import RecordError
    try:
        lines(settings, stay, guests)
    except RecordError as exc:
        held = _hold_reason(exc)
        if held:
            return held
        by_guest: dict[int, list[str]] = {}
        for index, field, message in exc.problems:
            by_guest.setdefault(index, []).append(f"{field} {message}")
        return Outcome(state="rejected", guests=[
            GuestOutcome(index=i, accepted=False, code="LOCAL", message="; ".join(m))
            for i, m in sorted(by_guest.items())])
    return None


def _build_file(booking, row, connector, settings, stay, guests, filing) -> str:
    try:
        name, content_type, data = connector.build_file(settings, stay, guests, filing)
    except PermanentError as exc:
        _fail(booking, row, str(exc))
        return row.status
    except ValueError as exc:  # a record error: what the host must fix
        held = _hold_reason(exc)
        if held:
            _hold(booking, row, held)
            return row.status
        _fail(booking, row, f"the file cannot be built: {exc}", event_type="police.rejected",
              status="rejected", report_status="REJECTED")
        return row.status
    _save_filing(row, status="ready", attempts=row.attempts + 1, next_attempt_at=None,
                 file_sealed=sealing.seal(DOCUMENT_PURPOSE + row.id, data), file_name=name,
                 file_type=content_type, error=None)
    return row.status


def _record(booking: Booking, prop: Property, row: PoliceFiling, outcome: Outcome,
            reason: str | None = None) -> None:
    now = clock.utcnow()
    previous = {g["index"]: g for g in row.guests or []}
    for guest in outcome.guests:
        previous[guest.index] = {"index": guest.index, "accepted": guest.accepted,
                                 "code": guest.code, "message": guest.message}
    changes: dict[str, Any] = {"guests": [previous[i] for i in sorted(previous)],
                               "next_attempt_at": None}
    if outcome.reference:
        changes["reference"] = outcome.reference[:REFERENCE_MAX]
    if outcome.remote_id:
        changes["remote_id"] = outcome.remote_id[:100]
    if outcome.receipt:
        changes["receipt_sealed"] = sealing.seal(DOCUMENT_PURPOSE + row.id + ":receipt",
                                                 outcome.receipt)
        changes["receipt_type"] = outcome.receipt_type or "application/octet-stream"
    if outcome.state == "pending":
        changes.update(status="polling", next_attempt_at=now + dt.timedelta(
            seconds=max(outcome.poll_after_seconds or 60, 1)))
        _save_filing(row, **changes)
        return
    if outcome.state == "submitted":
        changes.update(status="submitted", submitted_at=now, error=None)
        _save_filing(row, **changes)
        if row.kind in RESERVATION_KINDS:
            _reservation_accepted(booking, row)
        elif row.kind == "arrival" or booking.report_status != "SUBMITTED":
            _save_booking(booking, report_status="SUBMITTED", report_error=None)
        _event(booking, "police.submitted", row)
        if prop.country == "PT" and row.kind == "arrival":
            departure_row = _filing_row(booking, prop, "departure")
            if departure_row.status == "waiting":
                _save_filing(departure_row, status="queued", connector=row.connector,
                             next_attempt_at=_local_to_utc(_as_date(booking.departure_date), 12, 0,
                                                           prop.timezone))
        return
    refused = [g for g in changes["guests"] if not g["accepted"]]
    summary = reason or "; ".join(
        f"guest {g['index'] + 1}: " + " ".join(p for p in (g.get("code"), g.get("message")) if p)
        for g in refused) or "refused by the authority"
    changes.update(status="rejected", error=summary[:2000])
    _save_filing(row, **changes)
    _save_booking(booking, report_status="REJECTED", report_error=summary[:2000])
    _event(booking, "police.rejected", row)


def _fail(booking: Booking, row: PoliceFiling, reason: str, *, event_type: str = "police.failed",
          status: str = "failed", report_status: str = "FAILED") -> None:
    _save_filing(row, status=status, error=reason[:2000], next_attempt_at=None, sending_since=None)
    _save_booking(booking, report_status=report_status, report_error=reason[:2000])
    _event(booking, event_type, row)


def _retry_or_fail(booking: Booking, row: PoliceFiling, reason: str, polling: bool) -> None:
    """Another attempt later, unless attempts are spent or the next one would come too close
    to the deadline: then FAILED now, announced while a person can still file by hand."""
    now = clock.utcnow()
    delay = dt.timedelta(seconds=_police_setting("retry_seconds", 120) * 2 ** max(row.attempts - 1, 0))
    margin = dt.timedelta(minutes=_police_setting("fail_before_deadline_minutes", 60))
    next_at = now + delay
    if row.attempts >= _police_setting("max_attempts", 8) or next_at > row.deadline - margin:
        _fail(booking, row, f"{reason} (after {row.attempts} attempts)")
        return
    _save_filing(row, status="polling" if polling else "queued", next_attempt_at=next_at,
                 error=reason[:2000])
    _save_booking(booking, report_error=f"attempt {row.attempts} failed: {reason}"[:2000])


def recover_interrupted(now: dt.datetime | None = None) -> list[str]:
    """Rows left `sending` by a crash (older than a call can last): ask the connector when it
    can tell (a `recover(credentials, settings, filing, timeout)` method answering an Outcome,
    or None when it cannot tell), else FAILED: never sent twice."""
    now = now or clock.utcnow()
    limit = now - dt.timedelta(seconds=float(_police_setting("timeout_seconds", 30)) * 4 + 60)
    recovered = []
    stale = [fid for (fid,) in PoliceFiling.select(PoliceFiling.id).where(
        (PoliceFiling.status == "sending") & (PoliceFiling.sending_since < limit)).tuples()]
    for filing_id in stale:
        with atomic():
            row = _locked(filing_id)
            if row is None or row.status != "sending":
                continue
            booking = Booking.get_by_id(row.booking_id)
            prop = Property.get_by_id(booking.property_id)
            outcome = None
            try:
                connector = connectors.get(row.connector)
                recover = getattr(connector, "recover", None)
                if recover is not None:
                    outcome = recover(
                        _credentials(PoliceSettings.get_or_none(PoliceSettings.property == prop.id)),
                        settings_for_property(prop),
                        Filing(id=row.id, kind=row.kind, attempt=row.attempts,
                               remote_id=row.remote_id),
                        float(_police_setting("timeout_seconds", 30)))
            except Exception:
                outcome = None
            row.sending_since = None
            if outcome is not None:
                _record(booking, prop, row, outcome)
            elif row.remote_id:  # it was a poll of a submission already taken: poll again
                _save_filing(row, status="polling", next_attempt_at=clock.utcnow())
            else:
                _fail(booking, row, "a submission was interrupted before its answer arrived: it "
                                    "may have been accepted. Check the authority's receipt "
                                    "before filing again.")
            recovered.append(filing_id)
    return recovered


def announce_at_risk(now: dt.datetime | None = None) -> list[str]:
    """`police.at_risk`, once per filing, when its deadline is 6 hours away (or less) and
    nothing is filed yet: check-in not completed, or the filing not yet accepted."""
    now = now or clock.utcnow()
    today = now.date()
    announced = []
    candidates = (Booking.select(Booking.id)
                  .where(Booking.report_status.in_(("PENDING", "QUEUED", "REJECTED", "FAILED"))
                         & (Booking.status != "cancelled") & (Booking.is_block == False)  # noqa: E712
                         & (Booking.arrival_date <= today + dt.timedelta(days=2))
                         & (Booking.arrival_date >= today - dt.timedelta(days=8))))
    for (booking_id,) in candidates.tuples():
        booking = Booking.get_by_id(booking_id)
        prop = Property.get_by_id(booking.property_id)
        if prop.police_connector == "none":
            continue
        if booking.report_status in ("REJECTED", "FAILED") and not _arrival_not_started(booking):
            continue  # the arrival's own refusal or failure was announced; a reservation's is not it
        due = deadline(prop, booking)
        if not (due - AT_RISK_BEFORE <= now < due):
            continue
        with atomic():
            booking = Booking.get_by_id(booking_id)
            row = _filing_row(booking, prop)
            if row.at_risk_at is not None or row.status in ("submitted", "failed", "rejected"):
                continue
            _save_filing(row, at_risk_at=now)
            _event(booking, "police.at_risk", row)
            announced.append(booking_id)
    return announced + _reservations_at_risk(now)


def _cancelled_reference(booking: Booking, kind: str = "cancellation") -> str | None:
    """The codes (comma-separated) of the booking's communications the authority accepted and
    that `kind` cancels: the arrival's and the reservation's, or the reservation's alone."""
    kinds = ("reservation",) if kind == "rh_cancellation" else ("arrival", "reservation")
    codes = [row.reference for row in PoliceFiling.select().where(
        (PoliceFiling.booking == booking.id) & PoliceFiling.kind.in_(kinds)
        & (PoliceFiling.status == "submitted")).order_by(PoliceFiling.created_at)
        if row.reference]
    return ",".join(codes) or None


def _cancellations_to_queue() -> list[PoliceFiling]:
    """Accepted communications of cancelled bookings without a cancellation filing, once none of
    the booking's filings awaits its outcome (an accepted one is cancelled too)."""
    cancellation = PoliceFiling.alias()
    already = cancellation.select(cancellation.id).where(
        (cancellation.booking == PoliceFiling.booking) & (cancellation.kind == "cancellation"))
    in_flight = cancellation.select(cancellation.id).where(
        (cancellation.booking == PoliceFiling.booking)
        & cancellation.status.in_(("sending", "polling")))
    return list(PoliceFiling.select()
                .join(Booking, on=(PoliceFiling.booking == Booking.id))
                .where(PoliceFiling.kind.in_(("arrival", "reservation"))
                       & (PoliceFiling.status == "submitted")
                       & (PoliceFiling.connector == "ses_hospedajes")
                       & (Booking.status == "cancelled")
                       & ~fn.EXISTS(already) & ~fn.EXISTS(in_flight)))


def cancellations_waiting() -> bool:
    """A cancelled booking whose arrival or reservation SES took awaits its cancellation."""
    return bool(_cancellations_to_queue())


def queue_cancellations() -> list[str]:
    """A cancellation filing for every cancelled booking whose arrival filing the authority took,
    where the connector files cancellations (Spain: within 24 hours of the cancellation)."""
    queued = []
    for row in _cancellations_to_queue():
        with atomic():
            booking = Booking.get_by_id(row.booking_id)
            exists = PoliceFiling.get_or_none((PoliceFiling.booking == booking.id)
                                              & (PoliceFiling.kind == "cancellation"))
            if exists is not None:
                continue
            now = clock.utcnow()
            cancelled = booking.cancelled_at or now
            PoliceFiling.create(id=new_id("pf"), account=booking.account_id, booking=booking.id,
                                kind="cancellation", connector=row.connector, status="queued",
                                deadline=cancelled + dt.timedelta(hours=24), next_attempt_at=now,
                                guests=[], created_at=now, updated_at=now)
            queued.append(booking.id)
    return queued


def purge_files(retention) -> int:
    """Erase built police files (they hold the guests' identity) with the guest data, after the
    retention of the property's country (`checkin.retention.Retention`; a number is days for
    every country); receipts and outcomes stay."""
    from rentalcomply.checkin.retention import Retention
    past = Retention.of(retention).past(clock.today())
    stale = [fid for (fid,) in PoliceFiling.select(PoliceFiling.id)
             .join(Booking, on=(PoliceFiling.booking == Booking.id))
             .join(Property, on=(Booking.property == Property.id))
             .where(PoliceFiling.file_sealed.is_null(False) & past)
             .tuples()]
    for filing_id in stale:
        with atomic():
            PoliceFiling.update(file_sealed=None, updated_at=clock.utcnow()).where(
                PoliceFiling.id == filing_id).execute()
    return len(stale)


# --- SES reservations (RH) ----------------------------------------------------------------------
#
# Real Decreto 933/2021 wants the reservation within 24 hours of the booking: a `reservation` row
# is made in the transaction that creates a booking of a property filing with SES.Hospedajes
# (bookings made here; a channel's calendar feed carries no holder to file, and the decree also
# obliges the platform that took the booking). It is sent at once, its contract holder (rol TI)
# being the lead guest of a completed check-in, else the booking's guest, whose name must then
# be written "Surname(s), First name(s)": a name is never split by guess. Until the holder is
# known the row waits, saying why, and is announced at risk 6 hours before its deadline.
# When the dates of an accepted reservation change, an `rh_cancellation` (tipoOperacion B naming
# it) is filed, then the reservation again with the new dates; a cancelled booking's accepted
# reservation is cancelled with its arrival (queue_cancellations).

HOLDER_UNKNOWN = ("the reservation waits for its holder: complete the check-in, or write the "
                  "booking's guest_name as \"Surname(s), First name(s)\" so that the names are "
                  "not guessed")
HOLDER_UNREACHABLE = ("the reservation waits for the holder's phone or e-mail: add guest_phone or "
                      "guest_email to the booking, or complete the check-in")


def schedule_reservation(booking: Booking, prop: Property) -> None:
    """In the transaction that creates `booking`: its reservation filing, due in 24 hours."""
    if prop.police_connector != "ses_hospedajes" or booking.is_block:
        return
    now = clock.utcnow()
    (PoliceFiling.insert(id=new_id("pf"), account=booking.account_id, booking=booking.id,
                         kind="reservation", connector=prop.police_connector, status="queued",
                         deadline=(booking.created_at or now) + dt.timedelta(hours=24),
                         next_attempt_at=now, guests=[], created_at=now, updated_at=now)
     .on_conflict_ignore().execute())
    events.wake_after_commit()  # sent at once after the commit (police/tasks.py)


def reservation_dates_changed(booking: Booking) -> None:
    """In the transaction that moves `booking`: a reservation already sent is cancelled (at once
    if accepted, else once its outcome is known) and sent again with the new dates; one not sent
    yet simply carries them."""
    row = PoliceFiling.get_or_none((PoliceFiling.booking == booking.id)
                                   & (PoliceFiling.kind == "reservation"))
    if row is None or booking.status == "cancelled" or row.status not in (
            "sending", "polling", "submitted"):
        return
    status = "queued" if row.status == "submitted" else "waiting"
    now = clock.utcnow()
    cancel = PoliceFiling.get_or_none((PoliceFiling.booking == booking.id)
                                      & (PoliceFiling.kind == "rh_cancellation"))
    changes = dict(status=status, attempts=0, next_attempt_at=now if status == "queued" else None,
                   deadline=now + dt.timedelta(hours=24), remote_id=None, reference=None,
                   guests=[], error=None, at_risk_at=None, submitted_at=None, sending_since=None)
    if cancel is None:
        PoliceFiling.create(id=new_id("pf"), account=booking.account_id, booking=booking.id,
                            kind="rh_cancellation", connector=row.connector, created_at=now,
                            updated_at=now, **changes)
    elif cancel.status == "submitted":  # an earlier change was filed: this one is new
        _save_filing(cancel, **changes)
    else:
        return  # under way (its reservation is sent again with the dates of then), or failed
    if status == "queued":
        events.wake_after_commit()


def _holder_known(booking: Booking) -> bool:
    """Whether reservation_holder can answer, without opening the sealed party."""
    return _known(booking.checkin_status, booking.guest_name, booking.guest_email,
                  booking.guest_phone)


def _known(checkin_status, guest_name, guest_email, guest_phone) -> bool:
    if checkin_status == "COMPLETED":
        return True
    last, _, first = (guest_name or "").partition(",")
    return bool(last.strip() and first.strip() and (guest_email or guest_phone))


def reservation_holder(booking: Booking) -> tuple[Guest | None, str | None]:
    """(the reservation's holder, None), or (None, why it waits)."""
    contact = {"email": booking.guest_email, "phone": booking.guest_phone}
    if booking.checkin_status == "COMPLETED":
        party = guests_of(booking, "ES")
        if party:
            data = dict(party[0].data)
            for name, value in contact.items():
                if value and not data.get(name) and not data.get("email") and not data.get("phone"):
                    data[name] = value
            return Guest(index=0, role="holder", data=data), None
    last, comma, first = (booking.guest_name or "").partition(",")
    if not (comma and last.strip() and first.strip()):
        return None, HOLDER_UNKNOWN
    if not (booking.guest_email or booking.guest_phone):
        return None, HOLDER_UNREACHABLE
    data = {"first_name": " ".join(first.split()), "last_name": " ".join(last.split()),
            **{name: value for name, value in contact.items() if value}}
    return Guest(index=0, role="holder", data=data), None


def _waiting_reservations():
    return (PoliceFiling.select(PoliceFiling.id, PoliceFiling.booking)
            .join(Booking, on=(PoliceFiling.booking == Booking.id))
            .where((PoliceFiling.kind == "reservation") & (PoliceFiling.status == "waiting")
                   & (Booking.status == "confirmed")))


def reservations_waiting() -> bool:
    """A held reservation whose holder is now known (a check-in completed, a name rewritten):
    one query, as it runs after every transaction that emits events."""
    held = (_waiting_reservations().select(Booking.checkin_status, Booking.guest_name,
                                           Booking.guest_email, Booking.guest_phone).tuples())
    return any(_known(*values) for values in held)


def queue_reservations() -> list[str]:
    """Queue the held reservations whose holder is now known."""
    queued = []
    for row in list(_waiting_reservations()):
        with atomic():
            row = _locked(row.id)
            booking = Booking.get_by_id(row.booking_id)
            if row.status != "waiting" or booking.status != "confirmed" or not _holder_known(booking):
                continue
            _save_filing(row, status="queued", next_attempt_at=clock.utcnow(), error=None)
            queued.append(row.id)
    return queued


def _reservation_accepted(booking: Booking, row: PoliceFiling) -> None:
    """After SES took a reservation or the cancellation of one."""
    now = clock.utcnow()
    if row.kind == "reservation":
        cancel = PoliceFiling.get_or_none((PoliceFiling.booking == booking.id)
                                          & (PoliceFiling.kind == "rh_cancellation")
                                          & (PoliceFiling.status == "waiting"))
        if cancel is not None:  # the dates changed while it was under way: cancel it now
            _save_filing(cancel, status="queued", next_attempt_at=now)
    else:  # the old reservation is cancelled: send it again, with the booking's dates now
        reservation = PoliceFiling.get_or_none((PoliceFiling.booking == booking.id)
                                               & (PoliceFiling.kind == "reservation"))
        if reservation is not None:
            _save_filing(reservation, status="queued", attempts=0, next_attempt_at=now,
                         deadline=now + dt.timedelta(hours=24), remote_id=None, reference=None,
                         guests=[], error=None, at_risk_at=None, submitted_at=None)
    if booking.report_status in ("REJECTED", "FAILED", "QUEUED"):  # the reservation's part done
        state = _arrival_status(booking)
        if state not in ("REJECTED", "FAILED"):
            _save_booking(booking, report_status=state, report_error=None)


def _arrival_status(booking: Booking) -> str:
    """The booking's report status as its traveller report (arrival) alone makes it."""
    arrival = PoliceFiling.get_or_none((PoliceFiling.booking == booking.id)
                                       & (PoliceFiling.kind == "arrival"))
    status = arrival.status if arrival is not None else "waiting"
    return {"waiting": "PENDING", "submitted": "SUBMITTED", "rejected": "REJECTED",
            "failed": "FAILED"}.get(status, "QUEUED")


def _arrival_not_started(booking: Booking) -> bool:
    """A reservation's state shows on the booking (REJECTED, FAILED; QUEUED when re-filed) while
    its traveller report has not started: a completed check-in is still filed."""
    return booking.report_status in ("REJECTED", "FAILED", "QUEUED") and _arrival_status(booking) == \
        "PENDING" and PoliceFiling.select().where(
            (PoliceFiling.booking == booking.id)
            & PoliceFiling.kind.in_(RESERVATION_KINDS)).exists()


def _arrivals_behind_a_reservation() -> list[str]:
    reservation, arrival = PoliceFiling.alias(), PoliceFiling.alias()
    return [booking_id for (booking_id,) in Booking.select(Booking.id).where(
        Booking.report_status.in_(("REJECTED", "FAILED", "QUEUED"))
        & (Booking.checkin_status == "COMPLETED")
        & fn.EXISTS(reservation.select(reservation.id).where(
            (reservation.booking == Booking.id) & reservation.kind.in_(RESERVATION_KINDS)))
        & ~fn.EXISTS(arrival.select(arrival.id).where(
            (arrival.booking == Booking.id) & (arrival.kind == "arrival")
            & (arrival.status != "waiting")))).tuples()]


def _reservations_at_risk(now: dt.datetime) -> list[str]:
    """`police.at_risk`, once, for a reservation not yet accepted 6 hours before its deadline."""
    announced = []
    rows = (PoliceFiling.select(PoliceFiling.id)
            .join(Booking, on=(PoliceFiling.booking == Booking.id))
            .where(PoliceFiling.kind.in_(RESERVATION_KINDS)
                   & PoliceFiling.status.in_(("waiting", "queued", "polling"))
                   & PoliceFiling.at_risk_at.is_null() & (Booking.status == "confirmed")
                   & (PoliceFiling.deadline > now)
                   & (PoliceFiling.deadline <= now + AT_RISK_BEFORE)))
    for (filing_id,) in rows.tuples():
        with atomic():
            row = _locked(filing_id)
            if row is None or row.at_risk_at is not None:
                continue
            booking = Booking.get_by_id(row.booking_id)
            _save_filing(row, at_risk_at=now)
            _event(booking, "police.at_risk", row)
            announced.append(booking.id)
    return announced


def run_due() -> dict[str, int]:
    """Everything the worker does each minute, in order."""
    queue_cancellations()
    queued = queue_completed() + queue_reservations()
    recovered = recover_interrupted()
    due = due_filings()
    attempted = [attempt(fid) for fid in due]
    queue_cancellations()  # a batch accepted just now, of a booking cancelled meanwhile
    # What an outcome just now made due (that cancellation; a reservation sent again once the
    # cancellation of its old dates was accepted) goes in the same run.
    attempted += [attempt(fid) for fid in due_filings() if fid not in due]
    at_risk = announce_at_risk()
    return {"queued": len(queued), "recovered": len(recovered),
            "attempted": sum(1 for a in attempted if a), "at_risk": len(at_risk)}


# --- what the host does ----------------------------------------------------------------------------

def _booking_and_property(account_id: str, booking_id: str) -> tuple[Booking, Property]:
    booking = bookings.get_booking(account_id, booking_id)
    return booking, Property.get_by_id(booking.property_id)


def refile(account_id: str, booking_id: str) -> dict:
    """File again after a rejection (the host fixed the data) or a failure: guests already
    accepted are not sent again."""
    with atomic():
        booking, prop = _booking_and_property(account_id, booking_id)
        if prop.police_connector == "none":
            raise PoliceNotReady("The property files nothing with the police (connector none).")
        if booking.status == "cancelled":
            raise PoliceNotReady("The booking is cancelled.")
        rows = [r for r in PoliceFiling.select().where(PoliceFiling.booking == booking.id)
                if r.status in ("rejected", "failed", "ready", "held")]
        if booking.checkin_status != "COMPLETED":  # only a reservation can be filed before it
            rows = [r for r in rows if r.kind in RESERVATION_KINDS]
            if not rows:
                raise PoliceNotReady("The check-in is not completed: there is nothing to file yet.")
        if not rows:
            raise PoliceNotReady(f"Nothing to file again: the filing is {booking.report_status}.")
        for row in rows:
            _save_filing(row, status="queued", connector=prop.police_connector, attempts=0,
                         next_attempt_at=clock.utcnow(), error=None, sending_since=None,
                         remote_id=None)
        _save_booking(booking, report_status="QUEUED", report_error=None)
        events.wake_after_commit()  # filed at once after the commit (police/tasks.py)
    return police_view(account_id, booking_id)


def mark_filed(account_id: str, booking_id: str, reference: str | None) -> dict:
    """The host uploaded the file by hand (`file` connector): SUBMITTED."""
    reference = (reference or "").strip() or None
    if reference and len(reference) > REFERENCE_MAX:
        raise ValidationError("reference", f"must be at most {REFERENCE_MAX} characters")
    with atomic():
        booking, prop = _booking_and_property(account_id, booking_id)
        row = (PoliceFiling.select().where((PoliceFiling.booking == booking.id)
                                           & (PoliceFiling.status == "ready"))
               .order_by(PoliceFiling.created_at).first())
        if row is None:
            raise PoliceNotReady("No police file awaits filing for this booking.")
        now = clock.utcnow()
        _save_filing(row, status="submitted", submitted_at=now, reference=reference,
                     guests=[{"index": i, "accepted": True, "code": None, "message": None}
                             for i in range(booking.guest_count)])
        _save_booking(booking, report_status="SUBMITTED", report_error=None)
        _event(booking, "police.submitted", row)
    return police_view(account_id, booking_id)


def file_link(settings, account_id: str, booking_id: str, kind: str = "arrival") -> dict:
    booking, _ = _booking_and_property(account_id, booking_id)
    row = PoliceFiling.get_or_none((PoliceFiling.booking == booking.id) & (PoliceFiling.kind == kind))
    if row is None or not row.file_sealed:
        raise PoliceNotReady("No police file is built for this booking yet.")
    query, expires_at = signed_links.mint(LINK_PURPOSE, _link_fields(account_id, row.id),
                                          settings.police.link_lifetime_seconds)
    url = (f"{settings.server.public_url}/files/police/{account_id}/{row.id}?"
           + "&".join(f"{name}={value}" for name, value in query.items()))
    return {"download_url": url, "expires_at": clock.iso(expires_at), "filename": row.file_name}


def _link_fields(account_id: str, filing_id: str) -> dict[str, str]:
    return {"account": account_id, "filing": filing_id}


def open_signed_file(account_id: str, filing_id: str, query: dict) -> tuple[bytes, str, str]:
    signed_links.check(LINK_PURPOSE, _link_fields(account_id, filing_id), query)
    row = PoliceFiling.get_or_none((PoliceFiling.id == filing_id) & (PoliceFiling.account == account_id))
    if row is None or not row.file_sealed:
        raise NotFound("The police file no longer exists.")
    return (sealing.unseal(DOCUMENT_PURPOSE + row.id, row.file_sealed), row.file_name,
            row.file_type or "application/octet-stream")


def receipt(account_id: str, booking_id: str, kind: str = "arrival") -> tuple[bytes, str]:
    booking, _ = _booking_and_property(account_id, booking_id)
    row = PoliceFiling.get_or_none((PoliceFiling.booking == booking.id) & (PoliceFiling.kind == kind))
    if row is None or not row.receipt_sealed:
        raise NotFound("No receipt is kept for this filing.")
    return (sealing.unseal(DOCUMENT_PURPOSE + row.id + ":receipt", row.receipt_sealed),
            row.receipt_type or "application/octet-stream")


# --- views ---------------------------------------------------------------------------------------

def filing_view(row: PoliceFiling) -> dict:
    return {
        "id": row.id,
        "kind": row.kind,
        "connector": row.connector,
        "status": row.status,
        "deadline": clock.iso(row.deadline),
        "attempts": row.attempts,
        "next_attempt_at": clock.iso(row.next_attempt_at),
        "reference": row.reference,
        "guests": list(row.guests or []),
        "error": row.error,
        "file_ready": bool(row.file_sealed),
        "receipt_kept": bool(row.receipt_sealed),
        "at_risk_at": clock.iso(row.at_risk_at),
        "submitted_at": clock.iso(row.submitted_at),
        "version": row.version,
    }


def police_view(account_id: str, booking_id: str) -> dict:
    booking, prop = _booking_and_property(account_id, booking_id)
    rows = list(PoliceFiling.select().where(PoliceFiling.booking == booking.id)
                .order_by(PoliceFiling.created_at, PoliceFiling.kind))
    return {
        "booking_id": booking.id,
        "connector": prop.police_connector,
        "report_status": booking.report_status,
        "report_error": booking.report_error,
        "deadline": clock.iso(deadline(prop, booking)) if prop.police_connector != "none" else None,
        "filings": [filing_view(row) for row in rows],
    }
