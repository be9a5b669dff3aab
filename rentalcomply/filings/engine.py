"""The filing engine's state machine: one attempt of a due filing, its outcome recorded, retries,
holds and the recovery of an interrupted call. It knows no authority: it asks the registry.

A booking's `report_status` follows its guests' registration (the `arrival` filing):

    NOT_REQUIRED (connector `none`)
    PENDING   until check-in completes
    QUEUED    a filing is due or being retried (or, `file` connector, its file awaits the host)
    SUBMITTED the authority accepted every guest (or the host marked the file filed)
    REJECTED  the authority refused guests: their reasons are kept per guest; the host fixes the
              data (guests API or page) and re-files; guests already accepted are not sent again
    FAILED    retries exhausted, credentials refused, or an interrupted submission whose outcome
              is unknown: a person must act

One `Filing` row per booking and kind (`arrival`; `departure` for Portugal; `cancellation`,
`reservation` and `rh_cancellation` for Spain) holds the deadline, the attempts, the outcome per
guest, the authority's reference and the receipt (sealed, like the guest data).

Idempotency: the row is marked `sending` and committed before the call to the authority, and
its outcome is recorded after; a retry never sends a guest the authority already accepted. A
row found `sending` after a restart (older than the call's timeout) is an interrupted call:
connectors that can ask the authority (a `recover` method) are asked; the others (Alloggiati
Web has no idempotency key) are FAILED with a reason telling the host to check the day's receipt
before re-filing, rather than risking a second filing.
"""

from __future__ import annotations

import datetime as dt
import logging
from typing import Any

from peewee import fn

from rentalcomply.bookings.service import booking_view
from rentalcomply.core import clock, events, sealing
from rentalcomply.core.db import atomic, db
from rentalcomply.core.ids import new_id
from rentalcomply.core.models import Booking, Property
from rentalcomply.filings import registry, setup
from rentalcomply.filings.connector import (AuthError, FilingRef, GuestOutcome, Outcome,
                                            PermanentError, TransientError, UncertainError)
from rentalcomply.filings.deadlines import deadline
from rentalcomply.filings.models import Filing, PoliceAlert
from rentalcomply.filings.party import guests_of, stay_of
from rentalcomply.filings.settings import credentials_for, police_setting, settings_for_property
from rentalcomply.filings.views import filing_view

log = logging.getLogger(__name__)

FILING_STATUSES = ("waiting", "queued", "sending", "polling", "ready", "submitted", "rejected",
                   "failed", "held")
KINDS = ("arrival", "departure", "cancellation", "reservation", "rh_cancellation")
REFERENCE_MAX = 200
DOCUMENT_PURPOSE = "police-document:"


def filing_row(booking: Booking, prop: Property, kind: str = "arrival") -> Filing:
    row = Filing.get_or_none((Filing.booking == booking.id) & (Filing.kind == kind))
    if row is None:
        now = clock.utcnow()
        (Filing.insert(id=new_id("pf"), account=booking.account_id, booking=booking.id,
                       property=booking.property_id, kind=kind, authority=prop.police_connector, status="waiting",
                             deadline=deadline(prop, booking, kind), guests=[], created_at=now,
                             updated_at=now)
         .on_conflict_ignore().execute())
        row = Filing.get((Filing.booking == booking.id) & (Filing.kind == kind))
    return row


def save_booking(booking: Booking, **changes) -> None:
    changed = {k: v for k, v in changes.items() if getattr(booking, k) != v}
    if changed:
        for key, value in changed.items():
            setattr(booking, key, value)
        booking.updated_at = clock.utcnow()
        booking.save()


def save_filing(row: Filing, **changes) -> None:
    for key, value in changes.items():
        setattr(row, key, value)
    row.updated_at = clock.utcnow()
    row.save()


def emit(booking: Booking, event_type: str, row: Filing) -> None:
    events.emit(booking.account_id, event_type,
                {**booking_view(booking), "police": filing_view(row)})


def locked(filing_id: str) -> Filing | None:
    """The filing, its row locked until the transaction ends where the database has row locks
    (PostgreSQL: two workers never both mark it `sending`; SQLite's write transactions already
    run one at a time)."""
    query = Filing.select().where(Filing.id == filing_id)
    if db.obj.for_update:
        query = query.for_update()
    return query.first()


