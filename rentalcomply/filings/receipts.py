"""The authorities' daily receipts: Alloggiati Web gives, through `Ricevuta(date)`, the receipt
PDF of every line a web-service account filed that day, which the host must keep five years
(../docs/police.md). The receipt fetched right after a `Send` (kept on the filing, engine.py) is
the day so far; the one kept here is the whole day's, asked once the day has ended on the
authority's clock (`Authority.daily_receipt_zone`).

- `schedule_due` makes one `PoliceReceipt` per (property, authority, day) that had filings the
  authority accepted, linked to them, pending;
- `fetch_due` asks the connector for each pending one that is due, outside any transaction, and
  keeps the PDF sealed (core/sealing.py); a failure is retried later with a growing delay, and
  after `MAX_ATTEMPTS` the receipt is `failed` (the host fetches it from the authority's site).
  Filing never waits for any of this: it runs in its own task on the ordinary queue;
- `erase_past` erases the receipts past the police receipts' retention (retention.py).

Idempotent: the unique (property, authority, day) makes one row; only a pending row is fetched,
and a row another process fetched meanwhile is not written again.
"""

from __future__ import annotations

import datetime as dt
import logging
from zoneinfo import ZoneInfo

from peewee import fn

from rentalcomply.checkin.retention import Retention
from rentalcomply.core import clock, ids, sealing, signed_links
from rentalcomply.core.db import atomic, db
from rentalcomply.core.errors import NotFound
from rentalcomply.core.models import Booking, Property
from rentalcomply.filings import registry
from rentalcomply.filings.connector import AuthError, PermanentError, TransientError
from rentalcomply.filings.models import Filing, PoliceReceipt, PoliceReceiptFiling
from rentalcomply.filings.settings import credentials_for, police_setting, settings_for_property

log = logging.getLogger(__name__)

SEAL_PURPOSE = "police-receipt:"
# Receipts of filings older than this are not asked for: after an upgrade, or a long outage,
# the authority's older receipts are the host's to fetch (Alloggiati keeps them a limited time).
LOOK_BACK = dt.timedelta(days=30)
MAX_ATTEMPTS = 12
FIRST_DELAY = dt.timedelta(minutes=10)
LONGEST_DELAY = dt.timedelta(hours=12)
BATCH = 50


def _daily_authorities() -> dict[str, ZoneInfo]:
    return {a.name: ZoneInfo(a.daily_receipt_zone) for a in registry.authorities()
            if a.daily_receipt_zone}


def _local_day(moment: dt.datetime, zone: ZoneInfo) -> dt.date:
    return moment.replace(tzinfo=dt.timezone.utc).astimezone(zone).date()


def seal_purpose(row: PoliceReceipt) -> str:
    return f"{SEAL_PURPOSE}{row.account_id}/{row.id}"


def backoff(attempts: int) -> dt.timedelta:
    return min(FIRST_DELAY * (2 ** max(attempts - 1, 0)), LONGEST_DELAY)


def schedule_due() -> int:
    """Make the receipts owed for the days that have ended, and link each day's filings. How
    many were made."""
    zones = _daily_authorities()
    if not zones:
        return 0
    now = clock.utcnow()
    made = 0
    # A filing the authority accepted that day (every guest, or some: those lines are on the
    # receipt), not linked since its last change: one re-filed a later day joins that day too.
    linked = (PoliceReceiptFiling.select(PoliceReceiptFiling.filing)
              .where((PoliceReceiptFiling.filing == Filing.id)
                     & (PoliceReceiptFiling.linked_at >= Filing.updated_at)))
    candidates = (Filing.select(Filing.id, Filing.account, Filing.authority, Filing.status,
                                Filing.guests, Filing.submitted_at, Filing.updated_at,
                                Booking.property.alias("prop_id"))
                  .join(Booking, on=(Filing.booking == Booking.id))
                  .where(Filing.authority.in_(list(zones))
                         & Filing.status.in_(("submitted", "rejected"))
                         & (Filing.updated_at > now - LOOK_BACK) & ~fn.EXISTS(linked))
                  .objects())
    for filing in candidates:
        if filing.status == "rejected" and not any(g.get("accepted") for g in filing.guests or []):
            continue  # nothing of it was accepted: no receipt lists it
        zone = zones[filing.authority]
        day = _local_day(filing.submitted_at or filing.updated_at, zone)
        if day >= _local_day(now, zone):
            continue  # the day has not ended: its receipt is not whole yet
        prop = Property.get_by_id(filing.prop_id)
        with atomic():
            row = PoliceReceipt.get_or_none((PoliceReceipt.property == prop.id)
                                            & (PoliceReceipt.authority == filing.authority)
                                            & (PoliceReceipt.day == day))
            if row is None:
                row = PoliceReceipt.create(
                    id=ids.new_id("prc"), account=filing.account_id, property=prop.id,
                    authority=filing.authority, day=day,
                    account_user=str(credentials_for(prop).get("user") or "")[:100],
                    next_attempt_at=now)
                made += 1
            (PoliceReceiptFiling.insert(receipt=row.id, filing=filing.id, linked_at=now)
             .on_conflict(conflict_target=[PoliceReceiptFiling.receipt, PoliceReceiptFiling.filing],
                          update={PoliceReceiptFiling.linked_at: now}).execute())
    return made


