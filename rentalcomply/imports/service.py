"""Importing a channel's reservations export: read, plan, and (unless a dry run) apply.

The file is read and planned with no transaction open (reading within the import limits,
limits.py; planning with a few reads): a file that cannot be read changes nothing, and whatever
it holds, no other account waits on it. The plan is then applied in batches, each one short
transaction (SQLite has one write lock for the whole database: issue 35 saw an 8,000-row file
keep every other account's writes waiting a minute). A row that the bookings refuse when it is
applied (they changed since the plan) becomes a conflict saying why; the others are applied.
Should the process stop midway, the batches applied stay: importing the file again finishes
it, the rows already applied being `unchanged`. A dry run only plans. The plan's digest lets a
preview be applied exactly as shown: the dashboard sends it back with the (sealed) file, and an
apply whose plan came out different is refused (see PlanChanged).

Bookings are created through bookings.batch (a batch's new bookings in one statement, each
checked as bookings.service checks one) and changed through bookings.service, so that
`booking.created` and `booking.updated` go out and everything listening to BOOKING_CREATED
(the police filings) hears the new bookings; the imported fields do not count as the host's
(`by_host=False`).
"""

from __future__ import annotations

import datetime as dt
import hashlib
import json
import time
from dataclasses import dataclass, field
from decimal import Decimal

from rentalcomply.bookings import batch as batch_bookings
from rentalcomply.bookings import service as bookings
from rentalcomply.bookings.fees import FeeRates
from rentalcomply.core import clock, sealing
from rentalcomply.core.db import atomic, db, one_writer_at_a_time
from rentalcomply.core.errors import (ApiError, ExportTooLarge, ExportUnreadable, ImportPlanChanged,
                                      NotFound)
from rentalcomply.core.ids import new_id
from rentalcomply.imports import listings as listing_names
from rentalcomply.imports.channels import read_export
from rentalcomply.imports.files import Limits, TooLarge, UnreadableFile, read_sheet, spoken
from rentalcomply.imports.models import ImportPreview
from rentalcomply.imports.planning import Outcome, plan_rows

ACTIONS = ("created", "updated", "unchanged", "conflict")
# The API's limit of every request body (the server refuses more before reading it), for the
# CLI and the dashboard too: several years of a small agency's reservations.
MAX_FILE_BYTES = 1024 * 1024


# Raised here, declared with the other API errors so that the API documents their codes.
PlanChanged = ImportPlanChanged
# On SQLite, a batch of the apply holds the write lock about this long (its size follows the pace of the
# one before), then the import waits as long again before the next: another writer, polling
# the lock every few to 100 ms (SQLite's busy handler), finds it free within a batch or two.
BATCH_SECONDS = 0.05
FIRST_BATCH_ROWS, MAX_BATCH_ROWS = 20, 500


@dataclass
class ImportReport:
    channel: str
    kind: str
    dry_run: bool
    file_sha256: str
    rows: list[Outcome]
    notes: list[tuple[str, dict]] = field(default_factory=list)  # (English template, values)
    # The file's listings that are no property yet: [{"listing", "rows"}], to be answered.
    unknown_listings: list[dict] = field(default_factory=list)

    @property
    def totals(self) -> dict[str, int]:
        return {action: sum(1 for row in self.rows if row.action == action) for action in ACTIONS}

    @property
    def plan_digest(self) -> str:
        """What the plan does, as a digest: equal digests, equal changes."""
        canonical = json.dumps([row.view() for row in self.rows], sort_keys=True, default=str)
        return hashlib.sha256((self.file_sha256 + canonical).encode()).hexdigest()

    def view(self) -> dict:
        return {"channel": self.channel, "file_kind": self.kind, "dry_run": self.dry_run,
                "file_sha256": self.file_sha256, "plan_digest": self.plan_digest,
                "totals": self.totals, "notes": [spoken(*note) for note in self.notes],
                "unknown_listings": self.unknown_listings,
                "rows": [row.view() for row in self.rows]}