def attempt(filing_id: str) -> str | None:
    """One attempt of a due filing; returns its status after, or None when it was not due.
    Safe to call twice at once: the `sending` mark is taken in a write transaction."""
    with atomic():
        row = locked(filing_id)
        if row is None or row.status not in ("queued", "polling") \
                or (row.next_attempt_at and row.next_attempt_at > clock.utcnow()):
            return None
        booking = Booking.get_by_id(row.booking_id)
        prop = Property.get_by_id(booking.property_id)
        authority = registry.of_country(prop.country)
        # A cancelled booking files nothing more, but a batch already sent is still asked about:
        # if the authority took it, it must be cancelled there too (the authority's queue_work).
        if booking.status == "cancelled" and row.kind != "cancellation" and row.status != "polling":
            save_filing(row, status="failed", error="the booking was cancelled before filing",
                        next_attempt_at=None)
            if booking.report_status in ("PENDING", "QUEUED"):
                save_booking(booking, report_status="NOT_REQUIRED", report_error=None)
            return row.status
        connector_name = row.authority
        try:
            connector = registry.connector(connector_name)
        except (KeyError, ImportError):
            fail(booking, row, f"the police connector {connector_name!r} is not available")
            return row.status
        # An authority no connector files with yet (the Ertzaintza): held, in words saying where
        # the host files it by hand; the host marks it filed (host.mark_filed).
        by_hand = registry.hand_entry_reason(connector_name)
        if by_hand and row.status != "polling":
            hold(booking, row, by_hand, side=row.kind in authority.side_kinds)
            return row.status
        # Nothing can be sent without the authority's set-up (codes, credentials): held, saying
        # what is missing, and sent once it is set (setup.release_setup_holds). A poll asks
        # about a batch already taken: it is never turned into a new submission.
        lacking = setup.missing(prop, connector_name) if row.status != "polling" else []
        if lacking:
            hold(booking, row, setup.hold_reason(lacking),
                 side=row.kind in authority.side_kinds)
            return row.status
        stay = stay_of(booking, prop)
        try:
            side = authority.party_for(row, booking)
            if side is None:
                guests = guests_of(booking, prop.country)
            else:  # a side filing (a reservation: its holder alone; a cancellation names no one)
                guests, reason = side
                if guests is None:  # held, saying why; at risk before its deadline
                    save_filing(row, status="waiting", error=reason, next_attempt_at=None)
                    return row.status
        except sealing.Unsealable:
            fail(booking, row, "the guest data cannot be read (erased, or the server secret "
                               "changed)")
            return row.status
        # Guests the authority already accepted are never sent again.
        accepted = {g["index"] for g in row.guests or [] if g.get("accepted")}
        to_send = [g for g in guests if g.index not in accepted]
        polling = row.status == "polling"
        remote_id = row.remote_id
        if row.kind in authority.cancellation_kinds and not polling:
            # What a cancellation cancels: the codes the authority gave the filings it cancels.
            # They are read here, never kept in the row's remote_id, which holds only our own
            # batch id (so an interrupted submission is never mistaken for a batch to poll).
            remote_id = authority.cancelled_reference(row, booking)
            if remote_id is None:
                fail(booking, row, "nothing to cancel: the arrival filing has no code of the "
                                   "authority")
                return row.status
        filing = FilingRef(id=row.id, kind=row.kind, attempt=row.attempts + 1, remote_id=remote_id)
        settings = settings_for_property(prop)
        if connector_name == "file" or getattr(connector, "uploaded_by_host", False):
            return _build_file(booking, prop, row, connector, settings, stay, guests, filing)
        if not polling:
            problem = _local_problems(authority, connector, settings, stay, to_send, filing)
            if isinstance(problem, str):
                hold(booking, row, problem)
                return row.status
            if problem is not None:
                record(booking, prop, row, problem)
                return row.status
        credentials = credentials_for(prop)
        save_filing(row, status="sending", sending_since=clock.utcnow(),
                    attempts=row.attempts + 1)
    # Committed: from here a crash leaves the row `sending` (see recover_interrupted).
    timeout = float(police_setting("timeout_seconds", 30))
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
        row = locked(filing_id)
        booking = Booking.get_by_id(row.booking_id)
        if row.status != "sending":  # recovered meanwhile: that decision stands
            return row.status
        row.sending_since = None
        if failure is None:
            record(booking, prop, row, outcome)
        elif isinstance(failure, UncertainError):
            fail(booking, row, str(failure))
        elif isinstance(failure, AuthError):
            fail(booking, row, f"{setup.REFUSED_CREDENTIALS}: {failure}")
        elif isinstance(failure, PermanentError):
            record(booking, prop, row, Outcome(state="rejected"), reason=str(failure))
        else:
            retry_or_fail(booking, row, str(failure), polling)
    return row.status