def fetch_due(limit: int = BATCH) -> dict[str, int]:
    """Fetch the pending receipts that are due: {"kept": n, "retried": n, "failed": n}."""
    now = clock.utcnow()
    done = {"kept": 0, "retried": 0, "failed": 0}
    due = list(PoliceReceipt.select(PoliceReceipt.id)
               .where((PoliceReceipt.status == "pending") & (PoliceReceipt.next_attempt_at <= now))
               .order_by(PoliceReceipt.next_attempt_at).limit(limit))
    for found in due:
        done[fetch(found.id)] += 1
    return done


def fetch(receipt_id: str) -> str:
    """Ask the authority for one receipt: "kept", "retried" or "failed". Two runs asking at
    once (a run longer than the quarter hour) cost one more `Ricevuta`; only the first answer
    is written."""
    row = PoliceReceipt.get_by_id(receipt_id)
    prop = Property.get_by_id(row.property_id)
    connector = registry.get(row.authority).connector()
    timeout = float(police_setting("timeout_seconds", 30))
    try:
        # Outside any transaction: a slow authority holds no lock.
        data = connector.fetch_receipt(credentials_for(prop), settings_for_property(prop),
                                       row.day, timeout)
        failure = None
    except (TransientError, AuthError, PermanentError) as exc:
        data, failure = None, str(exc)
    except Exception as exc:  # a connector bug is retried like an outage, and logged once
        log.exception("police receipt %s: the connector failed", receipt_id)
        data, failure = None, f"internal error in the connector: {exc.__class__.__name__}"
    now = clock.utcnow()
    with atomic():
        query = PoliceReceipt.select().where(PoliceReceipt.id == receipt_id)
        row = (query.for_update() if db.obj.for_update else query).first()
        if row is None:  # its property was deleted meanwhile
            return "failed"
        if row.status != "pending":  # another process kept it meanwhile
            return "kept" if row.status == "kept" else "failed"
        attempts = row.attempts + 1
        if failure is None:
            PoliceReceipt.update(status="kept", attempts=attempts, next_attempt_at=None,
                                 error=None, pdf_sealed=sealing.seal(seal_purpose(row), data),
                                 content_type="application/pdf", fetched_at=now,
                                 updated_at=now).where(PoliceReceipt.id == row.id).execute()
            return "kept"
        failed = attempts >= MAX_ATTEMPTS
        PoliceReceipt.update(status="failed" if failed else "pending", attempts=attempts,
                             next_attempt_at=None if failed else now + backoff(attempts),
                             error=failure[:2000], updated_at=now).where(
            PoliceReceipt.id == row.id).execute()
    # The error is the service's answer or ours: never guest data.
    log.info("police receipt %s of %s: %s (attempt %d)", row.id, row.day, failure, attempts)
    return "failed" if failed else "retried"