def import_export(account_id: str, content: bytes, *, rates: FeeRates,
                  property_id: str | None = None, dry_run: bool = False,
                  expected_plan: str | None = None,
                  listing_map: dict[str, str] | None = None,
                  limits: Limits | None = None) -> ImportReport:
    """Import the file's reservations into the account's bookings (see planning.py for what is
    matched and filled, listings.py for which property each listing is; `listing_map`, listing
    title -> property id, answers the unknown ones and is remembered on applying). Raises
    ExportUnreadable naming the row and column, ExportTooLarge naming the limit (`limits`:
    Limits.from_settings(settings)), NotFound for a property of another account, PlanChanged
    when `expected_plan` is not this plan's digest.

    Must be called outside any transaction: it commits its own batches."""
    try:
        export = read_export(read_sheet(content, limits))
    except TooLarge as problem:
        refusal = ExportTooLarge(str(problem), details=[{"field": problem.setting,
                                                         "message": str(problem)}])
        refusal.spoken = (problem.template, problem.values)
        raise refusal from None
    except UnreadableFile as problem:
        refusal = ExportUnreadable(str(problem))
        refusal.spoken = (problem.template, problem.values)  # for the dashboard's languages
        raise refusal from None
    sha256 = hashlib.sha256(content).hexdigest()
    listings = listing_names.resolve(account_id, export, listing_map, property_id)
    report = ImportReport(export.channel, export.kind, dry_run, sha256,
                          plan_rows(account_id, export, listings), export.notes,
                          listings.view())
    if expected_plan is not None and expected_plan != report.plan_digest:
        raise PlanChanged()
    if not dry_run:
        with atomic():
            listing_names.remember(account_id, export.channel, listings)
        _apply_in_batches(account_id, report.rows, rates)
    return report


def _apply_in_batches(account_id: str, outcomes: list[Outcome], rates: FeeRates) -> None:
    pending = [outcome for outcome in outcomes if outcome.create is not None or outcome.changes]
    paced = one_writer_at_a_time()
    size = FIRST_BATCH_ROWS if paced else MAX_BATCH_ROWS
    while pending:
        batch, pending = pending[:size], pending[size:]
        started = time.monotonic()
        with atomic():
            _apply_batch(account_id, batch, rates)
        took = time.monotonic() - started
        if not paced:
            continue
        # The next batch as large as fits in BATCH_SECONDS at this pace.
        size = max(1, min(MAX_BATCH_ROWS, int(len(batch) * BATCH_SECONDS / max(took, 1e-3))))
        if pending and not db.in_transaction():  # inside a caller's, a pause frees nothing
            time.sleep(took)


def _apply_batch(account_id: str, batch: list[Outcome], rates: FeeRates) -> None:
    creations = [outcome for outcome in batch if outcome.create is not None]
    items = []
    for outcome in creations:
        values = dict(outcome.create)
        price = values.pop("total_price_cents", None)
        items.append({**values, "total_price": None if price is None else Decimal(price) / 100})
    for outcome, made in zip(creations, batch_bookings.create_channel_bookings(account_id, items,
                                                                        rates=rates)):
        if isinstance(made, ApiError):
            _not_applied(outcome, made)
        else:
            outcome.booking_id = made.id
    for outcome in batch:
        if outcome.create is None and outcome.changes:
            changes = {name: after for name, (_, after) in outcome.changes.items()}
            if "total_price_cents" in changes:
                changes["total_price"] = Decimal(changes.pop("total_price_cents")) / 100
            try:  # its own savepoint: a refusal undoes this row alone
                bookings.update_booking(account_id, outcome.booking_id, rates=rates,
                                        by_host=False, **changes)
            except ApiError as refusal:
                _not_applied(outcome, refusal)


def _not_applied(outcome: Outcome, refusal: ApiError) -> None:
    """The bookings changed since the plan (a sync, the host): what bookings.service said."""
    outcome.action = "conflict"
    outcome.create, outcome.changes = None, {}
    outcome.say("not applied, the bookings changed meanwhile: {reason}", reason=refusal.message)


# --- a previewed file, kept for its apply (the dashboard) ---------------------------------------

PREVIEW_KEPT = dt.timedelta(days=1)


def keep_previewed(account_id: str, user_id: str, content: bytes) -> str:
    """Keep the previewed file sealed for its account and user; its id goes in the Apply form.
    Previews older than a day are dropped here."""
    now = clock.utcnow()
    ImportPreview.delete().where(ImportPreview.created_at < now - PREVIEW_KEPT).execute()
    preview_id = new_id("imp")
    ImportPreview.create(id=preview_id, account=account_id, user_id=user_id, created_at=now,
                         sealed_file=sealing.seal(_preview_purpose(account_id, preview_id),
                                                  content))
    return preview_id


def previewed_file(account_id: str, user_id: str, preview_id: str) -> bytes:
    """The file of a preview of this account and user; NotFound once applied or expired."""
    preview = ImportPreview.get_or_none(
        (ImportPreview.id == preview_id) & (ImportPreview.account == account_id)
        & (ImportPreview.user_id == user_id)
        & (ImportPreview.created_at >= clock.utcnow() - PREVIEW_KEPT))
    if preview is None:
        raise NotFound("This preview has expired or was applied already: upload the file again.")
    return sealing.unseal(_preview_purpose(account_id, preview_id), preview.sealed_file)


def forget_previewed(account_id: str, preview_id: str) -> None:
    ImportPreview.delete().where((ImportPreview.id == preview_id)
                                 & (ImportPreview.account == account_id)).execute()


def _preview_purpose(account_id: str, preview_id: str) -> str:
    return f"import-preview:{account_id}:{preview_id}"
