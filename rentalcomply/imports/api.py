"""`POST /imports`: a channel's reservations export as the request body; parse, call, shape."""

from __future__ import annotations

from rentalcomply.bookings.fees import FeeRates
from rentalcomply.core.errors import ExportTooLarge, NotFound
from rentalcomply.imports.files import Limits
from rentalcomply.imports.planning import FIELD_WORDS
from rentalcomply.imports.service import ACTIONS, ExportUnreadable, PlanChanged, import_export
from rentalcomply.web import openapi
from rentalcomply.web.openapi import ref
from rentalcomply.web.routing import Reply
from rentalcomply.web.validation import Field

TAGS = ["imports"]
FILE_TYPES = ("text/csv", "application/vnd.ms-excel",
              "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet",
              "application/octet-stream")
DATE_OR_NULL = {"type": ["string", "null"], "format": "date"}

openapi.schema("ImportRow", {
    "type": "object",
    "required": ["row", "code", "action", "reason", "booking_id", "property_id", "guest_name",
                 "arrival_date", "departure_date", "changes"],
    "additionalProperties": False,
    "properties": {
        "row": {"type": "integer", "minimum": 2, "description": "Row in the file (1 is the header)."},
        "code": {"type": "string", "description": "The reservation's confirmation code "
                                                  "(Airbnb) or number (Booking.com)."},
        "action": {"type": "string", "enum": list(ACTIONS)},
        "reason": {"type": "string", "description": "Why, in a host's words: what was filled, "
                                                    "or what stays as it is and why."},
        "booking_id": {"type": ["string", "null"],
                       "description": "The booking matched or created (null in a dry run's "
                                      "created rows)."},
        "property_id": {"type": ["string", "null"]},
        "guest_name": {"type": ["string", "null"]},
        "arrival_date": DATE_OR_NULL,
        "departure_date": DATE_OR_NULL,
        "changes": {"type": "object",
                    "description": "Each field written, as [before, after]: "
                                   + ", ".join(sorted(FIELD_WORDS)) + ", adults, children, "
                                   "infants, currency.",
                    "additionalProperties": {
                        "type": "array", "minItems": 2, "maxItems": 2,
                        "items": {"type": ["string", "integer", "null"]}}},
    },
})

openapi.schema("ImportReport", {
    "type": "object",
    "required": ["channel", "file_kind", "dry_run", "file_sha256", "plan_digest", "totals",
                 "notes", "rows"],
    "additionalProperties": False,
    "properties": {
        "channel": {"type": "string", "enum": ["airbnb", "booking"]},
        "file_kind": {"type": "string", "enum": ["csv", "xls", "xlsx"],
                      "description": "What the content was read as (never the name)."},
        "dry_run": {"type": "boolean"},
        "file_sha256": {"type": "string", "pattern": "^[0-9a-f]{64}$"},
        "plan_digest": {"type": "string", "pattern": "^[0-9a-f]{64}$",
                        "description": "Send it back as `plan` to apply a dry run exactly: the "
                                       "import is refused (409) if it would now do otherwise."},
        "totals": {"type": "object", "additionalProperties": False, "required": list(ACTIONS),
                   "properties": {action: {"type": "integer", "minimum": 0}
                                  for action in ACTIONS}},
        "notes": {"type": "array", "items": {"type": "string"}},
        "rows": {"type": "array", "items": ref("ImportRow")},
    },
})


def register(api) -> None:
    @api.post("/imports", scope="write", tags=TAGS,
              summary="Import a channel's reservations export",
              description="The body is the file as downloaded: Airbnb's reservations CSV "
                          "(Reservations > Export) or Booking.com's reservations download (the "
                          "extranet's .xls, or the same saved as CSV or XLSX), told apart by "
                          "content and column headers (English, Spanish, Italian, French, "
                          "Croatian). Rows match the account's bookings by confirmation code, "
                          "else by property and dates; they fill the guest's name, adults, "
                          "children, infants, the price in euros and the code, and create the "
                          "bookings the calendar feeds have not brought. What the host typed "
                          "is never overwritten: such a row is a `conflict`, with the reason. "
                          "`dry_run=true` changes nothing. A file that cannot be read is "
                          "refused (422 EXPORT_UNREADABLE) naming the row and column, with "
                          "nothing changed; one beyond the import limits (rows, columns, "
                          "cells, unpacked size: settings [imports]) is refused (422 "
                          "EXPORT_TOO_LARGE, `details` naming the setting). At most 1 MiB, as "
                          "every request body (413): export fewer months at a time. The file "
                          "is read and planned with no transaction open and applied in short "
                          "batches, so other writes go on meanwhile; a row the bookings refuse "
                          "when applied (changed meanwhile) is a `conflict` saying why.",
              query={"dry_run": Field("boolean", default=False,
                                      description="Only say what the import would do."),
                     "property_id": Field("string", max_length=64,
                                          description="The property of rows whose listing or "
                                                      "unit is no property's name (not needed "
                                                      "with one property)."),
                     "plan": Field("string", pattern=r"^[0-9a-f]{64}$",
                                   description="A dry run's `plan_digest`: apply only if the "
                                               "import still does exactly that.")},
              response="ImportReport", file_types=FILE_TYPES, transaction=False,
              errors=[ExportUnreadable, ExportTooLarge, PlanChanged, NotFound])
    def import_reservations(ctx):
        report = import_export(ctx.account_id, ctx.raw_body,
                               rates=FeeRates.from_settings(ctx.settings),
                               property_id=ctx.query.get("property_id"),
                               dry_run=ctx.query["dry_run"], expected_plan=ctx.query.get("plan"),
                               limits=Limits.from_settings(ctx.settings))
        return Reply(report.view())
