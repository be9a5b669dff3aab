"""Importing a channel's reservations export: read, plan, and (unless a dry run) apply.

Everything of one file is applied in one transaction: a file that cannot be read changes
nothing, and neither does one whose applying fails. A dry run only plans. The plan's digest
lets a preview be applied exactly as shown: the dashboard sends it back with the (sealed)
file, and an apply whose plan came out different is refused (see PlanChanged).

Bookings are created and changed through bookings.service, so that `booking.created` and
`booking.updated` go out and everything listening to BOOKING_CREATED (the police filings) hears
the new bookings; the imported fields do not count as the host's (`by_host=False`).
"""

from __future__ import annotations

import hashlib
import json
from dataclasses import dataclass, field
from decimal import Decimal

from rentalcomply.bookings import service as bookings
from rentalcomply.bookings.fees import FeeRates
from rentalcomply.core.db import atomic
from rentalcomply.core.errors import ExportUnreadable, ImportPlanChanged, NotFound
from rentalcomply.core.models import Property
from rentalcomply.imports.channels import read_export
from rentalcomply.imports.files import UnreadableFile, read_sheet
from rentalcomply.imports.planning import Outcome, plan_rows

ACTIONS = ("created", "updated", "unchanged", "conflict")


# Raised here, declared with the other API errors so that the API documents their codes.
PlanChanged = ImportPlanChanged


@dataclass
class ImportReport:
    channel: str
    kind: str
    dry_run: bool
    file_sha256: str
    rows: list[Outcome]
    notes: list[str] = field(default_factory=list)

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
                "totals": self.totals, "notes": list(self.notes),
                "rows": [row.view() for row in self.rows]}


def import_export(account_id: str, content: bytes, *, rates: FeeRates,
                  property_id: str | None = None, dry_run: bool = False,
                  expected_plan: str | None = None) -> ImportReport:
    """Import the file's reservations into the account's bookings (see planning.py for what is
    matched and filled). Raises ExportUnreadable naming the row and column, NotFound for a
    property of another account, PlanChanged when `expected_plan` is not this plan's digest."""
    try:
        export = read_export(read_sheet(content))
    except UnreadableFile as problem:
        raise ExportUnreadable(str(problem)) from None
    sha256 = hashlib.sha256(content).hexdigest()
    with atomic():
        chosen = None
        if property_id is not None:
            chosen = Property.get_or_none((Property.id == property_id)
                                          & (Property.account == account_id))
            if chosen is None:
                raise NotFound("No such property.")
        report = ImportReport(export.channel, export.kind, dry_run, sha256,
                              plan_rows(account_id, export, chosen), export.notes)
        if expected_plan is not None and expected_plan != report.plan_digest:
            raise PlanChanged()
        if not dry_run:
            for outcome in report.rows:
                _apply(account_id, outcome, rates)
    return report


def _apply(account_id: str, outcome: Outcome, rates: FeeRates) -> None:
    if outcome.create is not None:
        values = dict(outcome.create)
        price = values.pop("total_price_cents", None)
        booking = bookings.create_booking(
            account_id, rates=rates, total_price=None if price is None else Decimal(price) / 100,
            **values)
        outcome.booking_id = booking.id
    elif outcome.changes:
        changes = {name: after for name, (_, after) in outcome.changes.items()}
        if "total_price_cents" in changes:
            changes["total_price"] = Decimal(changes.pop("total_price_cents")) / 100
        bookings.update_booking(account_id, outcome.booking_id, rates=rates, by_host=False,
                                **changes)
