"""Period filings: what a property owes a period authority (statistics, a tax return) for a
month, a quarter or a year, in the same states as a booking's filings (engine.py).

One `Filing` per (property, authority, kind, period) (a unique index), its `booking` null:

    waiting   from the period's first day (its file previewable with the figures so far)
    queued    once the period has ended (the property's midnight), attempted by the worker
    held      nothing sent: the set-up is missing, or the period's data is not complete (a
              check-in not done, a value the authority refuses): `held_reason` says it in words;
              queued again by the set-up (obligations.release_holds) or the host's refile
    ready     the file is built for the host to upload or type in (no credentials, or a region
              on another system); `POST /filings/{id}/filed` marks it submitted
    sending   marked and committed before the call; an interrupted call is queued again (a
              period's file names each guest by an immutable id: sending it twice corrects,
              never duplicates)
    submitted | rejected (guests refused: each answer on `guests`, the reasons in `error`) |
    failed (credentials refused, retries spent)

Events: `filing.held`, `filing.ready`, `filing.submitted`, `filing.rejected`, `filing.failed`,
`filing.at_risk`, each with the filing, its property and period (docs/police.md). A booking's
`police.*` events are unchanged. The engine knows no authority: it asks the registry.
"""

from __future__ import annotations

import dataclasses
import datetime as dt
import io
import logging
import zipfile

from rentalcomply.core import clock, events, sealing
from rentalcomply.core.db import atomic
from rentalcomply.core.errors import PoliceNotReady
from rentalcomply.core.ids import new_id
from rentalcomply.core.models import Property
from rentalcomply.filings import obligations, registry, setup
from rentalcomply.filings.connector import AuthError, Outcome, PermanentError, TransientError
from rentalcomply.filings.engine import DOCUMENT_PURPOSE, locked, save_filing
from rentalcomply.filings.models import Filing, ObligationSettings
from rentalcomply.filings.period_dates import local_today, period_ended
from rentalcomply.filings.settings import police_setting
from rentalcomply.filings.views import filing_view

log = logging.getLogger(__name__)

# A period's file takes a person's time (figures typed into a region's portal): its filing is
# announced at risk, and listed for a person, this long before its deadline.
AT_RISK_BEFORE = dt.timedelta(hours=48)
# Not yet accepted, with a deadline to meet.
OPEN = ("waiting", "queued", "sending", "polling", "ready", "held")
NEEDS_A_PERSON = ("held", "ready", "rejected", "failed")


@dataclasses.dataclass
class PeriodFile:
    """What an authority builds for a period: its files (the first is the authority's own; more
    are for a person, such as the figures as a PDF), and why it cannot be sent yet, in words."""
    files: list[tuple[str, str, bytes]]
    incomplete: list[str] = dataclasses.field(default_factory=list)

    def one(self, stem: str) -> tuple[str, str, bytes]:
        """A single download: the file alone, or a ZIP of the files."""
        if len(self.files) == 1:
            return self.files[0]
        buffer = io.BytesIO()
        with zipfile.ZipFile(buffer, "w", zipfile.ZIP_DEFLATED) as archive:
            for name, _, data in self.files:
                archive.writestr(name, data)
        return f"{stem}.zip", "application/zip", buffer.getvalue()


def view(row: Filing) -> dict:
    """A period filing as its events carry it: the filing's view with its authority, property
    and period (the filings list's fields without its signed links)."""
    return {**filing_view(row), "authority": row.authority, "booking_id": None,
            "property_id": row.property_id, "period": row.period}


def emit(row: Filing, event_type: str) -> None:
    events.emit(row.account_id, event_type, view(row))


# --- made, queued ---------------------------------------------------------------------------------