def hold(booking: Booking, row: Filing, reason: str, *, side: bool = False) -> None:
    """Nothing is filed: the row waits (`held`, saying why) until the code tables are loaded
    (release_held), the set-up is completed (setup.release_setup_holds) or the host files again;
    the booking stays QUEUED with the reason (a side filing, such as Spain's reservation, leaves
    the booking's own status alone), and police.at_risk comes before the deadline as for any
    filing not done."""
    save_filing(row, status="held", held_reason=reason[:2000], error=None, next_attempt_at=None)
    if not side:
        save_booking(booking, report_status="QUEUED", report_error=reason[:2000])


def release_held() -> list[str]:
    """Queue again every held filing (the code tables were just loaded: called in that
    transaction, through the signal codes.TABLES_LOADED)."""
    released = []
    for row in list(Filing.select().where((Filing.status == "held")
                                          & Filing.booking.is_null(False))):
        save_filing(row, status="queued", next_attempt_at=clock.utcnow(), error=None,
                    held_reason=None)
        released.append(row.id)
    return released


# How an earlier version, whose shipped tables were a starter set, held a filing. This version
# ships the authorities' whole tables and never writes that reason, so a filing held so is tried
# once more after an upgrade (held again, naming the value, if it still cannot be coded).
STARTER_HOLD = "has no code in the starter code tables"


def release_starter_holds() -> list[str]:
    """Queue again the filings an earlier version held for its starter tables (the worker, every
    ten minutes with the code tables' refresh: tasks.py)."""
    released = []
    with atomic():
        for row in list(Filing.select().where((Filing.status == "held")
                                              & Filing.booking.is_null(False)
                                              & Filing.held_reason.contains(STARTER_HOLD))):
            save_filing(row, status="queued", next_attempt_at=clock.utcnow(), error=None,
                        held_reason=None)
            released.append(row.id)
    if released:
        log.info("police: %d filing(s) held for the former starter tables queued again",
                 len(released))
    return released


def _local_problems(authority, connector, settings, stay, guests, filing=None) -> Outcome | str | None:
    """Refusals we can tell before sending (a birthplace without a code...): per guest; or the
    reason to hold the filing (a str) while a code table is not the authority's whole one."""
    lines = getattr(connector, "lines", None)
    document = getattr(connector, "document", None)
    if lines is None and document is not None and filing is not None:
        try:
            document(settings, stay, guests, filing)
        except ValueError as exc:  # the connector refuses the rest itself, per guest
            return authority.hold_reason(exc)
        except Exception:  # nor is anything else judged here
            return None
        return None
    if lines is None:
        return None
    try:
        lines(settings, stay, guests)
    except ValueError as exc:  # a record error: (guest index, field, message) per problem
        problems = getattr(exc, "problems", None)
        if problems is None:
            raise
        held = authority.hold_reason(exc)
        if held:
            return held
        by_guest: dict[int, list[str]] = {}
        for index, field, message in problems:
            by_guest.setdefault(index, []).append(f"{field} {message}")
        return Outcome(state="rejected", guests=[
            GuestOutcome(index=i, accepted=False, code="LOCAL", message="; ".join(m))
            for i, m in sorted(by_guest.items())])
    return None


def _build_file(booking, prop, row, connector, settings, stay, guests, filing) -> str:
    try:
        name, content_type, data = connector.build_file(settings, stay, guests, filing)
    except PermanentError as exc:
        fail(booking, row, str(exc))
        return row.status
    except ValueError as exc:  # a record error: what the host must fix
        # The authority whose file it is (a Catalan property's: the Mossos', whatever connector).
        held = registry.of_region(prop.country, prop.region).hold_reason(exc)
        if held:
            hold(booking, row, held)
            return row.status
        fail(booking, row, f"the file cannot be built: {exc}", event_type="police.rejected",
             status="rejected", report_status="REJECTED")
        return row.status
    save_filing(row, status="ready", attempts=row.attempts + 1, next_attempt_at=None,
                file_sealed=sealing.seal(DOCUMENT_PURPOSE + row.id, data), file_name=name,
                file_type=content_type, error=None)
    return row.status