def erase_past(retention: Retention | int) -> int:
    """Delete the receipts whose day, and every stay they acknowledge, are past the retention of
    their property's country (the police receipts' retention, retention.py). How many."""
    retention = Retention.of(retention)
    today = clock.today()
    erased = 0
    # No country keeps less than the shortest period: older rows are the only candidates.
    shortest = min([retention.default_days] + [365 * y - 1 for y in retention.years.values()])
    oldest = (PoliceReceipt.select(PoliceReceipt, Property.country)
              .join(Property, on=(PoliceReceipt.property == Property.id))
              .where(PoliceReceipt.day < today - dt.timedelta(days=shortest))
              .order_by(PoliceReceipt.day).limit(500).objects())
    for row in oldest:
        cutoff = retention.cutoff(row.country, today)
        if row.day >= cutoff:
            continue
        latest = (Booking.select(Booking.departure_date)
                  .join(Filing, on=(Filing.booking == Booking.id))
                  .join(PoliceReceiptFiling, on=(PoliceReceiptFiling.filing == Filing.id))
                  .where(PoliceReceiptFiling.receipt == row.id)
                  .order_by(Booking.departure_date.desc()).first())
        # Kept as long as the stay it acknowledges is (the setting counts from the departure).
        if latest is not None and latest.departure_date >= cutoff:
            continue
        erased += PoliceReceipt.delete().where(PoliceReceipt.id == row.id).execute()
    return erased


# --- what the host downloads -------------------------------------------------------------------

LINK_PURPOSE = "police-receipt"


def _link_fields(account_id: str, receipt_id: str) -> dict[str, str]:
    return {"account": account_id, "receipt": receipt_id}


def filename(row: PoliceReceipt) -> str:
    return f"ricevuta-{row.authority}-{row.day.isoformat()}.pdf"


def of_booking(booking_id: str) -> list[PoliceReceipt]:
    """The day receipts acknowledging the booking's filings, oldest day first."""
    return list(PoliceReceipt.select().distinct()
                .join(PoliceReceiptFiling, on=(PoliceReceiptFiling.receipt == PoliceReceipt.id))
                .join(Filing, on=(PoliceReceiptFiling.filing == Filing.id))
                .where(Filing.booking == booking_id)
                .order_by(PoliceReceipt.day, PoliceReceipt.id))


def mint(settings, account_id: str, receipt_id: str) -> tuple[str, dt.datetime]:
    query, expires_at = signed_links.mint(LINK_PURPOSE, _link_fields(account_id, receipt_id),
                                          settings.police.link_lifetime_seconds)
    return (f"{settings.server.public_url}/files/police-receipts/{account_id}/{receipt_id}?"
            + "&".join(f"{k}={v}" for k, v in query.items())), expires_at


def download_link(settings, account_id: str, receipt_id: str) -> str:
    """A fresh signed link of a kept receipt of the account. NotFound otherwise."""
    row = PoliceReceipt.get_or_none((PoliceReceipt.id == receipt_id)
                                    & (PoliceReceipt.account == account_id))
    if row is None or row.status != "kept" or not row.pdf_sealed:
        raise NotFound("No such receipt is kept.")
    return mint(settings, account_id, receipt_id)[0]


def booking_receipts(settings, account_id: str, booking: Booking) -> list[dict]:
    """Each receipt of the booking's filings, a kept one with a fresh one-hour signed link."""
    shown = []
    for row in of_booking(booking.id):
        link = {"download_url": None, "expires_at": None}
        if row.status == "kept" and row.pdf_sealed:
            url, expires_at = mint(settings, account_id, row.id)
            link = {"download_url": url, "expires_at": clock.iso(expires_at)}
        shown.append({"id": row.id, "date": row.day.isoformat(), "authority": row.authority,
                      "status": row.status, "fetched_at": clock.iso(row.fetched_at)
                      if row.fetched_at else None, "error": row.error,
                      "filename": filename(row), **link})
    return shown


def read(account_id: str, receipt_id: str) -> tuple[bytes, str]:
    """The receipt's PDF (unsealed) and its name; NotFound for another account's or one not
    kept (fetched yet, or erased by the retention)."""
    row = PoliceReceipt.get_or_none((PoliceReceipt.id == receipt_id)
                                    & (PoliceReceipt.account == account_id))
    if row is None or row.status != "kept" or not row.pdf_sealed:
        raise NotFound("No such receipt is kept.")
    return sealing.unseal(seal_purpose(row), row.pdf_sealed), filename(row)


def open_signed(account_id: str, receipt_id: str, query: dict) -> tuple[bytes, str]:
    signed_links.check(LINK_PURPOSE, _link_fields(account_id, receipt_id), query)
    return read(account_id, receipt_id)