def make_owed(now: dt.datetime | None = None) -> list[str]:
    """A filing for each period a property owes (from the period's first day; a past period
    that gained a stay too), `waiting` until the period ends. Idempotent: the unique index and
    the look-up of what exists keep it one per period."""
    now = now or clock.utcnow()
    authorities = registry.period_authorities()
    if not authorities:
        return []
    countries = {a.country for a in authorities}
    existing = {(p, a, k) for p, a, k in Filing.select(Filing.property, Filing.authority,
                                                       Filing.period)
                .where(Filing.booking.is_null() & Filing.period.is_null(False)).tuples()}
    made = []
    for prop in Property.select().where((Property.status == "active")
                                        & Property.country.in_(list(countries))):
        today = local_today(prop.timezone, now)
        for authority in obligations.owed(prop):
            for period in authority.periods_owed(prop, today):
                if (prop.id, authority.name, period) in existing:
                    continue
                settings = obligations.settings_of(prop, authority.name)
                with atomic():
                    inserted = (Filing.insert(
                        id=new_id("pf"), account=prop.account_id, booking=None,
                        property=prop.id, period=period, kind=authority.period_kind,
                        authority=authority.name, status="waiting",
                        deadline=authority.period_deadline(prop, period, settings), guests=[],
                        created_at=now, updated_at=now).on_conflict_ignore().execute())
                if inserted:
                    made.append(period)
    return made


def queue_ended(now: dt.datetime | None = None) -> list[str]:
    """Queue each waiting period filing whose period has ended where its property is."""
    now = now or clock.utcnow()
    queued = []
    rows = list(Filing.select(Filing, Property).join(Property, on=(Filing.property == Property.id))
                .where(Filing.booking.is_null() & (Filing.status == "waiting")))
    for row in rows:
        if not period_ended(row.period, local_today(row.property.timezone, now)):
            continue
        with atomic():
            fresh = locked(row.id)
            if fresh is None or fresh.status != "waiting":
                continue
            save_filing(fresh, status="queued", next_attempt_at=now, error=None)
            queued.append(fresh.id)
    return queued


def due(now: dt.datetime | None = None) -> list[str]:
    now = now or clock.utcnow()
    return [fid for (fid,) in Filing.select(Filing.id).where(
        Filing.booking.is_null() & (Filing.status == "queued")
        & (Filing.next_attempt_at <= now)).order_by(Filing.deadline).tuples()]


# --- one attempt ----------------------------------------------------------------------------------

def build(row: Filing, prop: Property, authority: registry.Authority) -> PeriodFile:
    return authority.build_period(prop, row.period, obligations.settings_of(prop, authority.name))


def _keep_file(row: Filing, built: PeriodFile) -> None:
    name, content_type, data = built.one(f"{row.authority}-{row.period}")
    row.file_sealed = sealing.seal(DOCUMENT_PURPOSE + row.id, data)
    row.file_name, row.file_type = name, content_type


def attempt(filing_id: str) -> str | None:
    """One attempt of a due period filing; its status after, or None when it was not due."""
    with atomic():
        row = locked(filing_id)
        if row is None or row.status != "queued" or row.booking_id is not None \
                or (row.next_attempt_at and row.next_attempt_at > clock.utcnow()):
            return None
        prop = Property.get_by_id(row.property_id)
        try:
            authority = registry.get(row.authority)
        except KeyError:
            fail(row, f"the authority {row.authority!r} is not available in this version")
            return row.status
        lacking = obligations.missing(prop, authority)
        if lacking:
            hold(row, setup.hold_reason(lacking))
            return row.status
        try:
            built = build(row, prop, authority)
        except ValueError as exc:  # the period's data cannot make a truthful file
            hold(row, f"the {row.period} file cannot be made: {exc}")
            return row.status
        if built.incomplete:
            hold(row, "; ".join(built.incomplete))
            return row.status
        _keep_file(row, built)
        settings = obligations.settings_of(prop, authority.name)
        names = (ObligationSettings.get_or_none((ObligationSettings.property == prop.id)
                                                & (ObligationSettings.authority == authority.name)))
        if not authority.sends_online(prop, settings, list(names.credential_names or []) if names else []):
            save_filing(row, status="ready", error=None, held_reason=None, next_attempt_at=None)
            emit(row, "filing.ready")
            return row.status
        credentials = obligations.credentials_of(prop, authority.name)
        data = sealing.unseal(DOCUMENT_PURPOSE + row.id, row.file_sealed)
        save_filing(row, status="sending", sending_since=clock.utcnow(), attempts=row.attempts + 1)
    timeout = float(police_setting("timeout_seconds", 30))
    try:
        outcome, failure = authority.send_period(prop, row.period, settings, credentials, data,
                                                 timeout), None
    except (TransientError, AuthError, PermanentError) as exc:
        outcome, failure = None, exc
    except Exception as exc:  # a bug must not leave the row sending
        log.exception("period filing %s: the authority's sending failed", filing_id)
        outcome, failure = None, TransientError(f"internal error: {exc.__class__.__name__}")
    with atomic():
        row = locked(filing_id)
        if row.status != "sending":
            return row.status
        row.sending_since = None
        if failure is None:
            record(row, outcome)
        elif isinstance(failure, AuthError):
            fail(row, f"{setup.REFUSED_CREDENTIALS}: {failure}. Check the transmission user and "
                      "password the tourism office gave, then file again.")
        elif isinstance(failure, PermanentError):
            save_filing(row, status="rejected", error=str(failure)[:2000], next_attempt_at=None)
            emit(row, "filing.rejected")
        else:
            retry_or_fail(row, str(failure))
    return row.status