def record(booking: Booking, prop: Property, row: Filing, outcome: Outcome,
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
        save_filing(row, **changes)
        return
    if outcome.state == "submitted":
        changes.update(status="submitted", submitted_at=now, error=None)
        save_filing(row, **changes)
        authority = registry.of_country(prop.country)
        if row.kind in authority.side_kinds:
            authority.accepted(booking, prop, row)  # the side filing's part of the booking
            emit(booking, "police.submitted", row)
            return
        if row.kind == "arrival" or booking.report_status != "SUBMITTED":
            save_booking(booking, report_status="SUBMITTED", report_error=None)
        emit(booking, "police.submitted", row)
        authority.accepted(booking, prop, row)  # what follows it (Portugal: the departure)
        return
    refused = [g for g in changes["guests"] if not g["accepted"]]
    summary = reason or "; ".join(
        f"guest {g['index'] + 1}: " + " ".join(p for p in (g.get("code"), g.get("message")) if p)
        for g in refused) or "refused by the authority"
    changes.update(status="rejected", error=summary[:2000])
    save_filing(row, **changes)
    save_booking(booking, report_status="REJECTED", report_error=summary[:2000])
    emit(booking, "police.rejected", row)
    alert_owners(booking.account_id)


def alert_owners(account_id: str) -> None:
    """A refusal or a failure: the account's owners are e-mailed at once, after the commit, at
    most once an hour (dashboard/police_alerts.py reads this mark)."""
    (PoliceAlert.insert(account=account_id, pending_since=clock.utcnow())
     .on_conflict(conflict_target=[PoliceAlert.account],
                  update={PoliceAlert.pending_since: fn.COALESCE(PoliceAlert.pending_since,
                                                                 clock.utcnow())})
     .execute())


def fail(booking: Booking, row: Filing, reason: str, *, event_type: str = "police.failed",
         status: str = "failed", report_status: str = "FAILED") -> None:
    save_filing(row, status=status, error=reason[:2000], next_attempt_at=None, sending_since=None)
    save_booking(booking, report_status=report_status, report_error=reason[:2000])
    emit(booking, event_type, row)
    if status == "failed":  # a refusal's reason may quote guest data: it stays out of the log
        # The connector's own words, for whoever reads the log; pages say a sentence in their
        # language (dashboard/pages/police.py).
        log.warning("police filing %s (%s, %s) failed: %s", row.id, row.kind, row.authority,
                    reason[:500])
    alert_owners(booking.account_id)


def retry_or_fail(booking: Booking, row: Filing, reason: str, polling: bool) -> None:
    """Another attempt later, unless attempts are spent or the next one would come too close
    to the deadline: then FAILED now, announced while a person can still file by hand."""
    now = clock.utcnow()
    delay = dt.timedelta(seconds=police_setting("retry_seconds", 120) * 2 ** max(row.attempts - 1, 0))
    margin = dt.timedelta(minutes=police_setting("fail_before_deadline_minutes", 60))
    next_at = now + delay
    if row.attempts >= police_setting("max_attempts", 8) or next_at > row.deadline - margin:
        fail(booking, row, f"{reason} (after {row.attempts} attempts)")
        return
    save_filing(row, status="polling" if polling else "queued", next_attempt_at=next_at,
                error=reason[:2000])
    save_booking(booking, report_error=f"attempt {row.attempts} failed: {reason}"[:2000])


def recover_interrupted(now: dt.datetime | None = None) -> list[str]:
    """Rows left `sending` by a crash (older than a call can last): ask the connector when it
    can tell (a `recover(credentials, settings, filing, timeout)` method answering an Outcome,
    or None when it cannot tell), else FAILED: never sent twice."""
    now = now or clock.utcnow()
    limit = now - dt.timedelta(seconds=float(police_setting("timeout_seconds", 30)) * 4 + 60)
    recovered = []
    stale = [fid for (fid,) in Filing.select(Filing.id).where(
        (Filing.status == "sending") & (Filing.sending_since < limit)
        & Filing.booking.is_null(False)).tuples()]  # a period filing's: periods.py
    for filing_id in stale:
        with atomic():
            row = locked(filing_id)
            if row is None or row.status != "sending":
                continue
            booking = Booking.get_by_id(row.booking_id)
            prop = Property.get_by_id(booking.property_id)
            outcome = None
            try:
                connector = registry.connector(row.authority)
                recover = getattr(connector, "recover", None)
                if recover is not None:
                    outcome = recover(credentials_for(prop), settings_for_property(prop),
                                      FilingRef(id=row.id, kind=row.kind, attempt=row.attempts,
                                                remote_id=row.remote_id),
                                      float(police_setting("timeout_seconds", 30)))
            except Exception:
                outcome = None
            row.sending_since = None
            if outcome is not None:
                record(booking, prop, row, outcome)
            elif row.remote_id:  # it was a poll of a submission already taken: poll again
                save_filing(row, status="polling", next_attempt_at=clock.utcnow())
            else:
                fail(booking, row, "a submission was interrupted before its answer arrived: it "
                                   "may have been accepted. Check the authority's receipt "
                                   "before filing again.")
            recovered.append(filing_id)
    return recovered