def record(row: Filing, outcome: Outcome) -> None:
    """The authority's answer: each guest's kept on `guests` (accepted or refused, why)."""
    guests = [{"index": g.index, "accepted": g.accepted, "code": g.code, "message": g.message}
              for g in outcome.guests]
    refused = [g for g in guests if not g["accepted"]]
    if outcome.state == "submitted" and not refused:
        save_filing(row, status="submitted", submitted_at=clock.utcnow(), guests=guests,
                    reference=outcome.reference, error=None, held_reason=None,
                    next_attempt_at=None)
        emit(row, "filing.submitted")
        return
    summary = "; ".join(f"guest {g['code']} refused: {g['message'] or 'no reason given'}"
                        for g in refused) or "refused by the authority"
    save_filing(row, status="rejected", guests=guests, reference=outcome.reference,
                error=(f"{len(refused)} guest(s) refused. {summary}. Correct the check-in, then "
                       "file again: the month is sent again with the same guest ids.")[:2000],
                next_attempt_at=None)
    emit(row, "filing.rejected")


def hold(row: Filing, reason: str) -> None:
    save_filing(row, status="held", held_reason=reason[:2000], error=None, next_attempt_at=None)
    emit(row, "filing.held")


def fail(row: Filing, reason: str) -> None:
    save_filing(row, status="failed", error=reason[:2000], next_attempt_at=None,
                sending_since=None)
    log.warning("period filing %s (%s, %s) failed", row.id, row.authority, row.period)
    emit(row, "filing.failed")


def retry_or_fail(row: Filing, reason: str) -> None:
    now = clock.utcnow()
    delay = dt.timedelta(seconds=police_setting("retry_seconds", 120) * 2 ** max(row.attempts - 1, 0))
    if row.attempts >= police_setting("max_attempts", 8):
        fail(row, f"{reason} (after {row.attempts} attempts)")
        return
    save_filing(row, status="queued", next_attempt_at=now + delay, error=reason[:2000])


def recover_interrupted(now: dt.datetime | None = None) -> list[str]:
    """Rows left `sending` by a crash: queued again (each guest goes by its immutable id, so a
    second sending corrects what the first may have filed, never files twice)."""
    now = now or clock.utcnow()
    limit = now - dt.timedelta(seconds=float(police_setting("timeout_seconds", 30)) * 4 + 60)
    recovered = []
    for (filing_id,) in Filing.select(Filing.id).where(
            Filing.booking.is_null() & (Filing.status == "sending")
            & (Filing.sending_since < limit)).tuples():
        with atomic():
            row = locked(filing_id)
            if row is not None and row.status == "sending":
                save_filing(row, status="queued", sending_since=None, next_attempt_at=now)
                recovered.append(filing_id)
    return recovered


def announce_at_risk(now: dt.datetime | None = None) -> list[str]:
    """`filing.at_risk`, once per period filing not yet accepted whose deadline is within
    AT_RISK_BEFORE (or passed)."""
    now = now or clock.utcnow()
    announced = []
    for (filing_id,) in Filing.select(Filing.id).where(
            Filing.booking.is_null() & Filing.status.in_(OPEN) & Filing.at_risk_at.is_null()
            & (Filing.deadline <= now + AT_RISK_BEFORE)).tuples():
        with atomic():
            row = locked(filing_id)
            if row is None or row.at_risk_at is not None or row.status not in OPEN:
                continue
            save_filing(row, at_risk_at=now)
            emit(row, "filing.at_risk")
            announced.append(filing_id)
    return announced


def run_due(now: dt.datetime | None = None) -> dict[str, int]:
    """The period filings' part of the worker's minute (sweep.run_due)."""
    made = make_owed(now)
    queued = queue_ended(now)
    recovered = recover_interrupted(now)
    attempted = [attempt(fid) for fid in due(now)]
    at_risk = announce_at_risk(now)
    return {"periods_made": len(made), "periods_queued": len(queued),
            "periods_recovered": len(recovered),
            "periods_attempted": sum(1 for a in attempted if a), "periods_at_risk": len(at_risk)}


def work_waiting() -> bool:
    return bool(due())


# --- what a person does and sees ------------------------------------------------------------------

def preview(row: Filing) -> tuple[str, str, bytes]:
    """The period's file as it would be built now, with the figures so far."""
    prop = Property.get_by_id(row.property_id)
    try:
        authority = registry.get(row.authority)
    except KeyError:
        raise PoliceNotReady(f"The authority {row.authority} is not available in this version.")
    try:
        built = build(row, prop, authority)
    except ValueError as exc:
        raise PoliceNotReady(f"The {row.period} file cannot be made yet: {exc}")
    return built.one(f"{row.authority}-{row.period}")


REFILABLE = ("rejected", "failed", "held", "ready")


def refile(row: Filing) -> None:
    """File again (the host corrected a check-in or the set-up): queued once the period has
    ended, else waiting for its end. Call inside a transaction."""
    if row.status not in REFILABLE:
        raise PoliceNotReady(f"Nothing to file again: the filing is {row.status}.")
    prop = Property.get_by_id(row.property_id)
    ended = period_ended(row.period, local_today(prop.timezone))
    save_filing(row, status="queued" if ended else "waiting", attempts=0,
                next_attempt_at=clock.utcnow() if ended else None, error=None, held_reason=None,
                sending_since=None)
    events.wake_after_commit()


def mark_filed(row: Filing, reference: str | None) -> None:
    """The host uploaded or typed the period's file in: submitted. Call inside a transaction."""
    if row.status == "submitted":
        raise PoliceNotReady("The filing is already submitted.")
    if row.status != "ready":
        raise PoliceNotReady(f"No file awaits upload: the filing is {row.status}.")
    save_filing(row, status="submitted", submitted_at=clock.utcnow(), reference=reference,
                error=None)
    emit(row, "filing.submitted")


def needing_a_person(account_id: str, now: dt.datetime | None = None) -> list[Filing]:
    """The account's period filings a person must see to (Today, the morning e-mail): held,
    ready to upload, refused or failed, or not done with the deadline within AT_RISK_BEFORE;
    each with its `property` joined, the nearest deadline first."""
    now = now or clock.utcnow()
    return list(Filing.select(Filing, Property).join(Property, on=(Filing.property == Property.id))
                .where((Filing.account == account_id) & Filing.booking.is_null()
                       & (Filing.status.in_(NEEDS_A_PERSON)
                          | (Filing.status.in_(OPEN) & (Filing.deadline <= now + AT_RISK_BEFORE))))
                .order_by(Filing.deadline, Filing.id).limit(100))

